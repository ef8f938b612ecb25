#include "FigureRoomChanges.h"

// The spacing of a grid whose columns all but one were given up (docs/ARCHITECTURE.md, "Figures
// at any size").
namespace posenc::FigureRoom {

void Changes::closeUpAround(const QList<QCPLayoutElement *> &hidden)
{
    // A panel given up keeps a unit of its column and the grid's spacing beside it: with the other
    // columns of its grid given up too, the one left shared its grid's width with nothing but that
    // spacing (learned, rope-input, buckets: 5 units of a 6 x 4 cm page's 227). Rows stay spaced:
    // a panel given up under another keeps its axes' row, which the spacing keeps apart from it.
    QList<QCPLayoutGrid *> grids;
    for (QCPLayoutElement *element : hidden)
        if (auto *grid = qobject_cast<QCPLayoutGrid *>(element->layout()); grid && !grids.contains(grid))
            grids.append(grid);
    for (QCPLayoutGrid *grid : std::as_const(grids)) {
        if (grid->columnCount() < 2 || grid->columnSpacing() == 0)
            continue;
        int columns = 0;
        for (int column = 0; column < grid->columnCount(); ++column)
            for (int row = 0; row < grid->rowCount(); ++row)
                // elementAt: element() warns of every empty cell it is asked for.
                if (const QCPLayoutElement *element = grid->elementAt(grid->rowColToIndex(row, column));
                    element && !isHidden(element)) {
                    ++columns;
                    break;
                }
        if (columns <= 1)
            setSpacing(grid, grid->rowSpacing(), 0);
    }
}

} // namespace posenc::FigureRoom
