#pragma once

#include "FigureRoom.h"

namespace posenc::FigureRoom::Steps {

// The steps FigureRoom gives up, each changing the figure through its Changes and returning
// whether anything changed. In the order of FigureRoom's ladder.

// Axes as close to their labels as they can be: paddings of two units, and each axis rect's and
// colorbar's least margins only what its end tick labels need.
bool tightenAxes(QCustomPlot *plot);
// The right margins of panels whose x axis's label stands along its tick labels, tightened again
// to the end tick labels they draw now (the label blanks the last): their left, top and bottom
// hold labels later steps set there.
bool tightenRightSides(QCustomPlot *plot);
// The panels of every grid 4 units apart at most, and colour bars 7 units wide.
bool tightenGrids(QCustomPlot *plot);
// A colour bar's label, along its bar beside the tick labels, goes under the bar, across, where
// the bar's column has room below its end label (the plots' axes take that height anyway).
bool foldBarLabels(QCustomPlot *plot);
// Legends take as many columns as their room holds, not only as many as their figure asked for.
bool unfoldLegends(QCustomPlot *plot);
// Labels placed on the data (QCPItemText) that their axes would cut, or the page, go: done at
// any size, before the steps.
bool hideCutLabels(QCustomPlot *plot);
// A caption of more than a line shows the first of its figure's shorter forms that holds in one.
bool captionsInShorterForms(QCustomPlot *plot);
// Captions, notes and the legends of marks go, but those showing a form of captionsInShorterForms.
bool dropCaptions(QCustomPlot *plot);
// The captions showing a one-line form their figure gave go: once the title is in one line, before
// the title goes.
bool dropCaptionForms(QCustomPlot *plot);
// Panels side by side or stacked whose axes show the same range, aligned, show its labels once.
bool shareAxes(QCustomPlot *plot);
// Panels whose axis gave its labels to an aligned neighbour's (shareAxes) leave their margin
// group on that side where no panel in line with them shows labels there: the margin goes to
// their plots, not held as wide as the neighbour's (Changes::releaseMargins).
bool giveBackMargins(QCustomPlot *plot);
// Tick numbers of whole thousands (millions, ...) written short where that is shorter: "1k" for
// "1000", "20k" for "20000" (KeepsClear::shortNumber), on every axis and colour bar drawn.
bool shortenTickNumbers(QCustomPlot *plot);
// Panels side by side whose bottom axes' end tick labels meet (the axis between them gave its
// labels to its neighbour's, and their margins closed up): the left panel, the right one and
// by how much (layout units).
struct Meeting
{
    QCPAxisRect *left = nullptr;
    QCPAxisRect *right = nullptr;
    double by = 0.0;
};
QList<Meeting> meetingTickLabels(const QCustomPlot &plot);
// Each such pair's facing margins grown by half as much, and a unit, each.
bool separateTickLabels(QCustomPlot *plot);
// Where the tick labels of a panel's two axes meet at a corner of it (the left axis's "0.95"
// on the bottom axis's "10⁰"), the end labels of one of them left blank, its ticks still drawn,
// as matplotlib's authors prune a locator's end tick: of the axis with more numbers, which keeps
// two at least. True when one was.
bool pruneCornerTicks(QCustomPlot *plot);
// How many corners of panels drawn have their two axes' tick labels meeting there, as
// pruneCornerTicks finds them.
qsizetype cornersMeeting(const QCustomPlot &plot);
// Each bottom axis's label (across) or left axis's (up the side), of one line and at most 0.6 of
// its axis, set in the row of its tick labels at the axis's far end (right, or top), its tick
// labels that would reach it left blank (KeepsClear): a line of the figure's height, or a
// column of its width, given to the plots. A label their ticker cannot keep clear of (a text
// ticker's) stays.
bool labelsAlongTicks(QCustomPlot *plot, Qt::Orientation orientation);
// Each left axis's label, and each colour bar's, of one line, set across above its axis's top end
// (matplotlib's cbar.ax.set_title) where that leaves it clear of every other text, plot and tick
// label and within the page: in the row of its panel's name, beside the name, the label's column
// given to the plots (FigureRoom::labelsAboveClear).
bool labelsAbove(QCustomPlot *plot);
// Each panel's and colour bar's top margin, held for the half of its end tick label that stands above
// it, down to two units where that half then stands in the row above it (its name's), clear of the
// texts there (FigureRoom::ticksClearOfTexts, barTicksClearOfTexts) and on the page.
bool endLabelsIntoNames(QCustomPlot *plot);
// Where that left a colour bar's end label under its label above it (labelsAbove), the bar's top
// back below it, the bar out of the panels' top margin group: the panels beside it keep their tops
// raised, the bar stands level with them or below, as a heatmap's bar does (HeatmapPanel). Held
// level, the bar held alibi-bias's map 4 units of a 6 x 4 cm page's 151 under its name.
bool barsBelowTheirLabels(QCustomPlot *plot);
// The figure's title, or each panel's, in at most `lines` lines: its first parts that fit.
bool shortenTitle(QCustomPlot *plot, int lines);
// The title in one line where that keeps the parts naming the model's parameters
// (ShorterLabels::setModelParts); else as it is, until shortenTitle(plot, 1) after the panel titles.
bool shortenTitleKeepingModel(QCustomPlot *plot);
bool shortenPanelTitles(QCustomPlot *plot, int lines);
// Legend entries keep their first part ("q = k (all ones): ..." is "q = k").
bool shortenEntries(QCustomPlot *plot);
// A legend in a row of its own moves into a corner of its plot where it covers no data.
bool legendsInside(QCustomPlot *plot);
// Last, a legend in a row of its own, or one whose entries are cut, moves into such a corner in the
// shorter forms its figure gives its entries (ShorterLabels::setEntry), rather than cut.
bool legendsInsideInShorterForms(QCustomPlot *plot);
// On a page short of room, a legend in a row of its own moves over its plot's data, with its
// translucent white ground, to the place where it hides the least (matplotlib's loc="best",
// LegendPlacement::leastCovered), never hiding more than kMostHidden of any one line, nor meeting
// a text drawn on the data. A key of lines that cross every corner (rope-frequencies' reference
// lines, rope-score's band) took two rows under a 6 x 4 cm plot, its entries cut to "2π·θ^…".
inline constexpr double kMostHidden = 0.15;
bool legendsOverData(QCustomPlot *plot);
// On a page short of room, where no place over the data leaves every line whole, a legend in a row
// of its own moves into its plot's top, its value axis grown at the top end by as much as it takes
// (at most kMostHeadroom of the plot's height), so that it stands above the data (the headroom an
// author gives a key with set_ylim, rather than a row of the page under the plot).
inline constexpr double kMostHeadroom = 1.0 / 3.0;
bool legendsOverHeadroom(QCustomPlot *plot);
// An axis label that takes more than a line keeps its first part.
bool shortenAxisLabels(QCustomPlot *plot);
// A colour bar's label that takes more than a line keeps its first part.
bool shortenBarLabels(QCustomPlot *plot);
// An axis's label still wrapped to more than a line keeps the first words its axis holds in one
// line (shortened(): no word cut, none parted from its number): a line of the figure's height, or
// a column of its width, given to the plots.
bool axisLabelsInOneLine(QCustomPlot *plot);
// Tick labels of words (a text ticker's) longer than a quarter of the figure's width keep their
// first whole words that no other label begins with ("Llama" of "Llama-4-Scout"), else elided; a
// label in lines line by line, each line held to the quarter alone.
bool elideTickLabels(QCustomPlot *plot);
bool dropTitle(QCustomPlot *plot);
// The panels a figure can do without (FigureRoom::setDispensable) of `order` go.
// The panel titles that name one of them (FigureRoom::panelNamedBy) go with it.
bool hideDispensable(QCustomPlot *plot, int order);
// Once every panel the figure can do without has gone, a text that counts the panels drawn says
// what it says alone (FigureRoom::setTextWhenAlone), cut to as many parts as it kept; where the
// panels go (hideDispensable, keepPrimaryAlone).
void sayAlone(QCustomPlot *plot);
// Where the figure marked its primary panels (FigureRoom::setPrimary), its title has gone and its
// plots are still short of kMinPlotShare, every other panel drawn goes, with the panel titles that
// name it, and the panel left keeps its first name only: the figure's main panel alone, as an
// author prints a 6 x 4 cm figure, the others' names kept in the file's metadata.
bool keepPrimaryAlone(QCustomPlot *plot);
// Past the title, on a page short of room whose plots are still short of half of it, a figure's
// one colour bar down the side of its panels laid across beside its one key, in the key's row,
// where that row holds its label and three of its numbers beside the entries; where the entries
// fill that row, in a row of its own over the key's, where the plots gain more by its column than
// they lose by that row: its column goes to the plots (FigureRoomStrip).
bool barsBesideKeys(QCustomPlot *plot);
// The panel titles that name no panel go; a panel's name goes only with its panel.
bool dropUnnamingTitles(QCustomPlot *plot);
// Legend entries cut to the widest that lets their key stand in three columns of its room, or,
// where so cut two of its entries would read alike or one would be cut within its first word, in
// two, then one (FigureRoomEntries.cpp); an entry its figure gave shorter forms
// (ShorterLabels::setEntry) takes the first that holds whole instead, and one that would be cut
// within a number its first whole words, the number whole (shortened()).
bool elideEntries(QCustomPlot *plot);
// On a page short of room, a key of curves in a row of its own, which no place over its plots
// held, gives way to labels on its curves (DirectLabels: each in its curve's colour beside its
// end, or the farthest free place along it), where every one finds a place: the key's row goes to
// the plots, and no line goes unnamed. With `overflowing`, only where the figure overflows its
// page (the key would go, dropKeysIfOverflowing): the labels then stand where the room the later
// steps give leaves them a place, else none of them.
bool labelCurves(QCustomPlot *plot, bool overflowing);
// On a page short of room, a key in a row of its own that no step before named on its curves (one
// of shades and curves, or of curves not all labelled) lets go of the entries whose curves hold a
// label together (DirectLabels::makeSome): each curve named beside it, in its colour, the shades
// and the curves without a place kept in the key, now smaller (Changes::labelSome), for the
// steps after to place. rope-frequencies' key of Llama 3.1's curves and bands took two rows under
// a 6 x 4 cm plot and went whole.
bool labelSomeCurves(QCustomPlot *plot);
// Where the figure still overflows its page, its keys go (the file's metadata keeps them).
bool dropKeysIfOverflowing(QCustomPlot *plot);

// `text` in at most `lines` lines of `width`: its first statements and "  ·  " parts that fit
// whole, else its first part's first words and an ellipsis, never a word nor a number cut, nor a
// word parted from the number it names ("pair 16", never "pair …" or "pair 1…"); where not even
// the first word fits, that word and its number whole, wider than `width`. Of `forms` (the
// figure's shorter forms of the text, ShorterLabels::setText), the first that fits is taken before
// any cut within a part.
QString shortened(const QString &text, const QFont &font, double width, int lines, const QStringList &forms = {});
// `text` up to the first of `separators` outside brackets, trimmed; `text` when it has none.
QString firstPart(const QString &text, const QStringList &separators);
// `axis`'s label at its shortest: the last of its figure's shorter forms (ShorterLabels), else its
// first part (firstPart), for the steps that take a label to one line whatever it loses.
QString shortestTrue(const QCPAxis *axis, const QStringList &separators);

} // namespace posenc::FigureRoom::Steps
