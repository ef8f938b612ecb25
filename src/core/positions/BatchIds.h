#pragma once

#include "BatchLayout.h"

#include "core/mrope/MropePrompt.h"

#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace posenc {

class Engine;

// Every token's position id under each choice (docs/ARCHITECTURE.md, Positions in practice), for the
// family of the parameters: one id a token (BatchLayout), or M-RoPE's three, as Qwen-VL's
// get_rope_index gives them with an attention mask (models/qwen2_vl/modeling_qwen2_vl.py,
// Qwen2VLModel.get_rope_index: each row's real tokens laid out alone, the padding 1 on every axis,
// rope_deltas = the row's largest id + 1 - its columns) and at a decode step (Qwen2VLModel.forward:
// position_ids = arange + cache_position[0] + rope_deltas on all three axes); a pack of text
// documents takes the flattening collator's ids, which Qwen2VLTextModel.forward expands to the three
// axes (position_ids[None, ...].expand(3, ...)). The one file of the
// positions that names a family: M-RoPE's tokens are the only ones with three ids, and what follows
// from it (the table's axes, the ids one axis can give, where the distances of three ids are drawn)
// is asked of it by the parameters alone (the static functions). A row's k-th real token is the
// prompt's k-th (--prompt), and past the prompt, text. An engine source.
class BatchIds
{
public:
    explicit BatchIds(const Engine &engine);

    // The axes of these parameters' ids: 3 for M-RoPE's (t, h, w), else 1 (the position-ids
    // table's rows are axes · B).
    static int axesOf(const Params &params);
    // Whether one id a token is all of these parameters' ids: one id a token, or M-RoPE's pack of
    // text, whose ids the flattening collator gives as [B, L] and Qwen2VLTextModel.forward expands
    // to t, h and w alike (position_ids[None, ...].expand(3, position_ids.shape[0], -1)).
    static bool takesOneId(const Params &params);
    // Why these parameters' batch has no ids (problem(), found without an engine where the family
    // is not M-RoPE), or nothing.
    static std::optional<QString> problemOf(const Params &params);
    // Why the query-key distances id(q) − id(k) of these parameters are not one id a token's, or
    // nothing: M-RoPE's are drawn for a text prompt (get_rope_index gives a text token one id on t,
    // h and w; a pack of text takes the collator's ids on all three) without a cache, since a decode
    // step's ids are cache_position + rope_deltas, which the padding's filled 1 can shift from the
    // layout's (liftByPadding).
    static std::optional<QString> distancesProblem(const Params &params);
    // The parameters M-RoPE's ids read beside the batch's: get_rope_index's prompt and its rules.
    static QStringList promptKeys();

    const BatchLayout &layout() const { return m_layout; }
    // 1, or 3 for M-RoPE's (t, h, w).
    int axes() const { return m_mrope ? 3 : 1; }
    // Whether a token's ids are one on every axis, the layout's: one id a token, or M-RoPE's over
    // a text prompt (get_rope_index gives a text token the same t, h and w) and a text pack (the
    // collator's ids expanded to three axes), but where a decode step's ids follow rope_deltas
    // lifted by the padding (liftByPadding).
    bool axesAgree() const { return !m_mrope || (m_textOnly && (m_layout.hasDocuments() || !m_lifted)); }
    // Why these parameters give the batch no ids (a row that cuts the prompt's image), or nothing.
    const std::optional<QString> &problem() const { return m_problem; }

    // The ids of columns [c0, c0 + count) of row b under `choice`: axis a of column c at
    // out[a * count + (c - c0)]. Precondition: no problem().
    void ids(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, std::int64_t *out) const;
    std::int64_t id(IdsChoice choice, std::int64_t b, std::int64_t c, int axis = 0) const;
    // The largest id of a real token on any axis (`axis` -1), or on one, over the batch.
    std::int64_t maxId(IdsChoice choice, int axis = -1) const;
    // The axis each of `pairs` rotary pairs turns by (M-RoPE's sections), else 0.
    std::vector<int> pairAxes(const Params &params, std::int64_t pairs) const;
    // M-RoPE's rope_deltas of row b (its prefill's largest id + 1 - the prefill's columns); 0 for
    // one id a token and for a pack (its ids are given, get_rope_index is not run).
    std::int64_t ropeDelta(std::int64_t b) const;

private:
    struct Prefill
    {
        std::int64_t tokens = 0; // real tokens of the row's prefill
        std::int64_t largest = -1; // their largest id
    };
    std::int64_t prefixLargest(std::int64_t tokens) const;
    std::int64_t rangeLargest(std::int64_t b, std::int64_t k0, std::int64_t k1, int axis) const;
    std::optional<QString> cutSpan(std::int64_t tokens) const;
    void liftByPadding();
    MropeIds promptIds(std::int64_t b, std::int64_t k) const;
    void mropeIds(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, std::int64_t *out) const;

    BatchLayout m_layout;
    bool m_mrope = false;
    bool m_textOnly = false; // M-RoPE's prompt holds no image or video
    bool m_lifted = false; // a decode step's ids differ from the layout's (liftByPadding)
    std::optional<QString> m_problem;
    const MropeLayout *m_prompt = nullptr; // the engine's
    std::vector<std::array<std::int64_t, 3>> m_spanLargest; // each span's largest id on t, h and w
    std::vector<Prefill> m_prefills; // each row's
};

} // namespace posenc
