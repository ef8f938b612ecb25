#include "FamiliesRoom.h"

#include "render/FigureRoom.h"
#include "render/data/FamilyPanel.h"

#include <algorithm>
#include <map>

namespace posenc::FamiliesRoom {

namespace {

// A panel at least this many lines of its text high: its tick labels and its axis label.
constexpr double kPanelLines = 4.0;
constexpr int kMostColumns = 3;
// The columns a page short of room may set its panels in, one more than columns() allows: a 16:9
// slide, wide for its height, holds its eight panels in four columns of two.
constexpr int kMostColumnsShort = 4;

// The panels' room in lines of text on a page short of room, what FigureRoom leaves there once it
// gave up the captions and the legend: the title; under the last panel of each column the offset
// axis (its tick labels and label: a ragged last row puts it under two rows); over each row the
// panels' top margin; left of each column its axis label and tick labels and the columns' spacing.
// A 14-pt slide's seven panels in three columns measured 37% of it in plots, the estimate 38%.
constexpr double kTitleLines = 1.5;
constexpr double kOffsetAxisLines = 2.5;
constexpr double kRowLines = 0.5;
constexpr double kColumnLines = 4.0;

int rowsOf(qsizetype panels, int columns)
{
    return static_cast<int>((panels + columns - 1) / columns);
}

// The height of each plot and the part of the page the plots take, in lines of text.
std::pair<double, double> estimate(double lines, double width, qsizetype panels, int columns)
{
    const int rows = rowsOf(panels, columns);
    const int axisRows = rows > 1 && panels % columns != 0 ? 2 : 1;
    const double high = (lines - kTitleLines - axisRows * kOffsetAxisLines - rows * kRowLines) / rows;
    const double wide = (width - columns * kColumnLines) / columns;
    if (high <= 0.0 || wide <= 0.0 || lines <= 0.0 || width <= 0.0)
        return {0.0, 0.0};
    return {high, double(panels) * high * wide / (lines * width)};
}

} // namespace

PanelKind kindOf(const FamilySpec &family)
{
    if (!family.placesPosition())
        return PanelKind::None;
    if (const FamilyPanel *panel = FamilyPanels::of(family.encoding); panel && panel->bucketStandsIn)
        return PanelKind::Bucket;
    switch (family.kind) {
    case FamilyKind::Term:
        return PanelKind::Absolute;
    case FamilyKind::Rotation:
        return PanelKind::Rotary;
    case FamilyKind::ScoreBias:
        return PanelKind::Bias;
    }
    return PanelKind::Bias;
}

int columns(double lines, qsizetype panels)
{
    // Beside the panels: the title, the legend, the caption and the offset axis.
    constexpr double kAroundLines = 9.0;
    for (int columns = 1; columns < kMostColumns; ++columns) {
        if ((lines - kAroundLines) / rowsOf(panels, columns) >= kPanelLines)
            return columns;
    }
    return kMostColumns;
}

Grid held(double lines, double width, qsizetype panels)
{
    for (qsizetype n = panels; n > 1; --n) {
        for (int across = columns(lines, n); across <= kMostColumnsShort; ++across) {
            const auto [high, share] = estimate(lines, width, n, across);
            const double wide = (width - across * kColumnLines) / across;
            if (high >= kPanelLines && wide >= kPanelLines && share >= FigureRoom::kMinPlotShare)
                return {n, across};
        }
    }
    return {std::min<qsizetype>(panels, 1), 1};
}

QList<bool> shown(const QList<const FamilySpec *> &families, Encoding chosen, const QList<Encoding> &named,
                  qsizetype held)
{
    QList<bool> shown(families.size(), false);
    std::map<PanelKind, int> drawnOfKind;
    qsizetype left = held;
    const auto show = [&](qsizetype n) {
        if (left <= 0 || shown[n])
            return;
        shown[n] = true;
        ++drawnOfKind[kindOf(*families[n])];
        --left;
    };
    for (qsizetype n = 0; n < families.size(); ++n)
        if (families[n]->encoding == chosen)
            show(n);
    // The named in the order they are named: where the page holds fewer, the first named stay.
    for (const Encoding family : named)
        for (qsizetype n = 0; n < families.size(); ++n)
            if (families[n]->encoding == family)
                show(n);
    // Round r draws, in the list's order, the panels of the kinds fewer than r of whose are drawn.
    for (int round = 1; left > 0 && shown.count(false) > 0; ++round)
        for (qsizetype n = 0; n < families.size(); ++n)
            if (!shown[n] && drawnOfKind[kindOf(*families[n])] < round)
                show(n);
    return shown;
}

} // namespace posenc::FamiliesRoom
