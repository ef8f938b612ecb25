#pragma once

#include "render/FigurePlot.h"

#include "render/data/positions/PositionEffectModel.h"

#include <array>
#include <memory>

namespace posenc {

// The position-effect figure's drawing: three panels over the row's columns, one column axis
// (zooming one zooms all): the score under the reference's ids (black) and the chosen ones
// (orange); their difference, exact (blue) and with float32 angles (purple); and the absolute
// parts: ‖PE[chosen] − PE[reference]‖ (orange), Llama 4's temperature at the chosen ids (green), at the
// column (dashed) and at the reference's ids (dotted black), its chunk on the right axis. Each drawn as a band a pixel, the least to the most
// of its real tokens; the row's padding shaded grey.
class PositionEffectFigure final : public FigurePlot
{
public:
    explicit PositionEffectFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    struct Series
    {
        QCPGraph *lo = nullptr, *hi = nullptr;
        QColor fill; // between them
    };
    Series series(QCPAxisRect *rect, const QColor &colour, Qt::PenStyle style, bool rightAxis = false);
    void show(Series &s, const PositionEffectData::Band &band, bool visible);
    // The third panel in the stack while something reads the absolute position, out of it else.
    void showAbsolutePanel(bool shown);
    void nameSeries(bool terse, bool chosenIsColumn, const QString &choice);
    // The columns' ticks and name on the lowest panel shown alone.
    void labelColumns();

    QCPTextElement *m_title;
    QCPLayoutGrid *m_stack;
    bool m_absoluteShown = true;
    std::array<QCPAxisRect *, 3> m_rects {};
    std::array<QCPTextElement *, 3> m_panelTitles {};
    Series m_reference, m_chosen, m_difference, m_float32, m_term, m_temperatureIds, m_temperatureCache, m_chunkIds,
        m_chunkCache, m_temperatureReference;
    QList<QCPItemRect *> m_shades;
    std::array<QCPLegend *, 3> m_keys {}; // each panel's, under it
    std::array<QCPLayoutElement *, 3> m_keyRows {}; // the rows holding them
    QCPTextElement *m_caption;
    bool m_compact = false;
    std::shared_ptr<const PositionEffectData> m_data;
};

} // namespace posenc
