#include "AlibiBiasFigure.h"

#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"
#include "render/SwatchLegend.h"

#include "core/alibi/AlibiSlopes.h"
#include "render/data/FigureText.h"
#include "render/data/ViewOptions.h"
#include "render/data/alibi/AlibiText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

std::unique_ptr<FigureDescriptor> makeAlibiBiasFigure()
{
    return std::make_unique<FigureDescriptorOf<AlibiBiasModel, AlibiBiasFigure>>();
}

QColor AlibiBiasFigure::maskedColor()
{
    return QColor(150, 150, 150);
}

AlibiBiasFigure::AlibiBiasFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_scale(new QCPColorScale(plot))
{
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->setColumnSpacing(12);
    grid->setRowSpacing(2);
    m_causalTitle = PlotStyle::panelTitle(plot, false);
    m_symmetricTitle = PlotStyle::panelTitle(plot, false);
    grid->addElement(0, 0, m_causalTitle);
    grid->addElement(0, 1, m_symmetricTitle);
    m_causal = std::make_unique<HeatmapPanel>(plot, grid, 1, 0, m_scale);
    m_symmetric = std::make_unique<HeatmapPanel>(plot, grid, 1, 1, m_scale);
    grid->addElement(1, 2, m_scale);
    grid->setColumnStretchFactors({1.0, 1.0, 0.01});
    grid->setRowStretchFactors({0.001, 1.0});
    auto *margins = new QCPMarginGroup(plot);
    for (QCPLayoutElement *e :
         std::initializer_list<QCPLayoutElement *> {m_causal->axisRect(), m_symmetric->axisRect(), m_scale})
        e->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    auto *sides = new QCPMarginGroup(plot);
    for (HeatmapPanel *panel : {m_causal.get(), m_symmetric.get()})
        panel->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, sides);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());
    for (HeatmapPanel *panel : {m_causal.get(), m_symmetric.get()}) {
        panel->setShowSpread(false);
        panel->setMarksNamedByFigure(true);
        QCPAxisRect *rect = panel->axisRect();
        rect->axis(QCPAxis::atBottom)->setLabel(u"key j"_s);
        rect->axis(QCPAxis::atLeft)->setLabel(u"query i"_s);
        for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)})
            axis->ticker()->setTickCount(4);
    }
    m_symmetric->axisRect()->axis(QCPAxis::atLeft)->setLabel(QString());
    // The two show the same cells: zooming one zooms the other.
    for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
        QCPAxis *lead = m_causal->axisRect()->axis(type);
        QCPAxis *other = m_symmetric->axisRect()->axis(type);
        QObject::connect(lead, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), other,
                         qOverload<const QCPRange &>(&QCPAxis::setRange));
        QObject::connect(other, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), lead,
                         qOverload<const QCPRange &>(&QCPAxis::setRange));
    }
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_legend = SwatchLegend::create(plot, below, 0, 0);
    m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_legend->setWrap(4);
    m_caption = PlotStyle::smallText(plot, below, 1, 0);
}

QList<ViewAxis> AlibiBiasFigure::viewAxes() const
{
    const QCPAxisRect *rect = m_causal->axisRect();
    return {{QString::fromUtf16(AlibiBiasModel::kKeysAxis), rect->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(AlibiBiasModel::kQueriesAxis), rect->axis(QCPAxis::atLeft)}};
}

void AlibiBiasFigure::showDefaultView(const Params &params, const FigureState &state)
{
    Block block {0, params.maxLen, 0, params.maxLen};
    if (const auto range = ViewOptions::positionRange(state))
        block = {range->first, range->second - range->first, range->first, range->second - range->first};
    m_causal->showBlock(block);
}

QList<PanelExtent> AlibiBiasFigure::panels(double pixelRatio) const
{
    return {m_causal->extent(pixelRatio), m_symmetric->extent(pixelRatio)};
}

void AlibiBiasFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const AlibiBiasData>(data);
    const AlibiBiasData &d = *m_data;
    HeatmapStyle style;
    style.colormap = Colormap::Viridis;
    style.dataRange = {d.lowest, 0.0};
    m_causal->setGrid(d.causal, style);
    m_symmetric->setGrid(d.symmetric, style);
    // The masked cells, NaN in the grid, in a grey the map never gives.
    QCPColorGradient gradient = m_scale->gradient();
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(maskedColor());
    m_scale->setGradient(gradient);
    // On a slide or a small view the panels keep their room: short texts.
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    m_scale->axis()->setLabel(m_compact ? u"bias"_s : u"bias added to the score q·k"_s);

    const QString m = AlibiText::slopeText(d.slope);
    m_causalTitle->setText(m_compact   ? u"causal"_s
                               : terse ? u"causal: −m·(i − j), −inf for j > i"_s
                                       : u"causal: −m·(i − j) for j ≤ i, −inf after"_s);
    m_symmetricTitle->setText(m_compact ? u"symmetric"_s : u"symmetric: −m·|i − j|"_s);
    // The panel the parameters' mask uses, in bold.
    for (auto [title, mask] :
         {std::pair {m_causalTitle, AlibiMask::Causal}, std::pair {m_symmetricTitle, AlibiMask::Symmetric}}) {
        QFont font = title->font();
        font.setBold(mask == d.mask);
        title->setFont(font);
    }
    SwatchLegend::set(
        m_legend,
        {{maskedColor(), m_compact ? u"masked (−inf)"_s : u"masked: −inf, the key after the query (weight 0)"_s}});
    // What a pixel shows where it holds many cells.
    const bool averaged = !d.causal.isCellByCell() || !d.symmetric.isCellByCell();
    QString caption;
    if (averaged) {
        const QString cells = FigureText::averagedCellsText(d.causal.block, d.causal.rows, d.causal.cols);
        caption = terse
            ? u"a pixel: the exact mean of its %1 cells, on the causal diagonal of the unmasked ones"_s.arg(cells)
            : u"each pixel: the exact mean of the bias over its %1 cells (queries × keys); "
              "on the causal diagonal, of its unmasked cells"_s.arg(cells);
    }
    PlotStyle::setCollapsibleText(m_caption, caption);
    const QString what = m_compact ? u"ALiBi bias, head %1"_s.arg(d.head)
                                   : u"ALiBi bias of head K = %1 of %2"_s.arg(d.head).arg(d.heads);
    QStringList parts {what, u"m = %1"_s.arg(m), FigureText::countText(d.maxLen, u"position"_s, u"positions"_s)};
    if (!terse)
        parts.append(u"below the diagonal the two are equal"_s);
    m_title->setText(parts.join(u"  ·  "_s));
}

QList<PositionAxis> AlibiBiasFigure::positionAxes() const
{
    return {{m_causal->axisRect(), true}, {m_symmetric->axisRect(), true}};
}

std::optional<HoverPoint> AlibiBiasFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const Shape table {engine.params().maxLen, engine.params().maxLen};
    for (const auto &[panel, mask] :
         {std::pair {m_causal.get(), AlibiMask::Causal}, std::pair {m_symmetric.get(), AlibiMask::Symmetric}}) {
        const auto cell = panel->cellAt(pixel, table);
        if (!cell)
            continue;
        HoverPoint point;
        point.position = cell->first;
        const double bias = AlibiSlopes::bias(m_data->slope, cell->first, cell->second, mask);
        if (std::isfinite(bias))
            point.value = bias;
        point.valueName = u"key j = %1, distance i − j = %2, %3 bias%4"_s.arg(cell->second)
                              .arg(cell->first - cell->second)
                              .arg(mask == AlibiMask::Causal ? u"causal"_s : u"symmetric"_s)
                              .arg(std::isfinite(bias) ? QString() : u" −inf (masked)"_s);
        return point;
    }
    return std::nullopt;
}

QList<QCPAxisRect *> AlibiBiasFigure::pictureRects() const
{
    return {m_causal->axisRect(), m_symmetric->axisRect()};
}

} // namespace posenc
