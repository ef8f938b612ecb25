#pragma once

// The texts of an SVG file as a reader sees them on the page: each text's string, its font and
// the box its glyphs' ink takes (in the pinned font's metrics, through the transforms of the
// groups around it), and the clip rectangle it is drawn within,
// none when it is drawn whole. ClippedSvg writes clip paths as rectangles and transforms as
// matrices (docs/ARCHITECTURE.md, Exporting), which is all this reads.
#include <QFont>
#include <QFontMetricsF>
#include <QHash>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QTransform>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace SvgTexts {

struct Text
{
    QString text;
    QString family;
    double pixelSize = 0.0; // the SVG's font-size: layout units, 96 an inch
    bool bold = false;
    QRectF box; // on the page
    std::optional<QRectF> clip; // on the page
    double pointSize() const { return pixelSize * 72.0 / 96.0; }
};

struct Page
{
    QRectF viewBox;
    std::vector<Text> texts;
    QString error; // the XML's, or empty
};

inline QTransform transformOf(QStringView text)
{
    // The generator writes "matrix(a,b,c,d,e,f)".
    const qsizetype open = text.indexOf(u'('), close = text.indexOf(u')');
    const QStringList numbers = text.mid(open + 1, close - open - 1).toString().split(u',');
    if (!text.startsWith(u"matrix") || numbers.size() != 6)
        return {};
    return QTransform(numbers[0].toDouble(), numbers[1].toDouble(), numbers[2].toDouble(), numbers[3].toDouble(),
                      numbers[4].toDouble(), numbers[5].toDouble());
}

inline Page read(const QByteArray &svg)
{
    QXmlStreamReader xml(svg);
    QHash<QString, QRectF> clips; // by clipPath id
    QString clipId;
    struct Group
    {
        QTransform transform;
        std::optional<QRectF> clip;
    };
    std::vector<Group> groups {{}};
    Page page;
    std::optional<Text> open; // a <text> whose characters are being read
    while (!xml.atEnd()) {
        xml.readNext();
        const QXmlStreamAttributes a = xml.attributes();
        if (xml.isStartElement()) {
            Group group = groups.back();
            if (xml.name() == QLatin1String("svg")) {
                const QStringList box = a.value(QStringLiteral("viewBox")).toString().split(u' ', Qt::SkipEmptyParts);
                if (box.size() == 4)
                    page.viewBox = QRectF(box[0].toDouble(), box[1].toDouble(), box[2].toDouble(), box[3].toDouble());
            }
            if (xml.name() == QLatin1String("clipPath"))
                clipId = a.value(QStringLiteral("id")).toString();
            if (xml.name() == QLatin1String("rect") && !clipId.isEmpty())
                clips.insert(clipId,
                             QRectF(a.value(QStringLiteral("x")).toDouble(), a.value(QStringLiteral("y")).toDouble(),
                                    a.value(QStringLiteral("width")).toDouble(),
                                    a.value(QStringLiteral("height")).toDouble()));
            if (a.hasAttribute(QStringLiteral("transform")))
                group.transform = transformOf(a.value(QStringLiteral("transform"))) * group.transform;
            if (const QStringView url = a.value(QStringLiteral("clip-path")); !url.isEmpty()) {
                const QRectF rect = clips.value(url.mid(5, url.size() - 6).toString()); // url(#id)
                group.clip = group.clip ? group.clip->intersected(rect) : rect;
            }
            if (xml.name() == QLatin1String("text")) {
                Text text;
                text.family = a.value(QStringLiteral("font-family")).toString().section(u',', 0, 0).trimmed();
                text.pixelSize = a.value(QStringLiteral("font-size")).toDouble();
                text.bold = a.value(QStringLiteral("font-weight")).toInt() >= 600;
                text.clip = group.clip;
                // The baseline's start, in the group's coordinates, kept in the box until the
                // string is known.
                text.box = QRectF(a.value(QStringLiteral("x")).toDouble(), a.value(QStringLiteral("y")).toDouble(), 0.0,
                                  0.0);
                open = text;
                groups.push_back(group);
                continue;
            }
            groups.push_back(group);
        } else if (xml.isCharacters() && open) {
            open->text += xml.text().toString();
        } else if (xml.isEndElement()) {
            if (xml.name() == QLatin1String("clipPath"))
                clipId.clear();
            if (xml.name() == QLatin1String("text") && open) {
                QFont font(open->family);
                font.setPixelSize(1); // replaced below: pixel sizes may be fractional
                font.setPointSizeF(open->pixelSize * 72.0 / 96.0);
                font.setBold(open->bold);
                // The ink of the glyphs, where a reader sees the text: a line's ascent and
                // descent leave room above and below that the next line's ink never reaches.
                const QRectF ink = QFontMetricsF(font).tightBoundingRect(open->text);
                open->box = groups.back().transform.mapRect(ink.translated(open->box.topLeft()));
                if (!open->text.trimmed().isEmpty())
                    page.texts.push_back(*open);
                open.reset();
            }
            groups.pop_back();
        }
    }
    if (xml.hasError())
        page.error = xml.errorString();
    return page;
}

// Whether two boxes overlap by more than `slack` each way (a rounding of the layout's units).
inline bool overlap(const QRectF &a, const QRectF &b, double slack = 0.5)
{
    return a.adjusted(slack, slack, -slack, -slack).intersects(b.adjusted(slack, slack, -slack, -slack));
}

// What a reader would find wrong with the page, one line each: a text not at `points` (within a
// quarter point; or, where `smallest` is given, smaller than that: the numbers in a table's cells,
// CellNumbers), outside the page, cut by its clip, or overlapping another.
inline QStringList problemsOf(const Page &page, double points, double smallest = 0.0)
{
    QStringList problems;
    const QRectF sheet = page.viewBox.adjusted(-0.5, -0.5, 0.5, 0.5);
    const auto quoted = [](const Text &t) { return QStringLiteral("'%1'").arg(t.text.left(40)); };
    for (std::size_t i = 0; i < page.texts.size(); ++i) {
        const Text &t = page.texts[i];
        const bool smaller = smallest > 0.0 && t.pointSize() >= smallest - 0.25 && t.pointSize() < points;
        if (std::abs(t.pointSize() - points) > 0.25 && !smaller)
            problems.append(QStringLiteral("%1 at %2 pt").arg(quoted(t)).arg(t.pointSize(), 0, 'f', 2));
        if (!sheet.contains(t.box))
            problems.append(QStringLiteral("%1 outside the page").arg(quoted(t)));
        else if (t.clip && !t.clip->adjusted(-0.5, -0.5, 0.5, 0.5).contains(t.box)) {
            const QRectF c = *t.clip, b = t.box;
            const double by
                = std::max({c.left() - b.left(), b.right() - c.right(), c.top() - b.top(), b.bottom() - c.bottom()});
            problems.append(QStringLiteral("%1 cut by its clip (%2)").arg(quoted(t)).arg(by, 0, 'f', 1));
        }
        for (std::size_t k = i + 1; k < page.texts.size(); ++k)
            if (overlap(t.box, page.texts[k].box))
                problems.append(QStringLiteral("%1 overlaps %2").arg(quoted(t), quoted(page.texts[k])));
    }
    return problems;
}

} // namespace SvgTexts
