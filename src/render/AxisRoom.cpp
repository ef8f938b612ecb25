#include "AxisRoom.h"

#include "FigureRoomChanges.h"
#include "MeasuredText.h"

#include <QGuiApplication>
#include <QRegularExpression>
#include <QScreen>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::AxisRoom {

namespace {

// The least height the panel had of its own (its figure's), and the one holdLabelWords() set last.
constexpr char kOwnLeast[] = "posencOwnLeastHeight";
constexpr char kHeldLeast[] = "posencHeldLeastHeight";
// The least margins the panel had of its own, and the ones holdEndTickLabels() set last.
constexpr char kOwnEnds[] = "posencOwnEndMargins";
constexpr char kHeldEnds[] = "posencHeldEndMargins";

// The advance of the longest word of `label` in `font` (MeasuredText::advance). Every layout asks it
// of every panel's labels up its sides, hundreds of layouts a fitting on little room, each a split
// at a regular expression and a lookup a word: the last labels asked are remembered on the calling
// thread with the font and the screen's resolution that MeasuredText measures them at.
double longestWordOf(const QFont &font, const QString &label)
{
    struct Known
    {
        QFont font;
        qreal dpi = 0.0;
        QString label;
        double longest = 0.0;
    };
    constexpr int kKnown = 16; // a figure's labels up its panels' sides, and their shorter forms
    thread_local std::array<std::optional<Known>, kKnown> known;
    thread_local int next = 0;
    const QScreen *screen = QGuiApplication::primaryScreen();
    const qreal dpi = screen ? screen->logicalDotsPerInchY() : 0.0;
    for (const std::optional<Known> &one : known)
        if (one && one->dpi == dpi && one->label == label && one->font == font)
            return one->longest;
    static const QRegularExpression spaces(u"\\s+"_s);
    double longest = 0.0;
    for (const QString &word : label.split(spaces, Qt::SkipEmptyParts))
        longest = std::max(longest, MeasuredText::advance(font, word));
    known[next] = Known {font, dpi, label, longest};
    next = (next + 1) % kKnown;
    return longest;
}

double longestWord(const QCPAxisRect *rect)
{
    double longest = 0.0;
    for (const QCPAxis::AxisType side : {QCPAxis::atLeft, QCPAxis::atRight})
        for (const QCPAxis *axis : rect->axes(side)) {
            if (!axis->visible())
                continue;
            longest = std::max(longest, longestWordOf(axis->labelFont(), axis->label()));
        }
    return longest;
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
        // Only at the page's edge: within it, the margin's neighbour holds the label's reach.
        const bool atLeft = outer.left() <= page.left(), atRight = outer.right() + 1 >= page.left() + page.width();
        // How far the tick labels of its axes across reach past the plot's left and right sides
        // (read at the page's edge alone).
        double left = 0.0, right = 0.0;
        for (const QCPAxis::AxisType type : {QCPAxis::atBottom, QCPAxis::atTop})
            for (const QCPAxis *axis : (atLeft || atRight) ? rect->axes(type) : QList<QCPAxis *>()) {
                if (!axis->visible() || !axis->tickLabels())
                    continue;
                for (const QRectF &box : FigureRoom::tickLabelBoxes(axis)) {
                    left = std::max(left, inner.left() - box.left());
                    right = std::max(right, box.right() - (inner.right() + 1));
                }
            }
        const QMargins now = rect->minimumMargins();
        const QVariant held = rect->property(kHeldEnds);
        const QMargins own
            = held.isValid() && held.value<QMargins>() == now ? rect->property(kOwnEnds).value<QMargins>() : now;
        QMargins least = own;
        if (atLeft && left > 0.0)
            least.setLeft(std::max(own.left(), static_cast<int>(std::ceil(left)) + 1));
        if (atRight && right > 0.0)
            least.setRight(std::max(own.right(), static_cast<int>(std::ceil(right)) + 1));
        rect->setProperty(kOwnEnds, QVariant::fromValue(own));
        rect->setProperty(kHeldEnds, QVariant::fromValue(least));
        if (least != now) {
            rect->setMinimumMargins(least);
            changed = true;
        }
    }
    return changed;
}

QMargins ownMargins(const QCPLayoutElement *element)
{
    const QMargins now = element->minimumMargins();
    const QVariant held = element->property(kHeldEnds);
    return held.isValid() && held.value<QMargins>() == now ? element->property(kOwnEnds).value<QMargins>() : now;
}

} // namespace posenc::AxisRoom
