#include "DrawnText.h"

#include <QHash>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QTextLayout>

#include <memory>
#include <utility>

namespace posenc::DrawnText {

namespace {

// The flags laid out here: the alignments (but justified), whether the text is clipped to its
// rect, and Qt::TextSingleLine, which changes nothing of a text without a newline (the only kind
// laid out here).
constexpr int kAlignments = Qt::AlignLeft | Qt::AlignRight | Qt::AlignHCenter | Qt::AlignAbsolute | Qt::AlignTop
    | Qt::AlignBottom | Qt::AlignVCenter;
constexpr int kLaidOutFlags = kAlignments | Qt::TextDontClip | Qt::TextSingleLine;

// A text shaped for a font at a device's resolution (QFont's own equality leaves its resolution out)
// in a painter's direction (left to right, or the text's own).
struct Key
{
    QFont font;
    int dpiX = 0;
    int dpiY = 0;
    Qt::LayoutDirection direction = Qt::LayoutDirectionAuto;
    QString text;
    bool operator==(const Key &) const = default;
};

size_t qHash(const Key &key, size_t seed = 0)
{
    return qHashMulti(seed, key.font, key.dpiX, key.dpiY, key.direction, key.text);
}

// One line laid out as qt_format_text lays out a text without wrapping: a line as wide as it
// needs, at the top of its layout, in the painter's direction.
struct Line
{
    QTextLayout layout;
    qreal width = 0.0; // QTextLine::naturalTextWidth
    qreal height = 0.0;
    qreal advance = 0.0; // QTextLine::horizontalAdvance
};

// A figure's texts number in the dozens, its tick labels in the hundreds over a session's ranges;
// past this many the cache starts afresh.
constexpr qsizetype kMaxLines = 2048;

bool laidOutHere(const QPainter &painter, int flags, const QString &text)
{
    if ((flags & ~kLaidOutFlags) != 0 || text.isEmpty() || painter.pen().style() == Qt::NoPen)
        return false;
    const QPaintEngine *engine = painter.paintEngine();
    if (!engine || engine->type() != QPaintEngine::Raster || painter.layoutDirection() == Qt::RightToLeft)
        return false;
    const QFont &font = painter.font();
    if (font.underline() || font.overline() || font.strikeOut())
        return false;
    // What qt_format_text rewrites or breaks lines at, leading spaces that a right alignment
    // measures apart, and the separator of a text's length variants.
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (u == u'\n' || u == u'\r' || u == u'\t' || u == 0x9c || u == QChar::LineSeparator
            || u == QChar::ParagraphSeparator)
            return false;
    }
    return !text.front().isSpace();
}

const Line &laidOut(const QPainter &painter, const QString &text)
{
    thread_local QHash<Key, std::shared_ptr<Line>> lines;
    const QPaintDevice *device = painter.device();
    Key key {painter.font(), device->logicalDpiX(), device->logicalDpiY(), painter.layoutDirection(), text};
    if (const auto found = lines.constFind(key); found != lines.cend())
        return **found;
    if (lines.size() >= kMaxLines)
        lines.clear();
    auto line = std::make_shared<Line>();
    line->layout.setText(text);
    line->layout.setFont(painter.font());
    QTextOption option;
    option.setTextDirection(painter.layoutDirection());
    option.setAlignment(Qt::AlignLeft); // qt_format_text aligns the lines itself
    line->layout.setTextOption(option);
    line->layout.setCacheEnabled(true);
    line->layout.beginLayout();
    QTextLine first = line->layout.createLine();
    first.setLineWidth(0x01000000);
    first.setPosition(QPointF(0.0, 0.0));
    line->layout.endLayout();
    line->width = first.naturalTextWidth();
    // The line's own height, not QTextLine::height's, which rounds it up to a whole unit.
    line->height = first.ascent() + first.descent();
    line->advance = first.horizontalAdvance();
    return **lines.insert(std::move(key), std::move(line));
}

} // namespace

void draw(QPainter &painter, const QRectF &rect, int flags, const QString &text, QRectF *bounds)
{
    if (!laidOutHere(painter, flags, text)) {
        painter.drawText(rect, flags, text, bounds);
        return;
    }
    const Line &line = laidOut(painter, text);
    qreal yoff = 0.0;
    if (flags & Qt::AlignBottom)
        yoff = rect.height() - line.height;
    else if (flags & Qt::AlignVCenter)
        yoff = (rect.height() - line.height) / 2;
    qreal xoff = 0.0;
    if (flags & Qt::AlignRight)
        xoff = rect.width() - line.width;
    else if (flags & Qt::AlignHCenter)
        xoff = (rect.width() - line.width) / 2;
    const QRectF drawn(rect.x() + xoff, rect.y() + yoff, line.width, line.height);
    if (bounds)
        *bounds = drawn;
    // The line placed by its advance, as qt_format_text places each line it draws.
    xoff = 0.0;
    if (flags & Qt::AlignRight)
        xoff = rect.width() - line.advance;
    else if (flags & Qt::AlignHCenter)
        xoff = (rect.width() - line.advance) / 2;
    const bool clip = !(flags & Qt::TextDontClip) && !rect.contains(drawn);
    if (clip) {
        painter.save();
        painter.setClipRect(rect, Qt::IntersectClip);
    }
    line.layout.lineAt(0).draw(&painter, QPointF(rect.x() + xoff, rect.y() + yoff));
    if (clip)
        painter.restore();
}

QRect boundingRect(const QPainter &painter, int height, const QString &text)
{
    thread_local QHash<std::pair<Key, int>, QRect> measured;
    const QPaintDevice *device = painter.device();
    std::pair key {Key {painter.font(), device->logicalDpiX(), device->logicalDpiY(), painter.layoutDirection(), text},
                   height};
    if (const auto found = measured.constFind(key); found != measured.cend())
        return *found;
    if (measured.size() >= kMaxLines)
        measured.clear();
    const QRect rect = painter.fontMetrics().boundingRect(0, 0, 0, height, Qt::TextDontClip, text);
    measured.insert(std::move(key), rect);
    return rect;
}

void draw(QPainter &painter, const QRect &rect, int flags, const QString &text, QRect *bounds)
{
    if (!laidOutHere(painter, flags, text)) {
        painter.drawText(rect, flags, text, bounds);
        return;
    }
    QRectF drawn;
    draw(painter, QRectF(rect), flags, text, bounds ? &drawn : nullptr);
    if (bounds)
        *bounds = drawn.toAlignedRect();
}

} // namespace posenc::DrawnText
