#pragma once

#include "core/Params.h"
#include "core/Quantity.h"

namespace posenc::ColourScale {

// Half the width of a signed quantity's colour range, symmetric around zero: from the parameters
// alone, never from the pixels, whose means shrink as they average more cells. So the colours of
// a figure mean the same at any size and resolution (the window, a 96 dpi PNG, a 300 dpi one):
// the PE's +-1; three standard deviations of s·E (s·sigma, or the loaded rows' RMS) added to it in
// the sum; over (1 - p) for Y in training. The rare cells beyond take the colours of the ends.
// S = PE·PE^T spans +-k/2 (its diagonal); the float32-angle error is bounded by the angle's
// rounding, (L - 1) 2^-23, plus the sine's, 2^-24.
double extent(Quantity quantity, const Params &params);

} // namespace posenc::ColourScale
