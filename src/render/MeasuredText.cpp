#include "MeasuredText.h"

#include "DrawnText.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include <QFontMetrics>
#include <QGuiApplication>
#include <QHash>
#include <QScreen>

namespace posenc {

namespace MeasuredText {

namespace {

// A text measured for a font, a line height and a screen resolution. QFont's own equality and hash
// (its request, hinting and kerning among them) are far cheaper than the strings of QFont::key().
struct Measured
{
    QFont font;
    int height = 0;
    qreal dpi = 0.0;
    QString text;
    bool operator==(const Measured &) const = default;
};

// qHash of a font, remembered for the last fonts hashed on this thread by identity (QFont::isCopyOf):
// a figure's texts come in a handful of fonts, and hashing one (its families and style among them)
// was most of a lookup, thousands of lookups a change of parameters.
size_t fontHash(const QFont &font)
{
    struct Hashed
    {
        QFont font;
        size_t hash = 0;
    };
    constexpr int kRecent = 8;
    thread_local std::array<std::optional<Hashed>, kRecent> recent;
    thread_local int next = 0;
    for (const std::optional<Hashed> &hashed : recent) {
        if (hashed && hashed->font.isCopyOf(font))
            return hashed->hash;
    }
    const size_t hash = qHash(font);
    recent[next] = Hashed {font, hash};
    next = (next + 1) % kRecent;
    return hash;
}

size_t qHash(const Measured &m, size_t seed = 0)
{
    return qHashMulti(seed, fontHash(m.font), m.height, m.dpi, m.text);
}

// A figure's texts number in the dozens; a long session of changes that each bring new numbers
// into titles starts a cache afresh now and then.
constexpr qsizetype kMaxEntries = 4096;

// The key of `text` in `font` (and a line height) at the resolution QFontMetrics without a device
// measures at: the primary screen's.
Measured keyOf(const QFont &font, int height, const QString &text)
{
    const QScreen *screen = QGuiApplication::primaryScreen();
    return {font, height, screen ? screen->logicalDotsPerInchY() : 0.0, text};
}

template<typename Value, typename Measure>
Value remembered(QHash<Measured, Value> &cache, Measured key, const Measure &measure)
{
    if (const auto found = cache.constFind(key); found != cache.cend())
        return *found;
    if (cache.size() >= kMaxEntries)
        cache.clear();
    const Value value = measure();
    cache.insert(std::move(key), value);
    return value;
}

} // namespace

QRect boundingRect(const QFont &font, int height, const QString &text)
{
    thread_local QHash<Measured, QRect> measured;
    return remembered(measured, keyOf(font, height, text),
                      [&] { return QFontMetrics(font).boundingRect(0, 0, 0, height, Qt::TextDontClip, text); });
}

double advance(const QFont &font, const QString &text)
{
    thread_local QHash<Measured, double> measured;
    return remembered(measured, keyOf(font, 0, text), [&] { return QFontMetricsF(font).horizontalAdvance(text); });
}

QRectF tightBoundingRect(const QFont &font, const QString &text)
{
    thread_local QHash<Measured, QRectF> measured;
    return remembered(measured, keyOf(font, 0, text), [&] { return QFontMetricsF(font).tightBoundingRect(text); });
}

QSize centredSize(const QFont &font, const QString &text)
{
    thread_local QHash<Measured, QSize> measured;
    return remembered(measured, keyOf(font, 0, text), [&] {
        return QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, text).size();
    });
}

namespace {

// What QCPAxisPainterPrivate::getTickLabelData reads besides the font and the text.
struct LabelStyle
{
    bool substituteExponent = false;
    bool abbreviateDecimalPowers = false;
    bool numberMultiplyCross = false;
    double rotation = 0.0;
    bool operator==(const LabelStyle &) const = default;
};

size_t qHash(const LabelStyle &s, size_t seed = 0)
{
    return qHashMulti(seed, s.substituteExponent, s.abbreviateDecimalPowers, s.numberMultiplyCross, s.rotation);
}

// QCustomPlot's axis painter with its tick labels' measures remembered: a label's TickLabelData is
// what the base class computes for it, once per font, text and style on a thread.
class TickLabelPainter : public QCPAxisPainterPrivate
{
public:
    using QCPAxisPainterPrivate::QCPAxisPainterPrivate;

