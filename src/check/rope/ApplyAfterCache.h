#pragma once

#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"
#include "core/Block.h"

#include <cstdint>
#include <optional>

// posenc check --apply of rows after a cache (docs/ARCHITECTURE.md, Checking a rotation): a decoding
// step's or a later chunk's rows at p0..p0+n-1, whose angles less a row's read as a table at 0..n-1
// (AnglesRows' origin), the rows' own positions read afterwards with the frequencies found.
namespace posenc::ApplyAfterCache {

// The first row whose every pair's angle is told (a row 0 in X tells none), among the first 64.
std::optional<std::int64_t> firstToldRow(const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
                                         double u);

// Whether the frequencies of `result` place most of the first 64 rows at a position (turned either
// way), each row after the first tried first at its predecessor's successor, as the check reads
// them: angles read relative to a row are a table only where the rows' own positions are then read.
bool placesMostRows(const ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y,
                    const ApplyPairs::Reading &r, double u);

// How many rows from `origin` (of the first 4096) follow each other a position apart: of chunks
// whose positions each restart at p0, the first chunk's.
std::int64_t leadingRun(const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r, double u,
                        std::int64_t origin);

} // namespace posenc::ApplyAfterCache
