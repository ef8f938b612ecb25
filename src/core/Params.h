#pragma once

#include "Block.h"
#include "ParamError.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace posenc {

enum class Layout { Interleaved, Split };
enum class Angles { Exact, Float32 };
enum class ScaleKind { One, Sqrt, Custom };
// How the random embeddings are drawn: N(0, 1), N(0, 1/d), N(0, custom sigma^2), or Keras'
// Embedding default, U(-0.05, 0.05) (sigma 0.05 / sqrt 3).
enum class InitKind { Normal, ScaledNormal, Custom, KerasUniform };
// The law of a generated cell before its sigma: N(0, 1) or U(-sqrt 3, sqrt 3), both variance 1.
enum class CellLaw { Normal, Uniform };
enum class Compose { Sum, Concat };
enum class DropoutMode { Sum, Embedding, ProtectSpecial, MaskedFill };
// The family of the position term (docs/ARCHITECTURE.md, Encoding families).
enum class Encoding { Sinusoidal, Learned, None, Rope, Alibi, T5, Deberta };
// RoPE's pairing of a head's columns: rotate_half's (i, i + r/2) or GPT-J's (2i, 2i + 1).
enum class RopeLayout { Half, Interleaved };
// HF transformers' rope_type (modeling_rope_utils.py), in the order of --rope-type's words.
enum class RopeType { Default, Linear, Dynamic, Yarn, LongRope, Llama3, Proportional };
// ALiBi's bias under a causal mask (-m(i - j) for keys j <= i, -inf after) or, for a
// bidirectional model, symmetric (-m|i - j|).
enum class AlibiMask { Causal, Symmetric };

// Rows of a real matrix used as token embeddings: row p is the embedding at position p.
struct EmbeddingMatrix
{
    RowMatrixXf values;
    QString source; // where it came from, for display ("file.npy", "model.safetensors:wte")
    QString tokens; // the rows it was read with (a --tokens list), empty for the first rows
};

// A learned position table: row r holds the vector the model adds at position r - offset.
struct PositionMatrix
{
    RowMatrixXf values;
    QString source; // where it came from, for display ("roberta.safetensors:embeddings.position_embeddings.weight")
};

// The sinusoidal family's parameters: w_i = b^(-2i/d) in one of two layouts.
struct SinusoidalParams
{
    double base = 10000.0;
    Layout layout = Layout::Interleaved;
    Angles angles = Angles::Exact;

    friend bool operator==(const SinusoidalParams &, const SinusoidalParams &) = default;
};

// The learned family's parameters: a position table read from a file, and the row that holds
// position 0 (2 for RoBERTa, XLM-R, BART and OPT, whose first rows belong to padding).
struct LearnedParams
{
    std::shared_ptr<const PositionMatrix> table;
    std::int64_t offset = 0;

    friend bool operator==(const LearnedParams &, const LearnedParams &) = default;
};

// The rotary family's parameters, named as HF's configs name them (docs/ARCHITECTURE.md,
// Encoding families). RoPE adds no term to X: it rotates a head's query and key by position.
// The optional values are unset as in a config that leaves them out.
struct RopeParams
{
    static constexpr std::int64_t kMaxHeadDim = std::int64_t(1) << 16;

    std::int64_t headDim = 128; // head_dim
    double theta = 10000.0; // rope_theta
    double partialRotaryFactor = 1.0; // partial_rotary_factor
    RopeLayout layout = RopeLayout::Half;
    RopeType type = RopeType::Default; // rope_type
    std::optional<double> factor; // factor
    std::optional<std::int64_t>
        originalMaxLen; // original_max_position_embeddings (max_position_embeddings for dynamic)
    double lowFreqFactor = 1.0; // llama3
    double highFreqFactor = 4.0; // llama3
    double betaFast = 32.0; // yarn
    double betaSlow = 1.0; // yarn
    bool yarnTruncate = true; // yarn's truncate
    std::optional<double> mscale; // yarn, DeepSeek style
    std::optional<double> mscaleAllDim; // yarn, DeepSeek style
    std::optional<double> attentionFactor; // yarn, longrope: attention_factor
    std::vector<double> shortFactor; // longrope: rotary_dim / 2 values
    std::vector<double> longFactor; // longrope: rotary_dim / 2 values

    friend bool operator==(const RopeParams &, const RopeParams &) = default;
};

// ALiBi's parameters (Press et al. 2022): H heads, head k (numbered 1..H as in the paper) adding
// -m_k times the distance to its attention scores. Like RoPE it adds no term to X.
struct AlibiParams
{
    static constexpr std::int64_t kMaxHeads = 4096;

    std::int64_t heads = 8;
    std::int64_t head = 1; // 1..heads
    AlibiMask mask = AlibiMask::Causal;

