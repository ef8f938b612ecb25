#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"
#include "render/TokenRoles.h"
#include "render/data/DropoutModel.h"

#include "render/QCustomPlot.h"

#include <memory>
#include <optional>

namespace posenc {

// The dropout view: the keep mask and the output Y of the same cells side by side, with
// the measured drop fraction against p and the 1/(1-p) factor stated, the token roles marked on
// the rows (padding hatched).
class DropoutFigure final : public FigurePlot
{
public:
    explicit DropoutFigure(QCustomPlot *plot);

    // Draws `data`; `colormap` replaces the figure's own maps in both panels; `rate` states p in the
    // title (FigureText::dropoutRateText; empty: p alone).
    void setData(const DropoutData &data, std::optional<Colormap> colormap = std::nullopt, const QString &rate = {});
    // The mask's and Y's coverage of their panels' pixels as the request knows them, made in the
    // job (FigureDescriptor::prepare): fill() offers them to the panels' maps.
    static std::shared_ptr<const PreparedDrawing> prepare(const FigureData &data, const FigureRequest &request);
    HeatmapPanel &maskPanel() { return *m_mask; }
    HeatmapPanel &outputPanel() { return *m_output; }

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    // Small (a paper column): the token roles outlined, not named.
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    QCPTextElement *m_title;
    QCPTextElement *m_summary;
    std::unique_ptr<HeatmapPanel> m_mask;
    std::unique_ptr<HeatmapPanel> m_output;
    QCPMarginGroup *m_sides; // the heatmaps' left and right margins, alike
    std::unique_ptr<TokenRoleMarks> m_maskRoles;
    std::unique_ptr<TokenRoleMarks> m_outputRoles;
    bool m_compact = false;
    std::shared_ptr<const DropoutData> m_data;
};

} // namespace posenc
