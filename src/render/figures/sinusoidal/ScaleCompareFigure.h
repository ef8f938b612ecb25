#pragma once

#include "render/FigurePlot.h"

#include "render/data/sinusoidal/ScaleCompareModel.h"

#include <array>
#include <vector>

namespace posenc {

// The scale comparison's drawing: four panels, sigma 1 on top and d^-1/2 below, s 1 on the left
// and sqrt(d) on the right, each titled with its sigma and s and with the ratio ||s*E|| / ||PE||
// measured and expected, over ||s*E_p|| and ||PE_p|| against the position on one log axis that
// all four share, so that the panels compare at a glance; one legend under them. On the right,
// the expected ratio against d_model for the four and for the parameters' own sigma and s, with
// a dot at their d.
class ScaleCompareFigure final : public FigurePlot
{
public:
    explicit ScaleCompareFigure(QCustomPlot *plot);

    void setData(const ScaleCompareData &data);
    QCPAxisRect *panelRect(int panel) const { return m_panels[static_cast<std::size_t>(panel)].rect; }
    QCPTextElement *panelHeader(int panel) const { return m_panels[static_cast<std::size_t>(panel)].header; }
    QCPTextElement *panelRatio(int panel) const { return m_panels[static_cast<std::size_t>(panel)].ratio; }
    // The plot of the ratio against d_model: visible where the figure has room for it.
    QCPAxisRect *ratioRect() const { return m_ratioRect; }

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    bool isInteractive() const override { return false; }
    // Four panels to compare: smaller than a picture's least size, they compare nothing.
    QList<QCPAxisRect *> pictureRects() const override;

private:
    std::optional<HoverPoint> ratioAt(const QPointF &pixel) const;
    struct Panel
    {
        QCPTextElement *header = nullptr; // sigma and s
        QCPTextElement *ratio = nullptr; // measured and expected
        QCPAxisRect *rect = nullptr;
        QCPGraph *embedding = nullptr, *pe = nullptr, *expectedEmbedding = nullptr, *expectedPe = nullptr;
    };

    void setRatios(const ScaleCompareData &data);
    void placeSide();

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    std::array<Panel, 4> m_panels;
    // The ratio against d_model beside the panels needs this much width (layout units).
    static constexpr int kLeastWidthBeside = 760;
    enum class Place { None, Beside, Below };

    QCPLayoutGrid *m_body = nullptr; // the panels, and the ratio against d_model (placeSide)
    QCPLayoutGrid *m_side = nullptr;
    Place m_place = Place::None;
    // The ratio against d_model: a line for each panel's sigma and s, the parameters' own, the
    // dot at their d, the level of equal norms.
    QCPTextElement *m_ratioHeader = nullptr;
    QCPTextElement *m_ownRatio = nullptr;
    QCPAxisRect *m_ratioRect = nullptr;
    std::vector<QCPGraph *> m_ratioLines;
    QCPGraph *m_ownLine = nullptr;
    QCPGraph *m_ownDot = nullptr;
    QCPGraph *m_equal = nullptr;
    QCPLegend *m_ratioLegend = nullptr;
    QCPLegend *m_legend = nullptr;
    bool m_compact = false;
    std::shared_ptr<const ScaleCompareData> m_data;
};

} // namespace posenc
