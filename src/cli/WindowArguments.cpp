#include "WindowArguments.h"

#include "Cli.h"
#include "Commands.h"
#include "ConfigOptions.h"
#include "ExitCode.h"
#include "HelpCommand.h"
#include "HelpText.h"
#include "LessonOptions.h"
#include "ParamOptions.h"

#include "check/CheckReport.h"
#include "core/FamilySpec.h"
#include "core/OneLine.h"
#include "core/ParamError.h"
#include "core/ParamText.h"
#include "io/StandardInput.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// `posenc FILE`, as a file manager starts the program (Exec=posenc %F): an argument that names a
// file, or reads as a path, or "-" for standard input, is a file; any other word is a command
// mistyped.
bool isPath(const QString &argument)
{
    return QFileInfo::exists(argument) || argument.contains(u'/') || argument.contains(u'.')
        || StandardInput::names(argument);
}

// The views a model config opens on: its layer stack, its heads and its query scaling, and the main
// figure of the layer type's family.
QJsonObject configViews(const QString &config, const Params &params)
{
    const QString source = QFileInfo::exists(config) ? QFileInfo(config).absoluteFilePath() : config;
    QJsonArray views;
    for (const QString &figure : {u"layer-stack"_s, u"head-map"_s, u"query-scale"_s})
        views.append(QJsonObject {{u"figure"_s, figure}, {u"config"_s, source}});
    const QList<DefaultFigure> &own = Families::spec(params.encoding).defaultFigures;
    if (!own.isEmpty())
        views.append(QJsonObject {{u"figure"_s, own.first().figure}});
    return QJsonObject {{u"layout"_s, u"2x2"_s}, {u"views"_s, views}};
}

// The window's sides in pixels: from the least it lays out in to the largest image a screenshot
// is drawn as.
constexpr int kLeastSide = 320;
constexpr int kLargestSide = 8192;

// "1366x768" (also with 'X'), or nothing for any other text.
std::optional<QSize> windowSize(const QString &text)
{
    const QStringList sides = text.toLower().split(u'x');
    if (sides.size() != 2)
        return std::nullopt;
    bool wide = false, high = false;
    const int width = sides[0].toInt(&wide), height = sides[1].toInt(&high);
    const auto within = [](int side) { return side >= kLeastSide && side <= kLargestSide; };
    if (!wide || !high || !within(width) || !within(height))
        return std::nullopt;
    return QSize(width, height);
}

} // namespace

QList<CommandOption> windowOptions()
{
    return {
        CommandOptions::help(),
        // -V as GNU and clig.dev keep it; -v, which earlier versions took, stays as an alias.
        {{u"V"_s, u"v"_s, u"version"_s}, {}, u"show the version (-v also)"_s},
        {{u"reset-settings"_s}, {}, u"forget the remembered window and parameters"_s},
        // For documentation, tests and bug reports: the window as drawn, without a display too.
        {{u"screenshot"_s},
         u"FILE"_s,
         u"save a PNG of the window once every view is drawn, then quit (offscreen where there is no display)"_s,
         {},
         true},
        {{u"start-panel"_s}, {}, u"show the start panel, also under --screenshot"_s},
        {{u"size"_s},
         u"WxH"_s,
         u"the window's size in pixels, kept whatever the screen (--screenshot: 1920x1080)"_s,
         {},
         false},
    };
}

