#include "SandwichBiasFigure.h"

#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"

#include "core/NumberText.h"
#include "core/sandwich/SandwichBias.h"
#include "render/data/FigureText.h"

using namespace Qt::StringLiterals;

namespace posenc {

std::unique_ptr<FigureDescriptor> makeSandwichBiasFigure()
{
    return std::make_unique<FigureDescriptorOf<SandwichBiasModel, SandwichBiasFigure>>();
}

SandwichBiasFigure::SandwichBiasFigure(QCustomPlot *plot)
    : BiasMapFigure(plot, false)
{ }

void SandwichBiasFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const SandwichBiasData>(data);
    const SandwichBiasData &d = *m_data;
    HeatmapStyle style;
    style.colormap = Colormap::Viridis;
    style.dataRange = {d.lowest, d.highest};
    // The panel the parameters' mask uses, in bold.
    m_maps.setGrids(d.causal, d.bidirectional, style, d.sandwich.mask == SandwichMask::Causal);
    // On a slide or a small view the panels keep their room: short texts.
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    m_maps.scale->axis()->setLabel(m_compact ? u"bias"_s : u"bias added to the score q·k"_s);
    const QString after = NumberText::compact(d.afterQuery, 4);
    m_maps.causalTitle->setText(m_compact   ? u"causal"_s
                                    : terse ? u"causal: j > i at distance 0"_s
                                            : u"causal (tril): j > i at distance 0, bias %1"_s.arg(after));
    m_maps.otherTitle->setText(m_compact ? u"bidirectional"_s : u"bidirectional: distance |i − j|"_s);
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
    PlotStyle::setCollapsibleText(m_maps.caption, caption.join(u'\n'));
    const SandwichParams &p = d.sandwich;
    const QString what = m_compact ? u"Sandwich bias, head %1"_s.arg(p.head)
                                   : u"Sandwich bias of head K = %1 of %2"_s.arg(p.head).arg(p.heads);
    QStringList parts {what, u"d = %1"_s.arg(p.headDim),
                       u"8K/H = %1"_s.arg(NumberText::compact(SandwichBias::scale(p.heads, p.head), 4)),
                       FigureText::countText(d.maxLen, u"position"_s, u"positions"_s)};
    m_title->setText(parts.join(u"  ·  "_s));
}

std::optional<HoverPoint> SandwichBiasFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const auto hit = m_maps.cellAt(pixel, {engine.params().maxLen, engine.params().maxLen});
    if (!hit)
        return std::nullopt;
    SandwichParams p = m_data->sandwich;
    p.mask = hit->panel == 0 ? SandwichMask::Causal : SandwichMask::Bidirectional;
    HoverPoint point;
    point.position = hit->query;
    point.value = SandwichBias::bias(p, hit->query, hit->key);
    point.valueName = u"key j = %1, distance %2, %3 bias"_s.arg(hit->key)
                          .arg(SandwichBias::distance(hit->query, hit->key, p.mask))
                          .arg(p.mask == SandwichMask::Causal ? u"causal"_s : u"bidirectional"_s);
    return point;
}

} // namespace posenc
