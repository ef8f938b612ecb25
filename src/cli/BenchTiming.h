#pragma once

#include "core/Block.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace posenc {

// How `posenc bench` times its measurements and holds the machine's limits they are compared
// with (docs/ARCHITECTURE.md, Performance).
namespace BenchTiming {

struct Timing
{
    double minMs = 0.0;
    double medianMs = 0.0;
};

// The faster of two ways to do the same work (two ways to write memory, two copies).
inline const Timing &better(const Timing &a, const Timing &b)
{
    return a.minMs <= b.minMs ? a : b;
}

// A warm-up run, then `repeats` timed runs.
Timing timeIt(int repeats, const std::function<void()> &run);

// Times several runs round-robin: round i times every run once. A shared VM's memory speed
// drifts between runs and even within one; measurements compared with each other (the PE
// fill against the plain fill, the pipeline against the PE fill) then see the same drift
// instead of one of them catching a fast phase the other missed.
std::vector<Timing> timeInterleaved(int repeats, const std::vector<std::function<void()>> &runs);

// float32 cells written in `ms`, in GB/s.
double gbps(std::int64_t cells, double ms);

// The machine's limit: every thread fills its share of the buffer with a constant, through
// the caches (`streaming` false) or around them.
void plainFill(RowMatrixXf &buffer, int threads, bool streaming);

// A plain copy of the pipeline's input (the embedding table) to its output buffer, every thread
// its share, with memcpy or with streaming stores: the least memory traffic the pipeline has.
void plainCopy(RowMatrixXf &to, const RowMatrixXf &from, int threads, bool streaming);

} // namespace BenchTiming

// One line of `posenc bench`'s text: what was timed, its time, and what it is against.
struct BenchLine
{
    QString what;
    double ms = 0.0;
    QString against;
};

// A part of the bench: its keys of --json and its lines of text, under a heading if it has one.
struct BenchPart
{
    QJsonObject keys;
    QList<BenchLine> lines;
    QString heading;
};

} // namespace posenc
