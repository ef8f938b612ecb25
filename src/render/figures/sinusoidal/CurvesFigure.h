#pragma once

#include "render/FigurePlot.h"

#include "render/data/sinusoidal/CurvesModel.h"

namespace posenc {

// The curves figure's drawing: PE[:, j] against position for chosen columns, smooth curves
// evaluated densely in double, the table's values at the integer positions marked, a legend
// with each column's frequency and wavelength.
class CurvesFigure final : public FigurePlot
{
public:
    explicit CurvesFigure(QCustomPlot *plot);

    void setData(const CurvesData &data);
    // Small figures (PlotStyle::isCompact) name each curve by column, sin/cos and wavelength
    // only, three to a legend row, with smaller dots; the next setData() draws it so.
    void setCompact(bool compact) override { m_compact = compact; }
    // The x axis shows positions [first, last].
    void setPositionRange(double first, double last);
    QCPAxisRect *axisRect() const { return m_rect; }

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    void addBand(const Curve &curve, const QColor &hue, QCPGraph *line);

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPLegend *m_legend;
    bool m_compact = false;
    std::shared_ptr<const CurvesData> m_data;
};

} // namespace posenc
