#include "ExportCommand.h"

#include "ConfigOptions.h"
#include "ExitCode.h"
#include "HelpText.h"
#include "Interrupt.h"
#include "LessonOptions.h"
#include "LessonPage.h"
#include "OutputFile.h"
#include "ParamOptions.h"
#include "ProgressLine.h"

#include "core/FamilyInference.h"
#include "core/OneLine.h"
#include "core/ParamError.h"
#include "core/Quantity.h"
#include "io/Preset.h"
#include "render/FigureBuild.h"
#include "render/FigureExporter.h"
#include "render/FigureFile.h"
#include "render/FigurePage.h"
#include "render/FigureRegistry.h"
#include "render/FigureSize.h"
#include "render/data/models/ConfigSource.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cmath>
#include <memory>
#include <variant>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using FigureFile::kMaxSide;
constexpr int kDefaultWidth = 1200;
constexpr int kDefaultHeight = 800;
constexpr double kDefaultDpi = 300.0;
// A title longer than this cannot fit any figure at a legible size.
constexpr int kMaxTitleCharacters = 300;

std::optional<FigureFormat> formatNamed(const QString &name)
{
    for (const FigureFormat format : {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf})
        if (FigureExporter::extension(format) == name.toLower())
            return format;
    return std::nullopt;
}

// Every option some figure takes, once, with the figures that take it.
struct OptionUse
{
    FigureOption option;
    QStringList figures;
};

QList<OptionUse> figureOptions()
{
    QList<OptionUse> uses;
    for (const FigureDescriptor *figure : FigureRegistry::all()) {
        for (const FigureOption &option : figure->model().options()) {
            // The model figures' "config" is the parameters' --config (ConfigOptions), which sets it.
            if (option.key == QString::fromUtf16(ConfigOptions::kKey))
                continue;
            auto found = std::find_if(uses.begin(), uses.end(),
                                      [&](const OptionUse &use) { return use.option.key == option.key; });
            if (found == uses.end())
                uses.append({option, {figure->name()}});
            else
                found->figures.append(figure->name());
        }
    }
    return uses;
}

// The command's own options; the figures' follow them.
QList<CommandOption> exportOwnOptions()
{
    return {
        OutputFile::outputOption(u".png, .svg or .pdf"_s),
        OutputFile::formatOption({u"png"_s, u"svg"_s, u"pdf"_s}),
        OutputFile::forceOption(),
        {{u"size"_s},
         u"SIZE"_s,
         u"%1 (the Export figure dialog's slide of 25.4 x 14.29 cm, single column of 8.5 x 6 cm and double "
         "column of 17.5 x 9 cm), or WxH in cm, mm or in, e.g. 8.5x6cm: the text keeps its point size; PDF and "
         "SVG pages are this size"_s.arg(FigureSizes::names().join(u", "_s)),
         FigureSizes::names()},
        {{u"dpi"_s},
         u"N"_s,
         u"pixels per inch of --size, or of the pixels of --width and --height (default %1)"_s.arg(kDefaultDpi)},
        {{u"width"_s},
         u"PX"_s,
         u"width in pixels, with --height (default %1 x %2), laid out as on screen"_s.arg(kDefaultWidth)
             .arg(kDefaultHeight)},
        {{u"height"_s}, u"PX"_s, u"height in pixels, with --width"_s},
        {{u"font-size"_s}, u"PT"_s, u"size of the axis labels in points, every text scaled with it (default 9)"_s},
        {{u"title"_s}, u"TEXT"_s, u"replaces the figure's title (at most %1 characters)"_s.arg(kMaxTitleCharacters)},
        {{u"threads"_s}, u"N"_s, u"worker threads (default: all cores)"_s},
        {{u"quiet"_s}, {}, u"no progress line (shown on a terminal for work over a second)"_s},
        CommandOptions::help(),
    };
}

// The families a figure is drawn for, in words, or nothing when it is drawn for every family.
QString familyWords(const QList<Encoding> &families)
{
    if (families.size() == FamilyInference::families().size())
        return {};
    QStringList words;
    for (const Encoding family : families)
        words.append(FamilyInference::word(family));
    return words.join(u", "_s);
}

