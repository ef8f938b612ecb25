#include "KeepClearTicker.h"

#include "MeasuredText.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>
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

// `label`'s number, where it is one: thousands grouped ("10,000", IndexTicker's past 10,000) read
// as the number they group.
std::optional<double> readNumber(const QString &label)
{
    static const QRegularExpression grouped(u"^-?\\d{1,3}(,\\d{3})+$"_s);
    bool number = false;
    const double value
        = QLocale::c().toDouble(grouped.match(label).hasMatch() ? QString(label).remove(u',') : label, &number);
    return number && std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

// A figure's tick labels number in the dozens; a long session starts afresh now and then.
constexpr qsizetype kMaxNumbers = 4096;

// readNumber, remembered for the calling thread: an axis writes its labels again at every layout
// and fitting round, and each reading costs a regular expression and a QLocale::toDouble.
std::optional<double> numberOf(const QString &label)
{
    thread_local QHash<QString, std::optional<double>> read;
    if (const auto found = read.constFind(label); found != read.cend())
        return *found;
    if (read.size() >= kMaxNumbers)
        read.clear();
    const std::optional<double> value = readNumber(label);
    read.insert(label, value);
    return value;
}

// `label` in units of thousands, millions, ... ("1250" is "1.25k"), at most two decimals of the
// unit and only where they say the number exactly; none for a number under a thousand or one they
// do not say.
std::optional<QString> inUnits(const QString &label)
{
    const std::optional<double> value = numberOf(label);
    if (!value || std::abs(*value) < 1000.0)
        return std::nullopt;
    static const std::pair<double, QChar> units[] {{1e12, u'T'}, {1e9, u'G'}, {1e6, u'M'}, {1e3, u'k'}};
    for (const auto &[unit, suffix] : units) {
        if (std::abs(*value) < unit)
            continue;
        const double scaled = std::round(*value / unit * 100.0) / 100.0;
        if (std::abs(scaled * unit - *value) > 1e-9 * std::abs(*value))
            return std::nullopt;
        return QLocale::c().toString(scaled, 'g', 15) + suffix;
    }
    return std::nullopt;
}

QString writtenShort(const QString &label)
{
    const std::optional<QString> shorter = inUnits(label);
    return shorter && shorter->size() < label.size() ? *shorter : label;
}

} // namespace

QString KeepsClear::shortNumber(const QString &label)
{
    return writtenShort(label);
}

namespace {

QVector<QString> shortAsOne(const QVector<QString> &labels);

} // namespace

QVector<QString> KeepsClear::shortNumbers(const QVector<QString> &labels)
{
    // An axis writes its labels short again at every layout and fitting round, the same labels most
    // times: the last few asked are remembered on the calling thread, by their texts.
    struct Written
    {
        QVector<QString> labels, written;
    };
    constexpr int kWritten = 8; // an axis's levels a fitting tries
    thread_local std::array<std::optional<Written>, kWritten> known;
    thread_local int next = 0;
    for (const std::optional<Written> &one : known)
        if (one && one->labels == labels)
            return one->written;
    QVector<QString> written = shortAsOne(labels);
    known[next] = Written {labels, written};
    next = (next + 1) % kWritten;
    return written;
}

namespace {

QVector<QString> shortAsOne(const QVector<QString> &labels)
{
    // One axis, one format: its numbers of a thousand and more all in units, or all as they are
    // ("750, 1k, 1250" mixed them on sum-vs-concat's positions). In units where each says its
    // number exactly and none is longer so ("1k, 1.5k, 2k" for "1000, 1500, 2000"; "1000, 1250"
    // stay, "1.25k" is longer than "1250").
    bool shorter = false;
    for (const QString &label : labels) {
        const std::optional<double> value = numberOf(label);
        if (!value || std::abs(*value) < 1000.0)
            continue;
        const std::optional<QString> units = inUnits(label);
        if (!units || units->size() > label.size())
            return labels;
        shorter |= units->size() < label.size();
    }
    if (!shorter)
        return labels;
    QVector<QString> written = labels;
    for (QString &label : written)
        if (const std::optional<double> value = numberOf(label); value && std::abs(*value) >= 1000.0)
            label = *inUnits(label);
    return written;
}

} // namespace

void KeepsClear::blank(const QVector<double> &ticks, QVector<QString> *labels) const
{
    if (labels && m_shortNumbers)
        *labels = shortNumbers(*labels);
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