    // As QCustomPlot's (QCPAxisPainterPrivate::size, 2.1): the ticks, the tick labels and the axis label's height, each
    // label measured once per font and text. A layout asks it of every axis, a fitting lays out dozens of times, and
    // mostly of an axis as it was: the last answer is given again while what it reads is the same. Where labels are
    // not cached as pixmaps (QCP::phCacheLabels, PlotStyle::preparePlot) the key of that cache, its fonts written out
    // as strings (half of each answer), is not made: nothing reads the cache.
    int size() override
    {
        if (mParentPlot->plottingHints().testFlag(QCP::phCacheLabels)) {
            const QString kept = std::exchange(label, QString());
            const int withoutLabel = QCPAxisPainterPrivate::size();
            label = kept;
            return withLabel(withoutLabel);
        }
        SizeInputs inputs {
            !tickPositions.isEmpty(),
            std::max(tickLengthOut, subTickLengthOut),
            tickLabelSide,
            QCPAxis::orientation(type),
            tickLabelPadding,
            tickLabelFont,
            tickLabels,
            LabelStyle {substituteExponent, abbreviateDecimalPowers, numberMultiplyCross, tickLabelRotation},
            label,
            labelFont,
            labelPadding,
            screenDpi()};
        if (m_lastSize && m_lastSize->first == inputs)
            return m_lastSize->second;
        int result = inputs.ticks ? std::max(0, inputs.tickLength) : 0;
        if (tickLabelSide == QCPAxis::lsOutside && !tickLabels.isEmpty()) {
            QSize tickLabelsSize(0, 0);
            for (const QString &text : std::as_const(tickLabels))
                getMaxTickLabelSize(tickLabelFont, text, &tickLabelsSize);
            result += inputs.orientation == Qt::Horizontal ? tickLabelsSize.height() : tickLabelsSize.width();
            result += tickLabelPadding;
        }
        result = withLabel(result);
        m_lastSize.emplace(std::move(inputs), result);
        return result;
    }

    // As QCustomPlot's, the axis label measured and drawn from its layout (DrawnText): QCustomPlot's
    // own draw measures it with QFontMetrics and shapes it anew at every replot. The ticks and their
    // labels are QCustomPlot's, drawn without the label; the label goes where that draw puts it,
    // past the ticks and the widest tick label, and so does its selection box.
    void draw(QCPPainter *painter) override
    {
        if (label.isEmpty()) {
            QCPAxisPainterPrivate::draw(painter);
            return;
        }
        m_tickLabelsSize = QSize(0, 0);
        const QString kept = std::exchange(label, QString());
        QCPAxisPainterPrivate::draw(painter);
        label = kept;
        drawLabel(painter);
    }

protected:
    // As QCustomPlot's, the size of the widest and tallest tick label drawn kept for the axis label.
    void placeTickLabel(QCPPainter *painter, double position, int distanceToAxis, const QString &text,
                        QSize *tickLabelsSize) override
    {
        QCPAxisPainterPrivate::placeTickLabel(painter, position, distanceToAxis, text, tickLabelsSize);
        m_tickLabelsSize = *tickLabelsSize;
    }

