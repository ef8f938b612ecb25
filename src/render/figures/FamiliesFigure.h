#pragma once

#include "render/FigurePlot.h"

#include "render/data/FamiliesModel.h"

namespace posenc {

// The families figure's drawing: a panel per family that has one (FamilySpec::panel), over one
// offset axis k = j - q, in the list's order row by row in as many columns as the figure's height
// needs (one in a large view, four on a 16:9 slide), each with its own scale: an oscillating sum (the
// sinusoid's PE·PE, RoPE's score) as a band from the least to the most of each pixel's offsets, a
// bucket as steps, a bias per head as a line per head (keys after the query shaded where a causal
// mask hides them). The chosen family's panel is tinted; zooming one panel zooms them all.
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
    // What one panel draws with.
    struct Panel
    {
        const FamilySpec *family = nullptr;
        QCPAxisRect *rect = nullptr;
        QCPGraph *lo = nullptr; // Band: the least, Steps: the steps
        QCPGraph *hi = nullptr; // Band: the most, filled down to `lo`
        QList<QCPGraph *> lines; // Lines, made as the lines drawn change
        QCPItemRect *masked = nullptr;
        QCPItemRect *outside = nullptr; // the keys a sliding window leaves behind the query
        QCPGraph *zero = nullptr; // k = 0, the query's own key
    };
    void arrange(int columns, const QList<bool> &shown);
    void labelOffsets(const QCPAxisRect *kept);
    QList<bool> shownPanels(Encoding chosen, double lines, const FigureState &state);
    void fillPanel(Panel &panel, const FamilyPanelData &data, const QCPRange &view, bool terse);
    void setLabels(bool terse, Encoding chosen);
    QString caption(const FamiliesData &data, const QCPRange &view, bool terse) const;
    // The caption's forms of one line, shortest last, for a page that has no room for its lines.
    QStringList captionForms(const FamiliesData &data) const;

    QCPTextElement *m_title;
    QCPLayoutGrid *m_stack; // the panels shown, in `m_columns` columns
    int m_columns = 0;
    QList<bool> m_shown; // per panel, whether it is in the grid
    // Empty elements in the last row's cells past the panels, so that every cell of the grid holds
    // one (a ragged grid's empty cells were laid out as nothing, and the panels lost their room).
    QList<QCPLayoutElement *> m_fillers;
    // A row's panels share their top and bottom margins: in a ragged grid a row holds panels that
    // end their column (the offset axis under them) beside one that does not, and its plot would
    // be the taller.
    QList<QCPMarginGroup *> m_rowMargins;
    QList<Panel> m_panels;
    QCPLegend *m_legend;
    QStringList m_maskNamesKeyed; // the mask entries the legend holds, one per mask
    QCPTextElement *m_caption;
    bool m_compact = false;
    // The page holds no grid of panels: FigureRoom gives up all but the chosen family's.
    bool m_othersGiveWay = false;
    // The page is short of room (FigureRoom::shortOfRoom): its steps may give up panels.
    bool m_shortOfRoom = false;
    int m_heldColumns = 1; // the columns of the panels such a page holds (FamiliesRoom::held)
    bool m_terse = false; // the texts the axis labels were set for
    std::optional<Encoding> m_chosen;
    std::shared_ptr<const FamiliesData> m_data;
};

} // namespace posenc
