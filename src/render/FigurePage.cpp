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

QList<QRect> cells(int count, QSize page)
{
    const QSize shape = grid(count, page);
    const int width = page.width() / shape.width(), height = page.height() / shape.height();
    QList<QRect> placed;
    for (int i = 0; i < count; ++i) {
        const int column = i % shape.width(), row = i / shape.width();
        const int right = column == shape.width() - 1 ? page.width() : (column + 1) * width;
        const int bottom = row == shape.height() - 1 ? page.height() : (row + 1) * height;
        placed.append(QRect(QPoint(column * width, row * height), QPoint(right - 1, bottom - 1)));
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
