#pragma once

#include "render/FigurePlot.h"

#include "render/data/sinusoidal/ComposeCompareModel.h"

#include <array>
#include <memory>

namespace posenc {

class HeatmapMarks;

// The sum-or-concatenate figure's drawing: X in sum (left) and in concat (right) as heatmaps on
// one colour scale, their columns and positions moving together; under each, per column on a
// log axis the std (squares) and |mean| (rings) over positions of the PE (orange) and of s*E
// (blue), the column axis shared with the heatmap above; one legend under all.
class ComposeCompareFigure final : public FigurePlot
{
public:
    explicit ComposeCompareFigure(QCustomPlot *plot);
    ~ComposeCompareFigure() override;

    void setData(const ComposeCompareData &data, bool meanOnly = false);
    QCPAxisRect *heatmapRect(int side) const { return m_sides[static_cast<std::size_t>(side)].heat; }
    QCPColorMap *colorMap(int side) const { return m_sides[static_cast<std::size_t>(side)].map; }
    QCPColorScale *colorScale() const { return m_scale; }

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    // The heatmaps and the statistics under them read as pictures: smaller, they show nothing.
    QList<QCPAxisRect *> pictureRects() const override;

private:
    struct Side
    {
        QCPTextElement *header = nullptr; // how X is composed
        QCPTextElement *layout = nullptr; // where its parts sit
        QCPAxisRect *heat = nullptr;
        QCPColorMap *map = nullptr;
        HeatmapMarks *marks = nullptr; // the PE's swing within a pixel
        QCPTextElement *caption = nullptr; // the PE's fastest and slowest cosine columns in numbers, given room
        QCPAxisRect *stats = nullptr;
        QCPGraph *peStd = nullptr, *peMean = nullptr, *embeddingStd = nullptr, *embeddingMean = nullptr;
    };

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    std::array<Side, 2> m_sides;
    QCPColorScale *m_scale;
    QCPLegend *m_legend = nullptr;
    QCPAbstractLegendItem *m_spreadItem = nullptr; // the oscillation mark's entry, while drawn
    bool m_compact = false;
    std::shared_ptr<const ComposeCompareData> m_data;
    std::array<std::unique_ptr<Engine>, 2> m_engines; // of the two sides, for the hover's exact cells
};

} // namespace posenc
