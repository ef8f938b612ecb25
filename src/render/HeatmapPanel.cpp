#include "HeatmapPanel.h"

#include "IndexTicker.h"
#include "PlotStyle.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

HeatmapStyle HeatmapStyle::forQuantity(Quantity quantity, const HeatmapGrid &grid)
{
    HeatmapStyle style;
    style.colorbarLabel = FigureText::quantityLabel(quantity);
    if (quantity == Quantity::Pe)
        return style;
    if (quantity == Quantity::Mask) {
        style.colormap = Colormap::Cividis;
        style.dataRange = {0.0, 1.0};
        return style;
    }
    // Symmetric so that zero stays white; a tiny floor keeps an all-zero table drawable.
    const double extent = std::max({std::abs(grid.minValue), std::abs(grid.maxValue), 1e-12});
    style.dataRange = {-extent, extent};
    return style;
}

HeatmapPanel::HeatmapPanel(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int col)
    : m_rect(new QCPAxisRect(plot))
    , m_map(nullptr)
    , m_scale(new QCPColorScale(plot))
{
    auto *cell = new QCPLayoutGrid;
    layout->addElement(row, col, cell);
    cell->addElement(0, 0, m_rect);
    cell->addElement(0, 1, m_scale);
    cell->setColumnStretchFactor(0, 1.0);
    cell->setColumnStretchFactor(1, 0.01);
    cell->setColumnSpacing(4);
    PlotStyle::styleAxisRect(m_rect);
    auto *margins = new QCPMarginGroup(plot);
    m_rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"column j"_s);
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"position p"_s);
    m_rect->axis(QCPAxis::atLeft)->setRangeReversed(true);
    IndexTicker::install(m_rect->axis(QCPAxis::atBottom));
    IndexTicker::install(m_rect->axis(QCPAxis::atLeft));
    m_map = new QCPColorMap(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_map->setAntialiased(false);
    m_map->setColorScale(m_scale);
}

void HeatmapPanel::setGrid(const HeatmapGrid &grid, const HeatmapStyle &style)
{
    QCPColorMapData *data = m_map->data();
    const Block &b = grid.block;
    const double cellW = static_cast<double>(b.cols) / grid.cols;
    const double cellH = static_cast<double>(b.rows) / grid.rows;
    // Cell centres of the first and last grid cells, in table coordinates.
    const QCPRange keys(static_cast<double>(b.col0) - 0.5 + cellW / 2,
                        static_cast<double>(b.colEnd()) - 0.5 - cellW / 2);
    const QCPRange values(static_cast<double>(b.row0) - 0.5 + cellH / 2,
                          static_cast<double>(b.rowEnd()) - 0.5 - cellH / 2);
    data->setSize(grid.cols, grid.rows);
    data->setRange(keys, values);
    for (int a = 0; a < grid.rows; ++a)
        for (int c = 0; c < grid.cols; ++c)
            data->setCell(c, a, grid.at(a, c));
    m_scale->setGradient(Colormaps::gradient(style.colormap));
    m_scale->setDataRange(style.dataRange);
    m_scale->axis()->setLabel(style.colorbarLabel);
}

void HeatmapPanel::showBlock(const Block &block)
{
    m_rect->axis(QCPAxis::atBottom)
        ->setRange(static_cast<double>(block.col0) - 0.5, static_cast<double>(block.colEnd()) - 0.5);
    m_rect->axis(QCPAxis::atLeft)
        ->setRange(static_cast<double>(block.row0) - 0.5, static_cast<double>(block.rowEnd()) - 0.5);
}

PanelExtent HeatmapPanel::extent(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}};
}

std::optional<std::pair<std::int64_t, std::int64_t>> HeatmapPanel::cellAt(const QPointF &pixel, Shape table) const
{
    if (!m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double col = m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const double row = m_rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
    const auto j = static_cast<std::int64_t>(std::floor(col + 0.5));
    const auto p = static_cast<std::int64_t>(std::floor(row + 0.5));
    if (p < 0 || p >= table.rows || j < 0 || j >= table.cols)
        return std::nullopt;
    return std::pair {p, j};
}

void HeatmapPanel::fitAxes(Shape shape)
{
    m_rect->axis(QCPAxis::atBottom)->setRange(-0.5, static_cast<double>(shape.cols) - 0.5);
    m_rect->axis(QCPAxis::atLeft)->setRange(-0.5, static_cast<double>(shape.rows) - 0.5);
}

} // namespace posenc
