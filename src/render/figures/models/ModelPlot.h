#pragma once

#include "render/QCustomPlot.h"

#include <QColor>
#include <QList>
#include <QString>

// What the model figures' drawings share (layer-stack, head-map): a colour map of categories,
// each cell one colour of a list, drawn exactly (docs/ARCHITECTURE.md, Model knowledge).
namespace posenc::ModelPlot {

// A gradient of `colors.size()` levels whose level i is colors[i] exactly, for a colour map whose
// data range is [0, colors.size() - 1]; NaN cells transparent.
QCPColorGradient categories(const QList<QColor> &colors);
// The colour of what places position in a layer, by the key of LayerStackData::Group: RoPE in
// blues, darker for a larger theta (`rank` of `ranks` distinct thetas), the others their own.
QColor positionColor(const QString &key, int rank, int ranks);
// The colour of how far a layer attends: the whole context, a window, a chunk, or a mixer's.
QColor spanColor(const QString &key);

} // namespace posenc::ModelPlot