    // As QCPAxisPainterPrivate::drawTickLabel (QCustomPlot 2.1), each text drawn from its layout
    // (DrawnText): the same pixels, without shaping the label again at every replot.
    void drawTickLabel(QCPPainter *painter, double x, double y, const TickLabelData &labelData) const override
    {
        const QTransform oldTransform = painter->transform();
        const QFont oldFont = painter->font();
        painter->translate(x, y);
        if (!qFuzzyIsNull(tickLabelRotation))
            painter->rotate(tickLabelRotation);
        painter->setFont(labelData.baseFont);
        if (!labelData.expPart.isEmpty()) {
            DrawnText::draw(*painter, QRect(0, 0, 0, 0), Qt::TextDontClip, labelData.basePart);
            if (!labelData.suffixPart.isEmpty())
                DrawnText::draw(*painter,
                                QRect(labelData.baseBounds.width() + 1 + labelData.expBounds.width(), 0, 0, 0),
                                Qt::TextDontClip, labelData.suffixPart);
            painter->setFont(labelData.expFont);
            DrawnText::draw(
                *painter,
                QRect(labelData.baseBounds.width() + 1, 0, labelData.expBounds.width(), labelData.expBounds.height()),
                Qt::TextDontClip, labelData.expPart);
        } else {
            DrawnText::draw(*painter, QRect(0, 0, labelData.totalBounds.width(), labelData.totalBounds.height()),
                            Qt::TextDontClip | Qt::AlignHCenter, labelData.basePart);
        }
        painter->setTransform(oldTransform);
        painter->setFont(oldFont);
    }

    TickLabelData getTickLabelData(const QFont &font, const QString &text) const override
    {
        thread_local QHash<std::pair<Measured, LabelStyle>, TickLabelData> measured;
        const LabelStyle style {substituteExponent, abbreviateDecimalPowers, numberMultiplyCross, tickLabelRotation};
        std::pair key {keyOf(font, 0, text), style};
        if (const auto found = measured.constFind(key); found != measured.cend())
            return *found;
        if (measured.size() >= kMaxEntries)
            measured.clear();
        TickLabelData data = QCPAxisPainterPrivate::getTickLabelData(font, text);
        measured.insert(std::move(key), data);
        return data;
    }

private:
    // What size() reads: an answer holds while they are the same.
    struct SizeInputs
    {
        bool ticks = false;
        int tickLength = 0;
        QCPAxis::LabelSide side = QCPAxis::lsOutside;
        Qt::Orientation orientation = Qt::Horizontal;
        int tickLabelPadding = 0;
        QFont tickLabelFont;
        QList<QString> tickLabels;
        LabelStyle style;
        QString label;
        QFont labelFont;
        int labelPadding = 0;
        qreal dpi = 0.0;
        bool operator==(const SizeInputs &) const = default;
    };

    static qreal screenDpi()
    {
        const QScreen *screen = QGuiApplication::primaryScreen();
        return screen ? screen->logicalDotsPerInchY() : 0.0;
    }

    // `withoutLabel` and the axis label's height and padding, the height measured once per font and text.
    int withLabel(int withoutLabel) const
    {
        if (label.isEmpty())
            return withoutLabel;
        thread_local QHash<Measured, int> heights;
        const int height = remembered(heights, keyOf(labelFont, 0, label), [this] {
            return QFontMetrics(labelFont)
                .boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignHCenter | Qt::AlignVCenter, label)
                .height();
        });
        return withoutLabel + height + labelPadding;
    }

