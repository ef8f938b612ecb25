// The length an axis's label is wrapped to and measured against (FigureFit.h).
#include "FigureFit.h"

#include "FigureRoom.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::FigureFit {

double labelLength(const QCPAxis *axis)
{
    // A label is centred on its axis and may reach into the margins beside it, not past them; an
    // x axis's keeps a quarter of a line of its font clear of the page's left and right edges, where
    // its rect's margins end there (a y axis's ends are its plot's, and a plot that short holds no
    // more: mrope-positions' "position" at 6 x 4 cm).
    const QRect inner = axis->axisRect()->rect();
    const QRect outer = axis->axisRect()->outerRect();
    if (axis->orientation() == Qt::Vertical)
        return 2.0 * std::min(inner.center().y() - outer.top(), outer.bottom() - inner.center().y());
    const QRect page = axis->parentPlot()->viewport();
    const double clear = QFontMetricsF(axis->labelFont()).height() / 4.0;
    const double left = std::max<double>(outer.left(), page.left() + clear);
    // QRect's right() is a unit short of the edge.
    const double right = std::min<double>(outer.right(), page.left() + page.width() - clear);
    const double centre = inner.center().x();
    return std::max(0.0, 2.0 * std::min(centre - left, right - centre));
}

// The length `axis`'s label is wrapped to: labelLength's, or for an x axis the least of its row's
// (their plots' bottoms level) that show its label, so that they wrap alike (families' offset
// label whole under one column, in two lines under the other, its tick labels wider).
double rowLabelLength(const QCPAxis *axis)
{
    double length = labelLength(axis);
    if (axis->axisType() != QCPAxis::atBottom)
        return length;
    const QString given = unwrappedLabel(axis).simplified();
    for (QCPAxisRect *rect : axis->parentPlot()->axisRects())
        for (const QCPAxis *other : rect->axes(QCPAxis::atBottom))
            if (other != axis && other->visible() && rect->realVisibility()
                && std::abs(rect->rect().bottom() - axis->axisRect()->rect().bottom()) <= 2
                && unwrappedLabel(other).simplified() == given)
                length = std::min(length, labelLength(other));
    return length;
}

namespace {

// Whether two panels' titles are of one row and one kind: as many shorter forms (one figure's
// sentence, its numbers apart) and their tops level.
bool sameRowAndKind(const QCPTextElement *a, const QCPTextElement *b)
{
    const qsizetype forms = ShorterLabels::ofText(a).size();
    return forms > 0 && ShorterLabels::ofText(b).size() == forms
        && std::abs(a->outerRect().top() - b->outerRect().top()) <= 2;
}

} // namespace

// The room a text is wrapped in: its own, or for a panel's title the narrowest of its row's titles
// of its kind, so that a row's titles wrap alike (dropout-compare's "lost: 10.2 %" in one line in
// its two wider first cells, the y labels' margin theirs, and in two in the other three).
double rowRoom(const QCPTextElement *text, const QList<QCPTextElement *> &titles, double width)
{
    double room = roomFor(text, width);
    if (FigureRoom::roleOf(text) != TextRole::PanelTitle)
        return room;
    for (const QCPTextElement *other : titles)
        if (other != text && other->realVisibility() && sameRowAndKind(text, other))
            room = std::min(room, roomFor(other, width));
    return room;
}

namespace {

// The separator of a title's parts, where it wraps first (as FigureFit.cpp's).
const QString kPartSeparator = u"  ·  "_s;

// Greedy lines of `pieces` joined by `joint`, each within `width` where a piece allows.
QStringList fill(const QStringList &pieces, const QString &joint, const QFont &font, double width)
{
    QStringList lines;
    for (const QString &piece : pieces) {
        if (!lines.isEmpty() && MeasuredText::advance(font, lines.constLast() + joint + piece) <= width)
            lines.last() += joint + piece;
        else
            lines.append(piece);
    }
    return lines;
}

} // namespace

QString wrap(const QString &text, const QFont &font, double width)
{
    QStringList lines;
    for (const QString &part : fill(text.split(kPartSeparator), kPartSeparator, font, width)) {
        if (MeasuredText::advance(font, part) <= width)
            lines.append(part);
        else
            lines += fill(part.split(u' ', Qt::SkipEmptyParts), u" "_s, font, width);
    }
    return lines.join(u'\n');
}

} // namespace posenc::FigureFit
