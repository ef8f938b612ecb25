#include "RopeScalingsFigure.h"

#include "RopePlot.h"
#include "render/PlotItems.h"
#include "render/ShorterLabels.h"

#include "render/FigureDescriptor.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"

#include "core/rope/RopeText.h"
#include "core/rope/RopeTypes.h"
#include "render/data/FigureText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// How far past a power of ten, in decades, the wavelength axis ends at least: half a tick label of
// a 14-pt slide's plot of eight decades.
constexpr double kClearOfPower = 0.35;

// What a type does to the pairs, in a few words for its legend entry, said of the wavelengths
// λᵢ = 2π/θᵢ on the figure's axis: linear divides every θᵢ by f, so it multiplies every λᵢ by f
// (its legend said "all ÷ 40" over curves 40 times longer); yarn and llama3 keep the fast pairs and
// multiply the slow pairs' λᵢ by f; LongRoPE multiplies each by its own factor; proportional those of
// the pairs its partial_rotary_factor turns, said in words (its key read "F·head_dim/2 pairs", an F
// nothing on the page defines). Short: a 16:9 slide's legend keeps the words only while they fit.
QString scalingWords(RopeType type, double factor)
{
    const QString f = RopeText::number(factor);
    switch (type) {
    case RopeType::Default:
        return u"unscaled"_s;
    case RopeType::Linear:
        return u"λᵢ × %1"_s.arg(f);
    case RopeType::Dynamic:
        // HF's dynamic takes max_position_embeddings as its length; the figure takes L₀.
        return u"NTK, base raised past L₀"_s;
    case RopeType::Yarn:
        return u"slow λᵢ × %1"_s.arg(f);
    case RopeType::LongRope:
        return u"λᵢ × a factor each"_s;
    case RopeType::Llama3:
        return u"slow λᵢ × %1"_s.arg(f);
    case RopeType::Proportional:
        // Where every pair turns; fewer, the entry counts them (fill).
        return u"λᵢ × %1, every pair"_s.arg(f);
    }
    return QString();
}

} // namespace

std::unique_ptr<FigureDescriptor> makeRopeScalingsFigure()
{
    return std::make_unique<FigureDescriptorOf<RopeScalingsModel, RopeScalingsFigure>>();
}

RopeScalingsFigure::RopeScalingsFigure(QCustomPlot *plot)
    : m_plot(plot)
    , m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
{
    m_note = PlotStyle::smallText(plot, plot->plotLayout(), 1, 0);
    plot->plotLayout()->addElement(2, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"rotary pair i"_s);
    IndexTicker::install(m_rect->axis(QCPAxis::atBottom));
    PlotStyle::setLogAxis(m_rect->axis(QCPAxis::atLeft));
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"wavelength λᵢ = 2π/θᵢ (positions)"_s);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 3, 2);
}

