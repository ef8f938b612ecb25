#include "ExportCommand.h"

#include "ConfigOptions.h"
#include "ExitCode.h"
#include "Interrupt.h"
#include "LessonOptions.h"
#include "OutputFile.h"
#include "ParamOptions.h"
#include "ProgressLine.h"

#include "core/ParamText.h"
#include "core/Quantity.h"
#include "render/FigureFile.h"
#include "render/FigureRegistry.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cmath>

#include <variant>

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

QString usage()
{
    QString figures;
    for (const FigureDescriptor *figure : FigureRegistry::all())
        figures += u"  %1 %2\n"_s.arg(figure->name(), -12).arg(figure->model().summary());
    QString options;
    for (const OptionUse &use : figureOptions()) {
        const QString flag = use.option.kind == FigureOption::Kind::Switch
            ? u"--%1"_s.arg(use.option.key)
            : u"--%1 %2"_s.arg(use.option.key, use.option.valueName);
        options += u"  %1\n      %2 (%3)\n"_s.arg(flag, use.option.help, use.figures.join(u", "_s));
    }
    return u"Usage: posenc export FIGURE -o FILE [OPTIONS]\n"
           "       posenc export --lesson NAME [FIGURE] -o FILE [OPTIONS]\n"
           "Draws a figure of the window headless, as the window draws it; the format comes from the\n"
           "extension: .png, .svg or .pdf (vector text and axes; heatmaps embedded as images).\n"
           "With --lesson, the lesson's figure (or FIGURE) with the lesson's parameters and view;\n"
           "the options and parameters given override them.\n\n"
           "FIGURE:\n%1\n"
           "Options:\n"
           "  -o, --output FILE    where to write, whole or not at all; - for standard output (with\n"
           "                       --format)\n"
           "  --format FORMAT      png, svg or pdf: the format of -o -, or instead of FILE's extension\n"
           "  --force              replace FILE if it exists (else the run is refused, exit 3)\n"
           "  --width PX --height PX\n"
           "                       size in pixels (default %2 x %3), laid out as on screen;\n"
           "                       with --dpi, the pixels of a print at that dpi\n"
           "  --size WxHcm         physical size, also in or mm, e.g. 8.5x6cm; text keeps its point\n"
           "                       size; PDF and SVG pages are this size\n"
           "  --dpi N              pixels per inch of a physical size (default %4)\n"
           "  --font-size PT       size of the axis labels, every text scaled with it (default 9)\n"
           "  --title TEXT         replaces the figure's title (at most %8 characters)\n"
           "  --threads N          worker threads (default: all cores)\n"
           "  --quiet              no progress line (shown on a terminal for work over a second)\n\n"
           "Options of the figures (the figures that take each):\n%5\n"
           "At any size a figure takes a bounded time: where its exact data would take more than\n"
           "2^33 cells computed one by one (about 15 s on two cores), it shows the largest part\n"
           "within them, titled a preview (or an estimate) with its share. Ctrl+C stops a figure:\n"
           "nothing is written, exit 130.\n\n"
           "Exit codes: 0 done, 2 invalid usage or parameter, 3 the file exists (without --force) or\n"
           "cannot be written or read, 4 over the memory budget, 130 interrupted.\n\n"
           "Parameters:\n%6%7"_s.arg(figures)
               .arg(kDefaultWidth)
               .arg(kDefaultHeight)
               .arg(kDefaultDpi)
               .arg(options, ParamOptions::helpText(), LessonOptions::helpText())
               .arg(kMaxTitleCharacters);
}

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

struct SizeOptions
{
    QCommandLineOption width {u"width"_s, u"Width in pixels."_s, u"PX"_s};
    QCommandLineOption height {u"height"_s, u"Height in pixels."_s, u"PX"_s};
    QCommandLineOption size {u"size"_s, u"Physical size."_s, u"WxHcm"_s};
    QCommandLineOption dpi {u"dpi"_s, u"Pixels per inch."_s, u"N"_s};
};