// A figure option as the command line takes it, with the figures that take it.
CommandOption figureOption(const OptionUse &use)
{
    const FigureOption &o = use.option;
    QString help = u"%1 (%2)"_s.arg(o.help, use.figures.join(u", "_s));
    QStringList values = o.kind == FigureOption::Kind::Choice ? o.choices : QStringList();
    for (const auto &[alias, choice] : o.aliases) {
        help += u"; %1 is %2"_s.arg(alias, choice);
        values.append(alias);
    }
    return {{o.key}, o.kind == FigureOption::Kind::Switch ? QString() : o.valueName, help, values};
}

} // namespace

QList<CommandOption> exportOptions()
{
    QList<CommandOption> options = exportOwnOptions();
    for (const OptionUse &use : figureOptions())
        options.append(figureOption(use));
    return options;
}

HelpPage exportHelp()
{
    HelpPage page;
    page.topic = u"export"_s;
    page.usage = {u"posenc export FIGURE[,FIGURE...] -o FILE [OPTIONS]"_s,
                  u"posenc export --lesson NAME [FIGURE[,FIGURE...] | all] -o FILE [OPTIONS]"_s};
    page.section().paragraph(
        u"Draws a figure of the window headless, as the window draws it. The format comes from the extension: .png, "
        ".svg or .pdf (vector text and axes; heatmaps embedded as images). With --lesson, the lesson's figure "
        "(beside the views and panels its text names; alone on a page narrower than 16 cm) or FIGURE with the "
        "lesson's parameters and view; the options and parameters given override them. The lesson's own page "
        "(--lesson NAME, or all) names the model its numbers are read for in a line across its top: the model's "
        "name as posenc lessons NAME gives it, with its RoPE scaling where it scales (\"yarn, factor 4, original "
        "32,768\"); the line is left out for parameters no model names (a lesson without a model of its own, or a "
        "parameter flag that changed the model's: the text says \"this model\") and where the page would give up "
        "a panel or a title for it. A figure drawn for some "
        "families only chooses the family where --encoding is not given (export alibi-slopes is --encoding alibi). "
        "Several figures joined by commas (at most %1), or a lesson's figures (all: those its window shows and "
        "those its text names), go on one page of --size in a grid, the cells a row leaves empty the first "
        "figure's, each laid out in its cell as it would be alone at that size; each takes the options it has; of a "
        "lesson's figures read for a model of another family (--preset, --config), those drawn for other families "
        "only are left out and named on standard error."_s.arg(FigurePage::kMaxFigures));
    QList<HelpItem> figures;
    for (const FigureDescriptor *figure : FigureRegistry::all()) {
        QString text = figure->model().summary();
        const QString families = familyWords(figure->model().families());
        if (!families.isEmpty())
            text += u" [%1]"_s.arg(families);
        figures.append({figure->name(), text});
    }
    page.section(u"FIGURE"_s).items(figures);
    QList<HelpItem> own;
    for (const CommandOption &option : exportOwnOptions())
        own.append({option.spelling(), option.help});
    page.section(u"Options"_s).items(own);
    QList<HelpItem> ofFigures;
    for (const OptionUse &use : figureOptions()) {
        const CommandOption option = figureOption(use);
        ofFigures.append({option.spelling(), option.help});
    }
    page.section(u"Options of the figures"_s).items(ofFigures);
    page.section(u"Parameters"_s)
        .paragraph(u"Every parameter flag (posenc help parameters), --session FILE, --preset NAME, --lesson NAME and "
                   "--config FILE; the model figures (layer-stack, query-scale, head-map) draw --config's config "
                   "itself, or the example config of --preset's model (a preset of none is refused)."_s);
    page.section(u"Examples"_s)
        .examples({
            {u"posenc export heatmap -o pe.pdf --size column --d-model 512"_s, u"the PE table for a paper's column"_s},
            {u"posenc export --lesson why-sqrt-d -o slide.png --size slide"_s, u"a lesson's figure for a slide"_s},
            {u"posenc export layer-stack,query-scale -o slide.pdf --size slide --config llama-4-scout"_s,
             u"a model's layer stack beside its query scale, on a slide"_s},
            {u"posenc export alibi-slopes -o slopes.svg --heads 12"_s, u"ALiBi's slopes of 12 heads"_s},
            {u"posenc export rope-frequencies -o f.png --preset llama-3-1-8b"_s, u"Llama 3.1's scaled frequencies"_s},
        });
    page.section(u"Bounded at any size"_s)
        .paragraph(u"Where a figure's exact data would take more than 2^33 cells computed one by one (about 15 s on "
                   "two cores), it shows the largest part within them, titled a preview (or an estimate) with its "
                   "share. Ctrl+C stops a figure: nothing is written, exit 130."_s);
    page.section(u"Exit status"_s)
        .items({{u"0"_s, u"the figure was written"_s},
                {u"2"_s, u"an invalid option or parameter, named with its allowed values"_s},
                {u"3"_s, u"the file exists (without --force), or cannot be written or read: the path and the reason"_s},
                {u"4"_s, u"over the memory budget: cells and GiB"_s},
                {u"130"_s, u"stopped by Ctrl+C; nothing was written"_s}});
    return page;
}

