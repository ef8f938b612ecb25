#pragma once

#include "core/Params.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QTextStream>

#include <functional>
#include <utility>
#include <vector>

namespace posenc {

class ControlPanel;

// Drives the real main window under the offscreen platform through parameter changes, as a user
// moving controls would, and measures from each change to every visible plot repainted for it,
// the GUI thread's processor time for it, and the longest time the GUI thread went without
// returning to its event loop (docs/ARCHITECTURE.md, Performance): the sinusoid at L = 8192,
// d = 1024 and at L = 1,048,576, d = 8192, and each family's default views at its presets' scale.
namespace InteractionBenchmark {

struct Result
{
    int changes = 0;
    double p50Ms = 0.0; // change -> every visible view repainted for it (preview or full)
    double p95Ms = 0.0;
    double maxMs = 0.0;
    double settledP95Ms = 0.0; // change -> every view repainted in full detail, sampled changes
    double maxStallMs = 0.0; // longest gap of a 1 ms timer on the GUI thread, minus its interval
    // The most processor time the GUI thread spent between two ticks of that timer: a stall much longer
    // than it is the machine keeping the thread from running (other programs, memory), not the
    // window's work.
    double maxBusyMs = 0.0;
    // The GUI thread's own processor time from a change to every view repainted for it: what
    // the window spends, whatever else the machine runs.
    double guiCpuP50Ms = 0.0;
    double guiCpuP95Ms = 0.0;
    // The p50 of the changes of each kind the scenario names (Scenario::kinds), in its order: a
    // change of d_model redraws other views than one of p.
    QList<std::pair<QString, double>> guiCpuP50MsByKind;
    // The views' fittings to their room and layouts (FigureLayoutLoop) a change, over the run's
    // changes and their refinements: counts the machine's load does not move.
    double fittingsPerChange = 0.0;
    double layoutsPerChange = 0.0;
    // The views' replots (QCustomPlot::replot, each a layout and a painting of every layer) a change,
    // counted alike.
    double replotsPerChange = 0.0;
    // Once every view is exact, before the changes: every view drawn again as it is (a replot),
    // wall time p95 and the GUI thread's processor time p50 over 20 frames. The window's frame
    // budget is 16 ms (docs/ARCHITECTURE.md, Performance).
    double frameP95Ms = 0.0;
    double frameGuiCpuP50Ms = 0.0;
    QString incomplete; // why the run stopped short, if it did
};

// One run of the window: the parameters it opens on (their family's default views, or the figures
// named), and change i of the sequence, made through the controls.
struct Scenario
{
    QString view; // the keys' suffix: "sinusoidal", "rope"
    Params params;
    std::function<void(ControlPanel &panel, int i)> change;
    QStringList figures; // the views' figures, in order; empty: the family's
    QStringList kinds; // what change i moves, kinds[i % kinds.size()]: "d_model", "rope_theta"
};

// The sinusoid's two sizes: d_model, max_len, scale and p in turn, each moved a little from the
// run's parameters.
Params interactive();
Params atScale();
Scenario sinusoidal(const Params &params);
// Each family's default views at its presets' scale, changing its own parameters, max_len and
// d_model in turn: RoPE at Llama 3.1 8B with L 131072; ALiBi (BLOOM-560m), T5 (T5-base) and
// DeBERTa (DeBERTa-v3-base) at L 65536; and the positions' figures over a batch of 64 rows of
// 32,768 positions at Llama 3.1 8B, changing the ids, rope_theta and the batch's lengths.
QList<Scenario> families();

// Sets the control of parameter `key` to `text` as a user would: a spin box's value, a field's
// text entered, a chooser's word, a check box.
void setControl(ControlPanel &panel, const QString &key, const QString &text);

// Needs a QApplication. Opens the window at the scenario's parameters, waits for every view in
// full detail, then makes `changes` changes; every tenth change waits for every view refined in
// full. No change: nothing is run.
Result run(const Scenario &scenario, int changes);
// The same with the sinusoid's changes around `params`.
Result run(const Params &params, int changes);
// The keys of a run, each prefixed ("interaction" gives interaction_p95_ms).
QJsonObject toJson(const Result &result, const QString &prefix);
// The keys of a view's run, each suffixed: interaction_p95_ms_rope, interaction_gui_cpu_p50_ms_rope,
// and the GUI thread's p50 of each kind of change: interaction_gui_cpu_p50_ms_rope_rope_theta.
QJsonObject viewJson(const Result &result, const QString &view);

// Runs the event loop until `done` holds, false after `giveUpMs`. It sleeps between events as
// the application's own loop does: QCoreApplication::processEvents with a time limit drops
// WaitForMoreEvents and would spin, taking a core from the jobs it waits for.
bool runUntil(const std::function<bool()> &done, qint64 giveUpMs);
// The percentile q in [0, 1] of `values` (the nearest rank), 0 for none.
double percentile(std::vector<double> values, double q);
// Processor time of the calling thread, in milliseconds.
double threadCpuMs();

} // namespace InteractionBenchmark

} // namespace posenc