HelpPage windowHelp()
{
    HelpPage page;
    page.topic = u"window"_s;
    page.usage = {u"posenc [OPTIONS] [FILE...]"_s};
    page.section().paragraph(
        u"Without a command, posenc opens the explorer window: the parameters on the left, every one of the command "
        u"line's with its formula in its "
        "tooltip, and four linked views that follow them, each showing any figure of posenc export (one, two or "
        "four at once: View > Layout). A lesson (--lesson NAME, the Lessons menu, F1) sets the parameters and views "
        "that answer a question and explains them beside the figure. File > Export figure writes a view as posenc "
        "export does; File > Check a table and File > Open model config show what posenc check says."_s);
    page.section(u"FILE"_s).paragraph(
        u"Each FILE given opens as a file dropped on the window does: a session, a .npy or .safetensors "
        "matrix as the token embeddings or the learned position table, as its name says (else the window "
        "asks), a .csv table as File > Check a table. A model's config.json opens the window on it as "
        "--config FILE does, with its layer stack, head map and query scale in the views."_s);
    QList<HelpItem> options;
    const QList<CommandOption> own = windowOptions() << LessonOptions::option();
    for (const CommandOption &option : own) {
        if (!option.hidden)
            options.append({option.spelling(), option.help});
    }
    page.section(u"Options"_s).items(options);
    page.section(u"Parameters"_s)
        .paragraph(u"Every parameter flag (posenc help parameters), --session FILE, --preset NAME and --config FILE "
                   "[--layer-type T]; they win over the parameters the window remembers."_s);
    page.section(u"Examples"_s)
        .examples({{u"posenc"_s, u"the window on the parameters of the last time"_s},
                   {u"posenc --lesson why-sqrt-d"_s, u"a lesson"_s},
                   {u"posenc --preset llama-3-1-8b"_s, u"Llama 3.1's RoPE"_s},
                   {u"posenc session.posenc"_s, u"a saved session"_s},
                   {u"posenc config.json"_s, u"a model's config: its layer type's parameters and its layers"_s}});
    page.section(u"Exit status"_s)
        .items({{u"0"_s, u"the window was closed"_s},
                {u"2"_s, u"an invalid option or parameter, or no display (posenc export and posenc table need none)"_s},
                {u"3"_s, u"a --session or --embeddings file that cannot be read"_s},
                {u"4"_s, u"over the memory budget: cells and GiB"_s}});
    return page;
}

