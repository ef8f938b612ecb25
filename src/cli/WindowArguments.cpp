#include "WindowArguments.h"

#include "Cli.h"
#include "ExitCode.h"
#include "LessonOptions.h"
#include "ParamOptions.h"

#include "core/ParamText.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// `posenc FILE`, as a file manager starts the program (Exec=posenc %F): an argument that names a
// file, or reads as a path, is a file; any other word is a command mistyped.
bool isPath(const QString &argument)
{
    return QFileInfo::exists(argument) || argument.contains(u'/') || argument.contains(u'.');
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
    QCommandLineOption sizeOption(u"size"_s, u"The window's size in pixels (--screenshot: 1920x1080)."_s, u"WxH"_s);
    sizeOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({helpOption, versionOption, resetOption, screenshotOption, startPanelOption, sizeOption});
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
    for (const QString &argument : positional) {
        if (!isPath(argument))
            return usageError(
                u"unknown command %1; the commands are export, table, bench, lessons and presets"_s.arg(argument));
        files << argument;
    }
    if (parser.isSet(screenshotOption) && parser.value(screenshotOption).isEmpty())
        return usageError(u"--screenshot: a file name for the window's PNG is required"_s);
    std::optional<QSize> size;
    if (parser.isSet(sizeOption)) {
        size = windowSize(parser.value(sizeOption));
        if (!size)
            return usageError(u"--size: must be WIDTHxHEIGHT in pixels, each in [%1, %2]; got '%3'"_s.arg(kLeastSide)
                                  .arg(kLargestSide)
                                  .arg(parser.value(sizeOption)));
    }
    const auto lesson = LessonOptions::lesson(parser);
    if (const auto *refused = std::get_if<QString>(&lesson)) {
        err << "posenc: " << *refused << '\n';
        return int(ExitUsage);
    }
    const Lesson *chosen = std::get<const Lesson *>(lesson);
    const ParamOptions::Result read = chosen ? LessonOptions::read(parser, *chosen) : ParamOptions::read(parser);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc: " << line << '\n';
        return read.exitCode();
    }
    WindowArguments result;
    result.params = read.params;
    // A session, a lesson, a preset, a matrix or any parameter flag wins over the remembered parameters.
    const QStringList keys = Session::parameterKeys()
        << u"session"_s << u"preset"_s << QString::fromUtf16(LessonOptions::kKey);
    for (const QString &key : keys)
        result.paramsGiven = result.paramsGiven || parser.isSet(key);
    if (read.session) {
        result.sessionView = read.session->view;
        result.sessionLesson = read.session->lesson;
    }
    result.resetSettings = parser.isSet(resetOption);
    result.screenshot = parser.value(screenshotOption);
    result.size = size;
    result.lesson = chosen ? chosen->name : QString();
    result.startPanel = parser.isSet(startPanelOption);
    result.files = files;
    return result;
}

} // namespace posenc
