#include "AxisRoom.h"

#include "FigureRoomChanges.h"
#include "MeasuredText.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::AxisRoom {

namespace {

// The least height the panel had of its own (its figure's), and the one holdLabelWords() set last.
constexpr char kOwnLeast[] = "posencOwnLeastHeight";
constexpr char kHeldLeast[] = "posencHeldLeastHeight";

double longestWord(const QCPAxisRect *rect)
{
    static const QRegularExpression spaces(u"\\s+"_s);
    double longest = 0.0;
    for (const QCPAxis::AxisType side : {QCPAxis::atLeft, QCPAxis::atRight})
        for (const QCPAxis *axis : rect->axes(side)) {
            if (!axis->visible())
                continue;
            for (const QString &word : axis->label().split(spaces, Qt::SkipEmptyParts))
                longest = std::max(longest, MeasuredText::advance(axis->labelFont(), word));
        }
    return longest;
}

// The raises holdEndTickLabels() made on a panel, newest last: the margins it held and the panel's
// own under them, in pairs, at most kMostRaises of them.
constexpr char kRaises[] = "posencEndMarginRaises";
constexpr qsizetype kMostRaises = 16;

int side(const QMargins &margins, int which)
{
    const int sides[] = {margins.left(), margins.top(), margins.right(), margins.bottom()};
    return sides[which];
}

// The least margins `rect` has of its own, its margins `now`, side by side: where a side holds what
// holdEndTickLabels() raised it to, the panel's own under that raise; else what another set (its
// figure, a room step). A room step keeps the margins it finds, raise and all, to give them back
// when it is undone, and one that sets a side keeps the others as they are: read as the panel's
// own, a raise made on a compact page stayed when the view was made large again (buckets' left
// plots a unit narrower than a view opened large).
QMargins ownEnds(const QCPAxisRect *rect, const QMargins &now)
{
    const QList<QMargins> raises = rect->property(kRaises).value<QList<QMargins>>();
    int own[4] = {now.left(), now.top(), now.right(), now.bottom()};
    for (int which = 0; which < 4; ++which)
        for (qsizetype i = raises.size() - 2; i >= 0; i -= 2)
            if (side(raises[i], which) == own[which] && side(raises[i + 1], which) < own[which]) {
                own[which] = side(raises[i + 1], which);
                break;
            }
    return {own[0], own[1], own[2], own[3]};
}

// Remembers that `rect`'s margins were raised to `held` over its own `own` (ownEnds()).
void rememberRaise(QCPAxisRect *rect, const QMargins &held, const QMargins &own)
{
    if (held == own)
        return;
    QList<QMargins> raises = rect->property(kRaises).value<QList<QMargins>>();
    for (qsizetype i = 0; i + 1 < raises.size(); i += 2)
        if (raises[i] == held && raises[i + 1] == own)
            return;
    raises.append({held, own});
    if (raises.size() > 2 * kMostRaises)
        raises.remove(0, 2);
    rect->setProperty(kRaises, QVariant::fromValue(raises));
}

} // namespace

