#pragma once

#include "core/Block.h"
#include "core/Params.h"
#include "core/mrope/MropePrompt.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace posenc {

class Engine;

// Which axis each rotary pair takes its position from (0 t, 1 h, 2 w), as the attention applies
// it: huggingface/transformers, models/qwen2_vl/modeling_qwen2_vl.py,
// apply_multimodal_rotary_pos_emb (chunked: mrope_section * 2 split along the last dim, chunk i
// from axis i % 3, so the sections are contiguous runs of pairs), and
// models/qwen3_vl/modeling_qwen3_vl.py, Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope
// (interleaved: h takes the pairs j = 1 mod 3 below 3 s_h, w the pairs j = 2 mod 3 below 3 s_w,
// t the rest; s_t is never read).
namespace MropeAxes {

// The axis of each of `pairs` pairs. Precondition: sectionProblem is empty.
std::vector<int> axes(const MropeParams &mrope, std::int64_t pairs);
// What is wrong with the section for `pairs` rotary pairs: three counts, each >= 0, summing to the
// pairs where chunked (torch.split fails otherwise); nothing when it is valid.
std::optional<QString> sectionProblem(const MropeParams &mrope, std::int64_t pairs);
// The pairs each axis owns.
std::vector<std::int64_t> pairsPerAxis(const std::vector<int> &axes);
// The fastest pair of `axis` (the lowest index), or -1.
std::int64_t fastestPair(const std::vector<int> &axes, int axis);

} // namespace MropeAxes

// The multimodal cos and sin tables of a prompt (an engine source, docs/ARCHITECTURE.md, The
// engine of table sources): token n's pair j turns by id_axis(j)(n) * inv_freq_j, its inverse
// frequencies those of RoPE's rope_type at sequence length max id + 1 (Qwen2VLRotaryEmbedding's
// dynamic update takes max(position_ids) + 1), the attention factor included, in RoPE's layout
// (half: cat(freqs, freqs)). Angles and their cos and sin in double.
class MropeRotation
{
public:
    // Precondition: the engine's parameters are valid, encoding mrope.
    explicit MropeRotation(const Engine &engine);
    // The same for parameters of encoding mrope and their laid-out prompt.
    MropeRotation(const Params &params, const MropeLayout &layout);

    std::int64_t pairs() const { return std::ssize(m_inv); }
    std::int64_t rotaryDim() const { return 2 * pairs(); }
    const std::vector<int> &axes() const { return m_axes; }
    const std::vector<double> &inverseFrequencies() const { return m_inv; }
    double attentionFactor() const { return m_attentionFactor; }

    // A block of mrope-cos (`cosine`) or mrope-sin: tokens x rotary_dim.
    void fillTable(bool cosine, const Block &block, BlockRef out) const;

private:
    const MropeLayout &m_layout;
    RopeLayout m_pairLayout;
    std::vector<int> m_axes;
    std::vector<double> m_inv;
    double m_attentionFactor = 1.0;
};

} // namespace posenc
