#pragma once

#include "ParamTable.h"
#include "Params.h"

#include <QString>

#include <optional>

// Which parameters the current settings ignore, and why: what disables a control in the
// window (docs/ARCHITECTURE.md, The parameter table). Each parameter's row says it from the
// meaning of the parameters; tst_paramuse checks every claim against the engine's tables.
namespace posenc::ParamUse {

// Keys of the two values that only a "custom" scale or init reads: rows of the table that are
// not flags.
inline constexpr char16_t kCustomScale[] = u"custom-scale";
inline constexpr char16_t kCustomSigma[] = u"custom-sigma";

using Idle = IdleReason::Code;

// Why `key` (a row of the parameter table) is ignored by `params`, or nothing when changing it
// can change what is computed. Keys that always matter (max-len, compose, dropout-mode, eval)
// are never idle.
std::optional<Idle> idle(const Params &params, const QString &key);
// The same, with the reason in words.
std::optional<IdleReason> reason(const Params &params, const QString &key);

// What the seed draws: the random embeddings, and the dropout mask.
bool drawsEmbeddings(const Params &params);
bool drawsMask(const Params &params);

} // namespace posenc::ParamUse