    friend bool operator==(const AlibiParams &, const AlibiParams &) = default;
};

// T5's relative attention buckets (HF T5Config's relative_attention_num_buckets and
// relative_attention_max_distance): each head adds a learned scalar per bucket of key - query.
struct T5Params
{
    static constexpr std::int64_t kMaxBuckets = std::int64_t(1) << 16;

    std::int64_t buckets = 32;
    std::int64_t maxDistance = 128;
    bool causal = false; // the decoder's unidirectional map; the encoder's is bidirectional

    friend bool operator==(const T5Params &, const T5Params &) = default;
};

// DeBERTa-v2/v3's log buckets of query - key (HF DebertaV2Config's position_buckets and
// max_relative_positions, which -1 makes max_position_embeddings).
struct DebertaParams
{
    static constexpr std::int64_t kMaxBuckets = std::int64_t(1) << 16;

    std::int64_t buckets = 256;
    std::int64_t maxPosition = 512;

    friend bool operator==(const DebertaParams &, const DebertaParams &) = default;
};

// Every parameter of the mathematics (docs/ARCHITECTURE.md, "The mathematics"), with the defaults of the
// program. A value type: cheap to copy, compared member by member, validated once.
struct Params
{
    static constexpr std::int64_t kMaxDModel = std::int64_t(1) << 20;
    static constexpr std::int64_t kMaxLen = std::int64_t(1) << 24; // exactness holds for p < 2^24
    static constexpr std::uint64_t kDefaultMemoryBudget = std::uint64_t(2) << 30;

    static constexpr std::int64_t kMaxPositionOffset = 1 << 20;
    // Keras' Embedding starts from U(-limit, limit) (its "uniform" initializer's default).
    static constexpr double kKerasUniformLimit = 0.05;

    // What every family shares: the model's width and length, the embeddings, their sum or
    // concatenation with the position term, dropout, the seed and the memory budget.
    Encoding encoding = Encoding::Sinusoidal;
    std::int64_t dModel = 512;
    std::int64_t maxLen = 1024;

    ScaleKind scaleKind = ScaleKind::Sqrt;
    double customScale = 1.0; // used when scaleKind == Custom

    InitKind init = InitKind::Normal;
    double customSigma = 1.0; // used when init == Custom
    std::shared_ptr<const EmbeddingMatrix> embeddings; // when set, replaces the random init

    Compose compose = Compose::Sum;
    std::optional<std::int64_t> peDims; // concat only; unset means half of d_model

    double dropout = 0.1;
    DropoutMode dropoutMode = DropoutMode::Sum;
    // Rows that protect-special leaves untouched; negative values count from the end of the
    // sequence as in Python (-1 is the last position, where [SEP] sits).
    std::vector<std::int64_t> special = {0, -1};
    std::optional<std::int64_t> seqLen; // unset means max_len
    std::uint64_t seed = 0;
    bool training = true;

    std::uint64_t memoryBudget = kDefaultMemoryBudget; // bytes a single request may allocate

    // One group per family: read only when `encoding` names it.
    SinusoidalParams sinusoidal;
    LearnedParams learned;
    RopeParams rope;
    AlibiParams alibi;
    T5Params t5;
    DebertaParams deberta;

    // Values derived from the parameters above.
    double scale() const; // s
    double sigma() const; // standard deviation of the random init
    CellLaw cellLaw() const; // the law of the random init's cells
    // Columns of the position table that enters X: d, or k in concat; 0 without a position term.
    std::int64_t peColumns() const;
    std::int64_t embeddingColumns() const; // columns of E: d, or d - k in concat
    // Whether the family adds a term to s*E: none adds nothing; RoPE rotates queries and keys
    // instead, and ALiBi, T5 and DeBERTa act on the attention scores (X = s*E).
    bool hasPositionTerm() const;
    // Whether X is [s*E | PE]: compose concat with a position term to concatenate.
    bool concatenates() const;
    // Whether the position term is the sinusoid's, with closed forms for its statistics.
    bool isSinusoidal() const { return encoding == Encoding::Sinusoidal; }

    // X's first columns that dropout acts on: all d, but d - k in concat's embedding mode, whose
    // dropout acts on s*E only and leaves the PE columns after it whole.
    std::int64_t droppableColumns() const;
    std::int64_t sequenceLength() const; // seq_len, or max_len when unset
    std::vector<std::int64_t> specialRows() const; // special positions resolved to [0, seq_len), increasing, each once

    // Every problem at once, each naming its parameter and allowed range; empty when valid.
    QList<ParamError> validate() const;
    bool isValid() const { return validate().isEmpty(); }

    friend bool operator==(const Params &, const Params &) = default;
};

} // namespace posenc
