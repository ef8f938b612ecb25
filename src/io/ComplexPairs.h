#pragma once

#include "check/TableRows.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

// Complex numbers dumped as pairs: torch.view_as_real of a complex table ([L, K] complex, [L, K, 2]
// real: Meta's freqs_cis, torch.polar(1, p·θ_k)), or a complex .npy array (NpyReader reads c8 and c16
// so), read as the table cat(real parts, imaginary parts) of L x 2K: for RoPE the cos | sin of its K
// frequencies, as vLLM's cos_sin_cache lays them out (docs/ARCHITECTURE.md, Checking a table, "Shapes").
namespace posenc::ComplexPairs {

// The [L, K] an array of `shape` holds as pairs: of its dimensions other than 1 there are three, the
// last of them 2 and the array's last, the one before it more than 1. Nothing for any other shape.
std::optional<std::pair<std::int64_t, std::int64_t>> pairsOf(const std::vector<std::int64_t> &shape);

// Whether the pairs of `raw`'s first rows (L·K rows of 2; the first 64 of L read) are rotations of one
// modulus (every one within 2 % of the first, which is finite and above 0): a complex table's, where
// a stack of tables of width 2 holds no such pairs.
bool oneModulus(const TableRows &raw, std::int64_t k);

// `raw` read as the table of L rows of 2K: each row's real parts, then its imaginary parts.
std::shared_ptr<const TableRows> asTable(std::shared_ptr<const TableRows> raw, std::int64_t l, std::int64_t k);

} // namespace posenc::ComplexPairs
