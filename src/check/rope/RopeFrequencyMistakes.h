#pragma once

#include "check/PairReference.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Params.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

// Mistakes of a whole RoPE frequency vector that no parameter of the declared rope_type gives
// (docs/ARCHITECTURE.md, Checking a table, "A declared reference"; issue 56), each a fixed function
// of the declared reference, so it is named only against one:
// - `rope-applied-twice`: the rotation applied once more to what it already rotated,
//   R(p w)·R(p w) = R(2 p w), so every angle is twice the reference's and the amplitude the
//   attention factor squared (NVIDIA/TensorRT-LLM#16378, bug 1: yarn missing from
//   PositionEmbeddingType.is_rope(), the unfused path's RotaryEmbedding rotated k and the QKV
//   preprocess kernel rotated it again: "mscale^2-scaled and rotated by twice the angle");
// - `rope-frequencies-inverted`: the frequencies computed from pos_freqs = theta^(2i/d) where
//   transformers takes inv_freq = 1 / pos_freqs (microsoft/onnxruntime-genai#2076, bug 4:
//   make_inv_freq_rescaled_with_ntk's `interpolation = 1.0 / (factor * inv_freq)`,
//   `extrapolation = 1.0 / inv_freq`), each pair's scaling kept; or each declared frequency
//   replaced by its reciprocal.
// - `rope-factor-in-power`: a scaling's interpolated frequencies computed with the factor inside
//   the power, 1 / (factor * theta)^(2i/d) = theta^(-2i/d) factor^(-2i/d), where transformers divides
//   by it, 1 / (factor * theta^(2i/d)) (_compute_yarn_parameters' inv_freq_interpolation,
//   _compute_llama3_parameters' inv_freq / factor, _compute_linear_scaling_rope_parameters): each
//   pair's interpolated share kept, its ratio to the unscaled frequency factor^(2i/d) in place of
//   factor (apache/tvm#18576, gpt-oss's YaRN; there with truncate's floor and ceil besides, which a
//   YaRN declaration's other truncate names beside it, `yarn-truncate`).
// A candidate is compared only in the cells whose angle a float32 computation still pins (a pair
// turning at theta^(2i/d) radians a position is read over its first few positions), so a table
// computed with float32 angles, as the real code computes it, is named too.
namespace posenc::RopeFrequencyMistakes {

inline const QString kAppliedTwice = QStringLiteral("rope-applied-twice");
inline const QString kFrequenciesInverted = QStringLiteral("rope-frequencies-inverted");
inline const QString kFactorInPower = QStringLiteral("rope-factor-in-power");

// A whole frequency vector made from the declared one by a mistake, with its amplitude.
struct Candidate
{
    QString id;
    std::vector<double> w;
    double amplitude = 1.0;
    QString words; // what the table holds, in a clause
    QStringList also; // the declared parameters that differ besides (yarn-truncate)
};

// The candidates of a declared schedule (`w`, `amplitude`) whose unscaled frequencies at its
// rope_theta are `unscaled` (theta^(-2i/d), the same number of pairs).
std::vector<Candidate> candidates(const std::vector<double> &w, double amplitude, const std::vector<double> &unscaled);

// The factor-in-the-power candidates of a declaration (`declared`: a rope_type that divides its
// interpolated pairs by a factor, linear, llama3 or yarn), at its own parameters and, for yarn, at
// the other truncate; `amplitude` the declared attention factor. Empty for other types. Each
// candidate's `words` take the pair shown and its two frequencies (%1, %2, %3).
std::vector<Candidate> powerCandidates(const Params &declared, double amplitude);

// The pair whose frequency `candidate` moves furthest from `reference` (by ratio), to show both values.
std::size_t mostMoved(const std::vector<double> &candidate, const std::vector<double> &reference);

// The unscaled frequencies theta^(-2i/rotary_dim) of `pairs` pairs.
std::vector<double> unscaledOf(double theta, std::int64_t pairs);

// How a table's cells agree with a candidate: the cells compared (those whose float32 angle is
// pinned to kPinnedAngle radians) and those beyond the tolerance.
struct Agreement
{
    std::int64_t compared = 0;
    std::int64_t beyond = 0;
    // The pairs with a cell compared, and of them those with at most one in a thousand beyond.
    std::int64_t pairs = 0;
    std::int64_t pairsAgreeing = 0;
    // The candidate gives the table: at least two cells a column compared, seven pairs in eight
    // agreeing and at most a cell in twenty beyond. Not every pair: a scaled pair's frequency blends
    // a large pos_freqs by a ramp computed in float32 (yarn's), whose rounding that pair's angle
    // carries far past a float32 unit; the other candidates miss in nearly every pair.
    bool holds(std::int64_t cols) const
    {
        return compared >= 2 * cols && pairsAgreeing * 8 >= pairs * 7 && beyond * 20 <= compared;
    }
};

// `table`'s cells against amplitude * cos|sin(p w[pair]) for each column of `columns` (pair -1 not
// compared), row r at position `position(r)` (negative: not compared), at most `maxRows` rows read;
// `unit` the stored format's relative rounding (float32's 2^-24), `slack` a further absolute room.
Agreement agree(const TableRows &table, const std::vector<ReferenceColumn> &columns,
                const std::function<std::int64_t(std::int64_t)> &position, const Candidate &candidate, double unit,
                double slack, std::int64_t maxRows);

// Of a declared RoPE table that deviates with no mistake named (`declared`, streamed, whose
// reference is a PairReference of the table's width and whose params are the declaration): the
// match with the mistake named and both readings said; nothing where no candidate holds.
std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table);

} // namespace posenc::RopeFrequencyMistakes
