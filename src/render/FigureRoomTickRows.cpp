#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "AxesInOrder.h"
#include "FigureFit.h"
#include "KeepClearTicker.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"

#include <algorithm>
#include <cmath>
#include <typeinfo>
#include <utility>

// An axis's label set in the row of its tick labels, and its tick numbers written short
// (docs/ARCHITECTURE.md, "Figures at any size").
namespace posenc::FigureRoom {

double tickLabelDistance(const QCPAxis *axis)
{
    return axis->offset() + std::max(axis->tickLengthOut(), axis->subTickLengthOut()) + axis->tickLabelPadding();
}

QList<QRectF> tickLabelBoxes(const QCPAxis *axis)
{
    QList<QRectF> boxes;
    const QRect rect = axis->axisRect()->rect();
    const double distance = tickLabelDistance(axis);
    const double height = QFontMetricsF(axis->tickLabelFont()).height();
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i) {
        if (labels[i].isEmpty() || !axis->range().contains(ticks[i]))
            continue;
        const double at = axis->coordToPixel(ticks[i]);
        const double width = MeasuredText::advance(axis->tickLabelFont(), labels[i]);
        switch (axis->axisType()) {
        case QCPAxis::atLeft:
            boxes.append(QRectF(rect.left() - distance - width, at - height / 2.0, width, height));
            break;
        case QCPAxis::atRight:
            boxes.append(QRectF(rect.right() + 1 + distance, at - height / 2.0, width, height));
            break;
        case QCPAxis::atTop:
            boxes.append(QRectF(at - width / 2.0, rect.top() - distance - height, width, height));
            break;
        case QCPAxis::atBottom:
            boxes.append(QRectF(at - width / 2.0, rect.bottom() + distance, width, height));
            break;
        }
    }
    return boxes;
}

bool holdsUpright(const QCPAxis *axis, double advance)
{
    if (axis->orientation() == Qt::Horizontal)
        return false;
    double column = 0.0;
    for (const QRectF &box : tickLabelBoxes(axis))
        column = std::max(column, box.width());
    return advance <= column;
}

double extentAlong(const QCPAxis *axis, const QFont &font, double advance)
{
    return holdsUpright(axis, advance) ? QFontMetricsF(font).height() : advance;
}

void setUpright(QCPItemText *text, const QCPAxis *axis)
{
    const bool reversed = axis->rangeReversed();
    text->setRotation(0.0);
    text->position->setCoords(0.0, reversed ? 1.0 : 0.0);
    text->setPositionAlignment(Qt::AlignRight | (reversed ? Qt::AlignBottom : Qt::AlignTop));
    text->setPadding(QMargins(0, 0, static_cast<int>(tickLabelDistance(axis)), 0));
}

} // namespace posenc::FigureRoom

