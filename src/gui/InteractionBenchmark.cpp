#include "InteractionBenchmark.h"

#include "ControlPanel.h"
#include "FigureView.h"
#include "MainWindow.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QScopeGuard>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <ctime>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::InteractionBenchmark {

namespace {

constexpr int kTimerMs = 1;
// How long the window may take to draw a change, and to be exact at the start: at L 2^20,
// d 8192 the exact statistics take about 30 s on two quiet cores, minutes on a busy machine.
constexpr qint64 kGiveUpMs = 120000;
constexpr qint64 kStartGiveUpMs = 900000;

double percentile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

// Runs the event loop until `done` holds, false after the time limit. It sleeps between events
// as the application's own loop does: QCoreApplication::processEvents with a time limit drops
// WaitForMoreEvents and would spin, taking a core from the jobs it waits for.
template<typename Done> bool runUntil(Done &&done, qint64 giveUpMs = kGiveUpMs)
{
    QElapsedTimer limit;
    limit.start();
    QTimer wake; // the limit is seen even when nothing else happens
    wake.start(50);
    QEventLoop loop;
    while (!done()) {
        if (limit.elapsed() > giveUpMs)
            return false;
        loop.processEvents(QEventLoop::WaitForMoreEvents | QEventLoop::AllEvents);
    }
    return true;
}

// Processor time of the calling thread.
double guiThreadCpuMs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

bool settled(const MainWindow &window)
{
    for (const FigureView *view : window.views())
        if (!view->isSettled())
            return false;
    return true;
}

// Change i of the sequence: the four parameters in turn, each to a value other than its current
// one, near those of `base`.
void applyChange(ControlPanel &panel, const Params &base, int i)
{
    const int round = i / 4;
    switch (i % 4) {
    case 0:
        panel.findChild<QSpinBox *>(u"dModelSpin"_s)
            ->setValue(static_cast<int>(base.dModel)
                       + 8
                           * (round % 3 == 0       ? 1
                                  : round % 3 == 1 ? -1
                                                   : 0));
        break;
    case 1:
        panel.findChild<QSpinBox *>(u"maxLenSpin"_s)->setValue(static_cast<int>(base.maxLen) - 64 * ((round + 1) % 2));
        break;
    case 2: {
        auto *scale = panel.findChild<QComboBox *>(u"scaleCombo"_s);
        scale->setCurrentIndex(scale->currentIndex() == 1 ? 0 : 1);
        break;
    }
    default:
        panel.findChild<QSlider *>(u"dropoutSlider"_s)->setValue(50 + (round * 173) % 900);
        break;
    }
}

// The offscreen platform warns on every resize of a top-level size hint; the benchmark's
// output stays readable without those lines.
QtMessageHandler g_previousHandler = nullptr;

void quietHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (message.contains(u"propagateSizeHints"_s))
        return;
    g_previousHandler(type, context, message);
}

} // namespace

Params interactive()
{
    Params params;
    params.dModel = 1024;
    params.maxLen = 8192;
    return params;
}

Params atScale()
{
    Params params;
    params.dModel = 8192;
    params.maxLen = 1 << 20;
    return params;
}

Result run(const Params &params, int changes)
{
    if (changes <= 0)
        return {};
    g_previousHandler = qInstallMessageHandler(quietHandler);
    const auto restore = qScopeGuard([] { qInstallMessageHandler(g_previousHandler); });
    MainWindow window(params, nullptr);
    window.resize(1500, 950);
    window.show();
    Result result;
    if (!runUntil([&] { return settled(window); }, kStartGiveUpMs)) {
        result.incomplete = u"the views were not exact within %1 s of opening"_s.arg(kStartGiveUpMs / 1000);
        return result;
    }

    double maxGap = 0.0;
    QElapsedTimer sinceTick;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(kTimerMs);
    QObject::connect(&ticker, &QTimer::timeout, &ticker, [&] {
        maxGap = std::max(maxGap, static_cast<double>(sinceTick.nsecsElapsed()) / 1e6);
        sinceTick.restart();
    });
    sinceTick.start();
    ticker.start();

    std::vector<double> firstDraw, fullDraw, guiCpu;
    ControlPanel &panel = *window.controlPanel();
    for (int i = 0; i < changes; ++i) {
        const quint64 before = window.views().front()->paramsSerial();
        QElapsedTimer timer;
        timer.start();
        const double cpuBefore = guiThreadCpuMs();
        applyChange(panel, params, i);
        if (window.views().front()->paramsSerial() == before)
            continue; // the control did not change a parameter: nothing to measure
        if (!runUntil([&] { return window.isUpToDate(); })) {
            result.incomplete = u"change %1 was not drawn within %2 s"_s.arg(i + 1).arg(kGiveUpMs / 1000);
            break;
        }
        firstDraw.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        guiCpu.push_back(guiThreadCpuMs() - cpuBefore);
        // Every tenth change, the user pauses: time the refinement to full detail as well.
        if (i % 10 == 9) {
            if (!runUntil([&] { return settled(window); })) {
                result.incomplete = u"change %1 was not exact within %2 s"_s.arg(i + 1).arg(kGiveUpMs / 1000);
                break;
            }
            fullDraw.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
    }
    ticker.stop();
    result.changes = static_cast<int>(firstDraw.size());
    result.p50Ms = percentile(firstDraw, 0.5);
    result.p95Ms = percentile(firstDraw, 0.95);
    result.maxMs = percentile(firstDraw, 1.0);
    result.settledP95Ms = percentile(fullDraw, 0.95);
    result.guiCpuP50Ms = percentile(guiCpu, 0.5);
    result.guiCpuP95Ms = percentile(guiCpu, 0.95);
    result.maxStallMs = std::max(0.0, maxGap - kTimerMs);
    window.close();
    return result;
}

QJsonObject toJson(const Result &result, const QString &prefix)
{
    QJsonObject json;
    json[prefix + u"_changes"_s] = result.changes;
    json[prefix + u"_p50_ms"_s] = result.p50Ms;
    json[prefix + u"_p95_ms"_s] = result.p95Ms;
    json[prefix + u"_max_ms"_s] = result.maxMs;
    json[prefix + u"_settled_p95_ms"_s] = result.settledP95Ms;
    json[prefix + u"_gui_max_stall_ms"_s] = result.maxStallMs;
    json[prefix + u"_gui_cpu_p50_ms"_s] = result.guiCpuP50Ms;
    json[prefix + u"_gui_cpu_p95_ms"_s] = result.guiCpuP95Ms;
    return json;
}

} // namespace posenc::InteractionBenchmark
