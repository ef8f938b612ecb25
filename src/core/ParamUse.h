#pragma once

#include "Params.h"

#include <QString>

#include <optional>

// Which parameters the current settings ignore, and why: what disables a control in the
// window (docs/ARCHITECTURE.md, The mathematics). One place decides it from the meaning of the
// parameters; tst_paramuse checks every claim against the engine's tables.
namespace posenc::ParamUse {

// Keys of the two values that only a "custom" scale or init reads, beside ParamText's keys.
inline constexpr char16_t kCustomScale[] = u"custom-scale";
inline constexpr char16_t kCustomSigma[] = u"custom-sigma";

// Why a parameter has no say under the current settings.
enum class Idle {
    SetByMatrix, // d-model: the loaded matrix's columns fix it
    EmbeddingsFromFile, // init, custom-sigma: the rows of a loaded matrix replace the random init
    NoEmbeddingColumns, // scale, init and their custom values: concat with pe-dims = d-model
    NoPeColumns, // base, layout, angles: concat with pe-dims 0
    NotCustomScale, // custom-scale: the scale is 1 or sqrt(d)
    NotCustomInit, // custom-sigma: the init is normal or scaled-normal
    NotConcat, // pe-dims: compose is sum
    EvaluationMode, // dropout, special, seq-len: evaluation mode drops nothing
    NothingDropped, // special, seq-len: p = 0 drops nothing, so nothing needs protecting
    NotProtectSpecial, // special: only protect-special reads it
    NoRowsToResolve, // seq-len: neither masked-fill's padding nor a special position counted from the end
    NothingRandom, // seed: embeddings from a file and no mask drawn
};

// Why `key` (a ParamText key, kCustomScale or kCustomSigma) is ignored by `params`, or nothing
// when changing it can change what is computed. Keys that always matter (max-len, compose,
// dropout-mode, eval) are never idle.
std::optional<Idle> idle(const Params &params, const QString &key);

// What the seed draws: the random embeddings, and the dropout mask.
bool drawsEmbeddings(const Params &params);
bool drawsMask(const Params &params);

} // namespace posenc::ParamUse
