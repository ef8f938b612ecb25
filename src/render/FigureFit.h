#pragma once

#include "QCustomPlot.h"

#include <optional>

namespace posenc::FigureFit {

// Makes a figure laid out on little room legible, as a figure for a paper column is: titles
// longer than their room (the figure's width, or a panel title's share of it) break into lines
// at their "  ·  " separators (or spaces), legends wider than their place take fewer columns, axis labels longer than
// their axis break into lines, and tick labels that would touch are thinned. Leaves a figure that fits as it is.
// Returns whether anything changed (the caller lays the figure out again).
bool fit(QCustomPlot *plot);

// The part of fit() that fits texts: titles, captions and axis labels wrapped and the legends of
// the figure's grid restacked, each to its room in the layout as it is (not the ticks, which the
// next layout makes, nor the legends inside a panel, which move with their panel). A figure laid
// out before its new texts, in the room it keeps, fits them before it is laid out again
// (FigureLayoutLoop::refitKeepingRoom). True when a text or legend changed.
bool fitTexts(QCustomPlot *plot);

// Rounds of fit() after each filling of a figure, each followed by a layout: enough for a title
// to wrap, a legend to restack and tick labels to thin.
constexpr int kMaxRounds = 8;

// The length an axis's label is wrapped to: centred on its axis, reaching into the margins beside
// it, not past them, nor, an x axis's, within a quarter of a line of the page's left and right
// edges: families' offset label under its right panel ran to the right edge of a slide.
double labelLength(const QCPAxis *axis);

// The text of `element` as its figure set it, before fit() wrapped it.
QString unwrapped(const QCPTextElement *element);
// The label of `axis` as its figure set it, before fit() wrapped it.
QString unwrappedLabel(const QCPAxis *axis);
// Every axis's ticks as their figure set them, before fit() thinned them: the layout loop starts
// each fitting from them, so that the ticks a figure shows depend on its room, not on the rooms
// it had before (a view and its export at one size tick alike). True when an axis's ticks changed.
bool unthinTicks(QCustomPlot *plot);

// Whether `axis`, whose ticker keeps clear of a label along its tick labels (KeepsClear), has a
// level of ticks, up to its figure's own, whose labels do not touch and that keeps clear of its last
// `pixels` leaving it `least` numbers and blanking its end one at most (KeepsClear::takesEndAtMost;
// two, the tick row's rule), up the side in no wider a column of tick labels than it draws now: then
// its ticker keeps clear of them at the most such ticks; else all stays as it was.
bool keepClearTakingEndAtMost(QCPAxis *axis, double pixels, int least = 3);

// A figure's legend set to take `wrap` columns (rows, filled column by column), whatever fit()
// made of its last wish: a figure whose wish changes with its room or data (compact, terse) sets
// it so, or fit() could take a wish equal to the wrap it fitted the last one to as its own
// fitting, and a view made compact and then large again would keep the compact legend's columns.
void setLegendWrap(QCPLegend *legend, int wrap);

// The width a layout element may take within a figure `figureWidth` wide: its share of the grid
// that holds it, its neighbours' least widths taken first; for a text, the width fit() wraps it
// to (a title keeps half a line clear of the page's edges), so that a text shortened to some lines
// is measured as it is drawn.
double roomFor(const QCPLayoutElement *element, double figureWidth);
// The room each text of one layout as it stands is wrapped in: roomFor's, or for a panel's title the
// narrowest of its row's drawn titles of its kind (as many shorter forms, their tops level), so that a
// row's titles wrap alike (dropout-compare's "lost: 10.2 %" in one line in its two wider first cells,
// the y labels' margin theirs, and in two in the other three). Each title's room and what its row
// reads of it are read once: a pass of fit() asked them of every title for every title of its row,
// a title's room walking its grid (masked-dropout's ten panels, an eighth of a fitting's samples).
// `forget` after anything of the layout changed.
class RowRooms
{
public:
    // `titles`: the layout's panel titles.
    RowRooms(const QList<QCPTextElement *> &titles, double width);
    // The room `text` is wrapped in.
    double of(const QCPTextElement *text);
    void forget();

private:
    struct Title
    {
        const QCPTextElement *text;
        qsizetype forms; // ShorterLabels::ofText's
        int top;
        bool drawn;
        std::optional<double> room; // roomFor's, once asked
    };
    double roomOf(Title &title);

    QList<Title> m_titles;
    double m_width;
};

// `text` broken into lines no wider than `width` in `font`: first at "  ·  ", then at spaces.
QString wrap(const QString &text, const QFont &font, double width);

} // namespace posenc::FigureFit
