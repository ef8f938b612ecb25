#pragma once

#include "check/TableRows.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

// Numbers dumped as pairs of a last dimension of 2 (docs/ARCHITECTURE.md, Checking a table,
// "Shapes"): a complex table as torch.view_as_real gives it ([.., L, K, 2] real: Meta's freqs_cis,
// torch.polar(1, p·θ_k)) or as numpy saves it (complex64/128, which NpyReader reads with a last
// dimension of 2 of its parts), or an interleaved sinusoid stacked as (sin, cos) pairs
// ([L, d/2, 2]: torch.stack((sin, cos), -1)). What a pair is, the data says: a complex cache's pairs
// are (cos, sin) of one angle per row and frequency, row r's angles w_k · q_r for positions q_r
// shared by its K pairs; a sinusoid's are (sin, cos) of such angles. A complex cache is read as the
// table cat(real parts, imaginary parts), L x 2K: the cos | sin of its K frequencies, as vLLM's
// cos_sin_cache lays them out. Pairs that are (sin, cos), or where the data cannot tell (both
// readings, or neither, are such angles), are read as the file lays them out, rows of 2K, the
// pairs interleaved; a complex array is always a complex cache.
namespace posenc::ComplexPairs {

// How an array holds pairs: its rows (the product of its dimensions before the last two, the
// trailing 2 aside), K pairs a row, and the file's shape.
struct Pairs
{
    std::int64_t rows = 0;
    std::int64_t k = 0;
    // The shape of the table the pairs make, the file's without the 2, its last dimension doubled.
    std::vector<std::int64_t> tableShape;
};

// The pairs an array of `shape` holds: a complex array's always (of the file's shape, at least one
// dimension, its last K); a real array's where its last dimension is 2 and, of its dimensions
// other than 1, there are at least three, the one before the last more than 1. Nothing else.
std::optional<Pairs> pairsOf(const std::vector<std::int64_t> &shape, bool complex);

// Whether the pairs of `raw`'s first rows (rows of 2; the first 64 of the table's rows read) are
// rotations of one modulus (every one within 2 % of the first, which is finite and above 0): a
// complex table's or a sinusoid's, where a stack of tables of width 2 holds no such pairs.
bool oneModulus(const TableRows &raw, std::int64_t k);

enum class Order { CosSin, SinCos, Either, Neither };

// Which order the pairs of `raw` (pairs.rows · pairs.k rows of 2) are read in: (cos, sin) where
// their angles atan2(second, first) are w_k · q_r over the first rows (q_r one position a row, w_k
// one frequency a pair: any offset, step or frequencies), (sin, cos) where atan2(first, second) are,
// Either where both are, Neither where none is.
Order orderOf(const TableRows &raw, const Pairs &pairs);

// The words of a reading, for the table's name: `fileShape` as the file writes it.
QString readingWords(Order order, bool complex, const QString &fileShape, const Pairs &pairs);

// `raw` read as the table of pairs.rows rows of 2K: each row's real parts, then its imaginary parts.
std::shared_ptr<const TableRows> asTable(std::shared_ptr<const TableRows> raw, const Pairs &pairs, QString words);

} // namespace posenc::ComplexPairs
