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

QList<QRect> cells(int count, QSize page, QSize shape, double lead)
{
    const int columns = shape.width(), rows = shape.height();
    const int width = page.width() / columns, height = page.height() / rows;
    // The edge of column or row i of n, the first `first` times as wide as each other.
    const auto edge = [](int i, int n, int length, int even, double first) {
        if (i == n)
            return length;
        if (first == 1.0 || i == 0)
            return i * even;
        return int(std::lround(length * (first + (i - 1)) / (first + (n - 1))));
    };
    const double columnLead = columns > 1 ? lead : 1.0, rowLead = columns == 1 ? lead : 1.0;
    // The edges of column or row i (whole layout units; the last takes what the division leaves).
    const auto left = [&](int column) { return edge(column, columns, page.width(), width, columnLead); };
    const auto top = [&](int row) { return edge(row, rows, page.height(), height, rowLead); };
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
