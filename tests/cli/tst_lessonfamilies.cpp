// A lesson's figure on a 14-pt slide draws every family its text names, for the lesson's own model
// and every shipped preset it applies to, as posenc export --lesson NAME --preset P --size slide
// --font-size 14 builds it. The families lesson's slide held six of its eight panels while its text
// went through all eight, DeBERTa's and Sandwich's among those left out.
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"

#include "render/data/FamiliesModel.h"
#include "render/data/FamilyPanel.h"
#include "support/FigureBuilds.h"

#include <QCommandLineParser>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

class TestLessonFamilies : public QObject
{
    Q_OBJECT

private slots:
    void aSlideDrawsTheFamiliesItsTextNames_data();
    void aSlideDrawsTheFamiliesItsTextNames();
};

void TestLessonFamilies::aSlideDrawsTheFamiliesItsTextNames_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QStringList>("arguments");
    for (const Lesson &lesson : Lessons::all()) {
        const auto main = lesson.view().figure(lesson.mainView);
        if (!main || main->name != u"families"_s)
            continue;
        QTest::newRow(qPrintable(lesson.name)) << lesson.name << QStringList();
        for (const QString &preset : Presets::names())
            QTest::newRow(qPrintable(lesson.name + u" "_s + preset))
                << lesson.name << QStringList {u"--preset"_s, preset};
    }
}

void TestLessonFamilies::aSlideDrawsTheFamiliesItsTextNames()
{
    QFETCH(QString, lesson);
    QFETCH(QStringList, arguments);
    const Lesson &read = *Lessons::find(lesson);
    QCommandLineParser parser;
    ParamOptions::add(parser);
    QVERIFY(parser.parse(QStringList {u"posenc"_s} + arguments));
    const LessonOptions::Read options = LessonOptions::read(parser, read);
    if (options.result.exitCode() != 0)
        QSKIP("the lesson does not apply to this model");
    const LessonModel &model = options.model;
    const QString text = LessonText::plain(read.explain(model).html);
    const auto main = read.view(model.configName).figure(read.mainView);
    QVERIFY(main);
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    FigureStyle style;
    style.fontPointSize = 14.0;
    const auto built = FigureBuilds::build(main->name, model.params, slide, FigureState::fromJson(main->state), style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList drawn;
    for (const QCPAxisRect *rect : FigureBuild::plotRects(*built->plot()))
        drawn.append(rect->axis(QCPAxis::atLeft)->label());
    for (const FamilySpec *family : FamiliesModel::panelFamilies()) {
        const FamilyPanel *panel = FamilyPanels::of(family->encoding);
        const QRegularExpression named(u"(^|[^\\w-])"_s + QRegularExpression::escape(panel->terseLabel) + u"\\b"_s);
        if (!named.match(text).hasMatch())
            continue;
        QVERIFY2(drawn.contains(panel->label) || drawn.contains(panel->terseLabel),
                 qPrintable(u"the text names %1, the slide draws %2: %3"_s.arg(panel->terseLabel,
                                                                                drawn.join(u", "_s), text)));
    }
}

QTEST_MAIN(TestLessonFamilies)
#include "tst_lessonfamilies.moc"
