#include "KeepClearTicker.h"

#include "MeasuredText.h"

#include <QHash>
#include <QRegularExpression>

#include <bit>
#include <cmath>
#include <typeinfo>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

constexpr double kGap = 4.0; // layout units between a tick label and the stretch it keeps clear of

} // namespace

void KeepsClear::keepClear(QCPAxis *axis, double pixels)
{
    m_axis = pixels > 0.0 ? axis : nullptr;
    m_pixels = pixels > 0.0 ? pixels : 0.0;
}

void KeepsClear::keepCornerClear(QCPAxis *axis, Qt::Edge side, double beyond)
{
    m_cornerAxis = axis;
    m_cornerSide = side;
    m_beyond = beyond;
}

void KeepsClear::blankCorner(const QVector<double> &ticks, QVector<QString> *labels) const
{
    if (!m_cornerAxis || !labels || !m_cornerAxis->axisRect())
        return;
    const QRect rect = m_cornerAxis->axisRect()->rect();
    const bool across = m_cornerAxis->orientation() == Qt::Horizontal;
    const QFont font = m_cornerAxis->tickLabelFont();
    const double height = QFontMetricsF(font).height();
    // The side's line, and which way is out of the rect there.
    const bool far = m_cornerSide == Qt::BottomEdge || m_cornerSide == Qt::RightEdge;
    const double line = across ? (far ? rect.right() + 1 : rect.left()) : (far ? rect.bottom() + 1 : rect.top());
    const double out = far ? 1.0 : -1.0;
    for (qsizetype i = 0; i < std::min(ticks.size(), labels->size()); ++i) {
        if (labels->at(i).isEmpty())
            continue;
        const double half = (across ? MeasuredText::advance(font, labels->at(i)) : height) / 2.0;
        if (out * (m_cornerAxis->coordToPixel(ticks[i]) - line) + half > m_beyond)
            (*labels)[i].clear();
    }
}

namespace {

QString writtenShort(const QString &label)
{
    // Thousands grouped ("10,000", IndexTicker's past 10,000) read as the number they group.
    static const QRegularExpression grouped(u"^-?\\d{1,3}(,\\d{3})+$"_s);
    bool number = false;
    const double value
        = QLocale::c().toDouble(grouped.match(label).hasMatch() ? QString(label).remove(u',') : label, &number);
    if (!number || !std::isfinite(value) || std::abs(value) < 1000.0)
        return label;
    static const std::pair<double, QChar> units[] {{1e12, u'T'}, {1e9, u'G'}, {1e6, u'M'}, {1e3, u'k'}};
    for (const auto &[unit, suffix] : units) {
        if (std::abs(value) < unit)
            continue;
        // At most two decimals of the unit, and only where they say the number exactly.
        const double scaled = std::round(value / unit * 100.0) / 100.0;
        if (std::abs(scaled * unit - value) > 1e-9 * std::abs(value))
            return label;
        const QString shorter = QLocale::c().toString(scaled, 'g', 15) + suffix;
        return shorter.size() < label.size() ? shorter : label;
    }
    return label;
}

// A figure's tick labels number in the dozens; a long session starts afresh now and then.
constexpr qsizetype kMaxShortNumbers = 4096;

} // namespace

// Remembered for the calling thread: an axis writes its labels again at every layout and fitting
// round, and each reading costs a regular expression and a QLocale::toDouble.
QString KeepsClear::shortNumber(const QString &label)
{
    thread_local QHash<QString, QString> written;
    if (const auto found = written.constFind(label); found != written.cend())
        return *found;
    if (written.size() >= kMaxShortNumbers)
        written.clear();
    QString shorter = writtenShort(label);
    written.insert(label, shorter);
    return shorter;
}

