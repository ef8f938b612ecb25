#include "AlibiBiasFigure.h"

#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"
#include "render/SwatchLegend.h"

#include "core/alibi/AlibiSlopes.h"
#include "render/data/FigureText.h"
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
    : BiasMapFigure(plot, true)
{ }

void AlibiBiasFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const AlibiBiasData>(data);
    const AlibiBiasData &d = *m_data;
    HeatmapStyle style;
    style.colormap = Colormap::Viridis;
    style.dataRange = {d.lowest, 0.0};
    // The panel the parameters' mask uses, in bold.
    m_maps.setGrids(d.causal, d.symmetric, style, d.mask == AlibiMask::Causal);
    // The masked cells, NaN in the grid, in a grey the map never gives.
    QCPColorGradient gradient = m_maps.scale->gradient();
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(maskedColor());
    m_maps.scale->setGradient(gradient);
    // On a slide or a small view the panels keep their room: short texts.
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    m_maps.scale->axis()->setLabel(m_compact ? u"bias"_s : u"bias added to the score q·k"_s);

    const QString m = AlibiText::slopeText(d.slope);
    m_maps.causalTitle->setText(m_compact   ? u"causal"_s
                                    : terse ? u"causal: −m·(i − j), −inf for j > i"_s
                                            : u"causal: −m·(i − j) for j ≤ i, −inf after"_s);
    m_maps.otherTitle->setText(m_compact ? u"symmetric"_s : u"symmetric: −m·|i − j|"_s);
    SwatchLegend::set(
        m_maps.legend,
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
    PlotStyle::setCollapsibleText(m_maps.caption, caption);
    const QString what = m_compact ? u"ALiBi bias, head %1"_s.arg(d.head)
                                   : u"ALiBi bias of head K = %1 of %2"_s.arg(d.head).arg(d.heads);
    QStringList parts {what, u"m = %1"_s.arg(m), FigureText::countText(d.maxLen, u"position"_s, u"positions"_s)};
    if (!terse)
        parts.append(u"below the diagonal the two are equal"_s);
    m_title->setText(parts.join(u"  ·  "_s));
}

std::optional<HoverPoint> AlibiBiasFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const auto hit = m_maps.cellAt(pixel, {engine.params().maxLen, engine.params().maxLen});
    if (!hit)
        return std::nullopt;
    const AlibiMask mask = hit->panel == 0 ? AlibiMask::Causal : AlibiMask::Symmetric;
    HoverPoint point;
    point.position = hit->query;
    const double bias = AlibiSlopes::bias(m_data->slope, hit->query, hit->key, mask);
    if (std::isfinite(bias))
        point.value = bias;
    point.valueName = u"key j = %1, distance i − j = %2, %3 bias%4"_s.arg(hit->key)
                          .arg(hit->query - hit->key)
                          .arg(mask == AlibiMask::Causal ? u"causal"_s : u"symmetric"_s)
                          .arg(std::isfinite(bias) ? QString() : u" −inf (masked)"_s);
    return point;
}

} // namespace posenc
