#pragma once

#include "core/Params.h"

#include <QString>

#include <functional>
#include <optional>
#include <vector>

// A YaRN inverse-frequency vector whose bands turn on different bases (docs/ARCHITECTURE.md,
// Checking a table, "A declared reference"; issue 56). transformers' _compute_yarn_parameters
// blends two vectors of one base, pair by pair along the ramp: inv_freq_extrapolation =
// 1 / base^(2i/d) where the pairs are kept (the fast ones) and inv_freq_interpolation =
// 1 / (factor base^(2i/d)) where they are divided (the slow ones). A port that builds one of them
// on another base (paiml/aprender#2161: the extrapolated pairs on the NTK-aware base
// base · factor^(d/(d-2))) gives a vector no rope_type gives at one base; read band by band, as the
// undeclared fit reads rope_theta from the fast pairs, each band's base is found and named.
namespace posenc::RopeYarnBands {

struct Bases
{
    double kept = 0.0; // the base of the extrapolated (kept) pairs
    double divided = 0.0; // the base of the interpolated (divided by the factor) pairs
};

// The declared yarn vector with its kept pairs on `bases.kept` and its divided pairs on
// `bases.divided`, the declared ramp between them.
std::vector<double> invFreq(const Params &declared, const Bases &bases);

// The bases, other than the declared rope_theta for both, with which `invFreq` gives a vector that
// `explains` accepts (within its tolerance of `v`): each band's read from its slowest pair, the
// fewest digits first, the NTK-aware base and the declared one tried too. Nothing for a
// declaration of another rope_type, or where no pair of bases explains `v`.
std::optional<Bases> read(const std::vector<double> &v, const Params &declared,
                          const std::function<bool(const std::vector<double> &)> &explains);

// The NTK-aware base of a declaration: rope_theta · factor^(rotary_dim / (rotary_dim - 2)).
double ntkBase(const Params &declared);

// The bases in words, each band's pairs and base, the declared one said: "rope_theta 4.01e+06 for
// the extrapolated (kept) pairs 0..20 where the declaration gives 1e+06 (the NTK-aware base
// rope_theta · factor^(d/(d-2)), ...)".
QString words(const Params &declared, const Bases &bases);

} // namespace posenc::RopeYarnBands
