#pragma once

#include "check/TableMatch.h"
#include "check/rope/RopeFit.h"

#include <QString>

#include <cstdint>
#include <optional>


// The other function in a declared RoPE table's place (docs/ARCHITECTURE.md, Checking a table, "A
// declared reference"): a cos table that holds the sines of the declared angles (cos-replaced), or a
// sin table their cosines (sin-replaced), as a port that writes sin() twice or returns (sin, cos)
// for (cos, sin) gives. Named only against the declaration, whose table it is not; undeclared the
// table is the other function's and reads so.
namespace posenc::RopeFunctionReplaced {

// Whether the other function at the declared hypothesis' (`fit`'s) angles and amplitude explains the
// sample in every cell, its rows from `firstPosition` where given (the position the table's own
// reading found: a replaced function at an offset), else from the declared one: then `fit` holds the
// mistake's id (and position-offset where the rows start elsewhere), the function's precision, and
// the position its rows start at.
bool read(const RopeFit::FitInput &input, RopeFit::Fit &fit, std::optional<std::int64_t> firstPosition = std::nullopt);
// The match of `fit` so read, its diagnosis saying which function the table holds.
TableMatch said(TableMatch match, const RopeFit::Fit &fit);

} // namespace posenc::RopeFunctionReplaced
