#include "StackedPanels.h"

#include "FigureBuild.h"
#include "FigureRoom.h"
#include "KeptPanels.h"
#include "MeasuredText.h"

#include <algorithm>
#include <limits>

namespace posenc::StackedPanels {

namespace {

bool isPanel(const QCPLayoutElement *element)
{
    const auto *rect = qobject_cast<const QCPAxisRect *>(element);
    return rect && !dynamic_cast<const QCPColorScaleAxisRectPrivate *>(rect);
}

// Whether `element` is a panel or a grid (a legend aside) that holds one.
bool holdsPanel(QCPLayoutElement *element)
{
    if (isPanel(element))
        return true;
    auto *grid = qobject_cast<QCPLayoutGrid *>(element);
    if (!grid || qobject_cast<QCPLegend *>(grid))
        return false;
    const QList<QCPLayoutElement *> inside = grid->elements(true);
    return std::any_of(inside.begin(), inside.end(), isPanel);
}

// The columns of `grid` at which a panel's columns begin, where its panels stand in one row and in
// two columns or more; none otherwise.
QList<int> panelColumns(QCPLayoutGrid *grid)
{
    QList<int> columns;
    int panelRow = -1;
    for (int row = 0; row < grid->rowCount(); ++row)
        for (int column = 0; column < grid->columnCount(); ++column) {
            if (!grid->hasElement(row, column) || !holdsPanel(grid->element(row, column)))
                continue;
            if (panelRow >= 0 && panelRow != row)
                return {};
            panelRow = row;
            columns.append(column);
        }
    return columns.size() >= 2 ? columns : QList<int> {};
}

// `grid`'s panels one under the other, each with its columns (panelColumns()).
void stackGrid(QCPLayoutGrid *grid, QList<int> starts)
{
    const int rows = grid->rowCount(), columns = grid->columnCount();
    const QList<double> rowFactors = grid->rowStretchFactors(), columnFactors = grid->columnStretchFactors();
    // What is left of the first panel goes with it.
    starts.first() = 0;
    starts.append(columns);
    QList<QList<QCPLayoutElement *>> cells(rows, QList<QCPLayoutElement *>(columns, nullptr));
    for (int row = 0; row < rows; ++row)
        for (int column = 0; column < columns; ++column)
            if (grid->hasElement(row, column)) {
                cells[row][column] = grid->element(row, column);
                grid->take(cells[row][column]);
            }
    grid->simplify();
    const qsizetype panels = starts.size() - 1;
    int widest = 0;
    for (qsizetype panel = 0; panel < panels; ++panel)
        widest = std::max(widest, starts[panel + 1] - starts[panel]);
    grid->expandTo(int(panels) * rows, widest);
    QList<double> stackedColumns(widest, 0.0), stackedRows;
    for (qsizetype panel = 0; panel < panels; ++panel) {
        for (int row = 0; row < rows; ++row) {
            stackedRows.append(rowFactors.value(row, 1.0));
            for (int column = starts[panel]; column < starts[panel + 1]; ++column) {
                const int at = column - starts[panel];
                stackedColumns[at] = std::max(stackedColumns[at], columnFactors.value(column, 1.0));
                if (QCPLayoutElement *element = cells[row][column])
                    grid->addElement(int(panel) * rows + row, at, element);
            }
        }
    }
    grid->setRowStretchFactors(stackedRows);
    grid->setColumnStretchFactors(stackedColumns);
}

// The rect `text` is drawn in, from its position, alignment and padding, as QCPItemText draws it.
QRectF drawnRect(const QCPItemText *text)
{
    const QRectF box = MeasuredText::boundingRect(text->font(), 0, text->text());
    const QMargins pad = text->padding();
    const QSizeF size(box.width() + pad.left() + pad.right(), box.height() + pad.top() + pad.bottom());
    QPointF at = text->position->pixelPosition();
    const Qt::Alignment align = text->positionAlignment();
    if (align & Qt::AlignHCenter)
        at.rx() -= size.width() / 2.0;
    else if (align & Qt::AlignRight)
        at.rx() -= size.width();
    if (align & Qt::AlignVCenter)
        at.ry() -= size.height() / 2.0;
    else if (align & Qt::AlignBottom)
        at.ry() -= size.height();
    return {at, size};
}

} // namespace

bool fitsPage(const QCustomPlot &plot, double points)
{
    if (!FigureRoom::fits(plot, points))
        return false;
    const QRectF page = QRectF(plot.viewport()).adjusted(-0.5, -0.5, 0.5, 0.5);
    for (int i = 0; i < plot.itemCount(); ++i) {
        const auto *text = qobject_cast<const QCPItemText *>(plot.item(i));
        if (text && text->realVisibility() && !text->text().isEmpty() && text->rotation() == 0.0
            && !page.contains(drawnRect(text)))
            return false;
    }
    return true;
}

FigureSizes::PanelsOnPage onPage(const FigureBuild &build, double points)
{
    if (build.error())
        return {std::numeric_limits<int>::max() / 16, false};
    const int leftOut = KeptPanels::leftOut(*build.plot()).givenUp;
    return {leftOut, fitsPage(*build.plot(), points)};
}

bool stack(QCustomPlot *plot)
{
    QList<std::pair<QCPLayoutGrid *, QList<int>>> rows;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *grid = qobject_cast<QCPLayoutGrid *>(element);
        if (!grid || qobject_cast<QCPLegend *>(grid))
            continue;
        if (QList<int> starts = panelColumns(grid); !starts.isEmpty())
            rows.append({grid, starts});
    }
    // The plot's own layout is a grid too.
    if (QList<int> starts = panelColumns(plot->plotLayout()); !starts.isEmpty())
        rows.append({plot->plotLayout(), starts});
    for (const auto &[grid, starts] : rows)
        stackGrid(grid, starts);
    return !rows.isEmpty();
}

} // namespace posenc::StackedPanels
