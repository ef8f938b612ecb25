#pragma once

#include "core/Params.h"

#include <QString>

#include <optional>
#include <utility>

// A declared dynamic-NTK RoPE whose table turns at another grown base (issue 56, the reviewer's item):
// transformers' _compute_dynamic_ntk_parameters (modeling_rope_utils.py) grows rope_theta to
// theta (f seq / L0 - (f - 1))^(r / (r - 2)) for seq = max(seq_len, L0). A table at another base
// is read as the default rope_type at that base; this says which declared parameter gives it: the
// factor f (rope-factor, both values) where the factor that gives it is a round one, else the
// sequence length seq (dynamic-length: a cache grown for another length than its rows, both said: a
// multiple of 256, or a whole length below the declared one, a prefill shorter than the cache),
// else nothing (then rope_theta is the one named).
namespace posenc::RopeDynamicFactor {

inline const QString kDynamicLength = QStringLiteral("dynamic-length");

// The mistake id and its words where a round factor or a whole length at the declared parameters
// grows the declared base to `found`'s rope_theta; nothing otherwise.
std::optional<std::pair<QString, QString>> name(const Params &found, const Params &declared);

// A base as the dynamic check's sentences print it, the declared and the found alike: as given where
// it is short (500000, 19710.43), else to 7 digits (a grown base, 31082.24).
QString thetaText(double theta);

// "grows rope_theta 10000 to 31082.24 at a sequence of 4096 positions", or, where the declared
// sequence is at most original_max_position_embeddings, that the base does not grow there.
QString grownWords(const Params &declared);

} // namespace posenc::RopeDynamicFactor
