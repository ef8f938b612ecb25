#include "cli/BenchCommand.h"
#include "cli/Cli.h"
#include "cli/ConfigCheckCommand.h"
#include "cli/DisplayCheck.h"
#include "cli/ExitCode.h"
#include "cli/QtMessageFilter.h"
#include "cli/RuntimeDirectory.h"
#include "cli/StandardStreams.h"
#include "cli/WindowArguments.h"
#include "gui/CheckHeatmapBenchmark.h"
#include "gui/InteractionBenchmark.h"
#include "gui/Launcher.h"

#include <QApplication>
#include <QIcon>
#include <QTextStream>

#include <cstdio>
#include <optional>
#include <variant>

using namespace Qt::StringLiterals;

namespace {

void setNames()
{
    QCoreApplication::setApplicationName(u"posenc"_s);
    QCoreApplication::setOrganizationName(u"PosEnc Explorer"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(POSENC_VERSION));
}

// `posenc [OPTIONS]` (or `posenc check --config FILE --open`): the window, once its arguments are
// valid and there is a display to open it on. Help and invalid parameters were answered in
// `parsed`, before any screen is needed.
int openWindow(int &argc, char *argv[], const std::variant<posenc::WindowArguments, int> &parsed, QTextStream &err)
{
    if (const int *exitCode = std::get_if<int>(&parsed))
        return *exitCode;
    const auto &window = std::get<posenc::WindowArguments>(parsed);
    // A screenshot needs no screen: without a display to show it on, it is drawn offscreen.
    if (!window.screenshot.isEmpty() && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")
        && qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (const auto cause = posenc::DisplayCheck::missing()) {
        err << "posenc: " << posenc::DisplayCheck::noDisplayMessage(*cause) << '\n';
        return posenc::ExitUsage;
    }
    std::optional<QApplication> app;
    {
        const posenc::DisplayCheck::ExitWithoutDisplay noDisplay;
        app.emplace(argc, argv);
    }
    QApplication::setWindowIcon(posenc::applicationIcon());
    QGuiApplication::setDesktopFileName(u"org.posenc.Explorer"_s);
    return posenc::runWindow({window.params, window.paramsGiven, window.resetSettings, window.screenshot,
                              window.sessionView, window.sessionLesson, window.lesson, window.lessonModel,
                              window.startPanel, window.files, window.size, window.preset});
}

} // namespace

int main(int argc, char *argv[])
{
    // Before any file is opened: a closed standard stream is not taken for one.
    posenc::StandardStreams::holdClosed();
    // Before any Qt application exists: the names answer --version, and a command line that
    // succeeds prints only its own output.
    setNames();
    posenc::ensureRuntimeDirectory();
    posenc::installQtMessageFilter();
    QStringList given;
    for (int i = 0; i < argc; ++i)
        given << QString::fromLocal8Bit(argv[i]);
    // Options before the command are the command's: posenc --d-model 64 table pe -o pe.npy.
    const QStringList arguments = posenc::commandFirst(given);
    QTextStream out(stdout);
    QTextStream err(stderr);
    // The bench drives the real window, and export draws with its widgets: both always on the
    // offscreen platform, so they need no display and draw the same everywhere.
    const bool drawsHeadless = arguments.size() > 1 && (arguments[1] == u"bench"_s || arguments[1] == u"export"_s);
    if (drawsHeadless) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        if (arguments[1] == u"bench"_s)
            posenc::registerExtraBenchmark([](const posenc::InteractionChanges &changes, QTextStream &err) {
                using namespace posenc::InteractionBenchmark;
                const auto measured = [&err](const posenc::Params &params, int count) {
                    Result result = run(params, count);
                    if (!result.incomplete.isEmpty())
                        err << "posenc bench: the window at L " << params.maxLen << ", d " << params.dModel << ": "
                            << result.incomplete << '\n';
                    return result;
                };
                const auto timed = [&changes](const QString &view) { return changes.views.contains(view); };
                const Result sinusoid = measured(interactive(), timed(u"sinusoidal"_s) ? changes.interactive : 0);
                QJsonObject json = toJson(sinusoid, u"interaction"_s);
                // Each family's default views, the sinusoid's the run above, and the check heatmap.
                const auto add = [&json](const QJsonObject &keys) {
                    for (auto it = keys.begin(); it != keys.end(); ++it)
                        json.insert(it.key(), it.value());
                };
                add(viewJson(sinusoid, u"sinusoidal"_s));
                for (const Scenario &family : families()) {
                    const Result result = run(family, timed(family.view) ? changes.perView : 0);
                    if (!result.incomplete.isEmpty())
                        err << "posenc bench: the " << family.view << " views: " << result.incomplete << '\n';
                    add(viewJson(result, family.view));
                }
                const Result check = posenc::CheckHeatmapBenchmark::run(changes.checkRows, changes.checkCols,
                                                                        timed(u"check"_s) ? changes.perView : 0, err);
                if (!check.incomplete.isEmpty())
                    err << "posenc bench: the check heatmap: " << check.incomplete << '\n';
                add(viewJson(check, u"check"_s));
                // The longest stall of either run, under the key earlier benches reported it.
                const double stall = json.take(u"interaction_gui_max_stall_ms"_s).toDouble();
                const QJsonObject scale = toJson(measured(atScale(), changes.atScale), u"interaction_scale"_s);
                for (auto it = scale.begin(); it != scale.end(); ++it)
                    json.insert(it.key(), it.value());
                json[u"gui_max_stall_ms"_s]
                    = std::max(stall, json.take(u"interaction_scale_gui_max_stall_ms"_s).toDouble());
                return json;
            });
        // The arguments as given: QGuiApplication takes -session/--session ID (X11 session
        // management) out of QCoreApplication::arguments(), and that is our --session FILE.
        const int code = posenc::runCli(arguments, out, err);
        return posenc::StandardStreams::finishOutput(u"posenc "_s + arguments[1], code, out, err);
    }
    // Other subcommands need no screen: they run without a GUI application.
    // The config check's --open ends in the window, on the parameters the config gives.
    if (posenc::opensConfigWindow(arguments)) {
        const int code = posenc::runWithinMemory(u"posenc check"_s, err, [&] {
            const auto parsed = posenc::configWindowArguments(arguments, out, err);
            // The report is read beside the window: printed before it opens, not when it closes.
            out.flush();
            err.flush();
            return openWindow(argc, argv, parsed, err);
        });
        return posenc::StandardStreams::finishOutput(u"posenc check"_s, code, out, err);
    }
    if (posenc::isSubcommand(arguments)) {
        QCoreApplication app(argc, argv);
        const int code = posenc::runCli(arguments, out, err);
        return posenc::StandardStreams::finishOutput(u"posenc "_s + arguments[1], code, out, err);
    }
    // Memory refused on the way to the window (a matrix loaded, the window's start) exits 4, as
    // a table does.
    const int code = posenc::runWithinMemory(u"posenc"_s, err, [&] {
        return openWindow(argc, argv, posenc::parseWindowArguments(arguments, out, err), err);
    });
    return posenc::StandardStreams::finishOutput(u"posenc"_s, code, out, err);
}