std::variant<WindowArguments, int> parseWindowArguments(const QStringList &arguments, QTextStream &out,
                                                        QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, windowOptions());
    ParamOptions::add(parser);
    LessonOptions::add(parser);
    // A mistake gets one line that names it, not the whole help.
    const auto usageError = [&err](const QString &message) {
        err << "posenc: " << message << " (see posenc --help)\n";
        return int(ExitUsage);
    };
    if (!parser.parse(arguments))
        return usageError(oneLine(parser.errorText()));
    const QStringList positional = parser.positionalArguments();
    for (const QString &alone : {u"help"_s, u"version"_s}) {
        if (parser.isSet(alone) && !positional.isEmpty())
            return usageError(
                u"--%1 takes no arguments; got %2"_s.arg(alone, ParamError::quoted(positional.join(u' '))));
    }
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(shortHelp(), HelpText::width());
        return int(ExitDone);
    }
    if (parser.isSet(u"version"_s)) {
        out << QCoreApplication::applicationName() << ' ' << QCoreApplication::applicationVersion() << '\n';
        return int(ExitDone);
    }
    QStringList files;
    QString configFile; // posenc FILE.json: a model config opens as --config FILE does
    for (const QString &argument : positional) {
        if (!isPath(argument))
            return usageError(u"unknown command %1; the commands are %2"_s.arg(ParamError::quoted(argument),
                                                                               Commands::names().join(u", "_s)));
        if (configFile.isEmpty() && argument.endsWith(u".json"_s, Qt::CaseInsensitive)
            && ConfigOptions::isModelConfig(argument))
            configFile = argument;
        else
            files << argument;
    }
    if (!configFile.isEmpty() && parser.isSet(QString::fromUtf16(ConfigOptions::kKey)))
        return usageError(u"%1, --config: give the model config once"_s.arg(oneLine(configFile)));
    for (const QString &other : {u"session"_s, u"preset"_s, QString::fromUtf16(LessonOptions::kKey)}) {
        if (!configFile.isEmpty() && parser.isSet(other))
            return usageError(
                u"%1, --%2: give one of them; parameter flags override either"_s.arg(oneLine(configFile), other));
    }
    if (parser.isSet(u"screenshot"_s) && parser.value(u"screenshot"_s).isEmpty())
        return usageError(u"--screenshot: a file name for the window's PNG is required"_s);
    std::optional<QSize> size;
    if (parser.isSet(u"size"_s)) {
        size = windowSize(parser.value(u"size"_s));
        if (!size)
            return usageError(u"--size: must be WIDTHxHEIGHT in pixels, each in [%1, %2]; got %3"_s.arg(kLeastSide)
                                  .arg(kLargestSide)
                                  .arg(ParamError::quoted(parser.value(u"size"_s))));
    }
    const auto lesson = LessonOptions::lesson(parser);
    if (const auto *refused = std::get_if<QString>(&lesson)) {
        err << "posenc: " << *refused << '\n';
        return int(ExitUsage);
    }
    const Lesson *chosen = std::get<const Lesson *>(lesson);
    ParamOptions::Result read;
    std::optional<ModelChoice> lessonModel;
    if (!configFile.isEmpty()) {
        const QString layerType = parser.value(QString::fromUtf16(ConfigOptions::kLayerKey));
        auto picked = ConfigOptions::choose(configFile, layerType);
        if (const auto *config = std::get_if<ConfigOptions::Chosen>(&picked))
            read = ParamOptions::read(parser, config->texts,
                                      u"the config %1 (layer type %2)"_s.arg(configFile, config->layerType));
        else
            read = std::get<ParamOptions::Result>(std::move(picked));
    } else {
        if (chosen) {
            LessonOptions::Read lessonRead = LessonOptions::read(parser, *chosen);
            read = std::move(lessonRead.result);
            lessonModel = std::move(lessonRead.choice);
        } else {
            read = ParamOptions::read(parser);
        }
    }
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc: " << line << '\n';
        return read.exitCode();
    }
    WindowArguments result;
    result.params = read.params;
    // A config's layer opens at most at the presets' max_len, to stay responsive, unless asked.
    const bool fromConfig = !configFile.isEmpty() || parser.isSet(QString::fromUtf16(ConfigOptions::kKey));
    if (fromConfig && !parser.isSet(u"max-len"_s) && result.params.maxLen > CheckReport::kWindowMaxLen) {
        err << "posenc: the window opens at max_len " << CheckReport::kWindowMaxLen << " (the model's "
            << result.params.maxLen << "), as the presets do, to stay responsive; --max-len sets it\n";
        result.params.maxLen = CheckReport::kWindowMaxLen;
    }
    // A session, a lesson, a preset, a matrix or any parameter flag wins over the remembered parameters.
    const QStringList keys = Session::parameterKeys()
        << u"session"_s << u"preset"_s << QString::fromUtf16(LessonOptions::kKey)
        << QString::fromUtf16(ConfigOptions::kKey);
    for (const QString &key : keys)
        result.paramsGiven = result.paramsGiven || parser.isSet(key);
    result.paramsGiven = result.paramsGiven || !configFile.isEmpty();
    if (read.session) {
        result.sessionView = read.session->view;
        result.sessionLesson = read.session->lesson;
    }
    if (fromConfig)
        result.sessionView = configViews(
            configFile.isEmpty() ? parser.value(QString::fromUtf16(ConfigOptions::kKey)) : configFile, result.params);
    result.resetSettings = parser.isSet(u"reset-settings"_s);
    result.screenshot = parser.value(u"screenshot"_s);
    result.size = size;
    result.lesson = chosen ? chosen->name : QString();
    result.lessonModel = lessonModel;
    result.preset = parser.isSet(u"preset"_s) ? parser.values(u"preset"_s).constLast() : QString();
    result.startPanel = parser.isSet(u"start-panel"_s);
    result.files = files;
    return result;
}

} // namespace posenc