    // The axis label as QCPAxisPainterPrivate::draw (QCustomPlot 2.1) places it: past the ticks
    // pointing out, the tick labels outside and the label's padding, centred along the axis,
    // turned to read upwards on the left and downwards on the right.
    void drawLabel(QCPPainter *painter)
    {
        const bool horizontal = QCPAxis::orientation(type) == Qt::Horizontal;
        const int ticksOut = std::max(tickLengthOut, subTickLengthOut);
        const bool labelsOutside = !tickLabels.isEmpty() && tickLabelSide == QCPAxis::lsOutside;
        const int tickLabelsSize = horizontal ? m_tickLabelsSize.height() : m_tickLabelsSize.width();
        const int margin
            = std::max(0, ticksOut) + (labelsOutside ? tickLabelPadding + tickLabelsSize : 0) + labelPadding;
        QPoint origin;
        switch (type) {
        case QCPAxis::atLeft:
            origin = axisRect.bottomLeft() + QPoint(-offset, 0);
            break;
        case QCPAxis::atRight:
            origin = axisRect.bottomRight() + QPoint(offset, 0);
            break;
        case QCPAxis::atTop:
            origin = axisRect.topLeft() + QPoint(0, -offset);
            break;
        case QCPAxis::atBottom:
            origin = axisRect.bottomLeft() + QPoint(0, offset);
            break;
        }
        painter->setFont(labelFont);
        painter->setPen(QPen(labelColor));
        const int height = DrawnText::boundingRect(*painter, 0, label).height();
        constexpr int kFlags = Qt::TextDontClip | Qt::AlignCenter;
        if (type == QCPAxis::atLeft || type == QCPAxis::atRight) {
            const QTransform oldTransform = painter->transform();
            if (type == QCPAxis::atLeft) {
                painter->translate(origin.x() - margin - height, origin.y());
                painter->rotate(-90);
            } else {
                painter->translate(origin.x() + margin + height, origin.y() - axisRect.height());
                painter->rotate(90);
            }
            DrawnText::draw(*painter, QRect(0, 0, axisRect.height(), height), kFlags, label);
            painter->setTransform(oldTransform);
        } else if (type == QCPAxis::atTop) {
            DrawnText::draw(*painter, QRect(origin.x(), origin.y() - margin - height, axisRect.width(), height), kFlags,
                            label);
        } else {
            DrawnText::draw(*painter, QRect(origin.x(), origin.y() + margin, axisRect.width(), height), kFlags, label);
        }
        // The label's selection box, which the draw without it left empty.
        const int at = ticksOut + (labelsOutside ? tickLabelPadding + tickLabelsSize : 0) + labelPadding;
        switch (type) {
        case QCPAxis::atLeft:
            mLabelSelectionBox.setCoords(origin.x() - at - height, axisRect.top(), origin.x() - at, axisRect.bottom());
            break;
        case QCPAxis::atRight:
            mLabelSelectionBox.setCoords(origin.x() + at + height, axisRect.top(), origin.x() + at, axisRect.bottom());
            break;
        case QCPAxis::atTop:
            mLabelSelectionBox.setCoords(axisRect.left(), origin.y() - at - height, axisRect.right(), origin.y() - at);
            break;
        case QCPAxis::atBottom:
            mLabelSelectionBox.setCoords(axisRect.left(), origin.y() + at + height, axisRect.right(), origin.y() + at);
            break;
        }
        mLabelSelectionBox = mLabelSelectionBox.normalized();
    }

    QSize m_tickLabelsSize; // of the tick labels the last draw placed
    std::optional<std::pair<SizeInputs, int>> m_lastSize; // size()'s last answer and what it read
};

// QCPAxis keeps its painter in a protected member; this names it from a class of ours.
struct AxisPainter : QCPAxis
{
    static QCPAxisPainterPrivate *QCPAxis::*member() { return &AxisPainter::mAxisPainter; }
};

// The settings QCPAxis's setters write into its painter (the rest it writes before each use).
void copySettings(const QCPAxisPainterPrivate &from, QCPAxisPainterPrivate &to)
{
    to.type = from.type;
    to.basePen = from.basePen;
    to.lowerEnding = from.lowerEnding;
    to.upperEnding = from.upperEnding;
    to.labelPadding = from.labelPadding;
    to.labelFont = from.labelFont;
    to.labelColor = from.labelColor;
    to.label = from.label;
    to.tickLabelPadding = from.tickLabelPadding;
    to.tickLabelRotation = from.tickLabelRotation;
    to.tickLabelSide = from.tickLabelSide;
    to.substituteExponent = from.substituteExponent;
    to.numberMultiplyCross = from.numberMultiplyCross;
    to.tickLengthIn = from.tickLengthIn;
    to.tickLengthOut = from.tickLengthOut;
    to.subTickLengthIn = from.subTickLengthIn;
    to.subTickLengthOut = from.subTickLengthOut;
    to.tickPen = from.tickPen;
    to.subTickPen = from.subTickPen;
    to.tickLabelFont = from.tickLabelFont;
    to.tickLabelColor = from.tickLabelColor;
    to.axisRect = from.axisRect;
    to.viewportRect = from.viewportRect;
    to.offset = from.offset;
    to.abbreviateDecimalPowers = from.abbreviateDecimalPowers;
    to.reversedEndings = from.reversedEndings;
    to.subTickPositions = from.subTickPositions;
    to.tickPositions = from.tickPositions;
    to.tickLabels = from.tickLabels;
}

} // namespace

