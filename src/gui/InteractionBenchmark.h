#pragma once

#include "core/Params.h"

#include <QJsonObject>
#include <QTextStream>

namespace posenc {

// Drives the real main window under the offscreen platform through parameter changes
// (d_model, max_len, scale, p) as a user moving controls would, and measures from each change
// to every visible plot repainted for it, and the longest time the GUI thread went without
// returning to its event loop: at L = 8192, d = 1024, and at the scale the window must keep
// interactive, L = 1,048,576, d = 8192.
namespace InteractionBenchmark {

struct Result
{
    int changes = 0;
    double p50Ms = 0.0; // change -> every visible view repainted for it (preview or full)
    double p95Ms = 0.0;
    double maxMs = 0.0;
    double settledP95Ms = 0.0; // change -> every view repainted in full detail, sampled changes
    double maxStallMs = 0.0; // longest gap of a 1 ms timer on the GUI thread, minus its interval
    // The GUI thread's own processor time from a change to every view repainted for it: what
    // the window spends, whatever else the machine runs.
    double guiCpuP50Ms = 0.0;
    double guiCpuP95Ms = 0.0;
    QString incomplete; // why the run stopped short, if it did
};

// The parameters of each run.
Params interactive();
Params atScale();

// Needs a QApplication. Opens the window at `params`, waits for every view in full detail, then
// makes `changes` changes: d_model, max_len, scale and p in turn, each moved a little from
// `params`; every tenth change waits for every view refined in full. No change: nothing is run.
Result run(const Params &params, int changes);
// The keys of a run, each prefixed ("interaction" gives interaction_p95_ms).
QJsonObject toJson(const Result &result, const QString &prefix);

} // namespace InteractionBenchmark

} // namespace posenc
