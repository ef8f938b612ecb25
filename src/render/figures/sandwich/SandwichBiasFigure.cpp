#include "render/BiasMapPair.h"
#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"

#include "core/NumberText.h"
#include "core/sandwich/SandwichBias.h"
#include "render/data/FigureText.h"
#include "render/data/sandwich/SandwichBiasModel.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The sandwich-bias figure's drawing: head K's bias as NeMo's causal table holds it and
// bidirectional, side by side over the same queries and keys on one colour scale (viridis over the
// pixels' range), the causal panel's keys after the query marked as NeMo's distance 0, which the
// attention mask hides elsewhere.
class SandwichBiasFigure final : public BiasMapFigureOf<SandwichBiasData>
{
public:
    explicit SandwichBiasFigure(QCustomPlot *plot)
        : BiasMapFigureOf(plot, false)
    { }

private:
    void draw(const SandwichBiasData &d) override;
    void describeCell(const SandwichBiasData &d, const BiasMapPair::Hit &hit, HoverPoint &point) const override;
};

void SandwichBiasFigure::draw(const SandwichBiasData &d)
{
    setGrids(d.causal, d.bidirectional, d.lowest, d.highest, d.sandwich.mask == SandwichMask::Causal);
    const bool terse = this->terse();
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
    QStringList parts {what, u"d = %1"_s.arg(FigureText::formatCount(p.headDim)),
                       u"8K/H = %1"_s.arg(NumberText::compact(SandwichBias::scale(p.heads, p.head), 4)),
                       FigureText::countText(d.maxLen, u"position"_s, u"positions"_s)};
    m_title->setText(parts.join(u"  ·  "_s));
}

void SandwichBiasFigure::describeCell(const SandwichBiasData &d, const BiasMapPair::Hit &hit,
                                      HoverPoint &point) const
{
    SandwichParams p = d.sandwich;
    p.mask = hit.panel == 0 ? SandwichMask::Causal : SandwichMask::Bidirectional;
    point.value = SandwichBias::bias(p, hit.query, hit.key);
    point.valueName = u"key j = %1, distance %2, %3 bias"_s.arg(hit.key)
                          .arg(SandwichBias::distance(hit.query, hit.key, p.mask))
                          .arg(p.mask == SandwichMask::Causal ? u"causal"_s : u"bidirectional"_s);
}

} // namespace

std::unique_ptr<FigureDescriptor> makeSandwichBiasFigure()
{
    return std::make_unique<FigureDescriptorOf<SandwichBiasModel, SandwichBiasFigure>>();
}

} // namespace posenc
