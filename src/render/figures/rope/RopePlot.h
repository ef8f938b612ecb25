#pragma once

#include "core/Params.h"

#include <QColor>

// What the RoPE figures draw alike beyond the plotting kit (render/PlotItems.h): each
// rope_type's colour, and the grey of the lengths drawn across them.
namespace posenc::RopePlot {

// Okabe-Ito, told apart in every common colour vision; default in black.
QColor typeColor(RopeType type);
// The lengths' lines (L₀, max-len), as matplotlib's axhline(color="0.45"): lighter than the
// default's near-black, whose curve is dashed as L₀'s line is, so that a key tells the two apart
// by colour (60 and 40 grey read alike at a column, tst_figuresizes' KeptKeys).
inline const QColor kContext {115, 115, 115};

} // namespace posenc::RopePlot