namespace posenc::FigureRoom::Steps {

namespace {

// At most this part of its axis is the label's: the tick labels before it keep the scale readable.
constexpr double kMostOfAxis = 0.6;

// Whether `axis`'s tick labels can keep clear of a label at its end: its ticker is one that
// keeps clear, or a plain one that one can stand in for (a text ticker's labels are its own).
bool canKeepClear(const QCPAxis *axis)
{
    const QCPAxisTicker *ticker = axis->ticker().data();
    return ticker && (dynamic_cast<const KeepsClear *>(ticker) || typeid(*ticker) == typeid(QCPAxisTicker));
}

// The room under a colour bar beside `rect` (in its rows) whose label a step folded under the
// bar (Steps::foldBarLabels): half its end tick label, a padding and the label's line.
int foldedBarRoom(const QCustomPlot *plot, const QCPAxisRect *rect)
{
    int room = 0;
    const QRect outer = rect->outerRect();
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(element);
        if (!scale || !scale->realVisibility() || Changes::isHidden(scale)
            || !scale->axis()->property(kFoldedProperty).isValid() || scale->outerRect().bottom() < outer.top()
            || scale->outerRect().top() > outer.bottom())
            continue;
        const QCPAxis *axis = scale->axis();
        const double half = std::ceil(QFontMetricsF(axis->tickLabelFont()).height() / 2.0) + 2.0;
        room = std::max(room, static_cast<int>(std::ceil(half + QFontMetricsF(axis->labelFont()).height())));
    }
    return room;
}

// How many of `axis`'s tick labels drawn now would stay once they keep clear of its last `pixels`
// (KeepsClear::blank, with its gap of 4 units), and how many are drawn now.
std::pair<int, int> labelsKept(const QCPAxis *axis, double pixels)
{
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    const QRect rect = axis->axisRect()->rect();
    const bool across = axis->orientation() == Qt::Horizontal;
    const bool nearEnd = across != axis->rangeReversed();
    const double first = across ? rect.left() : rect.top();
    const double last = (across ? rect.right() : rect.bottom()) + 1;
    const double height = QFontMetricsF(axis->tickLabelFont()).height();
    int kept = 0, drawn = 0;
    for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i) {
        if (labels[i].isEmpty() || !axis->range().contains(ticks[i]))
            continue;
        const double at = axis->coordToPixel(ticks[i]);
        const double half = (across ? MeasuredText::advance(axis->tickLabelFont(), labels[i]) : height) / 2.0;
        kept += nearEnd ? at + half + 4.0 <= last - pixels : at - half - 4.0 >= first + pixels;
        ++drawn;
    }
    return {kept, drawn};
}

// Whether `axis`'s tick labels keeping clear of its last `pixels` leave it two numbers at least,
// or blank none of those it draws now (an axis thinned to one label on little room, which gets
// more back when the label's column goes to its plot).
bool scaleStaysReadable(const QCPAxis *axis, double pixels)
{
    const auto [kept, drawn] = labelsKept(axis, pixels);
    return kept >= std::min(2, drawn);
}

// The narrowest plot of the panels drawn in `rect`'s row (their tops level) whose bottom axes read
// as `axis`'s (one label, one set of shorter forms), `rect`'s own at most.
int narrowestAlike(const QCustomPlot &plot, const QCPAxisRect *rect, const QCPAxis *axis)
{
    const QString label = FigureFit::unwrappedLabel(axis);
    const QStringList forms = ShorterLabels::of(axis);
    int narrowest = rect->width();
    for (QCPAxisRect *other : plot.axisRects()) {
        const QCPAxis *bottom = other->axis(QCPAxis::atBottom);
        if (other == rect || !bottom || !bottom->visible() || !bottom->tickLabels() || !other->realVisibility()
            || Changes::isHidden(other) || std::abs(other->top() - rect->top()) > 2
            || FigureFit::unwrappedLabel(bottom) != label || ShorterLabels::of(bottom) != forms)
            continue;
        narrowest = std::min(narrowest, other->width());
    }
    return narrowest;
}

bool boxesMeet(const QList<QRectF> &a, const QList<QRectF> &b)
{
    for (const QRectF &one : a)
        for (const QRectF &other : b)
            if (one.adjusted(0.5, 0.5, -0.5, -0.5).intersects(other.adjusted(0.5, 0.5, -0.5, -0.5)))
                return true;
    return false;
}

Qt::Edge edgeOf(QCPAxis::AxisType type)
{
    switch (type) {
    case QCPAxis::atLeft:
        return Qt::LeftEdge;
    case QCPAxis::atRight:
        return Qt::RightEdge;
    case QCPAxis::atTop:
        return Qt::TopEdge;
    case QCPAxis::atBottom:
        break;
    }
    return Qt::BottomEdge;
}

