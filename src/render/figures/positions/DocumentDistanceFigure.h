#pragma once

#include "render/BiasMapPair.h"
#include "render/FigurePlot.h"

#include "render/data/positions/DocumentDistanceModel.h"

#include <memory>

namespace posenc {

// The document-distance figure's drawing: one row's queries (down) by keys (across) twice, the
// reference's and --compare's, on one diverging scale centred on 0 (negative distances blue, which
// causal training never shows), the pairs the mask hides grey, the documents' boundaries dotted:
// the blocks off the diagonal are the cross-document pairs. Zooming one panel zooms the other.
class DocumentDistanceFigure final : public FigurePlot
{
public:
    explicit DocumentDistanceFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    QList<QCPAxisRect *> pictureRects() const override;

private:
    QCPTextElement *m_title;
    BiasMapPair m_maps;
    QList<QCPGraph *> m_boundaries; // one a panel
    bool m_compact = false;
    std::shared_ptr<const DocumentDistanceData> m_data;
};

} // namespace posenc
