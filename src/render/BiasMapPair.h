#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"

#include <QList>

#include <memory>
#include <optional>

namespace posenc {

// One head's bias over queries x keys twice, side by side: the causal mask's table and the other
// mask's (ALiBi's symmetric, Sandwich's bidirectional), each titled, on one colour scale, with a
// caption (and a legend) below; zooming one panel zooms the other. The kit of the alibi-bias and
// sandwich-bias figures, whose words and values are their own. Its view axes are
// VisibleCells::kKeysAxis (j, across) and kQueriesAxis (i, down).
class BiasMapPair
{
public:
    // The layout in rows 1 and 2 of the plot's layout, under its title (row 0).
    BiasMapPair(QCustomPlot *plot, bool withLegend);

    QList<ViewAxis> viewAxes() const;
    void showDefaultView(const Params &params, const FigureState &state);
    QList<PanelExtent> panels(double pixelRatio) const;
    QList<PositionAxis> positionAxes() const;
    QList<QCPAxisRect *> pictureRects() const;

    // The two grids in `style`, the title of the panel the parameters' mask uses in bold.
    void setGrids(const HeatmapGrid &causal, const HeatmapGrid &other, const HeatmapStyle &style, bool causalChosen);
    // The panel under `pixel` (0 causal, 1 the other) and its cell (query, key) of `table`.
    struct Hit
    {
        int panel = 0;
        std::int64_t query = 0;
        std::int64_t key = 0;
    };
    std::optional<Hit> cellAt(const QPointF &pixel, Shape table) const;

    QCPTextElement *causalTitle = nullptr;
    QCPTextElement *otherTitle = nullptr;
    QCPColorScale *scale = nullptr;
    QCPLegend *legend = nullptr; // null without one
    QCPTextElement *caption = nullptr;

private:
    std::unique_ptr<HeatmapPanel> m_causal, m_other;
};

// The kit's figure: a title over a BiasMapPair, whose view axes, default view, panels, positions
// and pictures are the pair's, both grids on viridis. A family's bias figure derives
// BiasMapFigureOf<its data> and writes only its texts (draw) and the words of a cell (describeCell);
// it needs no header of its own.
class BiasMapFigure : public FigurePlot
{
public:
    QList<ViewAxis> viewAxes() const override { return m_maps.viewAxes(); }
    void showDefaultView(const Params &params, const FigureState &state) override
    {
        m_maps.showDefaultView(params, state);
    }
    QList<PanelExtent> panels(double pixelRatio) const override { return m_maps.panels(pixelRatio); }
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override { return m_maps.positionAxes(); }
    QList<QCPAxisRect *> pictureRects() const override { return m_maps.pictureRects(); }

    // The grey of the masked cells (NaN in a grid): neutral, so never a colour of viridis.
    static QColor maskedColor();

protected:
    BiasMapFigure(QCustomPlot *plot, bool withLegend);

    // Both grids on viridis over [lowest, highest], masked cells in maskedColor(), the title of
    // the panel the parameters' mask uses in bold, the scale labelled as a bias on the score.
    void setGrids(const HeatmapGrid &causal, const HeatmapGrid &other, double lowest, double highest,
                  bool causalChosen);
    // On a slide or a small view the panels keep their room: short texts.
    bool terse() const;

    QCPTextElement *m_title;
    BiasMapPair m_maps;
    bool m_compact = false;
};

// A bias figure of `Data` (the model's FigureData): fill keeps the data and draws it; hoverAt
// finds the cell of the max_len x max_len table under the mouse, sets its query as the position
// and lets the family word it.
template <class Data>
class BiasMapFigureOf : public BiasMapFigure
{
public:
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &) final
    {
        m_data = std::static_pointer_cast<const Data>(data);
        draw(*m_data);
    }

    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const final
    {
        if (!m_data)
            return std::nullopt;
        const std::int64_t positions = engine.params().maxLen;
        const auto hit = m_maps.cellAt(pixel, {positions, positions});
        if (!hit)
            return std::nullopt;
        HoverPoint point;
        point.position = hit->query;
        describeCell(*m_data, *hit, point);
        return point;
    }

protected:
    using BiasMapFigure::BiasMapFigure;

    virtual void draw(const Data &data) = 0;
    // The value (none where masked) and the words of the cell `hit`.
    virtual void describeCell(const Data &data, const BiasMapPair::Hit &hit, HoverPoint &point) const = 0;

private:
    std::shared_ptr<const Data> m_data;
};

} // namespace posenc
