#pragma once

#include "render/HoverPoint.h"
#include "render/QCustomPlot.h"

#include "render/data/DropoutAnatomyData.h"

namespace posenc {

// The lower half of the dropout anatomy: each cell's output against its input on the lines of
// slope 1/(1-p), 0 and 1, and the fraction dropped against p in its band p +- 4 sqrt(p(1-p)/n),
// side by side in a grid of the figure's, each titled over its axes and named in a legend below.
class DropoutAnatomyCharts
{
public:
    DropoutAnatomyCharts(QCustomPlot *plot, QCPLayoutGrid *grid);

    // `brief`: one-line titles, for a small view.
    void fill(const DropoutAnatomyData &data, bool brief = false);
    // Each chart's legend in the chart's empty upper left corner instead of below it: a short
    // figure (a slide) keeps the charts' height. Both charts' points run from lower left to upper
    // right.
    void setLegendsInside(bool inside);
    // The charts' values at `pixel`, in words: the fraction dropped at the nearest p measured, with
    // its expected band; the two outputs an input takes. Nothing outside the charts.
    std::optional<HoverPoint> hoverAt(const QPointF &pixel) const;

private:
    void fillScatter(const DropoutAnatomyData &data, bool brief);
    void fillFraction(const DropoutAnatomyData &data, bool brief);

    QCPLayoutGrid *m_grid;
    bool m_inside = false;
    QCPTextElement *m_scatterTitle;
    QCPTextElement *m_fractionTitle;
    QCPAxisRect *m_scatter;
    QCPAxisRect *m_fraction;
    QCPLegend *m_scatterLegend;
    QCPLegend *m_fractionLegend;
    QCPGraph *m_slopeKept, *m_slopeDropped, *m_slopeEvaluation;
    QCPGraph *m_kept, *m_dropped, *m_passed, *m_zeroed;
    QCPGraph *m_bandLow, *m_bandHigh, *m_expected, *m_measured, *m_current;
    QList<double> m_probabilities, m_fractions; // as filled
    std::int64_t m_counted = 0;
    double m_dropout = 0.0;
};

} // namespace posenc
