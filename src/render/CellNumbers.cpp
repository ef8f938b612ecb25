#include "CellNumbers.h"

#include "DrawnText.h"
#include "MeasuredText.h"

#include "core/NumberText.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Room around a number within its cell, pixels: a number touching its cell's edge reads as the
// neighbour's.
constexpr double kPadding = 2.0;

// The characters of `texts`, each once but spaces: their ink's height is the texts'.
QString charactersOf(const QStringList &texts)
{
    QString characters;
    for (const QString &text : texts)
        for (const QChar c : text)
            if (!c.isSpace() && !characters.contains(c))
                characters.append(c);
    return characters;
}

// The ink of `characters` above and below the baseline, and whether it reaches past the font's
// ascent or descent.
struct Ink
{
    double above = 0.0, below = 0.0;
    bool overhangs = false;
};

Ink inkOf(const QFontMetricsF &metrics, const QString &characters)
{
    if (characters.isEmpty())
        return {};
    const QRectF box = metrics.tightBoundingRect(characters);
    Ink ink {-box.top(), box.bottom(), false};
    ink.overhangs = ink.above > metrics.ascent() || ink.below > metrics.descent();
    return ink;
}


double luminance(const QColor &color)
{
    // WCAG 2: sRGB channels linearised, weighted 0.2126, 0.7152, 0.0722.
    const auto linear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF());
}

// The centres of a colour map's cells along one axis: `size` cells from range.lower to
// range.upper, or one over the whole range (QCPColorMap draws a lone cell so).
double centre(const QCPRange &range, int size, int index)
{
    if (size <= 1)
        return range.center();
    return range.lower + range.size() * index / (size - 1);
}

double width(const QCPRange &range, int size)
{
    return size <= 1 ? range.size() : range.size() / (size - 1);
}

} // namespace

CellNumbers::CellNumbers(QCPColorMap *map)
    : QCPLayerable(map->parentPlot(), QString(), map)
    , m_map(map)
{
    // A child of the map, so that it goes with it; above it on its layer, where layerables are
    // drawn in the order they were added.
    setParent(map);
    setLayer(map->layer());
}

CellNumbers *CellNumbers::of(QCPColorMap *map)
{
    // Found by type among the map's children: render has no moc, so no qobject_cast.
    for (QObject *child : map->children())
        if (auto *numbers = dynamic_cast<CellNumbers *>(child))
            return numbers;
    return new CellNumbers(map);
}

void CellNumbers::setShown(QCustomPlot *plot, bool shown)
{
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto *map = qobject_cast<QCPColorMap *>(plot->plottable(i)))
            of(map)->setEnabled(shown);
}

std::optional<int> CellNumbers::decimalsFor(double extent)
{
    if (!(extent >= 1e-3 && extent < 1e5))
        return std::nullopt;
    return std::clamp(2 - static_cast<int>(std::floor(std::log10(extent))), 0, 5);
}

QString CellNumbers::text(double value, std::optional<int> decimals)
{
    QString text = decimals ? QString::number(value, 'f', *decimals) : NumberText::compact(value, 3);
    if (text.startsWith(u'-')) {
        // -0.00 is 0.00: the sign of nothing says nothing.
        const bool zero = std::all_of(text.cbegin() + 1, text.cend(), [](QChar c) { return c == u'0' || c == u'.'; });
        if (zero)
            text.remove(0, 1);
        else
            text.replace(0, 1, QChar(0x2212));
    }
    return text;
}

