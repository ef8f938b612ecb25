#include "BiasMapPair.h"

#include "render/Colormaps.h"
#include "render/PlotStyle.h"
#include "render/SwatchLegend.h"

#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"

using namespace Qt::StringLiterals;

namespace posenc {

BiasMapFigure::BiasMapFigure(QCustomPlot *plot, bool withLegend)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_maps(plot, withLegend)
{ }

QColor BiasMapFigure::maskedColor()
{
    return Colormaps::maskedColor();
}

void BiasMapFigure::setGrids(const HeatmapGrid &causal, const HeatmapGrid &other, double lowest, double highest,
                             bool causalChosen)
{
    HeatmapStyle style;
    style.colormap = Colormap::Viridis;
    style.dataRange = {lowest, highest};
    m_maps.setGrids(causal, other, style, causalChosen);
    QCPColorGradient gradient = m_maps.scale->gradient();
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(maskedColor());
    m_maps.scale->setGradient(gradient);
    m_maps.scale->axis()->setLabel(m_compact ? u"bias"_s : u"bias added to the score q·k"_s);
}

bool BiasMapFigure::terse() const
{
    return m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
}

BiasMapPair::BiasMapPair(QCustomPlot *plot, bool withLegend)
    : scale(new QCPColorScale(plot))
{
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->setColumnSpacing(12);
    grid->setRowSpacing(2);
    causalTitle = PlotStyle::panelTitle(plot, false);
    otherTitle = PlotStyle::panelTitle(plot, false);
    grid->addElement(0, 0, causalTitle);
    grid->addElement(0, 1, otherTitle);
    m_causal = std::make_unique<HeatmapPanel>(plot, grid, 1, 0, scale);
    m_other = std::make_unique<HeatmapPanel>(plot, grid, 1, 1, scale);
    grid->addElement(1, 2, scale);
    grid->setColumnStretchFactors({1.0, 1.0, 0.01});
    grid->setRowStretchFactors({0.001, 1.0});
    auto *margins = new QCPMarginGroup(plot);
    for (QCPLayoutElement *e :
         std::initializer_list<QCPLayoutElement *> {m_causal->axisRect(), m_other->axisRect(), scale})
        e->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    auto *sides = new QCPMarginGroup(plot);
    for (HeatmapPanel *panel : {m_causal.get(), m_other.get()})
        panel->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, sides);
    scale->setType(QCPAxis::atRight);
    scale->setBarWidth(12);
    PlotStyle::styleAxisRect(scale->axis()->axisRect());
    for (HeatmapPanel *panel : {m_causal.get(), m_other.get()}) {
        panel->setShowSpread(false);
        panel->setMarksNamedByFigure(true);
        QCPAxisRect *rect = panel->axisRect();
        rect->axis(QCPAxis::atBottom)->setLabel(u"key j"_s);
        rect->axis(QCPAxis::atLeft)->setLabel(u"query i"_s);
        for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)})
            axis->ticker()->setTickCount(4);
    }
    m_other->axisRect()->axis(QCPAxis::atLeft)->setLabel(QString());
    // The two show the same cells: zooming one zooms the other.
    for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
        QCPAxis *lead = m_causal->axisRect()->axis(type);
        QCPAxis *other = m_other->axisRect()->axis(type);
        QObject::connect(lead, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), other,
                         qOverload<const QCPRange &>(&QCPAxis::setRange));
        QObject::connect(other, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), lead,
                         qOverload<const QCPRange &>(&QCPAxis::setRange));
    }
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    if (withLegend) {
        legend = SwatchLegend::create(plot, below, 0, 0);
        FigureRoom::setRole(legend, TextRole::Caption);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legend->setWrap(4);
    }
    caption = PlotStyle::smallText(plot, below, withLegend ? 1 : 0, 0);
}

QList<ViewAxis> BiasMapPair::viewAxes() const
{
    const QCPAxisRect *rect = m_causal->axisRect();
    return {{QString::fromUtf16(VisibleCells::kKeysAxis), rect->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(VisibleCells::kQueriesAxis), rect->axis(QCPAxis::atLeft)}};
}

void BiasMapPair::showDefaultView(const Params &params, const FigureState &state)
{
    Block block {0, params.maxLen, 0, params.maxLen};
    if (const auto range = ViewOptions::positionRange(state))
        block = {range->first, range->second - range->first, range->first, range->second - range->first};
    m_causal->showBlock(block);
}

QList<PanelExtent> BiasMapPair::panels(double pixelRatio) const
{
    return {m_causal->extent(pixelRatio), m_other->extent(pixelRatio)};
}

QList<PositionAxis> BiasMapPair::positionAxes() const
{
    return {{m_causal->axisRect(), true}, {m_other->axisRect(), true}};
}

QList<QCPAxisRect *> BiasMapPair::pictureRects() const
{
    return {m_causal->axisRect(), m_other->axisRect()};
}

void BiasMapPair::setGrids(const HeatmapGrid &causal, const HeatmapGrid &other, const HeatmapStyle &style,
                           bool causalChosen)
{
    m_causal->setGrid(causal, style);
    m_other->setGrid(other, style);
    for (auto [title, chosen] : {std::pair {causalTitle, causalChosen}, std::pair {otherTitle, !causalChosen}}) {
        QFont font = title->font();
        font.setBold(chosen);
        title->setFont(font);
    }
    // On little room the panel of the mask the parameters do not use goes first.
    const std::pair<QCPLayoutElement *, QCPLayoutElement *> panels[]
        = {{causalTitle, m_causal->axisRect()}, {otherTitle, m_other->axisRect()}};
    for (int k = 0; k < 2; ++k) {
        const int order = (k == 0) == causalChosen ? 0 : 1;
        FigureRoom::setDispensable(panels[k].first, order);
        FigureRoom::setDispensable(panels[k].second, order);
    }
}

std::optional<BiasMapPair::Hit> BiasMapPair::cellAt(const QPointF &pixel, Shape table) const
{
    for (const auto &[panel, index] : {std::pair {m_causal.get(), 0}, std::pair {m_other.get(), 1}}) {
        if (const auto cell = panel->cellAt(pixel, table))
            return Hit {index, cell->first, cell->second};
    }
    return std::nullopt;
}

} // namespace posenc
