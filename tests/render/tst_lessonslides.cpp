// Every shipped lesson's main figure as a lecture slide: 16:9, 25.4 x 14.29 cm at 14 pt, built as
// `posenc export --lesson NAME --size 25.4x14.29cm --font-size 14` builds it. It must be built
// (no size refusal), and each of its plots must keep a quarter of its share of the slide: the
// slide's area over its plots, measured here from the laid-out axis rects (colour scales aside).
#include "io/Lesson.h"

#include "support/FigureBuilds.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

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
    FigureStyle style;
    style.fontPointSize = 14.0;
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    const auto built = FigureBuilds::build(lesson.mainFigure(), std::get<Params>(params), slide,
                                           FigureState::fromJson(lesson.viewJson(lesson.mainView)), style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QCustomPlot &plot = *built->plot();
    const QRect viewport = plot.viewport();
    QList<const QCPAxisRect *> plots;
    for (const QCPAxisRect *rect : plot.axisRects())
        if (rect->realVisibility() && !dynamic_cast<const QCPColorScaleAxisRectPrivate *>(rect))
            plots.append(rect);
    QVERIFY(!plots.isEmpty());
    const double share = double(viewport.width()) * viewport.height() / plots.size();
    for (const QCPAxisRect *rect : plots) {
        const double part = double(rect->width()) * rect->height() / share;
        QVERIFY2(part >= 0.25,
                 qPrintable(u"a plot of %1 x %2 units: %3 of its share"_s.arg(rect->width())
                                .arg(rect->height())
                                .arg(part, 0, 'f', 2)));
    }
    // The slide keeps every text of the figure: FigureFit wraps, it never drops.
    QVERIFY(!FigureBuilds::texts(plot).join(QString()).isEmpty());
}

QTEST_MAIN(TestLessonSlides)
#include "tst_lessonslides.moc"