double CellNumbers::contrastRatio(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor CellNumbers::contrasting(const QColor &background)
{
    return contrastRatio(background, Qt::black) >= contrastRatio(background, Qt::white) ? QColor(Qt::black)
                                                                                        : QColor(Qt::white);
}

QList<CellNumbers::Shown> CellNumbers::shown() const
{
    QList<Shown> out;
    if (!m_enabled || !m_map->realVisibility() || !m_map->keyAxis() || !m_map->valueAxis())
        return out;
    QCPColorMapData *data = m_map->data(); // its cell() is not const
    const int keys = data->keySize(), values = data->valueSize();
    if (keys < 1 || values < 1)
        return out;
    QCPAxis *keyAxis = m_map->keyAxis();
    QCPAxis *valueAxis = m_map->valueAxis();
    const QCPRange keyRange = data->keyRange(), valueRange = data->valueRange();
    const double keyWidth = width(keyRange, keys), valueWidth = width(valueRange, values);
    // The cells whose centres are in view.
    const QCPRange keysInView = keyAxis->range(), valuesInView = valueAxis->range();
    QList<int> keyIndices, valueIndices;
    for (int k = 0; k < keys; ++k)
        if (keysInView.contains(centre(keyRange, keys, k)))
            keyIndices.append(k);
    for (int v = 0; v < values; ++v)
        if (valuesInView.contains(centre(valueRange, values, v)))
            valueIndices.append(v);
    if (keyIndices.isEmpty() || valueIndices.isEmpty()
        || static_cast<qint64>(keyIndices.size()) * valueIndices.size() > kMaxCells)
        return out;
    const double cellWidth = std::abs(keyAxis->coordToPixel(keyWidth) - keyAxis->coordToPixel(0.0));
    const double cellHeight = std::abs(valueAxis->coordToPixel(valueWidth) - valueAxis->coordToPixel(0.0));
    // Cells far too low for the smallest font: no number to format (a large table, every redraw).
    if (cellHeight < 0.9 * kMinFontScale * QFontMetricsF(keyAxis->tickLabelFont()).height())
        return out;
    // Whole numbers (ids, distances, counts) are written whole: 3, not 3.00.
    bool whole = true;
    for (const int v : valueIndices)
        for (const int k : keyIndices) {
            const double value = data->cell(k, v);
            whole = whole && (!std::isfinite(value) || (std::abs(value) < 1e15 && value == std::nearbyint(value)));
        }
    const QCPRange dataRange = m_map->dataRange();
    const std::optional<int> decimals
        = whole ? std::optional<int>(0) : decimalsFor(std::max(std::abs(dataRange.lower), std::abs(dataRange.upper)));
    QStringList texts;
    for (const int v : valueIndices)
        for (const int k : keyIndices) {
            const double value = data->cell(k, v);
            if (!std::isfinite(value))
                texts.append(QString());
            else
                texts.append(m_labels.isEmpty() ? text(value, decimals)
                                                : m_labels.value(qsizetype(std::lround(value))));
        }
    // Every number fits, or none is drawn: a table with holes would read as values missing.
    const std::optional<QFont> font = fittingFont(keyAxis->tickLabelFont(), texts, QSizeF(cellWidth, cellHeight));
    if (!font)
        return out;
    const double shift = inkShift(*font, texts);
    QCPColorGradient gradient = m_map->gradient();
    qsizetype index = 0;
    for (const int v : valueIndices) {
        for (const int k : keyIndices) {
            const QString &number = texts[index++];
            if (number.isEmpty())
                continue;
            const double value = data->cell(k, v);
            const double x = keyAxis->coordToPixel(centre(keyRange, keys, k));
            const double y = valueAxis->coordToPixel(centre(valueRange, values, v));
            const QColor background = QColor::fromRgb(gradient.color(value, dataRange));
            out.append({QRectF(x - cellWidth / 2, y - cellHeight / 2, cellWidth, cellHeight), number,
                        contrasting(background), background, *font, shift});
        }
    }
    return out;
}

std::optional<QFont> CellNumbers::fittingFont(const QFont &tickFont, const QStringList &texts, const QSizeF &cell)
{
    // Each text once, the widest at the tick labels' font first: a font too large fails on it. The
    // widths are remembered (MeasuredText::advance): every replot of a map with numbers measured
    // each of them again, a few times over in the sort, most of opening a lesson whose map has them.
    QStringList distinct = texts;
    distinct.removeDuplicates();
    std::vector<std::pair<double, const QString *>> widest;
    widest.reserve(std::size_t(distinct.size()));
    for (const QString &text : std::as_const(distinct))
        widest.emplace_back(MeasuredText::advance(tickFont, text), &text);
    std::sort(widest.begin(), widest.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    const QString characters = charactersOf(distinct);
    const auto fits = [&](const QFont &font) {
        const QFontMetricsF metrics(font);
        // A text is drawn centred by its font's ascent and descent, or, where its ink reaches past
        // them (an underscore below the descent: "full_attention" in Llama 3.1's layer stack, the
        // bottom row's ink 0.8 units under the plot), by its ink, which then needs its own height.
        const Ink ink = inkOf(metrics, characters);
        const double height = ink.overhangs ? std::max(metrics.height(), ink.above + ink.below) : metrics.height();
        if (cell.height() < height + kPadding)
            return false;
        return std::all_of(widest.cbegin(), widest.cend(), [&](const auto &text) {
            return MeasuredText::advance(font, *text.second) + 2.0 * kPadding <= cell.width();
        });
    };
    if (fits(tickFont))
        return tickFont;
    // Smaller by steps of 5 % of the tick labels' size, down to kMinFontScale of it: text does
    // not shrink in proportion to its size (hinting), so each step is measured.
    const bool points = tickFont.pointSizeF() > 0;
    const double size = points ? tickFont.pointSizeF() : double(tickFont.pixelSize());
    for (double scale = 0.95; scale >= kMinFontScale - 1e-9; scale -= 0.05) {
        QFont smaller = tickFont;
        if (points)
            smaller.setPointSizeF(size * scale);
        else
            smaller.setPixelSize(std::max(1, int(std::floor(size * scale))));
        if (fits(smaller))
            return smaller;
    }
    return std::nullopt;
}

double CellNumbers::inkShift(const QFont &font, const QStringList &texts)
{
    const QFontMetricsF metrics(font);
    const Ink ink = inkOf(metrics, charactersOf(texts));
    // Centred by the font: the baseline (ascent − descent) / 2 below the centre; by the ink:
    // (above − below) / 2.
    return ink.overhangs ? ((ink.above - ink.below) - (metrics.ascent() - metrics.descent())) / 2.0 : 0.0;
}

void CellNumbers::applyDefaultAntialiasingHint(QCPPainter *painter) const
{
    applyAntialiasingHint(painter, true, QCP::aeOther);
}

void CellNumbers::draw(QCPPainter *painter)
{
    const QList<Shown> numbers = shown();
    if (numbers.isEmpty())
        return;
    painter->setFont(numbers.first().font);
    for (const Shown &number : numbers) {
        painter->setPen(number.color);
        DrawnText::draw(*painter, number.cell.translated(0.0, number.shift), Qt::AlignCenter, number.text);
    }
}

QRect CellNumbers::clipRect() const
{
    if (m_map->keyAxis())
        return m_map->keyAxis()->axisRect()->rect();
    return {};
}

} // namespace posenc
