#pragma once

#include "KeepClearTicker.h"

namespace posenc {

// Ticks of an axis that counts things (positions, columns, offsets): whole numbers only, one
// tick per index at most, each label the exact integer, so that no label reads 2.5 and none
// repeats near 10^6 as QCustomPlot's "g" format would (1.04858e+06 twice). An axis with a label
// of five digits or more groups the thousands of all its labels, as titles write counts
// ("200,000", "1,000,000"); shorter ones stay plain ("1000").
class IndexTicker : public KeepClearTicker
{
public:
    // Puts an IndexTicker on `axis`, keeping the axis's tick count.
    static void install(QCPAxis *axis);

    // At a tick count of 1 an axis shows two ticks ("0 20" over 0-24); once lone, only the first.
    bool isLone() const { return m_lone; }
    void setLone(bool lone) { m_lone = lone; }

protected:
    // Its ticks are those of its settings and loneness: the ticks of its last range are kept.
    std::optional<double> ownSetting() const override { return m_lone ? 1.0 : 0.0; }
    double getTickStep(const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
    QVector<QString> createLabelVector(const QVector<double> &ticks, const QLocale &locale, QChar formatChar,
                                       int precision) override;

private:
    bool m_lone = false;
};

} // namespace posenc
