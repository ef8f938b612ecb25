#include "InteractionBenchmark.h"

#include "ControlPanel.h"
#include "FigureView.h"
#include "MainWindow.h"

#include "core/ParamTable.h"
#include "io/Preset.h"
#include "render/FigureLayoutLoop.h"
#include "render/FigureRegistry.h"
#include "render/QCustomPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QLineEdit>
#include <QPointer>
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
// Draws of every view as it is, once exact (InteractionBenchmark::Result::frameP95Ms).
constexpr int kFrames = 20;

bool settled(const MainWindow &window)
{
    for (const FigureView *view : window.views())
        if (!view->isSettled())
            return false;
    return true;
}

// The panel's control named `name`, searched for once a window: a user's change goes to its control
// at once, and the search through the panel's widgets is not the window's answer to it (it was a
// fiftieth of the GUI thread's time a change).
template<typename Widget> Widget *controlNamed(ControlPanel &panel, const QString &name)
{
    static QHash<std::pair<const ControlPanel *, QString>, QPointer<QWidget>> found;
    // A panel's controls go with it: a panel made later at its address finds its pointers null.
    QPointer<QWidget> &control = found[{&panel, name}];
    if (!control)
        control = panel.findChild<QWidget *>(name);
    return qobject_cast<Widget *>(control.data());
}

