#pragma once

#include "QCustomPlot.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

// A key's swatches named where their shades are drawn (docs/ARCHITECTURE.md, "Figures at any
// size"): where a key of curves and shaded ranges takes the room its plots need, an author writes
// each range's name within it, across its top where it is free (matplotlib's `ax.axvspan` with an
// `ax.text` in its middle, `transform=ax.get_xaxis_transform()`), and labels the curves on them
// (DirectLabels), so that the key can go. A shade is a rectangle item (PlotItems::shade) filled
// with its swatch's colour in a plot drawn; its label is in that colour made opaque, darkened until
// it reads on white, in the longest of its forms that fits within the shade, off every curve, line
// and text. Curves' labels are placed after the shades' and keep off them.
namespace posenc::ShadeLabels {

// Whether the entry `item` is a swatch whose colour fills a shade drawn in a plot drawn.
bool nameable(QCPAbstractLegendItem *item);
// Whether every entry of `legend` names a curve (DirectLabels::labelable) or a shade, a swatch
// among them: a key of curves and shades that labels can stand in for.
bool labelable(const QCPLegend *legend);
// The forms of a swatch's label, longest first: as given, then its first part (before " / ",
// ": ", ", ", " (").
QStringList formsOf(const QString &label);
// A label for each swatch of `legend`, in the first shade of its colour (in the order of the
// plot's items) that holds one of its `forms` (the swatches' in the key's order), placed on the
// layout the plots have without the key's row; none where one finds no place (nothing is added),
// or with `unplaced`, the labels undrawn, for place() to draw once the layout leaves them room.
QList<QCPItemText *> make(QCPLegend *legend, const QList<QStringList> &forms, bool unplaced);
// The shades' labels of `plot` placed again where they no longer stand clear or were not drawn,
// each in the longest of its forms that finds a place: all of them, or none drawn. True when any
// changed. Placed before the curves' labels (DirectLabels::place), which keep off them.
bool place(QCustomPlot *plot);
// Whether every shade's label drawn stands within a shade of its swatch's colour, within its
// plot, off every curve, line and text but the curves' labels (which keep off it themselves).
bool clear(const QCustomPlot &plot);
// The swatch colour a shade's label names; invalid for any other text.
QColor swatchOf(const QCPItemText *text);
// The colour a shade's label of `swatch` is written in: opaque, dark enough to read on white.
QColor textColourOf(QColor swatch);

} // namespace posenc::ShadeLabels
