#include "IndexTicker.h"

#include "data/FigureText.h"

#include <algorithm>
#include <cmath>

namespace posenc {

void IndexTicker::install(QCPAxis *axis)
{
    QSharedPointer<IndexTicker> ticker(new IndexTicker);
    ticker->setTickCount(axis->ticker()->tickCount());
    axis->setTicker(ticker);
}

double IndexTicker::getTickStep(const QCPRange &range)
{
    // QCustomPlot's nice steps (1, 2, 2.5, 5 times a power of ten), made whole: 2.5 becomes 2
    // below ten, and nothing goes under one index.
    double step = QCPAxisTicker::getTickStep(range);
    // A step past the whole range would leave one tick; the largest of 1, 2 or 5 times a power
    // of ten within it leaves two ("0 20" over 0-24, not "0" alone).
    if (step > range.size() && range.size() >= 2.0 && !m_lone) {
        const double decade = std::pow(10.0, std::floor(std::log10(range.size())));
        step = decade;
        for (const double nice : {2.0, 5.0})
            if (nice * decade <= range.size())
                step = nice * decade;
    }
    if (step <= 1.0)
        return 1.0;
    return std::floor(step);
}

int IndexTicker::getSubTickCount(double tickStep)
{
    // A sub-tick marks an index, never a point between two.
    if (tickStep <= 1.0)
        return 0;
    const int count = QCPAxisTicker::getSubTickCount(tickStep);
    const double spacing = tickStep / (count + 1);
    return spacing == std::floor(spacing) ? count : 0;
}

QVector<QString> IndexTicker::createLabelVector(const QVector<double> &ticks, const QLocale &, QChar, int)
{
    const bool grouped
        = std::any_of(ticks.begin(), ticks.end(), [](double tick) { return std::llabs(std::llround(tick)) >= 10000; });
    QVector<QString> labels;
    labels.reserve(ticks.size());
    for (double tick : ticks) {
        const std::int64_t index = std::llround(tick);
        labels.append(grouped ? FigureText::formatCount(index) : QString::number(index));
    }
    return labels;
}

} // namespace posenc
