#include "FigureRoomChanges.h"

// The spacing of a grid whose columns, or rows, all but one were given up (docs/ARCHITECTURE.md,
// "Figures at any size").
namespace posenc::FigureRoom {

void Changes::closeUpAround(const QList<QCPLayoutElement *> &hidden)
{
    // A panel given up keeps a unit of its column (or of its row, alone in it) and the grid's
    // spacing beside it: with the other columns of its grid given up too, the one left shared its
    // grid's width with nothing but that spacing (learned, rope-input, buckets: 5 units of a
    // 6 x 4 cm page's 227), and a panel left over one given up under it its height (rope-score,
    // buckets). A legend's spacing is its own (unfold).
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
        int columns = 0, rows = 0;
        for (int column = 0; column < grid->columnCount(); ++column)
            for (int row = 0; row < grid->rowCount(); ++row)
                if (drawn(row, column)) {
                    ++columns;
                    break;
                }
        for (int row = 0; row < grid->rowCount(); ++row)
            for (int column = 0; column < grid->columnCount(); ++column)
                if (drawn(row, column)) {
                    ++rows;
                    break;
                }
        const bool closeColumns = grid->columnCount() >= 2 && grid->columnSpacing() != 0 && columns <= 1;
        const bool closeRows = grid->rowCount() >= 2 && grid->rowSpacing() != 0 && rows <= 1;
        if (closeColumns || closeRows)
            setSpacing(grid, closeRows ? 0 : grid->rowSpacing(), closeColumns ? 0 : grid->columnSpacing());
    }
}

} // namespace posenc::FigureRoom
