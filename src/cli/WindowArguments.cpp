#include "WindowArguments.h"

#include "Cli.h"
#include "ConfigOptions.h"
#include "ExitCode.h"
#include "LessonOptions.h"
#include "ParamOptions.h"

#include "core/FamilySpec.h"
#include "core/ParamText.h"
#include "core/check/CheckReport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// `posenc FILE`, as a file manager starts the program (Exec=posenc %F): an argument that names a
// file, or reads as a path, is a file; any other word is a command mistyped.
bool isPath(const QString &argument)
{
    return QFileInfo::exists(argument) || argument.contains(u'/') || argument.contains(u'.');
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

} // namespace

std::variant<WindowArguments, int> parseWindowArguments(const QStringList &arguments, QTextStream &out,
                                                        QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    // -V as GNU and clig.dev keep it; -v, which earlier versions took, stays as an alias.
    const QCommandLineOption versionOption({u"V"_s, u"v"_s, u"version"_s}, u"Show the version (-v also)."_s);
    const QCommandLineOption resetOption(u"reset-settings"_s, u"Forget the remembered window and parameters."_s);
    // Hidden: for tests and documentation screenshots.
    QCommandLineOption screenshotOption(u"screenshot"_s, u"Save a PNG of the window once drawn, then quit."_s,
                                        u"FILE"_s);
    screenshotOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption startPanelOption(u"start-panel"_s, u"Show the start panel, also under --screenshot."_s);
    startPanelOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({helpOption, versionOption, resetOption, screenshotOption, startPanelOption});
    ParamOptions::add(parser);
    LessonOptions::add(parser);
    // A mistake gets one line that names it, not the whole help.
    const auto usageError = [&err](const QString &message) {
        err << "posenc: " << message << " (see posenc --help)\n";
        return int(ExitUsage);
    };
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    const QStringList positional = parser.positionalArguments();
    for (const QCommandLineOption *alone : {&helpOption, &versionOption}) {
        if (parser.isSet(*alone) && !positional.isEmpty())
            return usageError(
                u"--%1 takes no arguments; got '%2'"_s.arg(alone->names().constLast(), positional.join(u' ')));
    }
    if (parser.isSet(helpOption)) {
        out << cliUsage() << "\nWindow options:\n"
            << LessonOptions::helpText() << "  --reset-settings\n      " << resetOption.description()
            << "\n\nOther options:\n  -h, --help\n      " << helpOption.description() << "\n  -V, --version\n      "
            << versionOption.description() << '\n';
        return int(ExitDone);
    }
    if (parser.isSet(versionOption)) {
        out << QCoreApplication::applicationName() << ' ' << QCoreApplication::applicationVersion() << '\n';
        return int(ExitDone);
    }
    QStringList files;
    QString configFile; // posenc FILE.json: a model config opens as --config FILE does
    for (const QString &argument : positional) {
        if (!isPath(argument))
            return usageError(
                u"unknown command %1; the commands are export, table, bench, lessons and presets"_s.arg(argument));
        if (configFile.isEmpty() && argument.endsWith(u".json"_s, Qt::CaseInsensitive)
            && ConfigOptions::isModelConfig(argument))
            configFile = argument;
        else
            files << argument;
    }
    if (!configFile.isEmpty() && parser.isSet(QString::fromUtf16(ConfigOptions::kKey)))
        return usageError(u"%1, --config: give the model config once"_s.arg(configFile));
    for (const QString &other : {u"session"_s, u"preset"_s, QString::fromUtf16(LessonOptions::kKey)}) {
        if (!configFile.isEmpty() && parser.isSet(other))
            return usageError(u"%1, --%2: give one of them; parameter flags override either"_s.arg(configFile, other));
    }
    if (parser.isSet(screenshotOption) && parser.value(screenshotOption).isEmpty())
        return usageError(u"--screenshot: a file name for the window's PNG is required"_s);
    const auto lesson = LessonOptions::lesson(parser);
    if (const auto *refused = std::get_if<QString>(&lesson)) {
        err << "posenc: " << *refused << '\n';
        return int(ExitUsage);
    }
    const Lesson *chosen = std::get<const Lesson *>(lesson);
    ParamOptions::Result read;
    if (!configFile.isEmpty()) {
        const QString layerType = parser.value(QString::fromUtf16(ConfigOptions::kLayerKey));
        auto picked = ConfigOptions::choose(configFile, layerType);
        if (const auto *config = std::get_if<ConfigOptions::Chosen>(&picked))
            read = ParamOptions::read(parser, config->texts,
                                      u"the config %1 (layer type %2)"_s.arg(configFile, config->layerType));
        else
            read = std::get<ParamOptions::Result>(std::move(picked));
    } else {
        read = chosen ? LessonOptions::read(parser, *chosen) : ParamOptions::read(parser);
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
        result.sessionView = configViews(configFile.isEmpty() ? parser.value(QString::fromUtf16(ConfigOptions::kKey))
                                                              : configFile,
                                         result.params);
    result.resetSettings = parser.isSet(resetOption);
    result.screenshot = parser.value(screenshotOption);
    result.lesson = chosen ? chosen->name : QString();
    result.startPanel = parser.isSet(startPanelOption);
    result.files = files;
    return result;
}

} // namespace posenc