// Change i of the sequence: the four parameters in turn, each to a value other than its current
// one, near those of `base`.
void applyChange(ControlPanel &panel, const Params &base, int i)
{
    const int round = i / 4;
    switch (i % 4) {
    case 0:
        controlNamed<QSpinBox>(panel, u"dModelSpin"_s)
            ->setValue(static_cast<int>(base.dModel)
                       + 8
                           * (round % 3 == 0       ? 1
                                  : round % 3 == 1 ? -1
                                                   : 0));
        break;
    case 1:
        controlNamed<QSpinBox>(panel, u"maxLenSpin"_s)
            ->setValue(static_cast<int>(base.maxLen) - 64 * ((round + 1) % 2));
        break;
    case 2: {
        auto *scale = controlNamed<QComboBox>(panel, u"scaleCombo"_s);
        scale->setCurrentIndex(scale->currentIndex() == 1 ? 0 : 1);
        break;
    }
    default:
        controlNamed<QSlider>(panel, u"dropoutSlider"_s)->setValue(50 + (round * 173) % 900);
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

// A parameter of a family's run and the values it takes in turn, the run's own value last: each
// visit moves it to the next, away from the value it holds.
struct Step
{
    QString key;
    QStringList values;
};

// The scenario `view` at `params` that moves `steps` in turn, each change of the kind its key names.
Scenario stepsInTurn(const QString &view, const Params &params, QList<Step> steps, const QStringList &figures = {})
{
    QStringList kinds;
    for (const Step &step : steps)
        kinds.append(QString(step.key).replace(u'-', u'_'));
    return {view, params,
            [steps = std::move(steps)](ControlPanel &panel, int i) {
                const Step &step = steps[i % steps.size()];
                const auto visit = static_cast<qsizetype>(i / steps.size());
                setControl(panel, step.key, step.values[visit % step.values.size()]);
            },
            figures, kinds};
}

// The shipped preset `name` over the defaults, at `maxLen` positions.
Params presetAt(const QString &name, std::int64_t maxLen)
{
    Params params;
    if (const Preset *preset = Presets::find(name)) {
        if (auto applied = preset->applyTo(Params()); std::holds_alternative<Params>(applied))
            params = std::get<Params>(std::move(applied));
    }
    params.maxLen = maxLen;
    return params;
}

// The positions' figures over a batch of 64 rows of 32,768 positions, each row padded on the left
// (docs/ARCHITECTURE.md, Positions in practice), at Llama 3.1 8B's RoPE.
Scenario positions()
{
    constexpr std::int64_t kColumns = 32768;
    const auto lengths = [](std::int64_t shift) {
        QStringList all;
        for (std::int64_t b = 0; b < 64; ++b)
            all.append(QString::number(kColumns - (b * 509 + shift) % (kColumns - 1)));
        return u"left:"_s + all.join(u',');
    };
    Params params = presetAt(u"llama-3-1-8b"_s, kColumns);
    params.batch.lengths = lengths(0);
    params.batch.ids = IdsChoice::ArangeWithPadding;
    return stepsInTurn(u"positions"_s, params,
                       {{u"ids-choice"_s, {u"off-by-one"_s, u"arange-with-padding"_s}},
                        {u"rope-theta"_s, {u"400000"_s, u"500000"_s}},
                        {u"batch"_s, {lengths(7), lengths(0)}}},
                       {u"position-ids"_s, u"position-effect"_s, u"document-distance"_s, u"position-effect"_s});
}

} // namespace

bool runUntil(const std::function<bool()> &done, qint64 giveUpMs)
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

double percentile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

double threadCpuMs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

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

Scenario sinusoidal(const Params &params)
{
    return {u"sinusoidal"_s,
            params,
            [params](ControlPanel &panel, int i) { applyChange(panel, params, i); },
            {},
            {u"d_model"_s, u"max_len"_s, u"scale"_s, u"p"_s}};
}

QList<Scenario> families()
{
    constexpr std::int64_t kLlamaLen = 131072;
    constexpr std::int64_t kRelativeLen = 65536;
    const auto len = [](std::int64_t maxLen) {
        return QStringList {QString::number(maxLen - 64), QString::number(maxLen)};
    };
    return {
        stepsInTurn(u"rope"_s, presetAt(u"llama-3-1-8b"_s, kLlamaLen),
                    {{u"rope-theta"_s, {u"400000"_s, u"500000"_s}},
                     {u"max-len"_s, len(kLlamaLen)},
                     {u"rope-factor"_s, {u"6"_s, u"8"_s}},
                     {u"high-freq-factor"_s, {u"3"_s, u"4"_s}}}),
        stepsInTurn(u"alibi"_s, presetAt(u"bloom-560m"_s, kRelativeLen),
                    {{u"heads"_s, {u"12"_s, u"16"_s}},
                     {u"max-len"_s, len(kRelativeLen)},
                     {u"head"_s, {u"2"_s, u"1"_s}},
                     {u"d-model"_s, {u"1032"_s, u"1024"_s}}}),
        stepsInTurn(u"t5"_s, presetAt(u"t5-base"_s, kRelativeLen),
                    {{u"t5-buckets"_s, {u"48"_s, u"32"_s}},
                     {u"max-len"_s, len(kRelativeLen)},
                     {u"t5-max-distance"_s, {u"120"_s, u"128"_s}},
                     {u"d-model"_s, {u"776"_s, u"768"_s}}}),
        stepsInTurn(u"deberta"_s, presetAt(u"deberta-v3-base"_s, kRelativeLen),
                    {{u"deberta-buckets"_s, {u"128"_s, u"256"_s}},
                     {u"max-len"_s, len(kRelativeLen)},
                     {u"deberta-max-position"_s, {u"480"_s, u"512"_s}},
                     {u"d-model"_s, {u"776"_s, u"768"_s}}}),
        positions(),
    };
}

void setControl(ControlPanel &panel, const QString &key, const QString &text)
{
    const ParamSpec *row = ParamTable::find(key);
    if (!row)
        return;
    const QString name = row->objectName;
    switch (row->kind) {
    case ParamKind::Integer:
    case ParamKind::Unsigned:
    case ParamKind::OptionalInteger:
        if (auto *spin = controlNamed<QSpinBox>(panel, name + u"Spin"_s))
            spin->setValue(text.toInt());
        break;
    case ParamKind::Probability:
        if (auto *spin = controlNamed<QDoubleSpinBox>(panel, name + u"Spin"_s))
            spin->setValue(text.toDouble());
        break;
    case ParamKind::Choice:
    case ParamKind::ChoiceOrNumber:
        if (auto *combo = controlNamed<QComboBox>(panel, name + u"Combo"_s))
            combo->setCurrentIndex(static_cast<int>(row->choices.indexOf(text)));
        break;
    case ParamKind::Switch:
        if (auto *check = controlNamed<QCheckBox>(panel, name + u"Check"_s))
            check->setChecked(text == u"true"_s);
        break;
    case ParamKind::Number:
    case ParamKind::IndexList:
    case ParamKind::OptionalNumber:
    case ParamKind::NumberList:
    case ParamKind::Text:
        if (auto *edit = controlNamed<QLineEdit>(panel, name + u"Edit"_s)) {
            edit->setText(text);
            emit edit->editingFinished();
        }
        break;
    case ParamKind::Matrix:
        break;
    }
}

Result run(const Params &params, int changes)
{
    return run(sinusoidal(params), changes);
}

Result run(const Scenario &scenario, int changes)
{
    if (changes <= 0)
        return {};
    g_previousHandler = qInstallMessageHandler(quietHandler);
    const auto restore = qScopeGuard([] { qInstallMessageHandler(g_previousHandler); });
    MainWindow window(scenario.params, nullptr);
    window.resize(1500, 950);
    window.show();
    const QList<FigureView *> views = window.views();
    for (qsizetype i = 0; i < scenario.figures.size() && i < views.size(); ++i) {
        if (const FigureDescriptor *figure = FigureRegistry::find(scenario.figures[i]))
            views[i]->setFigure(*figure);
    }
    Result result;
    if (!runUntil([&] { return settled(window); }, kStartGiveUpMs)) {
        result.incomplete = u"the views were not exact within %1 s of opening"_s.arg(kStartGiveUpMs / 1000);
        return result;
    }

    // The window's frames after its first exact draw: every view drawn again with the data it
    // holds (a replot, its layout and every layer painted), nothing computed.
    std::vector<double> frames, frameCpu;
    for (int f = 0; f < kFrames; ++f) {
        QElapsedTimer timer;
        timer.start();
        const double cpuBefore = threadCpuMs();
        for (const FigureView *view : window.views())
            view->plot()->replot(QCustomPlot::rpImmediateRefresh);
        frames.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        frameCpu.push_back(threadCpuMs() - cpuBefore);
    }
    result.frameP95Ms = percentile(frames, 0.95);
    result.frameGuiCpuP50Ms = percentile(frameCpu, 0.5);

    // The longest gap between two ticks, and the most of the GUI thread's own processor time in one.
    double maxGap = 0.0, maxBusy = 0.0, cpuAtTick = 0.0;
    QElapsedTimer sinceTick;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(kTimerMs);
    QObject::connect(&ticker, &QTimer::timeout, &ticker, [&] {
        maxGap = std::max(maxGap, static_cast<double>(sinceTick.nsecsElapsed()) / 1e6);
        sinceTick.restart();
        const double cpu = threadCpuMs();
        maxBusy = std::max(maxBusy, cpu - cpuAtTick);
        cpuAtTick = cpu;
    });
    sinceTick.start();
    cpuAtTick = threadCpuMs();
    ticker.start();

    std::vector<double> firstDraw, fullDraw, guiCpu;
    std::vector<std::vector<double>> guiCpuByKind(static_cast<std::size_t>(scenario.kinds.size()));
    ControlPanel &panel = *window.controlPanel();
    const quint64 fittingsBefore = FigureLayoutLoop::fittings(), layoutsBefore = FigureLayoutLoop::layouts();
    quint64 replots = 0;
    QList<QMetaObject::Connection> counting;
    for (const FigureView *view : window.views())
        counting.append(QObject::connect(view->plot(), &QCustomPlot::afterReplot, view, [&replots] { ++replots; }));
    for (int i = 0; i < changes; ++i) {
        const quint64 before = window.views().front()->paramsSerial();
        QElapsedTimer timer;
        timer.start();
        const double cpuBefore = threadCpuMs();
        scenario.change(panel, i);
        if (window.views().front()->paramsSerial() == before)
            continue; // the control did not change a parameter: nothing to measure
        if (!runUntil([&] { return window.isUpToDate(); }, kGiveUpMs)) {
            result.incomplete = u"change %1 was not drawn within %2 s"_s.arg(i + 1).arg(kGiveUpMs / 1000);
            break;
        }
        firstDraw.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        guiCpu.push_back(threadCpuMs() - cpuBefore);
        if (!guiCpuByKind.empty())
            guiCpuByKind[static_cast<std::size_t>(i) % guiCpuByKind.size()].push_back(guiCpu.back());
        // Every tenth change, the user pauses: time the refinement to full detail as well.
        if (i % 10 == 9) {
            if (!runUntil([&] { return settled(window); }, kGiveUpMs)) {
                result.incomplete = u"change %1 was not exact within %2 s"_s.arg(i + 1).arg(kGiveUpMs / 1000);
                break;
            }
            fullDraw.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
    }
    ticker.stop();
    // The refinements of the last changes are counted too: a change's fittings are most often left to
    // its full result, drawn once the controls rest.
    if (result.incomplete.isEmpty() && !runUntil([&] { return settled(window); }, kGiveUpMs))
        result.incomplete = u"the views were not exact within %1 s of the last change"_s.arg(kGiveUpMs / 1000);
    result.changes = static_cast<int>(firstDraw.size());
    if (result.changes > 0) {
        const auto perChange = [&result](quint64 count) { return static_cast<double>(count) / result.changes; };
        result.fittingsPerChange = perChange(FigureLayoutLoop::fittings() - fittingsBefore);
        result.layoutsPerChange = perChange(FigureLayoutLoop::layouts() - layoutsBefore);
        result.replotsPerChange = perChange(replots);
    }
    for (const QMetaObject::Connection &connection : std::as_const(counting))
        QObject::disconnect(connection);
    result.p50Ms = percentile(firstDraw, 0.5);
    result.p95Ms = percentile(firstDraw, 0.95);
    result.maxMs = percentile(firstDraw, 1.0);
    result.settledP95Ms = percentile(fullDraw, 0.95);
    result.guiCpuP50Ms = percentile(guiCpu, 0.5);
    result.guiCpuP95Ms = percentile(guiCpu, 0.95);
    for (qsizetype k = 0; k < scenario.kinds.size(); ++k)
        result.guiCpuP50MsByKind.append(
            {scenario.kinds[k], percentile(guiCpuByKind[static_cast<std::size_t>(k)], 0.5)});
    result.maxStallMs = std::max(0.0, maxGap - kTimerMs);
    result.maxBusyMs = maxBusy;
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
    json[prefix + u"_gui_max_busy_ms"_s] = result.maxBusyMs;
    json[prefix + u"_gui_cpu_p50_ms"_s] = result.guiCpuP50Ms;
    json[prefix + u"_gui_cpu_p95_ms"_s] = result.guiCpuP95Ms;
    json[prefix + u"_fittings_per_change"_s] = result.fittingsPerChange;
    json[prefix + u"_layouts_per_change"_s] = result.layoutsPerChange;
    json[prefix + u"_replots_per_change"_s] = result.replotsPerChange;
    json[prefix + u"_frame_p95_ms"_s] = result.frameP95Ms;
    json[prefix + u"_frame_gui_cpu_p50_ms"_s] = result.frameGuiCpuP50Ms;
    return json;
}

QJsonObject viewJson(const Result &result, const QString &view)
{
    const QString suffix = u"_"_s + view;
    QJsonObject json;
    json[u"interaction_changes"_s + suffix] = result.changes;
    json[u"interaction_p50_ms"_s + suffix] = result.p50Ms;
    json[u"interaction_p95_ms"_s + suffix] = result.p95Ms;
    json[u"interaction_max_ms"_s + suffix] = result.maxMs;
    json[u"interaction_settled_p95_ms"_s + suffix] = result.settledP95Ms;
    json[u"interaction_gui_max_stall_ms"_s + suffix] = result.maxStallMs;
    json[u"interaction_gui_max_busy_ms"_s + suffix] = result.maxBusyMs;
    json[u"interaction_gui_cpu_p50_ms"_s + suffix] = result.guiCpuP50Ms;
    json[u"interaction_gui_cpu_p95_ms"_s + suffix] = result.guiCpuP95Ms;
    json[u"interaction_fittings_per_change"_s + suffix] = result.fittingsPerChange;
    json[u"interaction_layouts_per_change"_s + suffix] = result.layoutsPerChange;
    json[u"interaction_replots_per_change"_s + suffix] = result.replotsPerChange;
    json[u"interaction_frame_p95_ms"_s + suffix] = result.frameP95Ms;
    json[u"interaction_frame_gui_cpu_p50_ms"_s + suffix] = result.frameGuiCpuP50Ms;
    for (const auto &[kind, ms] : result.guiCpuP50MsByKind)
        json[u"interaction_gui_cpu_p50_ms"_s + suffix + u"_"_s + kind] = ms;
    return json;
}

} // namespace posenc::InteractionBenchmark
