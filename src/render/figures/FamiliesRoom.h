#pragma once

#include "core/FamilySpec.h"

#include <QList>

namespace posenc {

// Which of the families figure's panels a page draws and in how many columns (FamiliesFigure):
// every panel where the page has room; on a page short of room (FigureRoom::shortOfRoom) as many
// as it holds at a legible size, chosen by one rule that names no family.
namespace FamiliesRoom {

// What a panel draws, for the rule that keeps one panel of each kind before a second of any.
enum class PanelKind { Absolute, None, Rotary, Bias, Bucket };
PanelKind kindOf(const FamilySpec &family);

// The columns of panels for a figure `lines` lines of text high: the fewest that leave each panel
// kPanelLines of them beside the title, the legend, the caption and the offset axis; at most three.
int columns(double lines, qsizetype panels);

// The panels a page short of room holds and the columns they stand in.
struct Grid
{
    qsizetype panels = 1;
    int columns = 1;
};

// How many panels a page short of room holds, `lines` lines of text high and `width` line heights
// wide, out of `panels`, and in how many columns: the most panels whose grid leaves each plot
// kPanelLines lines high and wide and the plots FigureRoom::kMinPlotShare of the page once its
// captions and legends are given up, by an estimate of the margins in lines of text; of the grids
// that hold them the one of the fewest columns from columns() up to four (a 14-pt 16:9 slide holds
// all eight in four columns of two, where three columns of three left the plots 44% of it). At
// least one panel.
Grid held(double lines, double width, qsizetype panels);

// Which of `families` (the panels, in the list's order) a page that holds `held` of them draws: the
// chosen family's, then those `named` (by the lesson or the caller, --keep) in the order named,
// then one of each kind not yet drawn, then a second of each, and so on, each round in the list's
// order.
QList<bool> shown(const QList<const FamilySpec *> &families, Encoding chosen, const QList<Encoding> &named,
                  qsizetype held);

} // namespace FamiliesRoom

} // namespace posenc
