#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"
#include "render/data/learned/LearnedModel.h"

#include "render/QCustomPlot.h"

#include <memory>

namespace posenc {

// "Learned vs sinusoidal": a learned position table beside the sinusoidal PE of its shape, its
// padding rows (before the offset) at positions -offset .. -1, hatched.
// Top row: the two tables; middle row: their similarity matrices P P^T and PE PE^T; bottom:
// their norms per position with the closed form sqrt(d/2). One builder for the window and the
// exporter.
class LearnedFigure final : public FigurePlot
{
public:
    explicit LearnedFigure(QCustomPlot *plot);

    void setData(const LearnedData &data);
    HeatmapPanel &learnedPanel() { return *m_learned; }
    HeatmapPanel &sinusoidalPanel() { return *m_sinusoidal; }
    HeatmapPanel &learnedSimilarityPanel() { return *m_learnedSimilarity; }
    HeatmapPanel &sinusoidalSimilarityPanel() { return *m_sinusoidalSimilarity; }
    QCPAxisRect *normRect() const { return m_norms; }

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    QList<QCPAxisRect *> pictureRects() const override;
    // The figure fits what it shows: nothing to zoom in grids of averages.
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    std::unique_ptr<HeatmapPanel> m_learned, m_sinusoidal, m_learnedSimilarity, m_sinusoidalSimilarity;
    QCPAxisRect *m_norms;
    QCPGraph *m_learnedNorm, *m_sinusoidalNorm, *m_expectedNorm;
    QList<QCPTextElement *> m_panelTitles;
    QCPItemRect *m_paddingRows = nullptr; // over the table's padding rows
    QCPItemRect *m_paddingNorms = nullptr; // over the norms' positions before 0
    std::shared_ptr<const LearnedData> m_data;
};

} // namespace posenc
