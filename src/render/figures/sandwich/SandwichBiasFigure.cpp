#include "SandwichBiasFigure.h"

#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"

#include "core/NumberText.h"
#include "core/sandwich/SandwichBias.h"
#include "render/data/FigureText.h"
#include "render/data/ViewOptions.h"

using namespace Qt::StringLiterals;

namespace posenc {

std::unique_ptr<FigureDescriptor> makeSandwichBiasFigure()
{
    return std::make_unique<FigureDescriptorOf<SandwichBiasModel, SandwichBiasFigure>>();
}

SandwichBiasFigure::SandwichBiasFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_scale(new QCPColorScale(plot))
{
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->setColumnSpacing(12);
    grid->setRowSpacing(2);
    m_causalTitle = PlotStyle::panelTitle(plot, false);
    m_bidirectionalTitle = PlotStyle::panelTitle(plot, false);
    grid->addElement(0, 0, m_causalTitle);
    grid->addElement(0, 1, m_bidirectionalTitle);
    m_causal = std::make_unique<HeatmapPanel>(plot, grid, 1, 0, m_scale);
    m_bidirectional = std::make_unique<HeatmapPanel>(plot, grid, 1, 1, m_scale);
    grid->addElement(1, 2, m_scale);
    grid->setColumnStretchFactors({1.0, 1.0, 0.01});
    grid->setRowStretchFactors({0.001, 1.0});
    auto *margins = new QCPMarginGroup(plot);
    for (QCPLayoutElement *e :
         std::initializer_list<QCPLayoutElement *> {m_causal->axisRect(), m_bidirectional->axisRect(), m_scale})
        e->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    auto *sides = new QCPMarginGroup(plot);
    for (HeatmapPanel *panel : {m_causal.get(), m_bidirectional.get()})
        panel->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, sides);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());
    for (HeatmapPanel *panel : {m_causal.get(), m_bidirectional.get()}) {
        panel->setShowSpread(false);
        panel->setMarksNamedByFigure(true);
        QCPAxisRect *rect = panel->axisRect();
        rect->axis(QCPAxis::atBottom)->setLabel(u"key j"_s);
        rect->axis(QCPAxis::atLeft)->setLabel(u"query i"_s);
        for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)})
            axis->ticker()->setTickCount(4);
    }
    m_bidirectional->axisRect()->axis(QCPAxis::atLeft)->setLabel(QString());
    // The two show the same cells: zooming one zooms the other.
    for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
        QCPAxis *lead = m_causal->axisRect()->axis(type);
        QCPAxis *other = m_bidirectional->axisRect()->axis(type);
        QObject::connect(lead, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), other,
                         qOverload<const QCPRange &>(&QCPAxis::setRange));
        QObject::connect(other, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), lead,
                         qOverload<const QCPRange &>(&QCPAxis::setRange));
    }
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
}

QList<ViewAxis> SandwichBiasFigure::viewAxes() const
{
    const QCPAxisRect *rect = m_causal->axisRect();
    return {{QString::fromUtf16(SandwichBiasModel::kKeysAxis), rect->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(SandwichBiasModel::kQueriesAxis), rect->axis(QCPAxis::atLeft)}};
}

void SandwichBiasFigure::showDefaultView(const Params &params, const FigureState &state)
{
    Block block {0, params.maxLen, 0, params.maxLen};
    if (const auto range = ViewOptions::positionRange(state))
        block = {range->first, range->second - range->first, range->first, range->second - range->first};
    m_causal->showBlock(block);
}

QList<PanelExtent> SandwichBiasFigure::panels(double pixelRatio) const
{
    return {m_causal->extent(pixelRatio), m_bidirectional->extent(pixelRatio)};
}

void SandwichBiasFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const SandwichBiasData>(data);
    const SandwichBiasData &d = *m_data;
    HeatmapStyle style;
    style.colormap = Colormap::Viridis;
    style.dataRange = {d.lowest, d.highest};
    m_causal->setGrid(d.causal, style);
    m_bidirectional->setGrid(d.bidirectional, style);
    // On a slide or a small view the panels keep their room: short texts.
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    m_scale->axis()->setLabel(m_compact ? u"bias"_s : u"bias added to the score q·k"_s);
    const QString after = NumberText::compact(d.afterQuery, 4);
    m_causalTitle->setText(m_compact   ? u"causal"_s
                               : terse ? u"causal: j > i at distance 0"_s
                                       : u"causal (tril): j > i at distance 0, bias %1"_s.arg(after));
    m_bidirectionalTitle->setText(m_compact ? u"bidirectional"_s : u"bidirectional: distance |i − j|"_s);
    // The panel the parameters' mask uses, in bold.
    for (auto [title, mask] : {std::pair {m_causalTitle, SandwichMask::Causal},
                               std::pair {m_bidirectionalTitle, SandwichMask::Bidirectional}}) {
        QFont font = title->font();
        font.setBold(mask == d.sandwich.mask);
        title->setFont(font);
    }
    QStringList caption;
    if (!m_compact)
        caption.append(terse ? u"above the diagonal NeMo's causal table holds %1, not −inf: the attention mask "
                               "hides those keys"_s.arg(after)
                             : u"above the diagonal NeMo's causal table holds the bias of distance 0, %1, not −inf: "
                               "the decoder's attention mask hides those keys elsewhere"_s.arg(after));
    if (!d.causal.isCellByCell() || !d.bidirectional.isCellByCell()) {
        const QString cells = FigureText::averagedCellsText(d.causal.block, d.causal.rows, d.causal.cols);
        caption.append(terse
                           ? u"a pixel: the exact mean of its %1 cells"_s.arg(cells)
                           : u"each pixel: the exact mean of the bias over its %1 cells (queries × keys)"_s.arg(cells));
    }
    PlotStyle::setCollapsibleText(m_caption, caption.join(u'\n'));
    const SandwichParams &p = d.sandwich;
    const QString what = m_compact ? u"Sandwich bias, head %1"_s.arg(p.head)
                                   : u"Sandwich bias of head K = %1 of %2"_s.arg(p.head).arg(p.heads);
    QStringList parts {what, u"d = %1"_s.arg(p.headDim),
                       u"8K/H = %1"_s.arg(NumberText::compact(SandwichBias::scale(p.heads, p.head), 4)),
                       FigureText::countText(d.maxLen, u"position"_s, u"positions"_s)};
    m_title->setText(parts.join(u"  ·  "_s));
}

QList<PositionAxis> SandwichBiasFigure::positionAxes() const
{
    return {{m_causal->axisRect(), true}, {m_bidirectional->axisRect(), true}};
}

std::optional<HoverPoint> SandwichBiasFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const Shape table {engine.params().maxLen, engine.params().maxLen};
    for (const auto &[panel, mask] : {std::pair {m_causal.get(), SandwichMask::Causal},
                                      std::pair {m_bidirectional.get(), SandwichMask::Bidirectional}}) {
        const auto cell = panel->cellAt(pixel, table);
        if (!cell)
            continue;
        SandwichParams p = m_data->sandwich;
        p.mask = mask;
        HoverPoint point;
        point.position = cell->first;
        point.value = SandwichBias::bias(p, cell->first, cell->second);
        point.valueName = u"key j = %1, distance %2, %3 bias"_s.arg(cell->second)
                              .arg(SandwichBias::distance(cell->first, cell->second, mask))
                              .arg(mask == SandwichMask::Causal ? u"causal"_s : u"bidirectional"_s);
        return point;
    }
    return std::nullopt;
}

QList<QCPAxisRect *> SandwichBiasFigure::pictureRects() const
{
    return {m_causal->axisRect(), m_bidirectional->axisRect()};
}

} // namespace posenc
