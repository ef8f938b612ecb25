#pragma once

#include "core/Params.h"

#include <QColor>

// What the RoPE figures draw alike beyond the plotting kit (render/PlotItems.h): each
// rope_type's colour.
namespace posenc::RopePlot {

// Okabe-Ito, told apart in every common colour vision; default in black.
QColor typeColor(RopeType type);

} // namespace posenc::RopePlot