namespace {

int fail(QTextStream &err, int code, const QString &message)
{
    err << "posenc export: " << message << '\n';
    return code;
}

std::optional<double> number(const QString &text, double lo, double hi)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && v >= lo && v <= hi ? std::optional(v) : std::nullopt;
}

// The format of -o PATH: --format's, or the extension's; the message naming the option otherwise.
std::variant<FigureFormat, QString> readFormat(const QCommandLineParser &parser, const QString &path)
{
    if (parser.isSet(u"format"_s)) {
        if (const auto format = formatNamed(parser.value(u"format"_s)))
            return *format;
        return u"--format: must be png, svg or pdf; got %1"_s.arg(ParamError::quoted(parser.value(u"format"_s)));
    }
    if (OutputFile::isStandardOutput(path))
        return u"--format: -o - (standard output) needs --format png, svg or pdf"_s;
    if (const auto format = FigureExporter::formatOf(path))
        return *format;
    return u"--output: the format comes from the extension, %1, or from --format; got %2"_s.arg(
        FigureExporter::extensions(), ParamError::quoted(path));
}

// The figure's size from --width/--height, --size and --dpi, or the message naming the option.
std::variant<FigureSize, QString> readSize(const QCommandLineParser &parser)
{
    std::optional<double> dpi;
    if (parser.isSet(u"dpi"_s)) {
        dpi = number(parser.value(u"dpi"_s), 10.0, 2400.0);
        if (!dpi)
            return u"--dpi: must be a number in [10, 2400]; got %1"_s.arg(ParamError::quoted(parser.value(u"dpi"_s)));
    }
    FigureSize size;
    if (parser.isSet(u"size"_s)) {
        if (parser.isSet(u"width"_s) || parser.isSet(u"height"_s))
            return u"--size: give either --size or --width and --height, not both"_s;
        const auto page = FigureSizes::page(parser.value(u"size"_s), dpi.value_or(kDefaultDpi));
        if (const auto *error = std::get_if<QString>(&page))
            return u"--size: "_s + *error;
        size = std::get<FigureSize>(page);
    } else {
        // Each value given is checked first, so that a wrong one is named even when the other is missing.
        std::optional<int> sides[2];
        const QString names[2] = {u"width"_s, u"height"_s};
        for (int k = 0; k < 2; ++k) {
            if (!parser.isSet(names[k]))
                continue;
            const QString text = parser.value(names[k]);
            const auto side = number(text, 16, kMaxSide);
            if (!side || *side != std::floor(*side))
                return u"--%1: must be a whole number of pixels in [16, %2]; got %3"_s.arg(names[k]).arg(kMaxSide).arg(
                    ParamError::quoted(text));
            sides[k] = static_cast<int>(*side);
        }
        if (sides[0].has_value() != sides[1].has_value())
            return u"--width, --height: give both, or --size"_s;
        const QSize pixels = sides[0] ? QSize(*sides[0], *sides[1]) : QSize(kDefaultWidth, kDefaultHeight);
        size = dpi ? FigureSize::fromPixelsAtDpi(pixels, *dpi) : FigureSize::fromPixels(pixels);
    }
    if (const auto refused = FigureFile::sizeRefusal(size))
        return u"--size, --dpi: "_s + *refused;
    return size;
}

