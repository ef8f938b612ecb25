#pragma once

#include "core/Params.h"

#include <QString>

// The words and numbers the RoPE figures show of the parameters, shared by their data and
// their drawing: theta, the factor, the rotary dim.
namespace posenc::RopeText {

// A number of the parameters as a title writes it: whole numbers grouped ("500,000"), others in
// four significant digits ("1.5e6" past a million).
QString number(double value);
// "θ = 500,000, rotary dim 128", with "of head_dim 256" when partial rotary or proportional
// leaves columns out or still.
QString modelText(const Params &params);
// The scaling: "llama3, factor 8, original 8,192", "yarn, factor 32, original 4,096",
// "proportional, a share F = 0.25 of head_dim turning", "default (no scaling)".
QString scalingText(const Params &params);
// The layout of the pairs: "half layout (rotate_half)", "interleaved layout (pairs 2i, 2i + 1)".
QString layoutText(RopeLayout layout);
// The original context a scaling stretches (original_max_position_embeddings), or max_len
// where the parameters give none.
std::int64_t originalContext(const Params &params);

} // namespace posenc::RopeText
