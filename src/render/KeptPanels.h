#pragma once

#include "FigureRoom.h"
#include "QCustomPlot.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace posenc {

// The panels a figure keeps whatever its room (docs/ARCHITECTURE.md, Exporting): those a
// lesson's text refers to ("the fraction chart"), named by words of their titles or axis
// labels. A slide of the lesson must draw them, so the room steps give up everything else first.
namespace KeptPanels {

// The panels of `plot` `words` name (case aside): those whose title (TextRole::PanelTitle), as
// its figure set it, or whose left or bottom axis label holds them.
QList<QCPAxisRect *> named(QCustomPlot *plot, const QString &words);

// Marks the panels each of `panels` names (named()), their titles and what holds them, as
// panels the figure cannot do without (FigureRoom::setDispensable order 0), with the unnamed
// parts given up with them (a table's colour bar, beside it in its grid and of the same order).
// A figure marks its panels when it is built and again when it is filled: call it after each.
void keep(QCustomPlot *plot, const QStringList &panels);

// Whether a panel `words` name is drawn: shown, not given up for room.
bool drawn(QCustomPlot *plot, const QString &words);

// Marks `panel` as one its figure leaves out itself for room (`leftOut`), hidden: families' panels
// that a page short of room does not hold (FamiliesRoom::held), as opposed to a panel the figure
// does not draw for its parameters, which is none of its panels there.
void setLeftOut(QCPAxisRect *panel, bool leftOut);
// The figure's panels and how many a page left out for room: those the room steps gave up
// (FigureRoom::panelsKept) and those its figure left out itself (setLeftOut). What the exporter
// says, and what a page that may grow grows for (FigureSizes::grownForPanels).
FigureRoom::PanelsKept leftOut(const QCustomPlot &plot);

} // namespace KeptPanels

} // namespace posenc
