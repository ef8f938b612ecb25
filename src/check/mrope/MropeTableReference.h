#pragma once

#include "check/TableReference.h"
#include "core/Params.h"
#include "core/mrope/MropePrompt.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

// The references `posenc check` compares an M-RoPE cos or sin table with (docs/ARCHITECTURE.md,
// Checking a table): token n's pair j turns by id_axis(j)(n) * inv_freq_j, as
// huggingface/transformers' models/qwen2_vl/modeling_qwen2_vl.py, apply_multimodal_rotary_pos_emb
// (chunked sections) and models/qwen3_vl/modeling_qwen3_vl.py,
// Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope (interleaved) apply them, the table
// [tokens, rotary_dim] as emb = cat(freqs, freqs) gives it (or GPT-J's pairs). The ids are a
// declared prompt's (get_rope_index, MropeLayout), or, with one of the mistakes below, what a
// port that makes it computes; or the ids read from a table's own sampled rows.
namespace posenc {

// What a port gets wrong in the ids, on top of the prompt's:
// - AxesSwapped: h and w exchanged on every image and video token;
// - DeltaLost: the rows after the prompt (generated tokens) at their cache position, without
//   rope_deltas.
enum class MropeIdMistake { None, AxesSwapped, DeltaLost };

// What turns each pair: its axis (0 t, 1 h, 2 w), its inverse frequency, the amplitude (the
// attention factor) and the columns' layout (half: pair j in columns j and j + pairs).
struct MropeTurns
{
    std::vector<int> axes;
    std::vector<double> inv;
    double amplitude = 1.0;
    bool half = true;
    // Per column, the axis it turns by where a port's columns differ from their pair's (one half of
    // cat(freqs, freqs) at other ids than the other); empty: every column its pair's axis.
    std::vector<int> columnAxes;

    std::int64_t pairs() const { return std::ssize(inv); }
    std::int64_t cols() const { return 2 * pairs(); }
    // The pair column `column` holds.
    std::int64_t pairOf(std::int64_t column) const { return half ? column % pairs() : column / 2; }
    // Rows of cos (`cosine`) or sin at `ids`, columns col0 .. col0 + cols - 1, in double then
    // rounded once.
    void fill(bool cosine, const MropeIds *ids, std::int64_t rows, std::int64_t col0, std::int64_t cols, float *out,
              std::int64_t stride) const;
};

// The turns of valid parameters of encoding mrope: MropeRotation's axes, frequencies (RoPE's
// rope_type at the prompt's sequence length) and attention factor.
MropeTurns mropeTurns(const Params &params, const MropeLayout &layout);

// Where a table's rows are besides the prompt: after `leftPadding` rows of left padding (--batch
// left:N); at a window of positions (--positions A:B): with a prompt declared, the sequence's tokens
// A..B-1, each at its cache position's ids (the prompt's tokens', then a generated token's
// cache_position + rope_deltas: a decode step after the prompt), with none, a text-only window at ids
// A + row on every axis (t = h = w: get_rope_index's text tokens), the prompt unread; and every id
// `shift` from there (a port's rows at a constant offset: position-offset).
struct MropeRowIds
{
    MropeRowIds(std::int64_t padding = 0, std::optional<std::int64_t> firstPosition = std::nullopt,
                bool windowOfPrompt = false, std::int64_t idShift = 0)
        : leftPadding(padding)
        , window(firstPosition)
        , ofPrompt(windowOfPrompt)
        , shift(idShift)
    { }
    std::int64_t leftPadding;
    std::optional<std::int64_t> window;
    bool ofPrompt;
    std::int64_t shift;
    // A window read without the prompt: t = h = w = A + row.
    bool textWindow() const { return window && !ofPrompt; }
};

// The declared prompt's table: rows past the prompt's tokens are generated tokens, at their index
// + rope_deltas on every axis (position_ids = cache_position + rope_deltas). With `leftPadding`, the
// table is a left-padded row's: its first rows padding at ids 1 on every axis, which get_rope_index
// fills them with (position_ids = torch.ones(...), the attention mask's tokens alone set) and the
// rotary embedding turns as any; the prompt and its generated tokens after them, rope_deltas
// counted from the padded row's length as cache_position counts it. Precondition: valid parameters
// of encoding mrope.
class MropePromptReference final : public TableReference
{
public:
    MropePromptReference(const Params &params, bool cosine, MropeIdMistake mistake = MropeIdMistake::None,
                         std::vector<int> columnAxes = {}, MropeRowIds rowIds = {});

    std::int64_t cols() const override { return m_turns.cols(); }
    bool compared(std::int64_t) const override { return true; }
    // The row's largest id, which float32 angles' error grows with.
    std::int64_t position(std::int64_t row) const override;
    void forEachTile(const Block &block, const TileSink &sink) const override;

    // The ids of `count` rows from `row0` on, the mistake's included.
    void ids(std::int64_t row0, std::int64_t count, MropeIds *out) const;
    const MropeLayout &layout() const { return *m_layout; }
    const MropeTurns &turns() const { return m_turns; }
    std::int64_t leftPadding() const { return m_padding; }
    // The first position of a text-only window (MropeRowIds::textWindow), where the rows are one.
    std::optional<std::int64_t> window() const { return m_rowIds.textWindow() ? m_rowIds.window : std::nullopt; }
    // The rows' placing besides the prompt.
    const MropeRowIds &rowIds() const { return m_rowIds; }
    bool cosine() const { return m_cosine; }

private:
    // The ids of the rows from the first real token on (row0 counted from it).
    void realIds(std::int64_t row0, std::int64_t count, MropeIds *out) const;

    std::shared_ptr<const MropeLayout> m_layout;
    MropeTurns m_turns;
    bool m_cosine;
    MropeIdMistake m_mistake;
    std::int64_t m_padding = 0;
    MropeRowIds m_rowIds;
};

// The rows of left padding before a table of `rows` rows whose batch row is declared
// `--batch left:N` (its N real tokens, the prompt's and any generated after it): rows - N, or 0.
std::int64_t mropeLeftPadding(const Params &params, std::int64_t rows);

// The ids read from a table's own sampled rows, which alone it compares: what an M-RoPE table is
// when no prompt says what its ids should be.
class MropeSampledReference final : public TableReference
{
public:
    MropeSampledReference(MropeTurns turns, bool cosine, std::vector<std::int64_t> rows, std::vector<MropeIds> ids);

    std::int64_t cols() const override { return m_turns.cols(); }
    bool compared(std::int64_t row) const override;
    std::int64_t position(std::int64_t row) const override;
    void forEachTile(const Block &block, const TileSink &sink) const override;

private:
    MropeTurns m_turns;
    bool m_cosine;
    std::vector<std::int64_t> m_rows; // increasing
    std::vector<MropeIds> m_ids;
};

} // namespace posenc
