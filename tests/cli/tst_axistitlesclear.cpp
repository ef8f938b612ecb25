// No axis's title over a tick label of its panel (issue 58's acceptance: "axis titles drawn over
// the last tick numbers"), nor two axes' tick labels on each other at a panel's corner, at any size (docs/ARCHITECTURE.md, Figures at any size): every figure
// of the registry, and every figure of every lesson's page read for its own model and the models
// of issue 58's look, with the lesson's state and kept panels, at a 14-pt slide, a paper's column,
// 6 x 4 cm and a window's 1200 x 800 pixels. Read back from the SVG as a reader sees the page: the
// ink of each text (SvgTexts), an axis's title (its label as drawn, QCustomPlot's own or one a
// room step set along the axis's tick labels, FigureRoom::shownLabel; a colour bar's too) told from
// a tick label by its words. tst_figuresizes and tst_lessonslidetexts weigh every pair of texts
// with half a unit of slack each way; a title set down on its tick labels' row meets them
// by less, so here the inks meet at all or not.
#include "../render/FigureDefaults.h"
#include "cli/LessonOptions.h"
#include "cli/LessonPage.h"
#include "cli/ParamOptions.h"
#include "render/AxesInOrder.h"
#include "render/FigureFile.h"
#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"
#include "support/FigureBuilds.h"
#include "support/SvgTexts.h"
#include "support/TestMain.h"

#include <QCommandLineParser>
#include <QHash>
#include <QTest>

#include <optional>

namespace tst_axistitlesclear {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The sizes of the acceptance: a slide at 14 pt, a column and 6 x 4 cm at 9 pt, and a window.
const QList<std::pair<QString, double>> &sizes()
{
    static const QList<std::pair<QString, double>> list {
        {u"slide"_s, 14.0}, {u"column"_s, 9.0}, {u"6x4cm"_s, 9.0}, {u"window"_s, 9.0}};
    return list;
}

FigureSize pageOf(const QString &size)
{
    if (size == u"window"_s)
        return FigureSize::fromPixels(QSize(1200, 800));
    return FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(size)), 150.0);
}

// The axes of the plot drawn with their tick labels or a title: the panels' and the colour bars'.
QList<const QCPAxis *> drawnAxes(const QCustomPlot &plot)
{
    QList<const QCPAxis *> axes;
    for (QCPAxisRect *rect : plot.axisRects())
        if (rect->realVisibility() && !FigureRoom::Changes::isHidden(rect))
            for (QCPAxis *axis : axesInOrder(*rect))
                if (axis->visible())
                    axes.append(axis);
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element); scale && scale->realVisibility())
            axes.append(scale->axis());
    return axes;
}

// Each axis title's ink that meets a tick label's, and each tick label's ink that meets one of an
// axis across it (a panel's y axis's first number on its x axis's at their corner), one line each:
// the built figure written as SVG and read back. A text is a tick label where it reads as one of
// an axis's, else a title's where it is a title's line or a run of one (a run of glyphs another
// font draws: "θ" of "cos(p·θᵢ)"). Two tick labels are of axes across each other where one reads
// as an axis's across and the other as one's up the side.
QStringList titlesOverTicks(const FigureBuild &built, const FigureStyle &style)
{
    QHash<QString, int> ticks; // a tick label, and the orientations of the axes it reads as one of
    QStringList titles;
    for (const QCPAxis *axis : drawnAxes(*built.plot())) {
        if (axis->tickLabels())
            for (const QString &label : axis->tickVectorLabels())
                if (!label.trimmed().isEmpty())
                    ticks[label] |= axis->orientation();
        for (const QString &line : FigureRoom::shownLabel(axis).split(u'\n'))
            if (!line.trimmed().isEmpty())
                titles.append(line);
    }
    const SvgTexts::Page svg = SvgTexts::read(FigureFile::encode(built, FigureFormat::Svg, style));
    if (!svg.error.isEmpty())
        return {svg.error};
    QList<const SvgTexts::Text *> tickTexts, titleTexts;
    for (const SvgTexts::Text &text : svg.texts) {
        if (ticks.contains(text.text))
            tickTexts.append(&text);
        else if (std::any_of(titles.begin(), titles.end(), [&](const QString &t) { return t.contains(text.text); }))
            titleTexts.append(&text);
    }
    QStringList problems;
    for (const SvgTexts::Text *title : std::as_const(titleTexts))
        for (const SvgTexts::Text *tick : std::as_const(tickTexts))
            if (SvgTexts::overlap(title->box, tick->box, 0.0))
                problems.append(u"the title '%1' over the tick label '%2'"_s.arg(title->text, tick->text));
    for (qsizetype i = 0; i < tickTexts.size(); ++i)
        for (qsizetype j = i + 1; j < tickTexts.size(); ++j) {
            const int a = ticks.value(tickTexts[i]->text), b = ticks.value(tickTexts[j]->text);
            const bool across = ((a & Qt::Horizontal) && (b & Qt::Vertical)) || ((a & Qt::Vertical) && (b & Qt::Horizontal));
            if (across && SvgTexts::overlap(tickTexts[i]->box, tickTexts[j]->box, 0.0))
                problems.append(u"the tick label '%1' on the tick label '%2'"_s.arg(tickTexts[i]->text, tickTexts[j]->text));
        }
    return problems;
}

