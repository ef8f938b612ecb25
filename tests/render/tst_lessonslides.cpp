// Every shipped lesson's main figure as a lecture slide: 16:9, 25.4 x 14.29 cm at 14 pt, built as
// `posenc export --lesson NAME --size 25.4x14.29cm --font-size 14` builds it. It must be built
// (no size refusal), and each plot it shows (axis rects, colour scales aside) must keep at least a
// quarter of the area it has in the same slide with its text at 4 pt: the part of the slide the
// text takes from a plot, whatever the plot's shape by design.
#include "io/Lesson.h"

#include "support/FigureBuilds.h"
#include "support/SlideAreas.h"

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

QTEST_MAIN(TestLessonSlides)
#include "tst_lessonslides.moc"
