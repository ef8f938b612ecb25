#pragma once

#include "check/TableMatch.h"
#include "check/rope/RopeFit.h"

#include <QString>


// The other function in a declared RoPE table's place (docs/ARCHITECTURE.md, Checking a table, "A
// declared reference"): a cos table that holds the sines of the declared angles (cos-replaced), or a
// sin table their cosines (sin-replaced), as a port that writes sin() twice or returns (sin, cos)
// for (cos, sin) gives. Named only against the declaration, whose table it is not; undeclared the
// table is the other function's and reads so.
namespace posenc::RopeFunctionReplaced {

// Whether the other function at the declared hypothesis' (`fit`'s) angles and amplitude explains the
// sample in every cell: then `fit` holds the mistake's id and that function's precision.
bool read(const RopeFit::FitInput &input, RopeFit::Fit &fit);
// The match of `fit` so read, its diagnosis saying which function the table holds.
TableMatch said(TableMatch match, const RopeFit::Fit &fit);

} // namespace posenc::RopeFunctionReplaced
