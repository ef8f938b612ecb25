#pragma once

#include "render/FigurePlot.h"

#include "render/data/rope2d/Rope2dSimilarityModel.h"

namespace posenc {

// The rope-2d-similarity figure's drawing: a heatmap per split of the pairs, three across and two
// down (one column in a view taller than wide), on one colour scale from the lowest score to 1,
// the chosen patch ringed, each panel titled with its split and its score a quarter of the grid
// away along a row and down a column; the parameters' own style in bold.
class Rope2dSimilarityFigure final : public FigurePlot
{
public:
    explicit Rope2dSimilarityFigure(QCustomPlot *plot);

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    QList<QCPAxisRect *> pictureRects() const override;
    bool isInteractive() const override { return false; }

private:
    // Lays the panels out `across` to a row, the colour scale beside the first row.
    void placePanels(int across);

    struct Panel
    {
        QCPTextElement *title = nullptr;
        QCPAxisRect *rect = nullptr;
        QCPColorMap *map = nullptr;
        QCPGraph *patch = nullptr;
    };
    QCPTextElement *m_title;
    QCPLayoutGrid *m_grid;
    QCPColorScale *m_scale;
    QList<Panel> m_panels;
    int m_across = 0; // panels across, as laid out (0: not yet)
    bool m_compact = false;
    std::shared_ptr<const Rope2dSimilarityData> m_data;
};

} // namespace posenc
