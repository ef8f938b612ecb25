// Every shipped lesson's main figure as a lecture slide: 16:9, 25.4 x 14.29 cm at 14 pt, built as
// `posenc export --lesson NAME --size 25.4x14.29cm --font-size 14` builds it. It must be built
// (no size refusal), and each plot it shows (axis rects, colour scales aside) must keep at least a
// quarter of the area it has in the same slide with its text at 4 pt: the part of the slide the
// text takes from a plot, whatever the plot's shape by design.
#include "io/Lesson.h"

#include "support/FigureBuilds.h"

#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The areas of the figure's plots, in layout order; 0 for a panel given up on little room
// (FigureRoom::setDispensable), which the larger text may give up where the smaller does not.
QList<double> plotAreas(const QCustomPlot &plot)
{
    QList<double> areas;
    for (const QCPAxisRect *rect : plot.axisRects())
        if (!dynamic_cast<const QCPColorScaleAxisRectPrivate *>(rect))
            areas.append(rect->realVisibility() ? double(rect->width()) * rect->height() : 0.0);
    return areas;
}

} // namespace

class TestLessonSlides : public QObject
{
    Q_OBJECT

private slots:
    void everyLessonMakesASlide_data();
    void everyLessonMakesASlide();
};

void TestLessonSlides::everyLessonMakesASlide_data()
{
    QTest::addColumn<int>("index");
    const QList<Lesson> &lessons = Lessons::all();
    QVERIFY(lessons.size() >= 8);
    for (int i = 0; i < lessons.size(); ++i)
        QTest::newRow(qPrintable(lessons[i].name)) << i;
}

void TestLessonSlides::everyLessonMakesASlide()
{
    QFETCH(int, index);
    const Lesson &lesson = Lessons::all()[index];
    const auto params = lesson.params();
    QVERIFY(std::holds_alternative<Params>(params));
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    const auto main = lesson.view().figure(lesson.mainView);
    const FigureState state = main ? FigureState::fromJson(main->state) : FigureState {};
    QList<QList<double>> areas;
    for (const double points : {14.0, 4.0}) {
        FigureStyle style;
        style.fontPointSize = points;
        const auto built = FigureBuilds::build(lesson.mainFigure(), std::get<Params>(params), slide, state, style);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        areas.append(plotAreas(*built->plot()));
    }
    // A crowded slide may draw fewer panels, the first of the list (the families figure's six of
    // seven): each is compared with itself at 4 pt.
    QVERIFY2(areas[0].size() <= areas[1].size() && areas[0].size() >= std::min<qsizetype>(areas[1].size(), 6),
             qPrintable(u"%1 plots at 14 pt, %2 at 4 pt"_s.arg(areas[0].size()).arg(areas[1].size())));
    QVERIFY(std::any_of(areas[0].begin(), areas[0].end(), [](double area) { return area > 0.0; }));
    for (qsizetype i = 0; i < areas[0].size(); ++i) {
        if (areas[0][i] == 0.0)
            continue;
        const double part = areas[0][i] / areas[1][i];
        QVERIFY2(part >= 0.25, qPrintable(u"plot %1: %2 of its area at 4 pt"_s.arg(i).arg(part, 0, 'f', 2)));
    }
}

QTEST_MAIN(TestLessonSlides)
#include "tst_lessonslides.moc"