void holdLabelWords(QCustomPlot *plot)
{
    struct Panel
    {
        QCPAxisRect *rect;
        int own; // the figure's least height
        int raised; // what its words need past that, 0 where they need no more
    };
    QList<Panel> panels;
    for (QCPAxisRect *rect : plot->axisRects()) {
        // A colour bar's rect is its bar; a panel given up for room keeps no size of its own.
        if (dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect) || FigureRoom::Changes::isHidden(rect))
            continue;
        const QSize now = rect->minimumSize();
        const QVariant held = rect->property(kHeldLeast);
        const int own
            = held.isValid() && held.toInt() == now.height() ? rect->property(kOwnLeast).toInt() : now.height();
        // The label is centred on its plot and may reach into the margins above and below it
        // (FigureFit::labelLength), as they stand from the last layout.
        const QMargins margins = rect->margins();
        const double reach = 2.0 * std::min(margins.top(), margins.bottom());
        const int need = static_cast<int>(std::ceil(longestWord(rect) - reach));
        panels.append({rect, own, need > own ? need : 0});
    }
    // In a grid that keeps its plots equal (kEqualPlots), a panel raised for its words raises the
    // others alike: the families figure's rows would be of unequal heights.
    const auto equalGrid = [](const QCPAxisRect *rect) {
        QCPLayout *grid = rect->layout();
        return grid && grid->property(kEqualPlots).toBool() ? grid : nullptr;
    };
    for (const Panel &panel : std::as_const(panels)) {
        int least = std::max(panel.own, panel.raised);
        if (const QCPLayout *grid = equalGrid(panel.rect))
            for (const Panel &other : std::as_const(panels))
                if (equalGrid(other.rect) == grid)
                    least = std::max(least, other.raised);
        QCPAxisRect *rect = panel.rect;
        const QSize now = rect->minimumSize();
        rect->setProperty(kOwnLeast, panel.own);
        rect->setProperty(kHeldLeast, least);
        if (least != now.height())
            rect->setMinimumSize(now.width(), least);
    }
}

void keepInsetsOffAxes(QCustomPlot *plot)
{
    for (QCPAxisRect *rect : plot->axisRects()) {
        // As far in as the axis on each side draws its line (its offset and pen), and a unit.
        // QCPLayoutInset sets a key's right and bottom a unit past the plot's last column and row
        // (QRect::moveRight, moveBottom), where those axes draw their lines: a unit more there.
        const auto side = [rect](QCPAxis::AxisType type) {
            int most = 0;
            const int past = type == QCPAxis::atRight || type == QCPAxis::atBottom ? 1 : 0;
            for (const QCPAxis *axis : rect->axes(type))
                if (axis->visible() && axis->basePen().style() != Qt::NoPen)
                    most = std::max(most,
                                    static_cast<int>(std::ceil(axis->basePen().widthF())) + axis->offset() + 1 + past);
            return most;
        };
        const QMargins clear(side(QCPAxis::atLeft), side(QCPAxis::atTop), side(QCPAxis::atRight),
                             side(QCPAxis::atBottom));
        QCPLayoutInset *insets = rect->insetLayout();
        if (insets->minimumMargins() != clear) {
            insets->setMinimumMargins(clear);
            insets->setMargins(clear);
        }
    }
}

bool holdEndTickLabels(QCustomPlot *plot)
{
    const QRect page = plot->viewport();
    bool changed = false;
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect) || !rect->realVisibility()
            || FigureRoom::Changes::isHidden(rect))
            continue;
        const QRect inner = rect->rect(), outer = rect->outerRect();
        // How far the tick labels of its axes across reach past the plot's left and right sides.
        double left = 0.0, right = 0.0;
        for (const QCPAxis::AxisType type : {QCPAxis::atBottom, QCPAxis::atTop})
            for (const QCPAxis *axis : rect->axes(type)) {
                if (!axis->visible() || !axis->tickLabels())
                    continue;
                for (const QRectF &box : FigureRoom::tickLabelBoxes(axis)) {
                    left = std::max(left, inner.left() - box.left());
                    right = std::max(right, box.right() - (inner.right() + 1));
                }
            }
        // Only at the page's edge: within it, the margin's neighbour holds the label's reach.
        const bool atLeft = outer.left() <= page.left(), atRight = outer.right() + 1 >= page.left() + page.width();
        const QMargins now = rect->minimumMargins();
        const QMargins own = ownEnds(rect, now);
        QMargins least = own;
        if (atLeft && left > 0.0)
            least.setLeft(std::max(own.left(), static_cast<int>(std::ceil(left)) + 1));
        if (atRight && right > 0.0)
            least.setRight(std::max(own.right(), static_cast<int>(std::ceil(right)) + 1));
        rememberRaise(rect, least, own);
        if (least != now) {
            rect->setMinimumMargins(least);
            changed = true;
        }
    }
    return changed;
}

} // namespace posenc::AxisRoom