// `axis`'s tick labels drawn once they keep clear of `along`'s side, where `along`'s labels stand.
qsizetype keptBeside(const QCPAxis *axis, const QCPAxis *along)
{
    const QList<QRectF> boxes = tickLabelBoxes(axis);
    const QRect rect = axis->axisRect()->rect();
    const double beyond = tickLabelDistance(along) - 1.0;
    const bool across = axis->orientation() == Qt::Horizontal;
    return std::count_if(boxes.begin(), boxes.end(), [&](const QRectF &box) {
        switch (along->axisType()) {
        case QCPAxis::atLeft:
            return box.left() >= rect.left() - beyond;
        case QCPAxis::atRight:
            return box.right() <= rect.right() + 1 + beyond;
        case QCPAxis::atTop:
            return box.top() >= rect.top() - beyond;
        case QCPAxis::atBottom:
            break;
        }
        return !across && box.bottom() <= rect.bottom() + 1 + beyond;
    });
}

} // namespace

namespace {

// The axes of `rect` drawn with their tick labels out, unturned, of `type`; none otherwise.
QCPAxis *cornerAxis(QCPAxisRect *rect, QCPAxis::AxisType type)
{
    QCPAxis *axis = rect->axis(type);
    return axis && axis->visible() && axis->tickLabels() && axis->tickLabelSide() == QCPAxis::lsOutside
            && qFuzzyIsNull(axis->tickLabelRotation())
        ? axis
        : nullptr;
}

} // namespace

