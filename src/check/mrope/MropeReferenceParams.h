#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Params.h"

#include <optional>

// The M-RoPE a reference table (posenc check --expect-table) is, read from its every row
// (docs/ARCHITECTURE.md, Checking a table, "A declared reference"): its split and rope_theta as
// the undeclared check reads them (MropeTableFit), then each row's (t, h, w) ids at them, and the
// prompt those ids lay out as get_rope_index lays a prompt out (MropeIdsStructure::promptOf); the
// parameters that give the reference's every row, so that the table is compared with them and a
// deviation named as under --expect mrope.
namespace posenc::MropeReferenceParams {

// The most rows read: a reference of more is not read (its prompt stays open). The reading keeps
// a cache line per pair of every row (MropeTableFit's SplitFit): 4096 rows of 64 pairs, 16 MiB.
constexpr std::int64_t kMostRows = 4096;

// The parameters, or nothing where the rows lay out no prompt, or its reference at them leaves a
// sampled cell beyond the tolerance.
std::optional<Params> read(const TableRows &reference, const TableMatch &reading);

} // namespace posenc::MropeReferenceParams
