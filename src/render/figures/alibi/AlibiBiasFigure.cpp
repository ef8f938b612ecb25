#include "render/BiasMapPair.h"
#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"
#include "render/SwatchLegend.h"

#include "core/alibi/AlibiSlopes.h"
#include "render/data/FigureText.h"
#include "render/data/alibi/AlibiBiasModel.h"
#include "render/data/alibi/AlibiText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The alibi-bias figure's drawing: head K's bias under the causal mask and symmetric, side by
// side over the same queries and keys on one colour scale (viridis from -m times the farthest
// distance in view up to 0), the masked cells in the kit's grey, named in the legend.
class AlibiBiasFigure final : public BiasMapFigureOf<AlibiBiasData>
{
public:
    explicit AlibiBiasFigure(QCustomPlot *plot)
        : BiasMapFigureOf(plot, true)
    { }

private:
    void draw(const AlibiBiasData &d) override;
    void describeCell(const AlibiBiasData &d, const BiasMapPair::Hit &hit, HoverPoint &point) const override;
};

void AlibiBiasFigure::draw(const AlibiBiasData &d)
{
    // The masked cells are NaN in the grid.
    setGrids(d.causal, d.symmetric, d.lowest, 0.0, d.mask == AlibiMask::Causal);
    const bool terse = this->terse();

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

void AlibiBiasFigure::describeCell(const AlibiBiasData &d, const BiasMapPair::Hit &hit, HoverPoint &point) const
{
    const AlibiMask mask = hit.panel == 0 ? AlibiMask::Causal : AlibiMask::Symmetric;
    const double bias = AlibiSlopes::bias(d.slope, hit.query, hit.key, mask);
    if (std::isfinite(bias))
        point.value = bias;
    point.valueName = u"key j = %1, distance i − j = %2, %3 bias%4"_s.arg(hit.key)
                          .arg(hit.query - hit.key)
                          .arg(mask == AlibiMask::Causal ? u"causal"_s : u"symmetric"_s)
                          .arg(std::isfinite(bias) ? QString() : u" −inf (masked)"_s);
}

} // namespace

std::unique_ptr<FigureDescriptor> makeAlibiBiasFigure()
{
    return std::make_unique<FigureDescriptorOf<AlibiBiasModel, AlibiBiasFigure>>();
}

} // namespace posenc
