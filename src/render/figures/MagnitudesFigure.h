#pragma once

#include "render/FigurePlot.h"

#include "render/data/MagnitudesModel.h"

#include <optional>

namespace posenc {

// The magnitudes view: on top, per position ||s*E_p||, ||PE_p|| (left, log) and their ratio
// (right) with the expected norms as dashed lines; below, per column the std (squares) and
// the |mean| (rings) over positions of PE and of s*E on a log axis: where the PE dominates,
// and where a PE column is a near-constant offset (mean ~1, std ~0) rather than variation.
// Each axis rect has its legend in a row above it, never over its data.
class MagnitudesFigure final : public FigurePlot
{
public:
    explicit MagnitudesFigure(QCustomPlot *plot);

    void setData(const MagnitudesData &data);
    // The graphs' points of `data` (a MagnitudesData), made off the GUI thread
    // (FigureDescriptor::prepare): d per column graph, and as many positions as the data has, which
    // the graphs share instead of copying them where the result is drawn.
    static std::shared_ptr<const PreparedDrawing> prepare(const FigureData &data);
    // Small figures (PlotStyle::isCompact) trade the two legends above the axes, which would
    // take much of their height, for one short legend under both: blue s·E, orange PE, green
    // ratio, dashed expected norms. The dots per column shrink with them.
    void setCompact(bool compact) override;
    QCPAxisRect *positionRect() const { return m_positions; }
    QCPAxisRect *columnRect() const { return m_columns; }

    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    QCPGraph *addGraph(QCPAxisRect *rect, QCPAxis::AxisType valueAxis, const QColor &color, Qt::PenStyle style);
    void addBlockLegends();

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QCPAxisRect *m_positions;
    QCPAxisRect *m_columns;
    QCPLayoutGrid *m_positionBlock; // the positions' legend over their axes
    QCPLayoutGrid *m_columnBlock;
    QCPLegend *m_positionLegend = nullptr; // not while compact
    QCPLegend *m_columnLegend = nullptr;
    QCPGraph *m_peNorm, *m_embeddingNorm, *m_ratio, *m_expectedPe, *m_expectedEmbedding;
    QCPGraph *m_peStd, *m_embeddingStd, *m_peMean, *m_embeddingMean;
    QList<QCPGraph *> m_compactEntries;
    // The compact legend's entries of the position term, left out where there is none (NoPE).
    QList<QCPGraph *> m_compactPositionEntries;
    bool m_hasPositionTerm = true;
    // The rows' index its labels and names were given for: given again only where it changes, so
    // that a shorter form a room step chose stays, and the view's layout stays current.
    std::optional<TitleText::RowIndex> m_index;
    QCPLegend *m_compactLegend = nullptr; // only while compact
    bool m_compact = false;
    std::shared_ptr<const MagnitudesData> m_data;
};

} // namespace posenc
