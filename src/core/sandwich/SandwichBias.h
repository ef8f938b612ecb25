#pragma once

#include "core/HeadBias.h"
#include "core/Params.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

// Sandwich's biases (docs/ARCHITECTURE.md, Encoding families), as NVIDIA NeMo's
// SandwichRelativePositionEmbedding.forward computes them
// (nemo/collections/nlp/modules/common/megatron/position_embedding/
// sandwich_relative_position_embedding.py), in double and rounded once to float32:
//   r = |i - j| (build_relative_position(full=True)), 0 for j > i when causal (torch.tril);
//   inv_freq_k = 1 / 10000^(2k/d) for k in torch.arange(1, d/2 + 1);
//   bias = (sum_k cos(r inv_freq_k) - d/2) / (h * 8 / H) for head h of H.
// torch.arange(1, d/2 + 1) has a float end: k runs 1 .. ceil(d/2), one term more than d/2 for an
// odd d, so the bias at r = 0 is 1/2 / (8h/H) there, not 0. NeMo computes in float32; its cells
// differ from these by the rounding of its float32 angles (tests/data/make_sandwich_fixture.py).
namespace posenc::SandwichBias {

// len(torch.arange(1, d/2 + 1)): ceil(d/2).
std::int64_t terms(std::int64_t headDim);
// inv_freq_1 .. inv_freq_terms, in double.
std::vector<double> frequencies(std::int64_t headDim);
// h * 8 / H, the divisor of head h's bias: head 1's bias is H/8 times the sum's, head H's 1/8.
double scale(std::int64_t heads, std::int64_t head);
// sum_k cos(r w_k), the sinusoid's PE_p . PE_(p + r) over these frequencies.
double cosineSum(const std::vector<double> &w, std::int64_t r);
// The distance NeMo uses for query i and key j: |i - j|, and 0 after the query when causal.
std::int64_t distance(std::int64_t query, std::int64_t key, SandwichMask mask);
// Head h's bias at distance r, in double: (cosineSum(r) - d/2) / scale.
double atDistance(const std::vector<double> &w, std::int64_t headDim, double scale, std::int64_t r);
// The same from the distance's sum: (sum - d/2) / scale, as atDistance computes it.
double ofSum(double sum, std::int64_t headDim, double scale);

// cosineSum(frequencies(d), r) at each distance r, kept: a distance's sum takes ceil(d/2) cosines
// (2048 at head dim 4096) and every cell of a table's diagonal holds the same distance, so a table
// sums each of its distances once, not once a tile of rows (11.6 s for a 4096 x 4096 table at head dim
// 4096, minutes at 16384). The distances below `most` are summed in chunks as first asked for, from
// any thread; a block far out sums only its own; farther distances are summed as asked.
class DistanceSums
{
public:
    DistanceSums(std::int64_t headDim, std::int64_t most);
    // A table's: its distances 0 .. max_len - 1 (an Engine source).
    explicit DistanceSums(const Params &params);

    std::int64_t headDim() const { return m_headDim; }
    double at(std::int64_t r) const;

private:
    static constexpr std::int64_t kChunk = 256;
    std::int64_t m_headDim = 0;
    std::vector<double> m_w;
    mutable std::vector<std::unique_ptr<double[]>> m_chunks;
    std::unique_ptr<std::once_flag[]> m_done;
};
// How many distances' sums this process's DistanceSums have computed: what a test reads to see each
// distance summed once.
std::int64_t sumsComputed();
// The bias of query i for key j under the parameters' head, dim and mask. Precondition: valid.
double bias(const SandwichParams &params, std::int64_t query, std::int64_t key);
// The biases at the key offsets t = j - i = first .. first + count - 1, as float32: each value of
// atDistance() rounded once, its sum read from `sums` (of params.headDim).
void biases(const SandwichParams &params, const DistanceSums &sums, std::int64_t first, std::int64_t count, float *out);
// The largest |bias| head `head` can give at any distance: (terms + d/2) / scale.
double largest(const SandwichParams &params, std::int64_t head);
// What a causal table holds after the query, where r = 0: (terms - d/2) / scale, 0 for an even d.
double afterQuery(std::int64_t headDim, double scale);
// The mask in words: "causal (NeMo's tril: distance 0 after the query)", "bidirectional".
QString maskText(SandwichMask mask);

// The heads a figure draws: every head up to kMaxDrawnHeads, else an even choice of that many from
// 1 to H, with head K among them.
constexpr std::int64_t kMaxDrawnHeads = 16;
QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head);

// What `posenc describe` prints for Sandwich's parameters.
struct Description
{
    std::int64_t terms = 0; // ceil(d/2)
    double firstFrequency = 0.0; // inv_freq_1 = 10000^(-2/d)
    double lastFrequency = 0.0; // inv_freq_terms
    double scale = 0.0; // 8K/H
    double afterQuery = 0.0; // the causal table's value after the query
    double nearBias = 0.0; // the bias at distance 1
    double farthestBias = 0.0; // the bias at distance max_len - 1
    double farMean = 0.0; // -d/2 / scale: the bias's mean over distances far past 1 / inv_freq_terms
};
// Precondition: params valid.
Description describe(const Params &params);

// Sandwich as a per-head bias (HeadBias): H, K, and head K's bias at distance |i − j|.
const HeadBias::Family &biasFamily();

} // namespace posenc::SandwichBias
