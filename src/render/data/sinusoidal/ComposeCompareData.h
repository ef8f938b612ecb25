#pragma once

#include "render/data/Detail.h"
#include "render/data/FigureModel.h"
#include "render/data/HeatmapResampler.h"

#include "core/Engine.h"

#include <QList>
#include <QString>

#include <array>
#include <atomic>
#include <optional>

namespace posenc {

// Per column of X, over positions, the mean and std of one part (PE or s*E), for the columns
// that hold it: all d in sum; in concat the last k for the PE, the first d - k for s*E.
struct ColumnPart
{
    QList<double> columns; // of X
    QList<double> mean, std;
};

// One side of the comparison: X composed one way.
struct ComposePanel
{
    Params params; // the parameters with this compose (and, in concat, E's first d - k columns)
    HeatmapGrid grid; // X at screen resolution
    ColumnPart pe, embedding;
    QString label; // "X = s·E + PE", "X = [s·E | PE]"
    QString layout; // "PE added to all 512 columns", "s·E in columns 0–255, PE (k = 256) in 256–511"
    // The PE's fastest and slowest cosine columns, as X numbers them (-1: none), for a caption.
    std::int64_t fastestCos = -1, slowestCos = -1;
};

// Sum against concatenation: X = s*E + PE beside X = [s*E | PE] on one colour scale, and per
// column the mean and std over every position of the PE and of s*E (ColumnStatistics): the PE's
// slow columns are a near-constant offset (mean ~1 for cos, std ~0), its fast ones vary fully;
// concat keeps k columns of PE alone and d - k of s*E alone.
struct ComposeCompareData : FigureData
{
    std::array<ComposePanel, 2> panels; // sum, then concat
    Shape table; // L x d, both ways
    double colorLimit = 1.0; // the shared colour scale is [-colorLimit, colorLimit]
    std::int64_t statisticsRows = 0; // positions the statistics are over
    std::int64_t maxLen = 0;
    QString parameters; // "d = 512, L = 1,024  ·  s = √d = 22.63, σ = 1"
    bool embeddingsSliced = false; // concat's s*E is a loaded matrix's first d - k columns

    bool statisticsExact() const { return statisticsRows == maxLen; }
};

namespace ComposeCompareCompute {

// The parameters of the two sides, sum then concat, with k = pe_dims (d/2 by default). A loaded
// matrix of d columns enters concat by its first d - k columns (the rows the table reads only).
// Precondition: canCompare(params).
std::array<Params, 2> sides(const Params &params);
// Whether both sides can be formed: a loaded matrix must have d columns for the sum.
bool canCompare(const Params &params);

// `visible` holds the cells in view and their pixels, the same for both sides (each side's
// grid is computed for its own panel, of the same size). Nothing when cancelled; a refusal
// when the engine refuses a block within the memory budget.
struct Request
{
    std::array<HeatmapRequest, 2> visible;
    Detail detail = Detail::Full;
};
std::optional<ComposeCompareData> compute(const Params &params, const Request &request, const ComputeOptions &options,
                                          QString *refusal);
// The positions a side's full-detail statistics take: every one, or past the cap of every
// figure (Budget::kMaxExactCells) as many as it allows, an estimate the title names.
std::int64_t statisticsRows(const Params &params);

} // namespace ComposeCompareCompute

} // namespace posenc
