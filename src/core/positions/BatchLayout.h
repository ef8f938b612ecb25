#pragma once

#include "core/Params.h"

#include <QString>

#include <cstdint>
#include <span>
#include <variant>
#include <vector>

// The batch's rows laid out (docs/ARCHITECTURE.md, Positions in practice): each row a few segments
// of columns, real tokens or padding, each real one a document's or a decode step's, and the
// position id of every token under each choice of ids, as the reference computes it:
// - transformers' generation (src/transformers/generation/utils.py,
//   GenerationMixin.prepare_inputs_for_generation): position_ids = attention_mask.long().cumsum(-1)
//   - 1, then position_ids.masked_fill_(attention_mask == 0, 1); a decode step extends the mask by
//   a column of ones (_update_model_kwargs_for_generation), so its id is the row's real tokens
//   before it, and cache_position the column;
// - the flattening collator (src/transformers/data/data_collator.py, DataCollatorWithFlattening):
//   position_ids += list(range(len(input_ids))) for each document, restarting at 0, which the
//   varlen attention reads the documents' starts from (modeling_flash_attention_utils.py,
//   prepare_fa_kwargs_from_position_ids; masking_utils.py, find_packed_sequence_indices, only where
//   no 2-D attention mask is given).
// A model that adds its position term by column (params.batch.positions, WhisperEncoder.forward)
// reads no ids: every choice's id is then the column, the padding's too.
// Within a real segment every choice's id is the column plus a constant, so a row of 32768
// positions is a handful of numbers, and any block is filled in O(segments).
namespace posenc {

struct BatchSegment
{
    std::int64_t start = 0;
    std::int64_t length = 0;
    std::int64_t document = -1; // its document in the row (0 without documents); -1: padding
    bool decode = false; // a decode step after the prefill (columns from the cache on)
    std::int64_t realBefore = 0; // the row's real tokens before it

    bool isReal() const { return document >= 0; }
    std::int64_t end() const { return start + length; }
};

class BatchLayout
{
public:
    // transformers fills the padding's ids with 1 (masked_fill_(attention_mask == 0, 1)).
    static constexpr std::int64_t kPaddingId = 1;

    // Precondition: params.validate() is empty.
    explicit BatchLayout(const Params &params);
    // Whether the queries of the model `params` describe see the keys after them too: its family's
    // parameters where they say (FamilySpec::attendsBothWays: T5's encoder, DeBERTa, ALiBi's
    // symmetric mask), else the model's params.batch.attention (ModernBERT's RoPE, an encoder's
    // sinusoid).
    static bool attendsBothWays(const Params &params);
    // The farthest distance between a query and a key its attention lets it see, within max_len:
    // max_len − 1, or less where the model attends within chunks or a causal sliding window
    // (transformers' masking_utils.py: chunked_overlay keeps kv_idx // chunk_size == q_idx //
    // chunk_size, so a key at most chunk − 1 back; sliding_window_overlay keeps kv_idx > q_idx −
    // sliding_window, at most window − 1 back). Llama 4 masks its RoPE layers so
    // (models/llama4/modeling_llama4.py, Llama4TextModel.forward: the chunked_attention layers take
    // create_chunked_causal_mask); a distance past it is one those layers never score.
    static std::int64_t farthestKey(const Params &params);
    // Why farthestKey is below max_len − 1, in words ("attend within chunks of 8,192 positions");
    // empty where it is not.
    static QString farthestKeyWhy(const Params &params);

    enum class Side { Left, Right };
    struct Lengths
    {
        Side side = Side::Left;
        std::vector<std::int64_t> lengths;
    };
    // "left:5,8,3": the side and each row's real tokens; the problem in words otherwise.
    static std::variant<Lengths, QString> parseLengths(const QString &text);
    // "3,4,2/5,4": each row's documents' lengths; the problem in words otherwise.
    static std::variant<std::vector<std::vector<std::int64_t>>, QString> parsePacked(const QString &text);

    std::int64_t rows() const { return std::int64_t(m_rowFirst.size()) - 1; }
    std::int64_t cols() const { return m_cols; }
    std::int64_t cache() const { return m_cache; }
    // Whether the rows hold documents (--packed, --document-ids).
    bool hasDocuments() const { return m_documents; }
    // Whether a 2-D attention mask is given beside the documents: transformers then takes the mask
    // path, which knows no documents (_flash_attention_forward; _preprocess_mask_arguments).
    bool twoDimensionalMask() const { return m_twoDimensionalMask; }
    // Whether the attention under `choice` keeps the documents apart (a block-diagonal causal
    // mask, varlen's cu_seqlens): documents, no 2-D mask, and ids that restart at each.
    bool blockMask(IdsChoice choice) const;
    // Whether the model's queries see the keys after them too (attendsBothWays); else the
    // attention is causal.
    bool bothWays() const { return m_bothWays; }
    // Whether the model adds its position term by column (Positions::ByColumn): every id the column.
    bool byColumn() const { return m_byColumn; }

    std::span<const BatchSegment> row(std::int64_t b) const;
    // The segment holding column c of row b.
    const BatchSegment &segmentAt(std::int64_t b, std::int64_t c) const;
    std::int64_t realTokens(std::int64_t b) const;
    // The first real column of row b's document that holds column c (of the row, without
    // documents), or -1 for a row without real tokens.
    std::int64_t documentStart(std::int64_t b, std::int64_t c) const;

    // The 1-D position id of column c of row b under `choice`.
    std::int64_t id(IdsChoice choice, std::int64_t b, std::int64_t c) const;
    // A real segment's id under `choice` is its column plus this (0 by column).
    std::int64_t offset(IdsChoice choice, const BatchSegment &segment) const;
    // The id of a padding column c under `choice`: transformers' filled 1, arange's column, or the
    // column by column.
    std::int64_t paddingId(IdsChoice choice, std::int64_t c) const;
    // The largest id of a real token under `choice`, over the batch (-1 without real tokens): what
    // a rotary embedding's dynamic update reads as the length, torch.max(position_ids) + 1.
    std::int64_t maxId(IdsChoice choice) const;
    // Fills ids [c0, c0 + count) of row b under `choice`.
    void ids(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, std::int64_t *out) const;

private:
    void addRow(std::vector<BatchSegment> segments);
    void splitAtCache(std::vector<BatchSegment> &segments) const;

    std::int64_t m_cols = 0;
    std::int64_t m_cache = 0;
    bool m_documents = false;
    bool m_twoDimensionalMask = false;
    bool m_bothWays = false;
    bool m_byColumn = false;
    std::vector<BatchSegment> m_segments;
    std::vector<std::int64_t> m_rowFirst {0};
};

} // namespace posenc