// --font-size and --title, or the refusal naming the flag.
std::variant<FigureStyle, QString> readStyle(const QCommandLineParser &parser)
{
    FigureStyle style;
    if (parser.isSet(u"font-size"_s)) {
        const auto points
            = number(parser.value(u"font-size"_s), FigureStyle::kMinFontPointSize, FigureStyle::kMaxFontPointSize);
        if (!points)
            return u"--font-size: must be a number of points in [4, 36]; got %1"_s.arg(
                ParamError::quoted(parser.value(u"font-size"_s)));
        style.fontPointSize = *points;
    }
    if (parser.isSet(u"title"_s)) {
        style.title = parser.value(u"title"_s);
        if (style.title->size() > kMaxTitleCharacters)
            return u"--title: must be at most %1 characters; got %2"_s.arg(kMaxTitleCharacters)
                .arg(style.title->size());
    }
    return style;
}

// --threads N (0, the pool's own, when not given), or the refusal naming the flag.
std::variant<int, QString> readThreads(const QCommandLineParser &parser)
{
    if (!parser.isSet(u"threads"_s))
        return 0;
    const auto n = number(parser.value(u"threads"_s), 1, 1024);
    if (!n || *n != std::floor(*n))
        return u"--threads: must be an integer in [1, 1024]; got %1"_s.arg(
            ParamError::quoted(parser.value(u"threads"_s)));
    return static_cast<int>(*n);
}

// The figures FIGURE names: one, several joined by commas (one page), or with --lesson "all", the
// lesson's figures; the message naming FIGURE otherwise.
std::variant<QList<const FigureDescriptor *>, QString> readFigures(const QStringList &positional, const Lesson *lesson)
{
    const QString kinds = FigureRegistry::names().join(u", "_s);
    if (positional.size() != 1)
        return u"expected one FIGURE, or several joined by commas (%1); got %2"_s.arg(
            kinds, positional.isEmpty() ? u"none"_s : positional.join(u' '));
    QStringList names = positional.first().split(u',');
    if (lesson && positional.first() == u"all"_s) {
        names.clear();
        for (const SessionView::Figure &shown : lesson->view().views.value_or(QList<SessionView::Figure>()))
            if (!names.contains(shown.name))
                names.append(shown.name);
    }
    if (names.isEmpty())
        return u"FIGURE: the lesson %1 shows no figure"_s.arg(lesson ? lesson->name : QString());
    if (names.size() > FigurePage::kMaxFigures)
        return u"FIGURE: at most %1 figures on one page; got %2"_s.arg(FigurePage::kMaxFigures).arg(names.size());
    QList<const FigureDescriptor *> figures;
    for (const QString &name : names) {
        const FigureDescriptor *figure = FigureRegistry::find(name);
        if (!figure)
            return u"FIGURE must be one of %1%2; got %3"_s.arg(kinds, lesson ? u" or all"_s : QString(),
                                                               ParamError::quoted(name));
        figures.append(figure);
    }
    return figures;
}

// The config the model figures draw for --preset without --config or a lesson: the preset's example
// config, or why a preset of none cannot be (layer-stack drew Llama 4 Scout for any preset).
struct PresetConfig
{
    QString name, refusal;
};

