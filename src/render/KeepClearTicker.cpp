#include "KeepClearTicker.h"

#include "MeasuredText.h"

namespace posenc {

namespace {

constexpr double kGap = 4.0; // layout units between a tick label and the stretch it keeps clear of

} // namespace

void KeepsClear::keepClear(QCPAxis *axis, double pixels)
{
    m_axis = pixels > 0.0 ? axis : nullptr;
    m_pixels = pixels > 0.0 ? pixels : 0.0;
}

void KeepsClear::blank(const QVector<double> &ticks, QVector<QString> *labels) const
{
    if (!m_axis || !labels || !m_axis->axisRect())
        return;
    const QRect rect = m_axis->axisRect()->rect();
    const bool across = m_axis->orientation() == Qt::Horizontal;
    const QFont font = m_axis->tickLabelFont();
    const double height = QFontMetricsF(font).height();
    for (qsizetype i = 0; i < std::min(ticks.size(), labels->size()); ++i) {
        const double at = m_axis->coordToPixel(ticks[i]);
        const double half = (across ? MeasuredText::advance(font, labels->at(i)) : height) / 2.0;
        // Across, the stretch ends the axis on the right; up the side, at the top.
        const bool reaches
            = across ? at + half + kGap > rect.right() + 1 - m_pixels : at - half - kGap < rect.top() + m_pixels;
        if (reaches)
            (*labels)[i].clear();
    }
}

void KeepClearTicker::generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision,
                               QVector<double> &ticks, QVector<double> *subTicks, QVector<QString> *tickLabels)
{
    QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    blank(ticks, tickLabels);
}

void KeepClearLogTicker::generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision,
                                  QVector<double> &ticks, QVector<double> *subTicks, QVector<QString> *tickLabels)
{
    QCPAxisTickerLog::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    blank(ticks, tickLabels);
}

} // namespace posenc
