#include "EqualPanels.h"

#include "FigureRoom.h"
#include "FigureRoomChanges.h"
#include "MeasuredText.h"

#include <QMap>

#include <cmath>
#include <limits>

namespace posenc::EqualPanels {

namespace {

bool drawn(const QCPLayoutElement *element)
{
    return element && element->realVisibility() && !FigureRoom::Changes::isHidden(element);
}

// A panel's name, drawn, of some text.
const QCPTextElement *nameIn(QCPLayoutGrid *grid, int row, int column)
{
    if (column < 0 || column >= grid->columnCount() || !grid->hasElement(row, column))
        return nullptr;
    const auto *text = qobject_cast<const QCPTextElement *>(grid->element(row, column));
    if (!text || !drawn(text) || text->text().isEmpty() || FigureRoom::roleOf(text) != TextRole::PanelTitle)
        return nullptr;
    return text;
}

// Its text's width, its margins aside (a name reaching past its cell has less than none).
double widthOf(const QCPTextElement *text)
{
    return MeasuredText::boundingRect(text->font(), 0, text->text()).width();
}

// `text` in two lines, broken after a hyphen or at a space, where the wider line is the narrowest;
// empty where it has no such break (or is in lines already).
QString inTwoLines(const QFont &font, const QString &text)
{
    QString best;
    double narrowest = 0.0;
    for (qsizetype at = 1; at + 1 < text.size() && !text.contains(u'\n'); ++at) {
        const bool hyphen = text[at - 1] == u'-', space = text[at] == u' ';
        if (!hyphen && !space)
            continue;
        const QString first = text.left(at), second = text.mid(space ? at + 1 : at);
        const double wider = std::max(MeasuredText::boundingRect(font, 0, first).width(),
                                      MeasuredText::boundingRect(font, 0, second).width());
        if (best.isEmpty() || wider < narrowest) {
            best = first + u'\n' + second;
            narrowest = wider;
        }
    }
    return best;
}

// The room a name has past its cell on each side: the spacing and half of what its neighbour's
// name leaves free of its cell, a space kept; none where a side has no name beside it.
double roomBeside(QCPLayoutGrid *grid, const QMap<int, double> &cells, int row, int column, double space)
{
    double room = std::numeric_limits<double>::max();
    for (const int beside : {column - 1, column + 1}) {
        const QCPTextElement *other = nameIn(grid, row, beside);
        room = other && cells.contains(beside)
            ? std::min(room, grid->columnSpacing() + (cells.value(beside) - widthOf(other)) / 2.0 - space)
            : 0.0;
        if (room <= 0.0)
            return 0.0;
    }
    return room;
}

// The panels' names of `grid` wider than the cells `cells` (by column) give their panels, each
// centred over its cell and reaching past it into the spacing beside it and the room its
// neighbour's name leaves free, where that keeps a space from the neighbour's name on each side:
// they hold their columns no wider than their panels, as matplotlib's titles stand over their axes
// ("embedding" held its column a fifth wider than its four neighbours' on a 16:9 slide of the
// dropout modes). A name whose neighbour on a side is not a name (a colour bar's label may stand
// there) or is past the grid's edge reaches past its cell on neither. A name that the room beside
// it does not hold goes into two lines, broken after a hyphen or at a space, where they do: the
// row of names a line higher rather than its panel wider than its neighbours ("protect-special"
// between "pe" and "masked-fill" on a 16:9 slide of MAE's dropout modes). Else it holds its cell
// wider. The names are taken from left to right: the room beside one depends on its neighbour's
// lines, so an order that followed a hash's seed gave the same figure two layouts (dropout-compare
// at a column kept its columns' "10" in some runs only). True when a name changed.
bool letNamesOverhang(QCPLayoutGrid *grid, const QMap<int, double> &cells, FigureRoom::Changes &changes)
{
    bool changed = false;
    for (int row = 0; row < grid->rowCount(); ++row)
        for (auto at = cells.begin(); at != cells.end(); ++at) {
            const int column = at.key();
            auto *name = const_cast<QCPTextElement *>(nameIn(grid, row, column));
            if (!name)
                continue;
            const double space = MeasuredText::advance(name->font(), QStringLiteral(" "));
            const double room = roomBeside(grid, cells, row, column, space);
            // Its own margins count as its text does (none where it reaches past its cell already).
            const double own = std::max(name->margins().left(), 0) + std::max(name->margins().right(), 0);
            double past = (widthOf(name) + own - at.value()) / 2.0;
            if (past > room) {
                const QString lines = inTwoLines(name->font(), name->text());
                const double shorter = lines.isEmpty()
                    ? 0.0
                    : (MeasuredText::boundingRect(name->font(), 0, lines).width() + own - at.value()) / 2.0;
                if (!lines.isEmpty() && shorter <= room) {
                    changed |= changes.setText(name, lines);
                    past = shorter;
                }
            }
            if (past > 0.0 && past <= room)
                changed |= changes.letOverhang(name, at.value());
            else if (name->margins().left() < 0 || name->margins().right() < 0)
                changed |= changes.letOverhang(name, QWIDGETSIZE_MAX);
        }
    return changed;
}

// The factors that give the panels of `grid`'s first row of panels side by side plots in the
// proportion of the factors its figure gave (`given`), from their margins alone: the same factors
// for the same margins whatever the factors were, so that a view and a view resized to its size
// settle alike.
QList<double> equalFactors(QCPLayoutGrid *grid, const QList<double> &given, FigureRoom::Changes &changes, bool &named)
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
        // panel's title as wide, where it may not reach past it: letNamesOverhang) keeps a wider plot.
        QMap<int, double> cells;
        for (const int column : columns) {
            const QCPLayoutElement *rect = grid->element(row, column);
            const double margins = rect->outerRect().width() - rect->rect().width();
            cells.insert(column, plots * given[column] / weight + margins);
            factors[column] = cells.value(column) / outer * weight;
        }
        named |= letNamesOverhang(grid, cells, changes);
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
        bool named = false;
        const QList<double> factors = equalFactors(grid, changes->givenStretch(grid), *changes, named);
        changed |= named;
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
