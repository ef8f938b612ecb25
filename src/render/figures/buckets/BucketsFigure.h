#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"

#include "render/data/buckets/BucketsModel.h"

#include <memory>

namespace posenc {

// The buckets figure's drawing: on the left, over the distance on a log axis, T5's buckets (keys
// after and before the query in the bidirectional map, and the causal map) above DeBERTa's
// |bucket|, each with its exact range shaded, T5's cap past max_distance and DeBERTa's growth
// past max_position shaded apart; on the right the L x L map of the chosen family's buckets, or
// under them in a figure taller than wide.
class BucketsFigure final : public FigurePlot
{
public:
    explicit BucketsFigure(QCustomPlot *plot);
    // The map's coverage of the panel `request` saw, made in the data's job
    // (FigureDescriptor::prepare): fill() offers it to the panel's map.
    static std::shared_ptr<const PreparedDrawing> prepare(const FigureData &data, const FigureRequest &request);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    QList<QCPAxisRect *> pictureRects() const override;

private:
    // The curves and the map side by side, or the map under the curves.
    void arrange(bool stacked);
    // The key's swatches and the names of the marking lines, each by its own parameter.
    void keyTheMarks(const BucketsData &d, bool terse, bool lengthShown);

    QCPTextElement *m_title;
    QCPLayoutGrid *m_row = nullptr;
    QCPLayoutGrid *m_mapCell = nullptr;
    bool m_stacked = false;
    QCPAxisRect *m_t5, *m_deberta;
    QCPTextElement *m_mapTitle;
    std::unique_ptr<HeatmapPanel> m_map;
    QCPLegend *m_legend;
    QCPTextElement *m_caption;
    QCPItemRect *m_t5Exact, *m_t5Capped, *m_debertaExact, *m_debertaGrowth;
    QCPGraph *m_t5After, *m_t5Before, *m_t5Causal, *m_t5CausalExact, *m_t5MaxDistance, *m_t5Length;
    QCPGraph *m_debertaCurve, *m_debertaMaxPosition, *m_debertaSpan, *m_debertaLength;
    bool m_compact = false;
    std::shared_ptr<const BucketsData> m_data;
};

} // namespace posenc
