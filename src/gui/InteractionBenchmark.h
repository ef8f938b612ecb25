#pragma once

#include <QJsonObject>
#include <QTextStream>

namespace posenc {

// Drives the real main window under the offscreen platform through parameter changes
// (d_model, max_len, scale, p) at L = 8192, d = 1024 as a user moving controls would, and
// measures from each change to every visible plot repainted for it, and the longest time
// the GUI thread went without returning to its event loop.
namespace InteractionBenchmark {

struct Result
{
    int changes = 0;
    double p50Ms = 0.0; // change -> every visible view repainted for it (preview or full)
    double p95Ms = 0.0;
    double maxMs = 0.0;
    double settledP95Ms = 0.0; // change -> every view repainted in full detail, sampled changes
    double maxStallMs = 0.0; // longest gap of a 1 ms timer on the GUI thread, minus its interval
};

// Needs a QApplication. `changes` >= 4.
Result run(int changes = 200);
QJsonObject toJson(const Result &result);

} // namespace InteractionBenchmark

} // namespace posenc