// `lesson` read with `arguments` (after "posenc") as posenc export --lesson reads them.
std::optional<LessonOptions::Read> readLesson(const Lesson &lesson, const QStringList &arguments)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    if (!parser.parse(QStringList {u"posenc"_s} + arguments))
        return std::nullopt;
    return LessonOptions::read(parser, lesson);
}

// The models issue 58 looked at each lesson for where its titles met their numbers, beside its own.
QStringList modelsOf(const QString &lesson)
{
    if (lesson == u"dropout-on-sum"_s)
        return {QString(), u"mae-vit-b-16"_s};
    if (lesson == u"many-layers"_s)
        return {QString(), u"modernbert-base"_s};
    if (lesson == u"rope-decay"_s || lesson == u"rope-relative"_s)
        return {QString(), u"llama-4-scout"_s};
    // A model whose distances are its columns' (T5 reads no ids): the colour bar of "q − k" ran to
    // ±8 where Llama's ran to ±3.
    if (lesson == u"packing"_s)
        return {QString(), u"t5-base"_s, u"qwen2-5-7b"_s};
    return {QString()};
}

} // namespace

class TestAxisTitlesClear : public QObject
{
    Q_OBJECT

private slots:
    void everyFigure_data();
    void everyFigure();
    void everyLessonsFigures_data();
    void everyLessonsFigures();
};

void TestAxisTitlesClear::everyFigure_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("size");
    QTest::addColumn<double>("points");
    for (const QString &name : FigureRegistry::names())
        for (const auto &[size, points] : sizes())
            QTest::addRow("%s %s", qPrintable(name), qPrintable(size)) << name << size << points;
}

void TestAxisTitlesClear::everyFigure()
{
    QFETCH(QString, figure);
    QFETCH(QString, size);
    QFETCH(double, points);
    FigureStyle style;
    style.fontPointSize = points;
    const Params params = FigureBuilds::defaultParams(FigureBuilds::figure(figure));
    const auto built = FigureBuilds::build(figure, params, pageOf(size), {}, style);
    if (built->error())
        QSKIP("refused at this size (tst_figuresizes says which may be)");
    const QStringList problems = titlesOverTicks(*built, style);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
}

void TestAxisTitlesClear::everyLessonsFigures_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("size");
    QTest::addColumn<double>("points");
    for (const Lesson &lesson : Lessons::all())
        for (const QString &preset : modelsOf(lesson.name))
            for (const auto &[size, points] : sizes())
                QTest::addRow("%s %s %s", qPrintable(lesson.name), preset.isEmpty() ? "default" : qPrintable(preset),
                              qPrintable(size))
                    << lesson.name << preset << size << points;
}

void TestAxisTitlesClear::everyLessonsFigures()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QFETCH(QString, size);
    QFETCH(double, points);
    const Lesson &read = *Lessons::find(lesson);
    const auto parsed = readLesson(read, preset.isEmpty() ? QStringList() : QStringList {u"--preset"_s, preset});
    QVERIFY(parsed);
    if (parsed->result.exitCode() != 0)
        QSKIP("the lesson does not apply to this model");
    const LessonModel &model = parsed->model;
    FigureStyle base;
    base.fontPointSize = points;
    QStringList problems;
    for (const QString &name : read.slideFigures(model)) {
        const FigureDescriptor *figure = FigureRegistry::find(name);
        QVERIFY(figure);
        if (!FigureRegistry::check(*figure, model.params, {}).isEmpty())
            continue; // drawn for other families only: the slide leaves it out
        const FigureStyle style = LessonPage::styleOf(read, model, *figure, base);
        const FigureState state = LessonPage::state(read, name, model.configName, model.params);
        const auto built = FigureBuilds::build(name, model.params, pageOf(size), state, style);
        if (built->error())
            continue;
        for (const QString &problem : titlesOverTicks(*built, style))
            problems.append(name + u": "_s + problem);
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
}

POSENC_TEST_MAIN(TestAxisTitlesClear)
} // namespace tst_axistitlesclear
#include "tst_axistitlesclear.moc"