void KeepsClear::blank(const QVector<double> &ticks, QVector<QString> *labels) const
{
    if (labels && m_shortNumbers)
        for (QString &label : *labels)
            label = shortNumber(label);
    blankCorner(ticks, labels);
    if (!m_axis || !labels || !m_axis->axisRect())
        return;
    const QRect rect = m_axis->axisRect()->rect();
    const bool across = m_axis->orientation() == Qt::Horizontal;
    const QFont font = m_axis->tickLabelFont();
    const double height = QFontMetricsF(font).height();
    // The stretch ends the axis where its range's upper end is drawn: across, on the right, or on
    // the left of a reversed axis; up the side, at the top, or at the bottom of a reversed one (a
    // heatmap's rows, position 0 at the top, keep their first tick labels).
    const bool reversed = m_axis->rangeReversed();
    const bool nearEnd = across != reversed; // the stretch is at the rect's right or bottom
    const double first = across ? rect.left() : rect.top();
    const double last = (across ? rect.right() : rect.bottom()) + 1;
    m_made = m_left = 0;
    for (qsizetype i = 0; i < std::min(ticks.size(), labels->size()); ++i) {
        const bool counted = !labels->at(i).isEmpty() && m_axis->range().contains(ticks[i]);
        m_made += counted;
        const double at = m_axis->coordToPixel(ticks[i]);
        const double half = (across ? MeasuredText::advance(font, labels->at(i)) : height) / 2.0;
        const bool reaches = nearEnd ? at + half + kGap > last - m_pixels : at - half - kGap < first + m_pixels;
        if (reaches)
            (*labels)[i].clear();
        m_left += counted && !reaches;
    }
}

namespace {

// The ticks a ticker makes for `key`, those kept in `kept` when it made them last (KeptTicks), made
// with `make` otherwise: QCustomPlot's generate, every output asked for.
template<typename Make>
void keptOrMade(std::optional<KeptTicks> &kept, const KeptTicks::Key &key, Make make, QVector<double> &ticks,
                QVector<double> *subTicks, QVector<QString> *tickLabels)
{
    if (!kept || !(kept->key == key)) {
        KeptTicks made {key, {}, {}, {}};
        make(made.ticks, &made.subTicks, &made.labels);
        kept = std::move(made);
    }
    ticks = kept->ticks;
    if (subTicks)
        *subTicks = kept->subTicks;
    if (tickLabels)
        *tickLabels = kept->labels;
}

KeptTicks::Key keyOf(const QCPRange &range, double origin, const QLocale &locale, QChar formatChar, int precision,
                     std::array<double, 4> settings)
{
    return {{std::bit_cast<quint64>(range.lower), std::bit_cast<quint64>(range.upper), std::bit_cast<quint64>(origin)},
            locale,
            formatChar,
            precision,
            settings};
}

} // namespace

void KeepClearTicker::generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision,
                               QVector<double> &ticks, QVector<double> *subTicks, QVector<QString> *tickLabels)
{
    const std::optional<double> own = ownSetting();
    if (!own) {
        QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    } else {
        const auto key = keyOf(range, tickOrigin(), locale, formatChar, precision,
                               {double(tickStepStrategy()), double(tickCount()), *own, 0.0});
        const auto make = [&](QVector<double> &t, QVector<double> *s, QVector<QString> *l) {
            QCPAxisTicker::generate(range, locale, formatChar, precision, t, s, l);
        };
        keptOrMade(m_kept, key, make, ticks, subTicks, tickLabels);
    }
    blank(ticks, tickLabels);
}

std::optional<double> KeepClearTicker::ownSetting() const
{
    if (typeid(*this) == typeid(KeepClearTicker))
        return 0.0;
    return std::nullopt;
}

void KeepClearLogTicker::generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision,
                                  QVector<double> &ticks, QVector<double> *subTicks, QVector<QString> *tickLabels)
{
    const auto key = keyOf(range, tickOrigin(), locale, formatChar, precision,
                           {double(tickStepStrategy()), double(tickCount()), logBase(), double(subTickCount())});
    const auto make = [&](QVector<double> &t, QVector<double> *s, QVector<QString> *l) {
        QCPAxisTickerLog::generate(range, locale, formatChar, precision, t, s, l);
    };
    keptOrMade(m_kept, key, make, ticks, subTicks, tickLabels);
    blank(ticks, tickLabels);
}

} // namespace posenc
