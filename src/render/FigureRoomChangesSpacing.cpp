#include "FigureRoomChanges.h"

#include "AxisRoom.h"
#include "MeasuredText.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

// The least margins kept to give back, the room of elements given up, the spacing of a grid whose
// columns, or rows, all but one were given up, and the headroom an axis's range grows by for a key
// over its plot (docs/ARCHITECTURE.md, "Figures at any size").
namespace posenc::FigureRoom {

namespace {

// The least size a layout gives `element` (QCPLayout's own reading of its least size and hint).
struct LeastSize : QCPLayout
{
    using QCPLayout::getFinalMinimumOuterSize;
};

} // namespace

// A panel's own margins, without AxisRoom's end-label raise: given back with it, a raise made on a
// compact page stayed when the view was made large again.
void Changes::keepMargins(QCPLayoutElement *element)
{
    if (std::none_of(m_margins.begin(), m_margins.end(), [element](const auto &kept) { return kept.first == element; }))
        m_margins.push_back({element, AxisRoom::ownMargins(element)});
}

bool Changes::letOverhang(QCPTextElement *name, double cell)
{
    const Text &given = textOf(name);
    const QMargins own = given.margins;
    const double text = MeasuredText::boundingRect(name->font(), 0, name->text()).width();
    const int past = std::max(static_cast<int>(std::ceil((text + own.left() + own.right() - cell) / 2.0)), 0);
    const QMargins margins(own.left() - past, name->margins().top(), own.right() - past, name->margins().bottom());
    if (margins == name->margins())
        return false;
    // Auto margins would raise them to none at least (QCPLayoutElement::calculateAutoMargin).
    const QCP::MarginSides sides = past > 0 ? given.autoMargins & ~(QCP::msLeft | QCP::msRight) : given.autoMargins;
    name->setAutoMargins(sides);
    name->setMargins(margins);
    return true;
}

void Changes::takeNoRoom(QCPLayoutElement *element, Qt::Orientation across)
{
    // Its greatest extent the other way is set, not hinted (QCPLayout::getFinalMaximumOuterSize
    // reads QWIDGETSIZE_MAX as not set). An empty text's least size is none; a unit held for each
    // text dropped (the title's row, a caption's) took 1 to 3 of a 6 x 4 cm page's 151.
    constexpr int uncapped = QWIDGETSIZE_MAX - 1;
    const bool row = across == Qt::Horizontal;
    const auto extentOf = [row](QSize size) { return row ? size.height() : size.width(); };
    element->setMinimumSize(row ? 1 : 0, row ? 0 : 1);
    element->setMaximumSize(row ? uncapped : 0, row ? 0 : uncapped);
    if (extentOf(LeastSize::getFinalMinimumOuterSize(element)) <= 0)
        return;
    // A legend's least size is its entries' (QCPLayoutGrid::minimumOuterSizeHint, not capped by
    // its greatest), a panel's name's its text's, and a least size set is a unit at least: a hidden
    // key kept a unit of its row (position-effect's two keys given up for labels on their curves,
    // alibi-bias's key of masked cells), as did the name of a panel given up (position-effect's
    // absolute parts'), each 1 of a 6 x 4 cm page's 151. Such an element, never drawn, takes that
    // room back within its margin: as much as its entries could take all in one column (row), or its
    // text a word a line, whatever a later fitting wraps it to, its greatest size as much again.
    // (A panel's grid keeps its unit: its margins are its plots' room, which EqualPanels reads.)
    int most = 0;
    if (auto *legend = qobject_cast<QCPLegend *>(element)) {
        const int spacing = row ? legend->rowSpacing() : legend->columnSpacing();
        most = spacing;
        for (QCPLayoutElement *entry : legend->elements(false))
            if (entry)
                most += extentOf(LeastSize::getFinalMinimumOuterSize(entry)) + spacing;
    } else if (auto *text = qobject_cast<QCPTextElement *>(element)) {
        const QFontMetrics metrics(text->font());
        most = row ? int(text->text().split(QRegularExpression(u"\\s+"_s)).size() + 1) * metrics.height()
                   : metrics.horizontalAdvance(text->text()) + metrics.height();
    }
    if (most > 0) {
        const QMargins margins = element->margins();
        element->setMargins(margins + (row ? QMargins(0, -most, 0, 0) : QMargins(-most, 0, 0, 0)));
        element->setMaximumSize(row ? uncapped : most, row ? most : uncapped);
        if (extentOf(LeastSize::getFinalMinimumOuterSize(element)) <= 0)
            return;
        element->setMargins(margins);
    }
    element->setMinimumSize(1, 1);
    element->setMaximumSize(row ? uncapped : 1, row ? 1 : uncapped);
}

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
        // elementAt: element() warns of every empty cell it is asked for. A text left empty (the
        // title dropped, a caption its figure left out) draws nothing to stand apart from either:
        // dropout-anatomy's title and subtitle rows, over its heatmaps at 6 x 4 cm, kept two
        // spacings of its page's 151 units.
        const auto drawn = [grid](int row, int column) {
            const QCPLayoutElement *element = grid->elementAt(grid->rowColToIndex(row, column));
            const auto *text = qobject_cast<const QCPTextElement *>(element);
            return element && !isHidden(element) && !(text && text->text().isEmpty());
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
        // matplotlib's colorbar pad does not grow with the axes removed beside it. Columns given
        // up past the last drawn (or before the first) keep their spacings too, beside nothing:
        // all the grid's spacings hold no more than the drawn columns' own, (n - 1) s' within
        // (kept - 1) s (rope-rotation's circle and its bar, the two tables and their bar given up
        // right of them: 8 units of a 6 x 4 cm page's 227).
        const auto spacingFor = [](int spacing, int sections, int kept, int run) {
            if (sections < 2)
                return spacing;
            // One left: nothing to stand apart from. Else (k + 1) s' within s: s' = s / (k + 1).
            return kept <= 1 ? 0 : std::min(spacing / (run + 1), spacing * (kept - 1) / (sections - 1));
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

bool Changes::leaveMarginGroup(QCPLayoutElement *element, QCP::MarginSide side)
{
    QCPMarginGroup *group = marginGroupOf(*element, side);
    if (!group)
        return false;
    m_groups.push_back({element, side, group});
    element->setMarginGroup(side, nullptr);
    return true;
}

void Changes::undoGroups()
{
    for (auto left = m_groups.rbegin(); left != m_groups.rend(); ++left)
        if (left->element && left->group && !marginGroupOf(*left->element, left->side))
            left->element->setMarginGroup(left->side, left->group);
    m_groups.clear();
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
