#pragma once

#include "PlotView.h"

#include "render/figures/HeatmapFigure.h"

class QComboBox;

namespace posenc {

// Positions x columns of a chosen quantity at screen resolution; wheel and Shift-drag zoom,
// drag pans, Home resets, and every change of view recomputes what is visible.
class HeatmapView : public PlotView
{
    Q_OBJECT

public:
    explicit HeatmapView(QWidget *parent = nullptr);

    Quantity quantity() const;
    void setQuantity(Quantity quantity);
    // The colormap chosen, or nothing for the quantity's own (diverging for signed data).
    std::optional<Colormap> colormap() const;
    void setColormap(std::optional<Colormap> colormap);
    // The visible ranges, in table units (a session keeps them).
    QCPRange columnRange() const;
    QCPRange positionRange() const;
    void setVisibleRanges(const QCPRange &columns, const QCPRange &positions);
    // The grid on screen, if any.
    const HeatmapGrid *grid() const { return m_grid.get(); }
    HeatmapPanel &panel() { return m_figure.panel(); }

    void setCursorPosition(std::optional<std::int64_t> position) override;
    void resetView() override;
    std::optional<FigureOptions> figureOptions() const override;
    std::optional<TableRequest> tableRequest() const override;
    static QList<Quantity> quantities();

protected:
    ComputeScheduler::Job makeJob() override;
    void paramsChanged(bool shapeChanged) override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel) const override;
    bool figureDiffers(const Params &before, const Params &after) const override;

private:
    void show(const std::shared_ptr<const HeatmapGrid> &grid, quint64 serial, Detail detail);

    HeatmapFigure m_figure;
    QComboBox *m_quantityBox;
    QComboBox *m_colormapBox; // "auto" (the quantity's own map) or a map of Colormaps
    QCPItemStraightLine *m_cursor;
    std::shared_ptr<const HeatmapGrid> m_grid;
};

} // namespace posenc
