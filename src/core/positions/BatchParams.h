#pragma once

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

// The batch a model is given (docs/ARCHITECTURE.md, Positions in practice): a group of parameters
// every family shares, as dropout's, held as `params.batch`. Its rows are in BatchParamRows.cpp,
// what reads them in this folder.
namespace posenc {

// Which position ids the batch's tokens get: the reference's (transformers' generation, its
// flattening collator, Qwen-VL's get_rope_index), or one of the mistakes `posenc check
// --position-ids` names, whose effect the positions figures show against the reference.
enum class IdsChoice {
    Reference,
    ArangeWithPadding, // arange(L) in every row, the padding counted
    PositionsNotRestarted, // a packed row's positions run on across its documents
    RestartedWithoutBlockMask, // restarted, but a 2-D mask given: the attention crosses documents
    CacheOffset, // the decode steps' ids without the cache's offset
    OffByOne, // every real token's id one too many
};

// Which keys a query sees, the model's mask (its reference code's): the keys before it and itself
// (a decoder's), or the keys after it too (an encoder's: BERT-likes, the T5 and Whisper encoders,
// the vision transformers). A family whose own parameters say it (FamilySpec::attendsBothWays: T5's
// t5-causal, DeBERTa, ALiBi's mask) decides instead.
enum class Attention { Causal, BothWays };

// How the model's code adds its position term to its input: by the position ids it is given or
// computes (BERT's position_ids buffer, a decoder's generation), or by column, row c of its table
// to column c, reading no ids (transformers' WhisperEncoder.forward: embed_pos =
// self.embed_positions.weight, sliced to the frames; ViTEmbeddings' and MAE's pos_embed over the
// patches). By column, every choice of ids is the column (BatchLayout::offset).
enum class Positions { ById, ByColumn };

// One run of equal values in a row of a table read from a file.
struct BatchRun
{
    std::int64_t start = 0;
    std::int64_t length = 0;
    std::int64_t value = 0;

    friend bool operator==(const BatchRun &, const BatchRun &) = default;
};

// A [B, L] table of integers read from a file (an attention mask of 0 and 1, or each token's
// document), held as each row's runs of equal values: a batch of 64 rows of 32768 positions with
// its padding at one side is a few hundred runs. Compared by identity in Params.
struct BatchTable
{
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::vector<BatchRun> runs; // row by row, each row's runs from column 0 to cols
    std::vector<std::int64_t> rowFirstRun; // rows + 1 entries: row b's runs are [rowFirstRun[b], rowFirstRun[b + 1])
    // The first cell that is not an integer (or not 0 or 1 where that was asked), for the message.
    std::optional<std::pair<std::int64_t, std::int64_t>> badCell;
    double badValue = 0.0;
    QString source; // where it came from ("mask.npy")
};

struct BatchParams
{
    static constexpr std::int64_t kMaxRows = 4096;
    static constexpr std::int64_t kMaxDocuments = std::int64_t(1) << 20;

    // Lengths with a side, "left:5,8,3": each row's real tokens, padded to the row's length at
    // that side (a tokenizer's padding_side). Empty: no such batch.
    QString lengths;
    // Documents packed into rows, "3,4,2/5,4": each row's documents' lengths, rows apart by '/',
    // each row padded at its end. Empty: none.
    QString packed;
    std::shared_ptr<const BatchTable> mask; // --attention-mask: [B, L] of 0 and 1
    std::shared_ptr<const BatchTable> documents; // --document-ids: each token's document, < 0 padding
    // The prefill's columns: from column `cache` on each column is one decode step after a
    // prefill of that many columns (a KV cache of `cache` entries at the first step); 0: no cache.
    std::int64_t cache = 0;
    IdsChoice ids = IdsChoice::Reference;
    // What a model reads of the absolute position besides its encoding (Llama 4's): the
    // temperature of its NoPE layers' queries, attn_scale (unset: none) over floor_scale, and its
    // chunked attention's attention_chunk_size (unset: none).
    std::optional<double> attnScale;
    std::int64_t floorScale = 8192;
    std::optional<std::int64_t> chunk;
    // The model's sliding window (its config's sliding_window, Mistral 7B's 4096): a causal query
    // sees the keys less than `window` positions before it, masking_utils' sliding_window_overlay
    // (q − k < sliding_window); unset: none.
    std::optional<std::int64_t> window;
    // The model's attention where its family does not decide it (Attention).
    Attention attention = Attention::Causal;
    // How the model adds its position term (Positions).
    Positions positions = Positions::ById;

    friend bool operator==(const BatchParams &, const BatchParams &) = default;
};

} // namespace posenc
