#include "EqualPanels.h"

#include "FigureRoomChanges.h"

#include <cmath>

namespace posenc::EqualPanels {

namespace {

bool drawn(const QCPLayoutElement *element)
{
    return element && element->realVisibility() && !FigureRoom::Changes::isHidden(element);
}

// The factors that give the panels of `grid`'s first row of panels side by side plots in the
// proportion of the factors its figure gave (`given`), from their margins alone: the same factors
// for the same margins whatever the factors were, so that a view and a view resized to its size
// settle alike.
QList<double> equalFactors(QCPLayoutGrid *grid, const QList<double> &given)
{
    QList<double> factors = grid->columnStretchFactors();
    for (int row = 0; row < grid->rowCount(); ++row) {
        QList<int> columns;
        for (int column = 0; column < grid->columnCount(); ++column)
            if (const auto *rect = grid->hasElement(row, column)
                    ? qobject_cast<const QCPAxisRect *>(grid->element(row, column))
                    : nullptr;
                drawn(rect) && rect->rect().width() > 0)
                columns.append(column);
        if (columns.size() < 2)
            continue;
        double outer = 0.0, plots = 0.0, weight = 0.0;
        for (const int column : columns) {
            const QCPLayoutElement *rect = grid->element(row, column);
            outer += rect->outerRect().width();
            plots += rect->rect().width();
            weight += given[column];
        }
        if (plots <= 0.0 || weight <= 0.0)
            return factors;
        // In the units of the cells' widths, the row's weight among the other columns kept: each
        // cell the plot it should have and its own margins. A cell held to its least width (a
        // panel's title as wide) keeps a wider plot.
        for (const int column : columns) {
            const QCPLayoutElement *rect = grid->element(row, column);
            const double margins = rect->outerRect().width() - rect->rect().width();
            factors[column] = (plots * given[column] / weight + margins) / outer * weight;
        }
        return factors;
    }
    return factors;
}

// Whether `factors` in place of `grid`'s current ones would move a cell's edge by half a unit or
// more: each column's width goes as its factor's part of the grid's. A smaller change is the
// rounding of the last layout's widths fed back, not panels made more even: two layouts a unit
// apart can each ask for the other's factors, and the figure never settled (rope-rotation at the
// window went round FigureFit::kMaxRounds at every fitting, laid out again at every request).
bool movesACell(QCPLayoutGrid *grid, const QList<double> &current, const QList<double> &factors)
{
    if (factors.size() != current.size() || current.size() != grid->columnCount())
        return true;
    double before = 0.0, after = 0.0;
    for (qsizetype column = 0; column < current.size(); ++column) {
        before += current[column];
        after += factors[column];
    }
    if (before <= 0.0 || after <= 0.0)
        return true;
    for (int column = 0; column < grid->columnCount(); ++column) {
        if (current[column] <= 0.0)
            return true;
        for (int row = 0; row < grid->rowCount(); ++row) {
            if (!grid->hasElement(row, column))
                continue;
            const double width = grid->element(row, column)->outerRect().width();
            const double moved = width * (factors[column] / after) / (current[column] / before) - width;
            if (std::abs(moved) >= 0.5)
                return true;
            break;
        }
    }
    return false;
}

} // namespace

bool equalize(QCustomPlot *plot)
{
    // Only a figure that gave up room steps: one laid out as its figure made it is drawn so.
    FigureRoom::Changes *changes = FigureRoom::Changes::find(*plot);
    if (!changes)
        return false;
    bool changed = false;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *grid = qobject_cast<QCPLayoutGrid *>(element);
        if (!grid || qobject_cast<QCPLegend *>(grid))
            continue;
        const QList<double> factors = equalFactors(grid, changes->givenStretch(grid));
        const QList<double> current = grid->columnStretchFactors();
        bool same = factors.size() == current.size();
        for (qsizetype i = 0; same && i < factors.size(); ++i)
            same = std::abs(factors[i] - current[i]) <= 1e-9 * std::max(1.0, std::abs(current[i]));
        if (same || !movesACell(grid, current, factors))
            continue;
        changed |= changes->setColumnStretch(grid, factors);
    }
    return changed;
}

} // namespace posenc::EqualPanels
