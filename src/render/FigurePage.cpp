#include "FigurePage.h"

#include <cmath>
#include <limits>

namespace posenc::FigurePage {

QSize grid(int count, QSize page)
{
    constexpr double kFigureAspect = 1.5;
    QSize best(1, 1);
    double bestScore = std::numeric_limits<double>::infinity();
    for (int columns = 1; columns <= count; ++columns) {
        const int rows = (count + columns - 1) / columns;
        if ((rows - 1) * columns >= count)
            continue; // a whole row empty: fewer rows do
        const double aspect = (double(page.width()) / columns) / (double(page.height()) / rows);
        // How far the cell is from 3:2 (a factor either way), then a little for each empty cell.
        const double score = std::abs(std::log(aspect / kFigureAspect)) + 0.05 * (rows * columns - count);
        if (score < bestScore) {
            bestScore = score;
            best = QSize(columns, rows);
        }
    }
    return best;
}

QList<QSize> grids(int count)
{
    QList<QSize> all;
    for (int columns = count; columns >= 1; --columns) {
        const int rows = (count + columns - 1) / columns;
        if ((rows - 1) * columns < count && !all.contains(QSize(columns, rows)))
            all.append(QSize(columns, rows));
    }
    return all;
}

QList<QRect> cells(int count, QSize page)
{
    return cells(count, page, grid(count, page));
}

QList<QRect> cells(int count, QSize page, QSize shape)
{
    const int columns = shape.width(), rows = shape.height();
    const int width = page.width() / columns, height = page.height() / rows;
    // The edges of column or row i (whole layout units; the last takes what the division leaves).
    const auto left = [&](int column) { return column == columns ? page.width() : column * width; };
    const auto top = [&](int row) { return row == rows ? page.height() : row * height; };
    // The cells the figures leave empty are the first figure's, down its column, so no part of the
    // page is left blank and the first (a lesson's main) figure has the most room; where they are
    // more than its column holds, the last row's figures share that row instead.
    const int empty = columns * rows - count;
    const bool firstSpans = empty > 0 && empty < rows;
    QList<QRect> placed;
    int slot = firstSpans ? 1 : 0; // the grid's cell the next figure takes, in reading order
    for (int i = 0; i < count; ++i) {
        if (i == 0 && firstSpans) {
            placed.append(QRect(QPoint(0, 0), QPoint(left(1) - 1, top(empty + 1) - 1)));
            continue;
        }
        while (firstSpans && slot % columns == 0 && slot / columns <= empty)
            ++slot; // the first figure's column
        const int column = slot % columns, row = slot / columns;
        ++slot;
        if (!firstSpans && empty > 0 && row == rows - 1) {
            // The last row's figures share its width.
            const int inRow = count - (rows - 1) * columns, at = column;
            const int x0 = page.width() * at / inRow, x1 = page.width() * (at + 1) / inRow;
            placed.append(QRect(QPoint(x0, top(row)), QPoint(x1 - 1, page.height() - 1)));
            continue;
        }
        placed.append(QRect(QPoint(left(column), top(row)), QPoint(left(column + 1) - 1, top(row + 1) - 1)));
    }
    return placed;
}

FigureSize cellSize(const FigureSize &page, QRect cell)
{
    FigureSize size = page;
    size.layout = cell.size();
    return size;
}

} // namespace posenc::FigurePage
