#pragma once

#include "FigureRoom.h"
#include "data/FigureText.h"

#include "QCustomPlot.h"

#include <QColor>
#include <QSize>
#include <QString>

namespace posenc::PlotStyle {

// The two parts of the model input wherever a figure draws them side by side: s·E blue, the PE
// orange (Okabe–Ito, told apart in every common colour vision).
inline const QColor kEmbedding(0, 114, 178);
inline const QColor kPositional(213, 94, 0);

// One look for every figure: one size of text (FigureFonts), quiet grids, no antialiasing
// where it only costs time (colormaps), a title element on top.
void preparePlot(QCustomPlot *plot);
// Its axes' fonts and grids; an axis on QCustomPlot's own linear ticker writes a number's power of
// ten in one text at its size (withPowers).
void styleAxisRect(QCPAxisRect *rect);
// Empties the layout and puts a title text element in row 0; returns it.
QCPTextElement *resetWithTitle(QCustomPlot *plot);
// A legend in a row of its own at `row` of `layout` (an empty cell), centred and unframed, its
// entries side by side in rows of `wrap`: under a figure of several panels, for all of them, or
// over the axes it explains.
QCPLegend *legendRow(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int wrap);
// A logarithmic axis with `subTicks` sub-ticks a decade and decades labelled as powers of ten
// (10⁻⁵, in superscript digits at the axis's size); a range shorter than about a decade, which
// QCustomPlot ticks in linear steps, labels them as numbers from 0.001 to 9999 (60, not 6·10¹).
void setLogAxis(QCPAxis *axis, int subTicks = 8);
// 10 to the `exponent` in superscript digits: "10⁻⁵".
QString powerOfTen(int exponent);
// A number as QLocale writes it, its exponent as a power of ten in superscript digits: "5e-14"
// reads "5·10⁻¹⁴", "1e+06" "10⁶"; a number without one is as it was.
QString withPowers(const QString &number);
// A line graph of a single point draws nothing: it gets a dot of its pen's colour then, and no
// dot again once it has more points. Call after each setData of a graph drawn as a line.
void showLonePoint(QCPGraph *graph);
// A panel's own title, over one of several panels: the figure title's size, bold or not. The
// caller places it in the layout; FigureFit wraps it within its column.
QCPTextElement *panelTitle(QCustomPlot *plot, bool bold);
// An empty text placed at (row, col) of `grid`: a panel's caption or count, or what `role` says
// it is (FigureRoom gives captions up first on little room).
QCPTextElement *smallText(QCustomPlot *plot, QCPLayoutGrid *grid, int row, int col, TextRole role = TextRole::Caption);
// A figure the size of a paper column or smaller (below 500 x 340 layout units, 13.2 x 9 cm):
// the figures with long legends shorten them then, in the window as in the export.
bool isCompact(QSize layout);
// The lines of axis-label text the figure's height holds: a slide at 14 pt holds ~24, a view
// of the window at 9 pt ~55. Figures with long texts shorten them below a number of lines, so
// that a large font leaves the plots their room.
double textLines(const QCustomPlot &plot);
// A text that takes no room when it is empty: a paper column or a slide leaves it out.
void setCollapsibleText(QCPTextElement *element, const QString &text);
// Hairlines (pens of width 0, QCustomPlot's own for axes, ticks, grids and legends' borders) one
// layout unit wide, as a file draws them (FigureExporter paints non-cosmetic): a screen of two
// device pixels a unit would draw them one pixel wide, and a view would not draw its copy's pixels.
void widenHairlines(QCustomPlot *plot);

} // namespace posenc::PlotStyle
