#pragma once

#include "render/FigurePlot.h"

#include "render/data/FamiliesModel.h"

namespace posenc {

// The families figure's drawing: five panels stacked over one offset axis k = j - q, each with
// its own scale: the sinusoid's PE·PE and RoPE's score as bands from the least to the most of
// each pixel's offsets, ALiBi's bias a line per head (keys after the query shaded where the
// causal mask hides them), T5's and DeBERTa's buckets as steps. The chosen family's panel is
// tinted; zooming one panel zooms them all.
class FamiliesFigure final : public FigurePlot
{
public:
    explicit FamiliesFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    enum Panel { Sinusoid, Rope, Alibi, T5, Deberta, PanelCount };
    struct Band
    {
        QCPGraph *lo = nullptr;
        QCPGraph *hi = nullptr;
    };
    static Band band(QCPAxisRect *rect, const QColor &color);
    static void setBand(const Band &band, const FamilyCurve &curve);

    QCPTextElement *m_title;
    QList<QCPAxisRect *> m_rects; // by Panel
    QCPLegend *m_legend;
    QCPTextElement *m_caption;
    Band m_sinusoid, m_rope;
    QList<QCPGraph *> m_heads;
    QCPGraph *m_t5, *m_deberta;
    QList<QCPGraph *> m_zeros; // k = 0, the query's own key, in every panel
    QCPItemRect *m_masked;
    bool m_compact = false;
    bool m_terse = false; // the texts the axis labels were set for
    Encoding m_chosen = Encoding::Sinusoidal;
    std::shared_ptr<const FamiliesData> m_data;
};

} // namespace posenc
