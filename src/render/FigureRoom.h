#pragma once

#include "QCustomPlot.h"

#include <functional>

#include <QString>
#include <QStringList>

namespace posenc {

// What a text or a legend of a figure is, so that little room gives up the least needed first.
enum class TextRole {
    Title, // the figure's title, row 0 of its layout
    PanelTitle, // what one of several panels shows: its name, which goes only with its panel
    Caption, // notes, counts and explanations beside or below the plots; a legend of marks
    Key, // a legend of what the data's colours and lines are (any legend not named otherwise)
};

// A figure on little room (docs/ARCHITECTURE.md, Exporting, "Figures at any size"): as a careful
// author would, it gives up first what a reader needs least, step by step, until nothing overflows
// it and, on a page short of room (kShortRoom), the plots have at least half of it: the axes
// tighten to their labels, the panels of a grid close up and colour bars narrow, a colour bar's
// label goes under its bar, legends take as many columns as their room holds and close their rows
// up, the captions and legends of marks go, panels side by side or stacked share their axes'
// labels, tick numbers of whole thousands are written short ("1k"), an x axis's label joins its
// tick labels' row, the title keeps its first parts then its first line, legends go into a free
// corner of their panel (stacked where need be), a y axis's label goes up its tick labels'
// column, an axis's or a colour bar's label of more than a line keeps its first part, the
// panels' titles one line, the title goes (a file keeps it in its metadata; climbed past first,
// StepGives), the
// panels the figure can do without go (setDispensable), each with the titles that name it and the
// legends that named only them, the panel titles that name no panel go, a key of curves over no
// place on its plot gives way to labels on its curves where they find a place (DirectLabels), an
// axis's label still wrapped keeps the words its axis holds in one line, and panels side by side
// whose end tick labels meet move apart, and last a y axis's or a colour bar's label goes above its
// axis beside the panel's name, where that row has room. What a reader cannot do without is never given up: every
// panel drawn keeps its name (at most shortened to its first words: a panel without it cannot be
// read), every axis drawn and every colour bar its label (at most shortened to its first part) and
// its tick labels (thinned). Where no step gives the plots half of the figure, the figure is drawn
// as the step that gave them the most left it; only a figure whose labels overflow its page
// whatever is given up is too small (FigureBuild). Every step is undone before the next filling is
// fitted, so that a view made large again shows everything, and a view and its export at one size
// give up the same.
namespace FigureRoom {

void setRole(QCPLayoutElement *element, TextRole role);
// A text not named otherwise is the title in row 0 of the figure's layout, else a caption; a
// legend not named otherwise a key.
TextRole roleOf(const QCPLayoutElement *element);

// A panel (an axis rect, a grid holding one with its title and colorbar, or its title alone) the
// figure can do without on little room, given up in `order` (1 first, then 2), after its texts:
// a second table beside the one that says the same, the secondary row of a comparison. The panel
// titles that name a panel given up go with it, and only with it, whatever they are marked.
void setDispensable(QCPLayoutElement *panel, int order);
// A text that counts the panels drawn (families' title, "six of eight families") says `alone` once
// every panel the figure marked dispensable has gone, cut to as many of its parts ("  ·  ") as the
// text kept: a title says what the page shows. An empty `alone` leaves the text as it is.
void setTextWhenAlone(QCPTextElement *text, const QString &alone);

// A mark drawn over the data (a dashed line, a shaded band, a plottable or an item) that `text` says
// what it is (a legend's entry, a legend, a caption): it is drawn only while that text is, so a
// step that gives the text up for room takes the mark with it, never leaving a mark no text on
// the page explains (the heatmap's swing lines do likewise, HeatmapMarks::setExplainedBy).
void setExplainedBy(QCPLayerable *mark, QCPLayerable *text);

// A panel (an axis rect) the figure shows first, that it keeps alone where, its dispensable panels
// given up, its plots are still short of the page (Steps::keepPrimaryAlone): scale-compare's first
// convention, position-ids' table of ids. A figure that marks none keeps all it has not given up.
void setPrimary(QCPAxisRect *panel);

// The panel a panel's title names: the first axis rect below it in its grid's column (itself, or
// the first a grid there holds), past other texts; where its grid holds none below it, the first
// below the grid in the grid that holds it, and so on up; none where no panel is below it.
QCPAxisRect *panelNamedBy(const QCPLayoutElement *title);
// The panels the panel titles `element` is or holds name.
QList<QCPAxisRect *> panelsNamedIn(QCPLayoutElement *element);

// The steps, in the order they are given up.
int steps();
// Gives up step `step` (1..steps()); false when it changed nothing here.
bool giveUp(QCustomPlot *plot, int step);
// What a step gives up: room (texts shortened, moved or dropped), the figure's title, panels
// (FigureRoom::setDispensable) or keys. The ladder is climbed first with the title and the keys
// kept, its panels given up last: a title is what a reader, a slide's audience first, reads first;
// it goes where nothing else fits, or where it keeps a panel (why-sqrt-d's and what-dropout-does'
// 16:9 slides at 14 pt lost theirs while later steps still had room to give), and before a key
// (mrope-positions' t, h, w markers at 6 x 4 cm).
enum class StepGives { Room, Title, Panels, Keys };
StepGives stepGives(int step);
// Undoes every step given up: the texts as the figure last set them.
void restore(QCustomPlot *plot);
// What any figure gives up at any size, before the steps: labels on the data cut by their axes.
bool tidy(QCustomPlot *plot);
// An axis keeps two of its tick numbers at least (or every one it draws, where it draws fewer)
// before its label shares their row: each label a step set along its tick labels that, as the
// figure is now laid out, left fewer goes back to its axis, and is not set along them again
// until restored. False when there was none. A reader needs two numbers of an axis to read its
// scale (why-sqrt-d's d_model axis kept only 10² on a 14-pt slide; tst_figuresizes).
bool keepScalesReadable(QCustomPlot *plot);

// Each x axis's label a step set along its tick labels goes back under its axis, one at a time,
// where the figure laid out again by `layOut` (with its ticks as they end, its tick labels set apart
// where they meet; it returns whether the figure fits) still fits and reads all it did: every axis
// as many tick labels, as that layout draws them (rope-frequencies' y axis at a column, read with
// the ticks made for the plot before, kept two numbers and drew one), no more corners where two
// axes' labels meet, every key and every text in its plots (rope-scalings' labels on its curves
// found no place on a plot made lower at 6 x 4 cm), and its plots half of the page where they were
// (tst_figuresizes asks it at every size). A careful author sets a title in its tick labels'
// row only where the page has no room for its own row: a step on the way set it there, and a later
// one gave the room (alibi's distances lost 10³ on a 14-pt slide, the row under the plot free).
// Where it does not, the label goes back along its ticks and the figure is laid out again. True
// when one stays under its axis. No layout where no label stands along its tick labels.
// `known`, where given, keeps what was found for a figure: a later call for one that lays out
// alike (its size, its axes' ranges, scales and labels, its texts and keys' entries as they were)
// tries again only the labels that went back, so that a view of the window changed in what its
// layout does not read (RoPE's θ) pays for the trials once, not at every fitting (tst_figureviewdraws).
// It keeps the last few figures' (kFiguresKept): a fitting's ladder asks at the figure as made with
// the title's steps, at the figure the climb from the title's step leaves, and again at the first
// (what-dropout-does' view at 329 x 345, nine trials each time at the first, four at the second).
struct LabelsBack
{
    struct Found
    {
        QString inputs; // what the layout read
        QStringList back; // the labels that went back under their axes: panel's place, axis and text
    };
    static constexpr qsizetype kFiguresKept = 4;
    QList<Found> found; // the last found first
};
bool labelsBackWhereRoom(QCustomPlot *plot, const std::function<bool()> &layOut, LabelsBack *known = nullptr);

// Panels of one row show one form of their x label: where the steps left some "column" and others
// "column j" (one the other's first words, or forms of one label its figure gives), each takes the
// shortest any shows, which holds wherever a longer one did (dropout-on-sum's slide for MAE).
// False when none changed; nothing before a step was given up.
bool oneLabelFormPerRow(QCustomPlot *plot);

// The part of the figure its plots take: their axis rects (colour scales aside) over the viewport.
double plotShare(const QCustomPlot &plot);
// At least this part of a page short of room is its plots.
constexpr double kMinPlotShare = 0.5;
// Where no step makes the figure fit, it is drawn as the step that gave its plots the most of the
// page left it; a step that draws fewer panels than the best before only where it gave them this
// much more than it: a panel is given up to fit, or for a real gain, never for a sliver of the page.
constexpr double kPanelGain = 0.05;
// A page is short of room where it holds fewer than this many squares of its text's size: a
// slide (25.4 x 14.3 cm) at 9 pt holds 80 x 45 of them, the window's 1200 x 800 figure at 9 pt
// 100 x 67. There the texts crowd the plots, and the figure gives up what a reader needs least
// until its plots have kMinPlotShare of it; a larger page is given up only what overflows it
// (its author's captions keep their room, as they do on a screen).
constexpr double kShortRoom = 5000.0;
// Whether the figure's page is short of room with its texts at `points`.
bool shortOfRoom(const QCustomPlot &plot, double points);
// Whether the figure fits its viewport with its texts at `points`: its least size within it and,
// on a page short of room, its plots at least kMinPlotShare of it.
bool fits(const QCustomPlot &plot, double points);
// Whether nothing overflows or overlaps: its least size within its viewport, every axis label
// within its length (a word longer than a short axis, which the least size does not count,
// reaches past it into the neighbours or off the page), its tick labels clear of its texts and
// of the tick labels of the panel beside.
bool within(const QCustomPlot &plot);
// Whether its least size is within its viewport: a figure that is not is too small (FigureBuild).
bool leastWithin(const QCustomPlot &plot);
// Whether every axis label drawn is within the length FigureFit wraps it to.
bool labelsWithin(const QCustomPlot &plot);
// Whether no tick label down the side of a plot reaches past the plot's margins into a text (a
// title, a panel's name) above or below it: a label on the end of its range is centred on the
// rect's edge, half outside it.
bool ticksClearOfTexts(const QCustomPlot &plot);
// Whether the tick labels under panels side by side keep apart: the end labels of two panels
// closed up (the axis between them gave its labels to its neighbour's) may meet.
bool tickLabelsApart(const QCustomPlot &plot);
// Whether every label a step set above its axis (Steps::labelsAbove) is within the page and
// clear of the other texts, the plots and the tick labels, as the layout now places them.
bool labelsAboveClear(const QCustomPlot &plot);
// Whether no colour bar's tick label meets a text of the layout (a panel's name above it).
bool barTicksClearOfTexts(const QCustomPlot &plot);

// The label `axis` shows, unwrapped: its own, or where a step folded it (a colour bar's under
// its bar), that text.
QString shownLabel(const QCPAxis *axis);
// The figure's title as it set it, whole, for a file's metadata; empty when it has none.
QString fullTitle(const QCustomPlot &plot);
// The texts given up or shortened, whole, in layout order, for a file's metadata.
QStringList setAside(const QCustomPlot &plot);
// The figure's panels (its axis rects, colour scales aside) and how many of them the steps gave up
// for room: what a page short of room leaves out, for the exporter to say.
struct PanelsKept
{
    int panels = 0;
    int givenUp = 0;
};
PanelsKept panelsKept(const QCustomPlot &plot);

} // namespace FigureRoom

} // namespace posenc