QList<PanelExtent> RopeScalingsFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void RopeScalingsFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const RopeScalingsData>(data);
    const RopeScalingsData &d = *m_data;
    // The graphs are made anew: the types drawn change with the parameters.
    m_legend->clearItems();
    m_legend->setWrap(3);
    const QList<QCPGraph *> old = m_rect->graphs();
    for (QCPGraph *graph : old)
        m_plot->removeGraph(graph);
    // The axis runs over the pairs some curve draws, those that turn: proportional's rotary pairs
    // are head_dim / 2 whatever the model's own rotary dim, and GPT-NeoX's 12 (rotary_pct 0.25 of
    // 96) ran on an axis to pair 48; proportional's legend entry counts its idle pairs instead.
    std::int64_t pairs = 1;
    QList<double> values {double(d.original), double(d.extended)};
    for (const RopeScalingCurve &curve : d.curves) {
        if (!curve.pair.isEmpty())
            pairs = std::max(pairs, static_cast<std::int64_t>(curve.pair.back()) + 1);
        values += curve.wavelength;
    }
    const double x0 = -0.5, x1 = static_cast<double>(pairs) - 0.5;
    m_rect->axis(QCPAxis::atBottom)->setRange(x0, x1);
    // The range ends clear of a power of ten: a range ending on one (Phi-3's 10⁸, twice its
    // largest wavelength) drew its tick label centred on the plot's top edge, half into the title
    // above it, and on a 14-pt slide no room step but giving the title up parted them
    // (rope-scaling for LongRoPE lost its title and its legend's words).
    QCPRange range = PlotItems::logRange(values, 2.0);
    const double decades = std::log10(range.upper);
    if (decades - std::floor(decades) < kClearOfPower)
        range.upper = std::pow(10.0, std::floor(decades) + kClearOfPower);
    m_rect->axis(QCPAxis::atLeft)->setRange(range);
    QCPGraph *original = PlotItems::line(m_rect, RopePlot::kContext, 1.3, Qt::DashLine);
    PlotItems::horizontal(original, x0, x1, double(d.original));
    original->setName(u"original L₀ = %1"_s.arg(FigureText::formatCount(d.original)));
    QCPGraph *extended = PlotItems::line(m_rect, RopePlot::kContext, 1.3, Qt::DotLine);
    PlotItems::horizontal(extended, x0, x1, double(d.extended));
    extended->setName(u"stretched to %1"_s.arg(FigureText::formatCount(d.extended)));
    // Shorter forms that keep the lengths, as rope-frequencies' L₀ and L: "stretched …" said none.
    ShorterLabels::setEntry(original, {u"L₀ = %1"_s.arg(FigureText::formatCount(d.original))});
    ShorterLabels::setEntry(extended, {u"L = %1"_s.arg(FigureText::formatCount(d.extended))});
    // The default, the reference, under the others; the parameters' own type last, on top.
    QList<const RopeScalingCurve *> order;
    for (const RopeScalingCurve &curve : d.curves)
        if (curve.type == RopeType::Default)
            order.append(&curve);
    for (const RopeScalingCurve &curve : d.curves)
        if (!curve.chosen && curve.type != RopeType::Default)
            order.append(&curve);
    for (const RopeScalingCurve &curve : d.curves)
        if (curve.chosen && curve.type != RopeType::Default)
            order.append(&curve);
    QMap<int, QCPGraph *> byType;
    for (const RopeScalingCurve *curve : order) {
        const QColor color = RopePlot::typeColor(curve->type);
        // Dashed where another curve may lie beneath: the default under the fast pairs of yarn and
        // llama3, linear under proportional at F = 1.
        const bool dashed = curve->type == RopeType::Default || curve->type == RopeType::Proportional;
        QCPGraph *graph
            = PlotItems::line(m_rect, color, curve->chosen ? 3.0 : 1.8, dashed ? Qt::DashLine : Qt::SolidLine);
        graph->setData(curve->pair, curve->wavelength, true);
        PlotStyle::showLonePoint(graph);
        QString name = RopeTypes::word(curve->type);
        if (curve->chosen)
            name += u" (chosen)"_s;
        QString words = scalingWords(curve->type, d.factor);
        if (curve->type == RopeType::Proportional && d.proportionalIsLinear)
            words = u"= linear, every pair turning"_s;
        else if (curve->type == RopeType::Proportional && curve->pair.size() < curve->pairs)
            words = u"%1 of %2 pairs turn"_s.arg(curve->pair.size()).arg(curve->pairs);
        name += u": "_s + words;
        if (curve->attentionFactor != 1.0)
            name += u", attention × %1"_s.arg(NumberText::compact(curve->attentionFactor, 4));
        graph->setName(name);
        byType.insert(static_cast<int>(curve->type), graph);
    }
    // In the legend in the types' order, then the two contexts.
    for (const RopeScalingCurve &curve : d.curves)
        MeasuredText::addToLegend(byType.value(static_cast<int>(curve.type)), m_legend);
    MeasuredText::addToLegend(original, m_legend);
    MeasuredText::addToLegend(extended, m_legend);

    QStringList notes;
    if (d.factorAssumed || d.originalAssumed) {
        QStringList assumed;
        if (d.factorAssumed)
            assumed.append(u"factor %1"_s.arg(RopeText::number(d.factor)));
        if (d.originalAssumed)
            assumed.append(u"original context = max-len"_s);
        notes.append(m_compact ? u"assumed: %1"_s.arg(assumed.join(u", "_s))
                               : u"not in these parameters, so assumed: %1"_s.arg(assumed.join(u", "_s)));
    }
    if (!m_compact) {
        notes.append(u"HF's defaults where a type's own values are not given"_s);
        if (!d.left.isEmpty())
            notes.append(u"left out: %1"_s.arg(d.left.join(u", "_s)));
    }
    PlotStyle::setCollapsibleText(m_note, notes.join(u"  ·  "_s));
    m_title->setText(u"%1  ·  %2  ·  factor f = %3: L₀ = %4 stretched to %5"_s.arg(
        m_compact ? u"RoPE scalings"_s : u"Every RoPE scaling of one model"_s, d.model, RopeText::number(d.factor),
        FigureText::formatCount(d.original), FigureText::formatCount(d.extended)));
}

std::optional<HoverPoint> RopeScalingsFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const auto i = std::llround(m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
    QStringList parts;
    for (const RopeScalingCurve &curve : m_data->curves)
        if (i >= 0 && i < curve.pair.size())
            parts.append(u"%1 %2"_s.arg(RopeTypes::word(curve.type), NumberText::compact(curve.wavelength[i], 4)));
    if (parts.isEmpty())
        return std::nullopt;
    HoverPoint point;
    point.hasPosition = false;
    point.valueName = u"pair %1, wavelengths: %2"_s.arg(i).arg(parts.join(u", "_s));
    return point;
}

} // namespace posenc
