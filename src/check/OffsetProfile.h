#pragma once

#include "check/TableSample.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace posenc {

// A sampled table read by the key's offset t = j - i from the query (docs/ARCHITECTURE.md,
// Checking a table): what a table of relative biases or buckets holds, value(t). Each offset's
// value is the one most of the sample's cells at that offset hold (a changed cell is outvoted
// where its offset has other cells), and the cells that differ from it are counted: none in a
// table of offsets, most in any other.
struct OffsetProfile
{
    std::int64_t first = 0; // the least offset, -(rows - 1)
    std::vector<float> values; // at offset first + k; NaN where the sample has no cell
    std::vector<std::int32_t> votes; // the sampled cells that hold it
    std::int64_t cells = 0; // the sampled cells
    std::int64_t disagreeing = 0; // the sampled cells that differ from their offset's value

    bool has(std::int64_t offset) const;
    float at(std::int64_t offset) const; // NaN where the sample has no cell
    std::int32_t votesAt(std::int64_t offset) const;
    std::int64_t last() const { return first + std::int64_t(values.size()) - 1; }
    // Whether the sample is a table of offsets: at most one cell in a hundred, and three at
    // most besides, differs from its offset's value (a changed cell is a mistake to show).
    bool isToeplitz() const { return cells > 0 && disagreeing <= 3 + cells / 100; }
    // The profile of the other difference, i - j: its value at offset t is this one's at -t (a
    // table of relative positions taken the wrong way round reads right mirrored).
    OffsetProfile mirrored() const;
};

// The distances d = 1, 2, ... of one side of a profile (keys before the query, t = -d, or after
// it, t = d) where the value changes: for each run of equal values, its first and last distance
// the sample holds, and the value. What a bucket's fit checks a candidate against: a bucket
// grows with the distance, so agreeing at the ends of each run it agrees within it. Offsets held
// by fewer than `minVotes` sampled cells are left out (a changed cell alone at its offset).
struct ProfileRun
{
    std::int64_t first = 0;
    std::int64_t last = 0;
    double value = 0.0;
};
std::vector<ProfileRun> profileRuns(const OffsetProfile &profile, bool after, std::int32_t minVotes = 1);

// The profile of the sample, its row r the query at position r + `start` (queryStart), or nothing
// when the table is too wide to index by offset (more than `maxOffsets` offsets).
std::optional<OffsetProfile> offsetProfile(const TableSample &sample, std::int64_t start,
                                           std::int64_t maxOffsets = std::int64_t(1) << 26);

// The position of a relative map's query row 0 where nothing declares it (docs/ARCHITECTURE.md,
// Checking a table, "a step with a cache"): a map of q < k rows over k keys is read as a step with a
// cache, its queries the last q of the k positions, as transformers' T5Attention.forward keeps them
// (position_bias[:, :, -seq_length:, :] of compute_bias(real_seq_length, key_length),
// src/transformers/models/t5/modeling_t5.py) and x-transformers' biases take them
// (q_pos = arange(j - i, j)); a square map's rows are 0 .. L - 1. Another window (the first q,
// DeBERTa's, or one --positions declares) is a parameter the check passes down: the sample's
// TableSample::queryStart, from CheckDeclaration::queryStart.
std::int64_t queryStart(std::int64_t rows, std::int64_t cols);

} // namespace posenc