qsizetype cornersMeeting(const QCustomPlot &plot)
{
    qsizetype meeting = 0;
    for (QCPAxisRect *rect : plot.axisRects()) {
        if (!rect->realVisibility() || Changes::isHidden(rect) || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        for (const QCPAxis::AxisType side : {QCPAxis::atLeft, QCPAxis::atRight})
            for (const QCPAxis::AxisType end : {QCPAxis::atBottom, QCPAxis::atTop}) {
                const QCPAxis *up = cornerAxis(rect, side), *across = cornerAxis(rect, end);
                meeting += up && across && boxesMeet(tickLabelBoxes(up), tickLabelBoxes(across));
            }
    }
    return meeting;
}

bool pruneCornerTicks(QCustomPlot *plot)
{
    bool changed = false;
    Changes &changes = Changes::of(plot);
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (!rect->realVisibility() || Changes::isHidden(rect) || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        const auto drawn = [rect](QCPAxis::AxisType type) { return cornerAxis(rect, type); };
        for (const QCPAxis::AxisType side : {QCPAxis::atLeft, QCPAxis::atRight})
            for (const QCPAxis::AxisType end : {QCPAxis::atBottom, QCPAxis::atTop}) {
                QCPAxis *up = drawn(side);
                QCPAxis *across = drawn(end);
                if (!up || !across || !boxesMeet(tickLabelBoxes(up), tickLabelBoxes(across)))
                    continue;
                // The axis with more numbers gives its end one up, where it keeps two at least; an
                // axis whose title stands in the row of its tick labels last: the title takes its
                // far end's number at most, and the number at the corner, where its axis starts, is
                // one of the two that must stay to give its scale (docs/ARCHITECTURE.md, the tick
                // row's rule: magnitudes' "0 … p" at a column lost its 0 beside the norms' 10¹).
                const qsizetype upLeft = keptBeside(up, across), acrossLeft = keptBeside(across, up);
                const qsizetype upDrawn = tickLabelBoxes(up).size(), acrossDrawn = tickLabelBoxes(across).size();
                const bool upAlong = changes.standsAlong(up), acrossAlong = changes.standsAlong(across);
                std::pair<QCPAxis *, QCPAxis *> order[] {{up, across}, {across, up}};
                if (upAlong != acrossAlong ? upAlong : acrossDrawn > upDrawn)
                    std::swap(order[0], order[1]);
                for (const auto &[pruned, along] : order) {
                    if ((pruned == up ? upLeft : acrossLeft) < 2)
                        continue;
                    if (changes.keepCornerClear(pruned, edgeOf(along->axisType()), tickLabelDistance(along) - 1.0)) {
                        changed = true;
                        break;
                    }
                }
            }
    }
    return changed;
}

bool labelsAlongTicks(QCustomPlot *plot, Qt::Orientation orientation)
{
    const bool across = orientation == Qt::Horizontal;
    bool changed = false;
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (!rect->realVisibility() || Changes::isHidden(rect) || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        QCPAxis *axis = rect->axis(across ? QCPAxis::atBottom : QCPAxis::atLeft);
        if (!axis || !axis->visible() || !axis->tickLabels() || axis->property(kFoldedProperty).isValid()
            || !canKeepClear(axis) || Changes::of(plot).unfolded(axis))
            continue;
        QString label = FigureFit::unwrappedLabel(axis);
        double advance = MeasuredText::advance(axis->labelFont(), label);
        const double most = kMostOfAxis * (across ? rect->width() : rect->height());
        // A label too long for the row goes there in the first shorter true form its figure gives
        // that the row holds (ShorterLabels), whole; not up a column, whose few tick labels it
        // would leave blank. Panels side by side whose axes read alike show one form, the one the
        // narrowest holds: a slide of the dropout modes read "j" under four panels and "column j"
        // under the wider fifth.
        const double alike = kMostOfAxis * narrowestAlike(*plot, rect, axis);
        if (across && !label.isEmpty() && (label.contains(u'\n') || advance > alike))
            for (const QString &form : ShorterLabels::of(axis))
                if (const double length = MeasuredText::advance(axis->labelFont(), form); length <= alike) {
                    label = form;
                    advance = length;
                    break;
                }
        // Where the label would stand in the place of the row's last number (which gives the
        // range), the first shorter true form that leaves it, where one does: buckets' "key j" as "j"
        // beside the map's 500, rather than in the place of its 400 and 500.
        if (across && !label.isEmpty() && labelsKept(axis, advance).first < labelsKept(axis, 0.0).first)
            for (const QString &form : ShorterLabels::of(axis))
                if (const double length = MeasuredText::advance(axis->labelFont(), form);
                    length < advance && labelsKept(axis, length).first == labelsKept(axis, 0.0).first) {
                    label = form;
                    advance = length;
                    break;
                }
        // Up the side, a label no wider than the column of tick labels stands upright in it.
        const auto extent = [&](double length) { return extentAlong(axis, axis->labelFont(), length); };
        // Up a column of few tick labels, two at least keep their numbers, so that its scale can
        // be read (rope-score's y axis at 6 x 4 cm kept only its 0, scale-compare's log axis at a
        // column only its 10⁰). A row's labels, more and thinned again once its rect grows, are
        // not counted before.
        if (label.isEmpty() || label.contains(u'\n') || extent(advance) > most
            || (!across && !scaleStaysReadable(axis, extent(advance))))
            continue;
        const bool upright = holdsUpright(axis, advance);
        // Where the axis draws its tick labels: past its ticks and their padding.
        const int distance = static_cast<int>(tickLabelDistance(axis));
        auto *text = new QCPItemText(plot);
        // Drawn while its panel is: an item stays the child of the axis rect it was last clipped
        // to (QCPAbstractItem::setClipToAxisRect keeps it), the plot's first unless set, which a
        // step may give up (the label went unseen with it).
        text->setClipAxisRect(rect);
        text->setClipToAxisRect(false);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setAxisRect(rect);
        text->setFont(axis->labelFont());
        text->setColor(axis->labelColor());
        text->setText(label);
        Changes &changes = Changes::of(plot);
        // At the end where the range's upper end is drawn, as the tick labels keep clear
        // (KeepsClear): a reversed axis's first tick labels, where its scale starts, stay.
        const bool reversed = axis->rangeReversed();
        if (across) {
            // Under the axis's right end (left, reversed), its top where the tick labels' tops are:
            // the axis is drawn on the rect's last row of units (QRect::bottom), a unit above its ratio 1.
            text->position->setCoords(reversed ? 0.0 : 1.0, 1.0);
            text->setPositionAlignment((reversed ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
            text->setPadding(QMargins(0, std::max(distance - 1, 0), 0, 0));
            // A colour bar beside it whose label went under the bar keeps the room that label takes.
            if (const int under = foldedBarRoom(plot, rect); under > rect->minimumMargins().bottom()) {
                changes.keepMargins(rect);
                QMargins least = rect->minimumMargins();
                least.setBottom(under);
                rect->setMinimumMargins(least);
            }
        } else if (upright) {
            setUpright(text, axis);
        } else {
            // Up the side, reading upwards to the axis's top end (from its bottom end, reversed),
            // in the tick labels' column: the column at least as wide as the label's line is high.
            text->position->setCoords(0.0, reversed ? 1.0 : 0.0);
            text->setRotation(-90.0);
            text->setPositionAlignment((reversed ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom);
            text->setPadding(QMargins(0, 0, 0, distance));
            changes.keepMargins(rect);
            QMargins least = rect->minimumMargins();
            const int column = distance + static_cast<int>(std::ceil(QFontMetricsF(axis->labelFont()).height()));
            least.setLeft(std::max(least.left(), column + axis->padding()));
            rect->setMinimumMargins(least);
        }
        if (label != FigureFit::unwrappedLabel(axis))
            changes.setAxisLabel(axis, label);
        changed |= changes.foldAlongTicks(axis, text, extent(advance));
    }
    return changed;
}

bool shortenTickNumbers(QCustomPlot *plot)
{
    // Every axis drawn with its tick labels, a colour bar's too: the same numbers, fewer digits.
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot->axisRects())
        if (rect->realVisibility() && !Changes::isHidden(rect))
            for (QCPAxis *axis : axesInOrder(*rect))
                if (axis->visible() && axis->tickLabels())
                    axes.append(axis);
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element); scale && scale->realVisibility()
            && !Changes::isHidden(scale) && scale->axis()->tickLabels() && !axes.contains(scale->axis()))
            axes.append(scale->axis());
    bool changed = false;
    for (QCPAxis *axis : axes) {
        // Only where its labels would read shorter: a figure whose numbers are short keeps its ticker.
        if (const QVector<QString> labels = axis->tickVectorLabels(); KeepsClear::shortNumbers(labels) != labels)
            changed |= Changes::of(plot).shortenNumbers(axis);
    }
    return changed;
}

QList<Meeting> meetingTickLabels(const QCustomPlot &plot)
{
    // Each bottom axis's tick labels, centred on their ticks in the row under the axis, by panel.
    struct Label
    {
        QCPAxisRect *rect;
        QRectF box;
    };
    QList<Label> labels;
    for (QCPAxisRect *rect : plot.axisRects()) {
        if (!rect->realVisibility() || Changes::isHidden(rect) || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        const QCPAxis *axis = rect->axis(QCPAxis::atBottom);
        if (!axis || !axis->visible() || !axis->tickLabels())
            continue;
        for (const QRectF &box : tickLabelBoxes(axis))
            labels.append({rect, box});
    }
    QList<Meeting> meetings;
    for (const Label &a : labels)
        for (const Label &b : labels)
            if (a.rect != b.rect && a.box.center().x() < b.box.center().x()
                && a.box.adjusted(0.5, 0.5, -0.5, -0.5).intersects(b.box.adjusted(0.5, 0.5, -0.5, -0.5)))
                meetings.append({a.rect, b.rect, a.box.right() - b.box.left()});
    return meetings;
}

bool separateTickLabels(QCustomPlot *plot)
{
    const QList<Meeting> meetings = meetingTickLabels(*plot);
    Changes &changes = Changes::of(plot);
    for (const Meeting &meeting : meetings) {
        const int half = static_cast<int>(std::ceil(meeting.by / 2.0)) + 1;
        for (QCPAxisRect *rect : {meeting.left, meeting.right}) {
            changes.keepMargins(rect);
            QMargins least = rect->minimumMargins();
            const QMargins now = rect->margins();
            if (rect == meeting.left)
                least.setRight(now.right() + half);
            else
                least.setLeft(now.left() + half);
            rect->setMinimumMargins(least);
        }
    }
    return !meetings.isEmpty();
}

} // namespace posenc::FigureRoom::Steps