void measureTickLabels(QCustomPlot *plot)
{
    const auto measure = [plot](QCPAxis *axis) {
        QCPAxisPainterPrivate *&painter = axis->*AxisPainter::member();
        if (!painter || dynamic_cast<TickLabelPainter *>(painter))
            return;
        auto *measuring = new TickLabelPainter(plot);
        copySettings(*painter, *measuring);
        delete std::exchange(painter, measuring);
    };
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (auto *rect = qobject_cast<QCPAxisRect *>(element)) {
            for (QCPAxis *axis : rect->axes())
                measure(axis);
        } else if (auto *scale = qobject_cast<QCPColorScale *>(element); scale && scale->axis()) {
            measure(scale->axis());
        }
    }
}

void addToLegend(QCPAbstractPlottable *plottable, QCPLegend *legend)
{
    if (!legend->hasItemWithPlottable(plottable))
        legend->addItem(new MeasuredLegendItem(legend, plottable));
}

} // namespace MeasuredText

MeasuredTextElement::MeasuredTextElement(QCustomPlot *plot, const QString &text, const QFont &font)
    : QCPTextElement(plot, text, font)
{ }

// As QCPTextElement's hints, but an empty text takes no room: a title set to "" frees its band.
QSize MeasuredTextElement::minimumOuterSizeHint() const
{
    if (mText.isEmpty())
        return {0, 0};
    QSize result = MeasuredText::boundingRect(mFont, 0, mText).size();
    result.rwidth() += mMargins.left() + mMargins.right();
    result.rheight() += mMargins.top() + mMargins.bottom();
    return result;
}

// As QCPTextElement::draw (QCustomPlot 2.1), its text drawn from its layout (DrawnText).
void MeasuredTextElement::draw(QCPPainter *painter)
{
    painter->setFont(mainFont());
    painter->setPen(QPen(mainTextColor()));
    DrawnText::draw(*painter, mRect, mTextFlags, mText, &mTextBoundingRect);
}

QSize MeasuredTextElement::maximumOuterSizeHint() const
{
    if (mText.isEmpty())
        return {QWIDGETSIZE_MAX, 0};
    QSize result = MeasuredText::boundingRect(mFont, 0, mText).size();
    result.setWidth(QWIDGETSIZE_MAX);
    result.rheight() += mMargins.top() + mMargins.bottom();
    return result;
}

MeasuredLegendItem::MeasuredLegendItem(QCPLegend *legend, QCPAbstractPlottable *plottable)
    : QCPPlottableLegendItem(legend, plottable)
{ }

namespace {

// The scatter style of a graph or a curve where it is kept: their scatterStyle() returns a copy (its
// pen, brush, pixmap and path), and an entry's size is asked at every layout pass (a tenth of
// what-dropout-does' fitting was those copies). A pointer to a protected member named through a
// derived class is one of the base's.
struct GraphScatter : QCPGraph
{
    static constexpr QCPScatterStyle QCPGraph::*kStyle = &GraphScatter::mScatterStyle;
};
struct CurveScatter : QCPCurve
{
    static constexpr QCPScatterStyle QCPCurve::*kStyle = &CurveScatter::mScatterStyle;
};

const QCPScatterStyle *scatterOf(const QCPAbstractPlottable *plottable)
{
    if (const auto *graph = qobject_cast<const QCPGraph *>(plottable))
        return &(graph->*GraphScatter::kStyle);
    if (const auto *curve = qobject_cast<const QCPCurve *>(plottable))
        return &(curve->*CurveScatter::kStyle);
    return nullptr;
}

} // namespace

