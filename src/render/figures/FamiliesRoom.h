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

// How many panels a page short of room holds, `lines` lines of text high and `width` line heights
// wide, out of `panels`: the most whose grid (columns()) leaves each plot kPanelLines lines high and
// the plots FigureRoom::kMinPlotShare of the page once its captions and legends are given up, by an
// estimate of the margins in lines of text (a 14-pt slide holds six in two columns). At least one.
qsizetype held(double lines, double width, qsizetype panels);

// Which of `families` (the panels, in the list's order) a page that holds `held` of them draws: the
// chosen family's, then those `named` (by the lesson or the caller, --keep) in the order named,
// then one of each kind not yet drawn, then a second of each, and so on, each round in the list's
// order.
QList<bool> shown(const QList<const FamilySpec *> &families, Encoding chosen, const QList<Encoding> &named,
                  qsizetype held);

} // namespace FamiliesRoom

} // namespace posenc
