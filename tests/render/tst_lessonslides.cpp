// Every shipped lesson's main figure as a lecture slide: 16:9, 25.4 x 14.29 cm at 14 pt, built as
// `posenc export --lesson NAME --size 25.4x14.29cm --font-size 14` builds it. It must be built
// (no size refusal), and each plot it shows (axis rects, colour scales aside) must keep at least a
// quarter of the area it has in the same slide with its text at 4 pt: the part of the slide the
// text takes from a plot, whatever the plot's shape by design. And every x axis's label drawn,
// centred on its axis, keeps a quarter of a line of its font clear of the slide's left and right
// edges: the families slide's offset label under its right panel ran to the right edge.
#include "io/Lesson.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"
#include "support/SlideAreas.h"

#include <QFontMetricsF>
#include <QTest>

namespace tst_lessonslides {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestLessonSlides : public QObject
{
    Q_OBJECT

private slots:
    void everyLessonMakesASlide_data();
    void everyLessonMakesASlide();
    void axisLabelsClearOfTheEdges_data() { everyLessonMakesASlide_data(); }
    void axisLabelsClearOfTheEdges();
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
        areas.append(SlideAreas::of(*built->plot()));
    }
    SlideAreas::compare(lesson.mainFigure(), areas[0], areas[1], lesson.name);
}

void TestLessonSlides::axisLabelsClearOfTheEdges()
{
    QFETCH(int, index);
    const Lesson &lesson = Lessons::all()[index];
    const auto params = lesson.params();
    QVERIFY(std::holds_alternative<Params>(params));
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    const auto main = lesson.view().figure(lesson.mainView);
    const FigureState state = main ? FigureState::fromJson(main->state) : FigureState {};
    FigureStyle style;
    style.fontPointSize = 14.0;
    const auto built = FigureBuilds::build(lesson.mainFigure(), std::get<Params>(params), slide, state, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QCustomPlot &plot = *built->plot();
    const QRectF page = plot.viewport();
    QStringList near;
    for (QCPAxisRect *rect : plot.axisRects()) {
        if (!rect->realVisibility() || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atTop)}) {
            if (!axis || !axis->visible() || axis->label().isEmpty())
                continue;
            // QCustomPlot draws the label's lines centred on the axis.
            const QFontMetricsF metrics(axis->labelFont());
            const double clear = metrics.height() / 4.0;
            const double centre = QRectF(rect->rect()).center().x();
            for (const QString &line : axis->label().split(u'\n')) {
                const double half = metrics.horizontalAdvance(line) / 2.0;
                const double by = std::min(centre - half - page.left(), page.right() - centre - half);
                if (by < clear - 1.0)
                    near.append(u"'%1' %2 from the edge"_s.arg(line).arg(by, 0, 'f', 1));
            }
        }
    }
    QVERIFY2(near.isEmpty(), qPrintable(near.join(u"; "_s)));
}

POSENC_TEST_MAIN(TestLessonSlides)
} // namespace tst_lessonslides
#include "tst_lessonslides.moc"