PresetConfig presetConfig(const QCommandLineParser &parser, const QList<const FigureDescriptor *> &figures,
                          const Lesson *lesson)
{
    const QString configKey = QString::fromUtf16(ConfigOptions::kKey);
    const Preset *preset = lesson || parser.isSet(configKey) ? nullptr : Presets::find(parser.value(u"preset"_s));
    for (const FigureDescriptor *figure : figures)
        if (preset && preset->config.isEmpty() && figure->model().option(configKey))
            return {{},
                    u"%1 draws a model config, and the preset %2 has none: give --config, %3"_s.arg(
                        figure->name(), preset->name, ConfigSource::allowed())};
    return {preset ? preset->config : QString(), {}};
}

// What one figure of the export shows: the lesson's view of it, the options given (on a page of
// several, those it takes), --config or the preset's config where it draws the config itself.
FigureState stateOf(const FigureDescriptor &figure, const QCommandLineParser &parser, const QList<OptionUse> &uses,
                    const Lesson *lesson, const LessonOptions::Read &lessonRead, const Params &params, bool page,
                    const QString &presetConfig)
{
    FigureState state
        = lesson ? LessonPage::state(*lesson, figure.name(), lessonRead.model.configName, params) : FigureState();
    if (lesson)
        LessonPage::markDropoutOwner(state, figure, lessonRead.model);
    for (const OptionUse &use : uses) {
        if (!parser.isSet(use.option.key) || (page && !figure.model().option(use.option.key)))
            continue;
        state.options.insert(use.option.key,
                             use.option.kind == FigureOption::Kind::Switch
                                 ? u"true"_s
                                 : use.option.canonical(parser.values(use.option.key).constLast()));
        // An option that chooses what part is shown (--positions, another quantity) replaces the
        // lesson's zoom, as the window's control would.
        if (!use.option.inWindow || use.option.resetsView)
            state.view.clear();
    }
    // A figure that draws a model config takes --config as its own; the others take the config's
    // layer type as their parameters.
    const QString configKey = QString::fromUtf16(ConfigOptions::kKey);
    if (figure.model().option(configKey) && (parser.isSet(configKey) || !presetConfig.isEmpty())) {
        state.options.insert(configKey, parser.isSet(configKey) ? parser.values(configKey).constLast() : presetConfig);
        state.view.clear();
    }
    return state;
}

// On a page of several figures, an option none of them takes: the refusal naming those that do.
std::optional<QString> optionTakenByNone(const QCommandLineParser &parser, const QList<OptionUse> &uses,
                                         const QList<const FigureDescriptor *> &figures)
{
    for (const OptionUse &use : uses) {
        if (!parser.isSet(use.option.key))
            continue;
        if (std::none_of(figures.begin(), figures.end(),
                         [&](const FigureDescriptor *f) { return f->model().option(use.option.key).has_value(); }))
            return u"--%1: none of the figures takes it; %2 %3 it"_s.arg(
                use.option.key, use.figures.join(u", "_s), use.figures.size() == 1 ? u"takes"_s : u"take"_s);
    }
    return std::nullopt;
}

// What chooses the family where --encoding is not given: a figure drawn for some families only
// (alibi-slopes), and a quantity chosen by name (--quantity rope-cos is RoPE's).
ParamOptions::Clues familyClues(const QList<const FigureDescriptor *> &figures, const QCommandLineParser &parser,
                                const QList<OptionUse> &uses)
{
    ParamOptions::Clues clues;
    for (const FigureDescriptor *figure : figures)
        clues.append({u"FIGURE "_s + figure->name(),
                      [figure](const Params &params) { return figure->model().appliesTo(params); }});
    for (const OptionUse &use : uses)
        if (parser.isSet(use.option.key) && use.option.kind != FigureOption::Kind::Switch)
            if (const auto quantity
                = Quantities::fromName(use.option.canonical(parser.values(use.option.key).constLast())))
                clues.append(FamilyInference::quantityClue(
                    *quantity, u"--%1 %2"_s.arg(use.option.key, Quantities::name(*quantity))));
    return clues;
}

