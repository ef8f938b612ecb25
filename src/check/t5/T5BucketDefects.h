#pragma once

#include "check/OffsetProfile.h"
#include "check/TableRows.h"
#include "core/t5/T5Params.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// T5's bucket map computed without a part of the reference function (docs/ARCHITECTURE.md,
// Checking a table, "A declared reference"): huggingface/transformers src/transformers/models/t5/
// modeling_t5.py, T5Attention._relative_position_bucket, whose distances from max_exact on take
// the log branch (relative_position_if_large, chosen by torch.where(is_small, ...)) and whose log
// bucket is capped by torch.min(relative_position_if_large, num_buckets - 1). Ports that drop
// either give tables no settings of the function give:
// - the log branch missing, every distance its own bucket (candle#727: `j - i + num_buckets` after
//   the query, `i - j` before), past max_exact unbounded;
// - the clamp missing on a side (candle#1312: the keys before the query without `u32::min(...,
//   num_buckets - 1)`), the distances from about max_distance on in buckets past their half's,
//   those of the other direction.
namespace posenc::T5BucketDefects {

inline const QString kLogBuckets = QStringLiteral("t5-log-buckets");
inline const QString kClamp = QStringLiteral("t5-bucket-clamp");

// An L x L table's values by offset k = j - i, at k + L - 1; NaN where none was read.
struct Offsets
{
    std::int64_t length = 0;
    std::vector<double> values;

    double at(std::int64_t k) const { return values[std::size_t(k + length - 1)]; }
    bool has(std::int64_t k) const;
};

// The sample's profile by offset.
Offsets ofProfile(const OffsetProfile &profile);
// Every cell of a square table, up to 8192 rows: nothing where two cells of one offset differ or a
// cell is no whole number (no map of buckets).
std::optional<Offsets> ofTable(const TableRows &table);

// What a map lacks: the log branch, or the clamp on the sides named.
struct Defect
{
    enum class Part { LogBranch, Clamp };
    Part missing = Part::LogBranch;
    bool before = true, after = true; // the clamp's sides (keys before, after the query)
};

// The bucket of offset k under the defect at T5's settings `params`.
std::int64_t bucket(std::int64_t k, const T5Params &params, const Defect &defect);

// A defect named: at T5's settings, the mistake's id and the words of what the table holds where
// the reference function gives other buckets.
struct Named
{
    T5Params params;
    Defect defect;
    QString id;
    QString words;
    double largest = 0.0; // the table's largest bucket
};

// The defect of T5's map at `params` that gives every offset of the table where the map does not
// (its exact buckets kept, the rest deviating): a map without its log branch or its clamp; else,
// where the table holds T5's exact buckets below max_exact and deviates only beyond, and no
// max_distance gives it, the log branch computing other buckets. Nothing otherwise. `reference`
// says whose map it is in the words: "the declared T5 map".
std::optional<Named> nameAt(const Offsets &offsets, const T5Params &params, const QString &reference);

// Undeclared: a bidirectional map (its half, n, read from the bucket of offset 1, n + 1) holding a
// bucket no settings give (a key before the query in n or past, one after in 2n or past): the
// defect that gives every offset, its max_distance read from the table where the log buckets show
// it. Nothing where every bucket is within its half's range, or no defect gives the table.
std::optional<Named> readUndeclared(const Offsets &offsets);

} // namespace posenc::T5BucketDefects