double MeasuredLegendItem::markerExtent() const
{
    const QCPScatterStyle *found = mPlottable ? scatterOf(mPlottable) : nullptr;
    if (!found || found->isNone())
        return 0.0;
    const QCPScatterStyle &scatter = *found;
    // Drawn centred in the icon (QCPScatterStyle::drawShape): half its pen past its size on each
    // side, and a unit for the antialiased edge.
    const double pen = std::max(scatter.isPenDefined() ? scatter.pen().widthF() : mPlottable->pen().widthF(), 1.0);
    return scatter.size() + pen + 1.0;
}

QSize MeasuredLegendItem::iconSize() const
{
    const QSize icon = mParentLegend->iconSize();
    // As large as the marker, up to the entry's line of text: the rows of the legend stay as high.
    const int line = QFontMetrics(getFont()).height();
    const int side = std::min(static_cast<int>(std::ceil(markerExtent())), std::max(line, icon.height()));
    return icon.expandedTo(QSize(side, side));
}

// As QCPPlottableLegendItem's hint.
QSize MeasuredLegendItem::minimumOuterSizeHint() const
{
    if (!mPlottable)
        return {};
    const QSize icon = iconSize();
    const QRect text = MeasuredText::boundingRect(getFont(), icon.height(), mPlottable->name());
    return {icon.width() + mParentLegend->iconTextPadding() + text.width() + mMargins.left() + mMargins.right(),
            std::max(text.height(), icon.height()) + mMargins.top() + mMargins.bottom()};
}

namespace {

// QCPAbstractPlottable::drawLegendIcon is protected, for QCustomPlot's own legend item; this names it
// from a class of ours so that MeasuredLegendItem may call it (a virtual call, as QCustomPlot's).
struct LegendIcon : QCPAbstractPlottable
{
    using QCPAbstractPlottable::drawLegendIcon;
};

} // namespace

// As QCPPlottableLegendItem::draw (QCustomPlot 2.1), the icon moved down to the middle of the
// text's first line.
void MeasuredLegendItem::draw(QCPPainter *painter)
{
    if (!mPlottable)
        return;
    painter->setFont(getFont());
    painter->setPen(QPen(getTextColor()));
    const QSize icon = iconSize();
    const QRect text = DrawnText::boundingRect(*painter, icon.height(), mPlottable->name());
    DrawnText::draw(*painter,
                    QRect(mRect.x() + icon.width() + mParentLegend->iconTextPadding(), mRect.y(), text.width(),
                          std::max(text.height(), icon.height())),
                    Qt::TextDontClip, mPlottable->name());
    const int shift = std::max(0, (std::min(text.height(), painter->fontMetrics().height()) - icon.height()) / 2);
    const QRect iconRect(mRect.topLeft() + QPoint(0, shift), icon);
    painter->save();
    painter->setClipRect(iconRect, Qt::IntersectClip);
    // A marker larger than its room drawn smaller, whole, as matplotlib's markerscale would.
    const double extent = markerExtent();
    if (const double scale = extent > 0.0 ? std::min(iconRect.width(), iconRect.height()) / extent : 1.0; scale < 1.0) {
        const QPointF centre = QRectF(iconRect).center();
        painter->translate(centre);
        painter->scale(scale, scale);
        painter->translate(-centre);
    }
    (mPlottable->*(&LegendIcon::drawLegendIcon))(painter, iconRect);
    painter->restore();
    if (getIconBorderPen().style() != Qt::NoPen) {
        painter->setPen(getIconBorderPen());
        painter->setBrush(Qt::NoBrush);
        const int halfPen = qCeil(painter->pen().widthF() * 0.5) + 1;
        painter->setClipRect(mOuterRect.adjusted(-halfPen, -halfPen, halfPen, halfPen));
        painter->drawRect(iconRect);
    }
}

} // namespace posenc
