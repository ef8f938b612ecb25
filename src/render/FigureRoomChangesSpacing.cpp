#include "FigureRoomChanges.h"

#include <algorithm>

// The spacing of a grid whose columns, or rows, all but one were given up, and the headroom an
// axis's range grows by for a key over its plot (docs/ARCHITECTURE.md, "Figures at any size").
namespace posenc::FigureRoom {

void Changes::closeUpAround(const QList<QCPLayoutElement *> &hidden)
{
    // A panel given up keeps the grid's spacing beside it (and a unit of its column, or of its
    // row, alone in it, where its least size is not none, Changes::hide): with the other columns
    // of its grid given up too, the one left shared its grid's width with nothing but that
    // spacing (learned, rope-input, buckets: 5 units of a 6 x 4 cm page's 227), and a panel left
    // over one given up under it its height (rope-score, buckets). A legend's spacing is its own
    // (unfold).
    QList<QCPLayoutGrid *> grids;
    for (QCPLayoutElement *element : hidden)
        if (auto *grid = qobject_cast<QCPLayoutGrid *>(element->layout());
            grid && !qobject_cast<QCPLegend *>(grid) && !grids.contains(grid))
            grids.append(grid);
    for (QCPLayoutGrid *grid : std::as_const(grids)) {
        // elementAt: element() warns of every empty cell it is asked for.
        const auto drawn = [grid](int row, int column) {
            const QCPLayoutElement *element = grid->elementAt(grid->rowColToIndex(row, column));
            return element && !isHidden(element);
        };
        // The drawn columns (rows), and the most given up in a run between two of them.
        const auto count = [&](int sections, int across, bool columnsOf) {
            int kept = 0, run = 0, longest = 0;
            for (int section = 0; section < sections; ++section) {
                bool any = false;
                for (int other = 0; other < across && !any; ++other)
                    any = columnsOf ? drawn(other, section) : drawn(section, other);
                if (any) {
                    longest = kept > 0 ? std::max(longest, run) : longest;
                    ++kept;
                    run = 0;
                } else {
                    ++run;
                }
            }
            return std::pair {kept, longest};
        };
        const auto [columns, columnRun] = count(grid->columnCount(), grid->rowCount(), true);
        const auto [rows, rowRun] = count(grid->rowCount(), grid->columnCount(), false);
        // Two drawn columns with k given up between them stand (k + 1) spacings apart
        // (alibi-bias's map and its colour bar, the map beside it given up: 9 units of a 6 x 4 cm
        // page's 227): the spacing is cut so that they stand about one spacing apart, as
        // matplotlib's colorbar pad does not grow with the axes removed beside it.
        const auto spacingFor = [](int spacing, int sections, int kept, int run) {
            if (sections < 2)
                return spacing;
            // One left: nothing to stand apart from. Else (k + 1) s' within s: s' = s / (k + 1).
            return kept <= 1 ? 0 : spacing / (run + 1);
        };
        const int columnSpacing = spacingFor(grid->columnSpacing(), grid->columnCount(), columns, columnRun);
        const int rowSpacing = spacingFor(grid->rowSpacing(), grid->rowCount(), rows, rowRun);
        if (columnSpacing < grid->columnSpacing() || rowSpacing < grid->rowSpacing())
            setSpacing(grid, std::min(rowSpacing, grid->rowSpacing()), std::min(columnSpacing, grid->columnSpacing()));
    }
}

void Changes::growRange(QCPAxis *axis, const QCPRange &range)
{
    const auto kept = std::find_if(m_ranges.begin(), m_ranges.end(), [axis](const Range &r) { return r.axis == axis; });
    if (kept == m_ranges.end())
        m_ranges.push_back({axis, axis->range(), range});
    else
        kept->grown = range;
    // Quietly: a view that follows its axes' ranges (FigureView::rangeChanged) would take the
    // headroom for a zoom, and axes linked to it keep theirs.
    const QSignalBlocker quiet(axis);
    axis->setRange(range);
}

void Changes::undoRanges()
{
    for (auto range = m_ranges.rbegin(); range != m_ranges.rend(); ++range)
        if (range->axis && range->axis->range() == range->grown) {
            const QSignalBlocker quiet(range->axis.data());
            range->axis->setRange(range->given);
        }
    m_ranges.clear();
}

} // namespace posenc::FigureRoom
