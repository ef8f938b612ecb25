#include "FigureFit.h"

#include "LegendPlacement.h"

#include <QFontMetricsF>

#include <algorithm>

// A legend fitted to its room: in fewer columns, or moved below its axes (FigureFit::fit).
namespace posenc::FigureFit {

// FigureFitLabel.cpp's: a legend's margins kept clear of the page's edges.
QMargins ownMargins(const QCPLegend *legend);

namespace {

// The columns `legend`'s entries take at `wrap`: the wrap itself when it fills row by row, or
// as many as its entries need when it fills column by column (wrap is then the rows).
int columnsAt(const QCPLegend *legend, int wrap)
{
    const int count = legend->itemCount();
    return legend->fillOrder() == QCPLayoutGrid::foColumnsFirst ? std::min(wrap, count) : (count + wrap - 1) / wrap;
}

} // namespace

// The width of `legend`'s entries laid out at `wrap`.
double legendWidth(const QCPLegend *legend, int wrap)
{
    const int columns = columnsAt(legend, wrap);
    const bool byRows = legend->fillOrder() == QCPLayoutGrid::foColumnsFirst;
    QList<int> widths(columns, 0);
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem *item = legend->item(i)) {
            const int column = byRows ? i % wrap : i / wrap;
            widths[column] = std::max(widths[column], item->minimumOuterSizeHint().width());
        }
    const QMargins margins = ownMargins(legend);
    double width = margins.left() + margins.right() + legend->columnSpacing() * (columns - 1);
    for (const int column : widths)
        width += column;
    return width;
}

// The columns of a legend: as many as its figure asked for, or under unfold (FigureRoom) as many as it
// has entries, and no more than its room holds. Its own wrap is its wish; the wrap fit() set is kept, so
// that a legend folded for a narrow view unfolds when its room returns. A wrap of 0 is one row or column.
bool fitLegend(QCPLegend *legend, double width)
{
    const int count = legend->itemCount();
    if (count == 0)
        return false;
    const bool byRows = legend->fillOrder() == QCPLayoutGrid::foColumnsFirst;
    if (!legend->property("fitWished").isValid() || legend->property("fitSet").toInt() != legend->wrap()) {
        const int wished = legend->wrap() > 0 ? legend->wrap() : (byRows ? count : count);
        legend->setProperty("fitWished", std::min(wished, count));
    }
    // Within its entries now: a panel given up takes its entries out of the legend (FigureRoom).
    const int wished = std::clamp(legend->property("fitWished").toInt(), 1, count);
    const bool unfold = legend->property("fitUnfold").toBool();
    // The candidates from the most columns allowed to the fewest.
    QList<int> wraps;
    if (byRows) {
        for (int w = unfold ? count : wished; w >= 1; --w)
            wraps.append(w);
    } else {
        for (int rows = unfold ? 1 : wished; rows <= count; ++rows)
            wraps.append(rows);
    }
    // A key placed in its plot (LegendPlacement::placeBest) keeps to the columns that place took.
    const QVariant most = byRows ? legend->property(LegendPlacement::kMostColumns) : QVariant();
    int wrap = wraps.constLast();
    for (const int w : wraps) {
        if ((!most.isValid() || w <= most.toInt()) && legendWidth(legend, w) <= width) {
            wrap = w;
            break;
        }
    }
    legend->setProperty("fitSet", wrap);
    if (wrap == legend->wrap())
        return false;
    legend->setWrap(wrap);
    legend->setFillOrder(legend->fillOrder(), true); // rearranges the items in the new wrap
    return true;
}

// An inset legend that still covers much of its axes after taking fewer columns moves below them, into
// a row of the figure's own: a legend must not hide the data. Only for axes in the plot's top layout.
bool moveBelow(QCustomPlot *plot, QCPAxisRect *rect, QCPLegend *legend)
{
    // A legend FigureRoom moved inside chose its corner as free of data.
    if (legend->property("posencInside").toBool())
        return false;
    const QSize hint = legend->minimumOuterSizeHint();
    if (hint.width() <= rect->width() - 8 && hint.height() <= rect->height() * 0.4)
        return false;
    QCPLayoutGrid *layout = plot->plotLayout();
    for (int row = 0; row < layout->rowCount(); ++row) {
        if (layout->element(row, 0) != rect)
            continue;
        rect->insetLayout()->take(legend);
        layout->insertRow(row + 1);
        layout->addElement(row + 1, 0, legend);
        layout->setRowStretchFactor(row + 1, 0.001);
        legend->setWrap(3);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        legend->setBrush(Qt::NoBrush);
        legend->setBorderPen(Qt::NoPen);
        return true;
    }
    return false;
}

} // namespace posenc::FigureFit
