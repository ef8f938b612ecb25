#include "MeasuredText.h"

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

size_t qHash(const Measured &m, size_t seed = 0)
{
    return qHashMulti(seed, m.font, m.height, m.dpi, m.text);
}

} // namespace

QRect boundingRect(const QFont &font, int height, const QString &text)
{
    // A figure's texts number in the dozens; a long session of changes that each bring new
    // numbers into titles starts the cache afresh now and then.
    constexpr qsizetype kMaxEntries = 2048;
    thread_local QHash<Measured, QRect> measured;
    // QFontMetrics without a device measures at the primary screen's resolution.
    const QScreen *screen = QGuiApplication::primaryScreen();
    Measured key {font, height, screen ? screen->logicalDotsPerInchY() : 0.0, text};
    if (const auto found = measured.constFind(key); found != measured.cend())
        return *found;
    if (measured.size() >= kMaxEntries)
        measured.clear();
    const QRect rect = QFontMetrics(font).boundingRect(0, 0, 0, height, Qt::TextDontClip, text);
    measured.insert(std::move(key), rect);
    return rect;
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

// As QCPPlottableLegendItem's hint.
QSize MeasuredLegendItem::minimumOuterSizeHint() const
{
    if (!mPlottable)
        return {};
    const QSize icon = mParentLegend->iconSize();
    const QRect text = MeasuredText::boundingRect(getFont(), icon.height(), mPlottable->name());
    return {icon.width() + mParentLegend->iconTextPadding() + text.width() + mMargins.left() + mMargins.right(),
            std::max(text.height(), icon.height()) + mMargins.top() + mMargins.bottom()};
}

} // namespace posenc
