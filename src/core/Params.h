#pragma once

#include "Block.h"
#include "ParamError.h"
#include "positions/BatchParams.h"

// Each family's parameters (src/core/<family>/<Name>Params.h), from its manifest.
#define POSENC_FAMILY_PARAMS
#include "FamilyList.h"
#undef POSENC_FAMILY_PARAMS

#include <QList>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace posenc {

enum class ScaleKind { One, Sqrt, Custom };
// How the random embeddings are drawn: N(0, 1), N(0, 1/d), N(0, custom sigma^2), or Keras'
// Embedding default, U(-0.05, 0.05) (sigma 0.05 / sqrt 3).
enum class InitKind { Normal, ScaledNormal, Custom, KerasUniform };
// The law of a generated cell before its sigma: N(0, 1) or U(-sqrt 3, sqrt 3), both variance 1.
enum class CellLaw { Normal, Uniform };
enum class Compose { Sum, Concat };
// Where dropout acts: on X, on s*E alone, on the PE alone, on X but the special rows, on X with the
// padding rows zeroed.
enum class DropoutMode { Sum, Embedding, Positional, ProtectSpecial, MaskedFill };
// The family of the position term (docs/ARCHITECTURE.md, Encoding families): one value per line
// of FamilyList.h, in its order.
enum class Encoding {
#define POSENC_FAMILY(Name, member) Name,
#include "FamilyList.h"
#undef POSENC_FAMILY
};

// Rows of a real matrix used as token embeddings: row p is the embedding at position p.
struct EmbeddingMatrix
{
    RowMatrixXf values;
    QString source; // where it came from, for display ("file.npy", "model.safetensors:wte")
    QString tokens; // the rows it was read with (a --tokens list), empty for the first rows
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
    Encoding encoding = Encoding {}; // the first family of FamilyList.h
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

    // The batch the model is given and the ids its tokens get (docs/ARCHITECTURE.md, Positions in
    // practice), read by the positions' quantities whatever the family.
    BatchParams batch;

    std::uint64_t memoryBudget = kDefaultMemoryBudget; // bytes a single request may allocate

    // One group per family, `params.<member>` as its line of FamilyList.h names it
    // (params.rope.theta): read only when `encoding` names its family.
    // clang-format off
#define POSENC_FAMILY(Name, member) Name##Params member;
#include "FamilyList.h"
#undef POSENC_FAMILY
    // clang-format on

    // Values derived from the parameters above.
    double scale() const; // s
    double sigma() const; // standard deviation of the random init
    CellLaw cellLaw() const; // the law of the random init's cells
    // Columns of the position table that enters X: d, or k in concat; 0 without a position term.
    std::int64_t peColumns() const;
    std::int64_t embeddingColumns() const; // columns of E: d, or d - k in concat
    // Whether the family adds a term to s*E (its FamilySpec has a position term): otherwise
    // X = s*E, and the family acts on the queries and keys or on the attention scores, or not at all.
    bool hasPositionTerm() const;
    // Whether X is [s*E | PE]: compose concat with a position term to concatenate.
    bool concatenates() const;

    // X's columns [first, second) that dropout acts on: all d, but concat's s*E columns [0, d - k)
    // in embedding mode and its PE columns [d - k, d) in pe mode, which leave the other part whole.
    std::pair<std::int64_t, std::int64_t> droppableColumns() const;
    // droppableColumns() within the `cols` columns from `col0`, counted from col0: [first, second).
    std::pair<std::int64_t, std::int64_t> droppableColumnsIn(std::int64_t col0, std::int64_t cols) const;
    std::int64_t sequenceLength() const; // seq_len, or max_len when unset
    std::vector<std::int64_t> specialRows() const; // special positions resolved to [0, seq_len), increasing, each once

    // Every problem at once, each naming its parameter and allowed range; empty when valid.
    QList<ParamError> validate() const;
    bool isValid() const
    {
        return validate().isEmpty();
    }

    friend bool operator==(const Params &, const Params &) = default;
};

} // namespace posenc