// The format of the file --output names, or why it cannot be written: none named, an unknown
// format, or a binary one to a terminal.
std::variant<FigureFormat, QString> readOutput(const QCommandLineParser &parser, const QString &path)
{
    if (path.isEmpty())
        return u"--output: a file ending in %1, or - with --format, is required"_s.arg(FigureExporter::extensions());
    const auto chosen = readFormat(parser, path);
    if (const auto *error = std::get_if<QString>(&chosen))
        return *error;
    const FigureFormat format = std::get<FigureFormat>(chosen);
    if (const auto refused
        = OutputFile::terminalRefusal(path, FigureExporter::extension(format), format != FigureFormat::Svg))
        return *refused;
    return format;
}

} // namespace

int runExportCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, exportOptions());
    const QList<OptionUse> uses = figureOptions();
    ParamOptions::add(parser);
    LessonOptions::add(parser);
    parser.addPositionalArgument(u"figure"_s, u"What to draw."_s);

    if (!parser.parse(arguments))
        return fail(err, ExitUsage, oneLine(parser.errorText()) + u" (see posenc export --help)"_s);
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(exportHelp(), HelpText::width());
        return ExitDone;
    }
    const auto chosenLesson = LessonOptions::lesson(parser);
    if (const auto *refused = std::get_if<QString>(&chosenLesson))
        return fail(err, ExitUsage, *refused);
    const Lesson *lesson = std::get<const Lesson *>(chosenLesson);
    QStringList positional = parser.positionalArguments();
    const bool lessonsOwn = lesson && positional.isEmpty();
    if (lessonsOwn)
        positional.append(lesson->mainFigure());
    const auto chosenFigures = readFigures(positional, lesson);
    if (const auto *refused = std::get_if<QString>(&chosenFigures))
        return fail(err, ExitUsage, *refused);
    QList<const FigureDescriptor *> figures = std::get<QList<const FigureDescriptor *>>(chosenFigures);
    const bool allOfLesson = lesson && positional.first() == u"all"_s;
    bool page = figures.size() > 1;
    const QString path = parser.value(u"output"_s);
    const auto output = readOutput(parser, path);
    if (const auto *error = std::get_if<QString>(&output))
        return fail(err, ExitUsage, *error);
    const std::optional<FigureFormat> format = std::get<FigureFormat>(output);
    const auto size = readSize(parser);
    if (const auto *error = std::get_if<QString>(&size))
        return fail(err, ExitUsage, *error);
    const auto styled = readStyle(parser);
    if (const auto *error = std::get_if<QString>(&styled))
        return fail(err, ExitUsage, *error);
    const FigureStyle style = std::get<FigureStyle>(styled);
    if (page && style.title)
        return fail(err, ExitUsage, u"--title: replaces one figure's title; a page of several keeps each one's"_s);
    if (page) {
        if (const auto refused = optionTakenByNone(parser, uses, figures))
            return fail(err, ExitUsage, *refused);
    }
    const ParamOptions::Clues clues = familyClues(figures, parser, uses);
    // --config gives the parameters unless every figure draws the config itself.
    const QString configKey = QString::fromUtf16(ConfigOptions::kKey);
    const bool allDrawConfig = std::all_of(figures.begin(), figures.end(), [&](const FigureDescriptor *f) {
        return f->model().option(configKey).has_value();
    });
    // A lesson is read for the model --preset or --config names (LessonOptions).
    const LessonOptions::Read lessonRead = lesson ? LessonOptions::read(parser, *lesson, clues) : LessonOptions::Read();
    const ParamOptions::Result read = lesson ? lessonRead.result : ParamOptions::read(parser, clues, !allDrawConfig);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc export: " << line << '\n';
        return read.exitCode();
    }
    if (allOfLesson || lessonsOwn) {
        figures = LessonPage::figures(*lesson, lessonRead.model, read.params, err, allOfLesson,
                                      std::get<FigureSize>(size).layout);
        page = figures.size() > 1;
    }
    const PresetConfig ofPreset = presetConfig(parser, figures, lesson);
    if (!ofPreset.refusal.isEmpty())
        return fail(err, ExitUsage, ofPreset.refusal);
    QList<FigureState> states;
    for (const FigureDescriptor *figure : figures) {
        states.append(stateOf(*figure, parser, uses, lesson, lessonRead, read.params, page, ofPreset.name));
        const QList<ParamError> problems = FigureRegistry::check(*figure, read.params, states.constLast());
        if (!problems.isEmpty())
            return fail(err, ExitUsage,
                        (page ? figure->name() + u": "_s : QString()) + ParamOptions::flagText(problems.front()));
    }
    const auto threadCount = readThreads(parser);
    if (const auto *error = std::get_if<QString>(&threadCount))
        return fail(err, ExitUsage, *error);

    const bool force = parser.isSet(u"force"_s);
    if (const auto refused = OutputFile::refusal(path, force))
        return fail(err, ExitIo, *refused);
    ProgressLine line(u"posenc export"_s, !parser.isSet(u"quiet"_s) && ProgressLine::stderrIsTerminal());
    // Ctrl+C stops the drawing, the encoding and the writing alike: nothing is written.
    const InterruptCancels interrupt;
    const auto interrupted = [&] {
        line.finish();
        return fail(err, ExitInterrupted, u"interrupted; nothing was written"_s);
    };
    LessonPage::Request request;
    request.figures = figures;
    request.states = states;
    for (const FigureDescriptor *figure : figures)
        request.styles.append(lesson ? LessonPage::styleOf(*lesson, lessonRead.model, *figure, style) : style);
    request.engine = std::make_shared<const Engine>(read.params);
    request.page = std::get<FigureSize>(size);
    request.threads = std::get<int>(threadCount);
    // A lesson's page goes on the grid that leaves its main figure the most; its slide names its model.
    request.chooseGrid = page && lesson;
    request.subtitle = allOfLesson || lessonsOwn ? LessonPage::subtitle(lessonRead.model, figures) : QString();
    request.stage = [&line](const QString &stage) { line.stage(stage); };
    const std::optional<LessonPage::Page> built = LessonPage::build(request, interrupt.flag());
    if (!built)
        return interrupted();
    const QList<QRect> &cells = built->cells;
    const auto &builds = built->builds;
    for (qsizetype i = 0; i < figures.size(); ++i) {
        const QString name = figures[i]->name();
        if (const auto &refused = builds[std::size_t(i)]->error()) {
            line.finish();
            if (refused->kind == FigureError::OverBudget)
                return fail(err, ExitOverBudget, refused->message);
            // The room the text needs: the user's own title may be what does not fit.
            return fail(
                err, ExitUsage,
                u"--size: %1%2; give a larger size%3"_s.arg(
                    page ? u"%1, in its %2 x %3 of the page: "_s.arg(name).arg(cells[i].width()).arg(cells[i].height())
                         : QString(),
                    refused->message,
                    style.title ? u", a smaller --font-size or a shorter --title"_s
                        : page  ? u", fewer figures or a smaller --font-size"_s
                                : u" or a smaller --font-size"_s));
        }
    }
    line.finish();
    // Panels a page short of room left out are said, as the figure's title would (it may have gone too).
    for (const QString &note : LessonPage::panelsLeftOut(*built, figures))
        err << "posenc export: " << note << '\n';
    const QByteArray bytes = page || built->subtitle ? LessonPage::bytes(*built, built->size, *format, style)
                                                     : FigureFile::encode(*builds.front(), *format, style);
    if (interrupt.interrupted())
        return interrupted();
    if (bytes.isEmpty())
        return fail(err, ExitIo, u"%1: the figure could not be encoded"_s.arg(path));
    // Asked again: the file may have appeared while the figure was drawn.
    if (const auto refused = OutputFile::refusal(path, force))
        return fail(err, ExitIo, *refused);
    const std::atomic<bool> *stop = interrupt.flag();
    if (const auto written = OutputFile::write(path, [&bytes, stop](QIODevice &device) {
            return !stop->load() && device.write(bytes) == bytes.size() && !stop->load();
        })) {
        if (interrupt.interrupted())
            return interrupted();
        return fail(err, ExitIo, *written);
    }
    return ExitDone;
}

} // namespace posenc
