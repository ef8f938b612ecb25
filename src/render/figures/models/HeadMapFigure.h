#pragma once

#include "render/FigurePlot.h"

#include "render/data/models/HeadMapModel.h"

namespace posenc {

// The head-map figure's drawing: one row per head drawn, one cell per column of it, coloured by
// the wavelength of the pair that turns it (log scale, a colour bar beside), grey where it passes
// unrotated and pale where it turns at frequency 0; each row said in words under the plot.
class HeadMapFigure final : public FigurePlot
{
public:
    explicit HeadMapFigure(QCustomPlot *plot);

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPColorMap *m_kinds; // passes or frequency 0
    QCPColorMap *m_wavelengths;
    QCPColorScale *m_scale;
    QCPLegend *m_legend;
    QCPTextElement *m_caption;
    bool m_compact = false;
    std::shared_ptr<const HeadMapData> m_data;
};

} // namespace posenc
