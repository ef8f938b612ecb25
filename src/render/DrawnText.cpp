#include "DrawnText.h"

#include <QFontMetricsF>
#include <QHash>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QTextLayout>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

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

// A text laid out as qt_format_text lays out a text without wrapping: each of its lines as wide as
// it needs, the first at the top of its layout, each next one below the one before by the font's
// leading, on a whole unit (qt_format_text's qCeil), in the painter's direction.
struct Line
{
    QTextLayout layout;
    // Per line: its bottom (its top + ascent + descent: its own height, not QTextLine::height's,
    // which rounds it up to a whole unit), QTextLine::naturalTextWidth and horizontalAdvance.
    std::vector<qreal> bottoms;
    std::vector<qreal> widths;
    std::vector<qreal> advances;
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
    // What qt_format_text rewrites (a single line's newline, a carriage return, a tab), a line that
    // a right alignment measures apart (its leading spaces), that ends in a space before a newline
    // or that is empty, and the separator of a text's length variants. Lines broken at a newline are
    // laid out here, as the figures' wrapped titles and labels are.
    const bool singleLine = flags & Qt::TextSingleLine;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t u = text.at(i).unicode();
        if (u == u'\n') {
            if (singleLine || i == 0 || i + 1 == text.size() || text.at(i - 1).isSpace() || text.at(i + 1).isSpace())
                return false;
        } else if (u == u'\r' || u == u'\t' || u == 0x9c || u == QChar::LineSeparator
                   || u == QChar::ParagraphSeparator) {
            return false;
        }
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
    // qt_format_text breaks lines at a newline, which it writes as a line separator.
    QString separated = text;
    separated.replace(u'\n', QChar::LineSeparator);
    line->layout.setText(separated);
    line->layout.setFont(painter.font());
    QTextOption option;
    option.setTextDirection(painter.layoutDirection());
    option.setAlignment(Qt::AlignLeft); // qt_format_text aligns the lines itself
    line->layout.setTextOption(option);
    line->layout.setCacheEnabled(true);
    const qreal leading = QFontMetricsF(painter.font(), painter.device()).leading();
    qreal height = -leading;
    line->layout.beginLayout();
    for (QTextLine next = line->layout.createLine(); next.isValid(); next = line->layout.createLine()) {
        next.setLineWidth(0x01000000);
        height = std::ceil(height + leading);
        next.setPosition(QPointF(0.0, height));
        height += next.ascent() + next.descent();
        line->bottoms.push_back(height);
        line->widths.push_back(next.naturalTextWidth());
        line->advances.push_back(next.horizontalAdvance());
    }
    line->layout.endLayout();
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
    // qt_format_text stops at the line that reaches the bottom of a clipping rect when no bounds
    // are asked for: the lines after it are neither measured nor drawn.
    const bool clipping = !(flags & Qt::TextDontClip);
    std::size_t count = 0;
    qreal height = 0.0;
    qreal width = 0.0;
    while (count < line.bottoms.size()) {
        height = line.bottoms[count];
        width = std::max(width, line.widths[count]);
        ++count;
        if (clipping && !bounds && height >= rect.height())
            break;
    }
    qreal yoff = 0.0;
    if (flags & Qt::AlignBottom)
        yoff = rect.height() - height;
    else if (flags & Qt::AlignVCenter)
        yoff = (rect.height() - height) / 2;
    qreal xoff = 0.0;
    if (flags & Qt::AlignRight)
        xoff = rect.width() - width;
    else if (flags & Qt::AlignHCenter)
        xoff = (rect.width() - width) / 2;
    const QRectF drawn(rect.x() + xoff, rect.y() + yoff, width, height);
    if (bounds)
        *bounds = drawn;
    const bool clip = clipping && !rect.contains(drawn);
    if (clip) {
        painter.save();
        painter.setClipRect(rect, Qt::IntersectClip);
    }
    // Each line placed by its own advance, as qt_format_text places each line it draws.
    for (std::size_t i = 0; i < count; ++i) {
        xoff = 0.0;
        if (flags & Qt::AlignRight)
            xoff = rect.width() - line.advances[i];
        else if (flags & Qt::AlignHCenter)
            xoff = (rect.width() - line.advances[i]) / 2;
        line.layout.lineAt(static_cast<int>(i)).draw(&painter, QPointF(rect.x() + xoff, rect.y() + yoff));
    }
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
