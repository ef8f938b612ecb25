#pragma once

#include "render/data/CurvesData.h"

#include "render/QCustomPlot.h"

namespace posenc {

// The curves view: PE[:, j] against position for chosen columns, smooth curves evaluated
// densely in double, the table's values at the integer positions marked, a legend with
// each column's frequency and wavelength.
class CurvesFigure
{
public:
    explicit CurvesFigure(QCustomPlot *plot);

    void setData(const CurvesData &data);
    // Small figures (PlotStyle::isCompact) name each curve by column, sin/cos and wavelength
    // only, three to a legend row, with smaller dots; the next setData() draws it so.
    void setCompact(bool compact) { m_compact = compact; }
    bool isCompact() const { return m_compact; }
    // The x axis shows positions [first, last].
    void setPositionRange(double first, double last);
    QCPAxisRect *axisRect() const { return m_rect; }

private:
    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPLegend *m_legend;
    bool m_compact = false;
};

} // namespace posenc