// The figure's size from --width/--height, --size and --dpi, or the message naming the option.
std::variant<FigureSize, QString> readSize(const QCommandLineParser &parser, const SizeOptions &o)
{
    std::optional<double> dpi;
    if (parser.isSet(o.dpi)) {
        dpi = number(parser.value(o.dpi), 10.0, 2400.0);
        if (!dpi)
            return u"--dpi: must be a number in [10, 2400]; got '%1'"_s.arg(parser.value(o.dpi));
    }
    FigureSize size;
    if (parser.isSet(o.size)) {
        if (parser.isSet(o.width) || parser.isSet(o.height))
            return u"--size: give either --size or --width and --height, not both"_s;
        const auto inches = FigureSizes::parsePhysical(parser.value(o.size));
        if (const auto *error = std::get_if<QString>(&inches))
            return u"--size: "_s + *error;
        size = FigureSize::fromInches(std::get<QSizeF>(inches), dpi.value_or(kDefaultDpi));
    } else {
        // Each value given is checked first, so that a wrong one is named even when the other is missing.
        std::optional<int> sides[2];
        const QCommandLineOption *options[2] = {&o.width, &o.height};
        for (int k = 0; k < 2; ++k) {
            if (!parser.isSet(*options[k]))
                continue;
            const QString text = parser.value(*options[k]);
            const auto side = number(text, 16, kMaxSide);
            if (!side || *side != std::floor(*side))
                return u"--%1: must be a whole number of pixels in [16, %2]; got '%3'"_s
                    .arg(options[k]->names().first())
                    .arg(kMaxSide)
                    .arg(text);
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

// The state of the lesson's view that shows `figure` (its main view first), or the figure's
// defaults when no view of the lesson shows it.
FigureState lessonState(const Lesson &lesson, const QString &figure)
{
    const SessionView view = lesson.view();
    if (const auto main = view.figure(lesson.mainView); main && main->name == figure)
        return FigureState::fromJson(main->state);
    for (const SessionView::Figure &shown : view.views.value_or(QList<SessionView::Figure>())) {
        if (shown.name == figure)
            return FigureState::fromJson(shown.state);
    }
    return {};
}

// The format --format names, or -o's extension gives; or the message naming what is wrong.
std::variant<FigureFormat, QString> formatFor(const QCommandLineParser &parser, const QCommandLineOption &formatOption,
                                              const QString &path)
{
    if (parser.isSet(formatOption)) {
        if (const auto format = formatNamed(parser.value(formatOption)))
            return *format;
        return u"--format: must be png, svg or pdf; got '%1'"_s.arg(parser.value(formatOption));
    }
    if (OutputFile::isStandardOutput(path))
        return u"--format: -o - (standard output) needs --format png, svg or pdf"_s;
    if (const auto format = FigureExporter::formatOf(path))
        return *format;
    return u"--output: the format comes from the extension, %1, or from --format; got '%2'"_s.arg(
        FigureExporter::extensions(), path);
}

// The figure's state: the lesson's view of it, the figure options given over it.
FigureState stateOf(const QCommandLineParser &parser, const QList<OptionUse> &uses, const FigureDescriptor &figure,
                    const Lesson *lesson)
{
    FigureState state = lesson ? lessonState(*lesson, figure.name()) : FigureState();
    for (const OptionUse &use : uses) {
        if (!parser.isSet(use.option.key))
            continue;
        // --config is a figure's option only where the figure draws the config.
        if (use.option.key == QString::fromUtf16(ConfigOptions::kKey) && !figure.model().option(use.option.key))
            continue;
        state.options.insert(use.option.key,
                             use.option.kind == FigureOption::Kind::Switch ? u"true"_s
                                                                           : parser.values(use.option.key).constLast());
        // An option that chooses what part is shown (--positions, another quantity) replaces the
        // lesson's zoom, as the window's control would.
        if (!use.option.inWindow || use.option.resetsView)
            state.view.clear();
    }
    return state;
}

} // namespace

int runExportCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption outputOption({u"o"_s, u"output"_s}, u"File to write."_s, u"FILE"_s);
    const SizeOptions sizeOptions;
    const QCommandLineOption fontOption(u"font-size"_s, u"Font size."_s, u"PT"_s);
    const QCommandLineOption titleOption(u"title"_s, u"Title."_s, u"TEXT"_s);
    const QCommandLineOption threadsOption(u"threads"_s, u"Worker threads."_s, u"N"_s);
    const QCommandLineOption quietOption(u"quiet"_s, u"No progress line."_s);
    const QCommandLineOption formatOption = OutputFile::formatOption(u"png|svg|pdf"_s);
    const QCommandLineOption forceOption = OutputFile::forceOption();
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions({outputOption, formatOption, forceOption, sizeOptions.width, sizeOptions.height, sizeOptions.size,
                       sizeOptions.dpi, fontOption, titleOption, threadsOption, quietOption, helpOption});
    const QList<OptionUse> uses = figureOptions();
    for (const OptionUse &use : uses) {
        // The model figures' "config" is the parameters' --config, added by ParamOptions.
        if (use.option.key == QString::fromUtf16(ConfigOptions::kKey))
            continue;
        if (use.option.kind == FigureOption::Kind::Switch)
            parser.addOption(QCommandLineOption(use.option.key, use.option.help));
        else
            parser.addOption(QCommandLineOption(use.option.key, use.option.help, use.option.valueName));
    }
    ParamOptions::add(parser);
    LessonOptions::add(parser);
    parser.addPositionalArgument(u"figure"_s, u"What to draw."_s);

    if (!parser.parse(arguments))
        return fail(err, ExitUsage, parser.errorText() + u" (see posenc export --help)"_s);
    if (parser.isSet(helpOption)) {
        out << usage();
        return ExitDone;
    }
    const auto chosenLesson = LessonOptions::lesson(parser);
    if (const auto *refused = std::get_if<QString>(&chosenLesson))
        return fail(err, ExitUsage, *refused);
    const Lesson *lesson = std::get<const Lesson *>(chosenLesson);
    QStringList positional = parser.positionalArguments();
    if (lesson && positional.isEmpty())
        positional.append(lesson->mainFigure());
    const QString kinds = FigureRegistry::names().join(u", "_s);
    if (positional.size() != 1)
        return fail(
            err, ExitUsage,
            u"expected one FIGURE (%1); got %2"_s.arg(kinds, positional.isEmpty() ? u"none"_s : positional.join(u' ')));
    const FigureDescriptor *figure = FigureRegistry::find(positional.first());
    if (!figure)
        return fail(err, ExitUsage, u"FIGURE must be one of %1; got '%2'"_s.arg(kinds, positional.first()));
    const QString path = parser.value(outputOption);
    if (path.isEmpty())
        return fail(
            err, ExitUsage,
            u"--output: a file ending in %1, or - with --format, is required"_s.arg(FigureExporter::extensions()));
    const auto chosenFormat = formatFor(parser, formatOption, path);
    if (const auto *refused = std::get_if<QString>(&chosenFormat))
        return fail(err, ExitUsage, *refused);
    const std::optional<FigureFormat> format = std::get<FigureFormat>(chosenFormat);
    if (const auto refused
        = OutputFile::terminalRefusal(path, FigureExporter::extension(*format), *format != FigureFormat::Svg))
        return fail(err, ExitUsage, *refused);
    const auto size = readSize(parser, sizeOptions);
    if (const auto *error = std::get_if<QString>(&size))
        return fail(err, ExitUsage, *error);

    FigureStyle style;
    if (parser.isSet(fontOption)) {
        const auto points
            = number(parser.value(fontOption), FigureStyle::kMinFontPointSize, FigureStyle::kMaxFontPointSize);
        if (!points)
            return fail(
                err, ExitUsage,
                u"--font-size: must be a number of points in [4, 36]; got '%1'"_s.arg(parser.value(fontOption)));
        style.fontPointSize = *points;
    }
    if (parser.isSet(titleOption)) {
        style.title = parser.value(titleOption);
        if (style.title->size() > kMaxTitleCharacters)
            return fail(
                err, ExitUsage,
                u"--title: must be at most %1 characters; got %2"_s.arg(kMaxTitleCharacters).arg(style.title->size()));
    }
    FigureState state = stateOf(parser, uses, *figure, lesson);
    int threads = 0;
    if (parser.isSet(threadsOption)) {
        const auto n = number(parser.value(threadsOption), 1, 1024);
        if (!n || *n != std::floor(*n))
            return fail(err, ExitUsage,
                        u"--threads: must be an integer in [1, 1024]; got '%1'"_s.arg(parser.value(threadsOption)));
        threads = static_cast<int>(*n);
    }

    // A figure that draws a model config takes --config as its own; the others take the config's
    // layer type as their parameters.
    const bool drawsConfig = figure->model().option(QString::fromUtf16(ConfigOptions::kKey)).has_value();
    const ParamOptions::Result read
        = lesson ? LessonOptions::read(parser, *lesson) : ParamOptions::read(parser, !drawsConfig);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc export: " << line << '\n';
        return read.exitCode();
    }
    // A table of another size than the lesson's is shown whole, as the window would.
    if (lesson && std::holds_alternative<Params>(lesson->params())
        && !(Quantities::shape(Quantity::Input, std::get<Params>(lesson->params()))
             == Quantities::shape(Quantity::Input, read.params)))
        state.view.clear();
    const QList<ParamError> problems = FigureRegistry::check(*figure, read.params, state);
    if (!problems.isEmpty())
        return fail(err, ExitUsage, ParamOptions::flagText(problems.front()));

    const bool force = parser.isSet(forceOption);
    if (const auto refused = OutputFile::refusal(path, force))
        return fail(err, ExitIo, *refused);
    ProgressLine line(u"posenc export"_s, !parser.isSet(quietOption) && ProgressLine::stderrIsTerminal());
    line.stage(u"drawing the %1 figure"_s.arg(figure->name()));
    FigureBuild build(*figure, std::make_shared<const Engine>(read.params), state, style, std::get<FigureSize>(size));
    {
        const InterruptCancels interrupt;
        if (!build.run(threads, interrupt.flag())) {
            line.finish();
            return fail(err, ExitInterrupted, u"interrupted; nothing was written"_s);
        }
    }
    line.finish();
    if (const auto &refused = build.error()) {
        if (refused->kind == FigureError::OverBudget)
            return fail(err, ExitOverBudget, refused->message);
        // The room the text needs: the user's own title may be what does not fit.
        return fail(err, ExitUsage,
                    u"--size: %1; give a larger size%2"_s.arg(refused->message,
                                                              style.title
                                                                  ? u", a smaller --font-size or a shorter --title"_s
                                                                  : u" or a smaller --font-size"_s));
    }
    const QByteArray bytes = FigureFile::encode(build, *format, style);
    if (bytes.isEmpty())
        return fail(err, ExitIo, u"%1: the figure could not be encoded"_s.arg(path));
    // Asked again: the file may have appeared while the figure was drawn.
    if (const auto refused = OutputFile::refusal(path, force))
        return fail(err, ExitIo, *refused);
    if (const auto written
        = OutputFile::write(path, [&bytes](QIODevice &device) { return device.write(bytes) == bytes.size(); }))
        return fail(err, ExitIo, *written);
    return ExitDone;
}

} // namespace posenc
