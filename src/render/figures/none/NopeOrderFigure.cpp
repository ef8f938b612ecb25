#include "NopeOrderFigure.h"

#include "render/FigureDescriptor.h"
#include "render/MeasuredText.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"

#include "core/NumberText.h"
#include "core/none/NopeOrder.h"
#include "render/data/FigureText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kCausal(31, 119, 180);
const QColor kBidirectional(214, 39, 40);
const QColor kExpected(90, 90, 90);

// A log axis' range about [lo, hi], a little wider.
void setLogRange(QCPAxis *axis, double lo, double hi)
{
    if (!(lo > 0.0) || !(hi > 0.0))
        return;
    axis->setRange(lo / 1.5, hi * 1.5);
}

} // namespace

std::unique_ptr<FigureDescriptor> makeNopeOrderFigure()
{
    return std::make_unique<FigureDescriptorOf<NopeOrderModel, NopeOrderFigure>>();
}

NopeOrderFigure::NopeOrderFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_weights(new QCPAxisRect(plot))
    , m_norms(new QCPAxisRect(plot))
{
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->addElement(0, 0, m_weights);
    grid->addElement(1, 0, m_norms);
    grid->setRowSpacing(4);
    auto *margins = new QCPMarginGroup(plot);
    for (QCPAxisRect *rect : {m_weights, m_norms}) {
        PlotStyle::styleAxisRect(rect);
        PlotStyle::setLogAxis(rect->axis(QCPAxis::atBottom));
        PlotStyle::setLogAxis(rect->axis(QCPAxis::atLeft));
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    }
    m_weights->axis(QCPAxis::atLeft)->setLabel(u"weight of the first key"_s);
    ShorterLabels::set(m_weights->axis(QCPAxis::atLeft), {u"weight of key 0"_s, u"weight, key 0"_s, u"weight"_s});
    m_norms->axis(QCPAxis::atLeft)->setLabel(u"‖hₜ‖, the layer's output"_s);
    m_norms->axis(QCPAxis::atBottom)->setLabel(u"query position t + 1: the keys 0 … t it sees"_s);
    ShorterLabels::set(m_norms->axis(QCPAxis::atBottom), {u"query position t + 1"_s, u"position t + 1"_s});
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 3, 3);
    m_causalWeight = PlotItems::line(m_weights, kCausal, 2.0);
    m_bidirectionalWeight = PlotItems::line(m_weights, kBidirectional, 1.5, NopeOrder::kNoMaskPen);
    m_measured = PlotItems::line(m_norms, kCausal, 1.5);
    m_expected = PlotItems::line(m_norms, kExpected, 1.3, Qt::DashLine);
    m_bidirectionalNorm = PlotItems::line(m_norms, kBidirectional, 1.5, NopeOrder::kNoMaskPen);
}

void NopeOrderFigure::showDefaultView(const Params &params, const FigureState &)
{
    const double last = std::max(2.0, static_cast<double>(params.maxLen));
    for (QCPAxisRect *rect : {m_weights, m_norms})
        rect->axis(QCPAxis::atBottom)->setRange(1.0, last);
}

QList<PanelExtent> NopeOrderFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const QCPAxisRect *rect : {m_weights, m_norms}) {
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
        list.append({rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void NopeOrderFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const NopeOrderData>(data);
    const NopeOrderData &d = *m_data;
    const bool terse = m_compact || PlotStyle::textLines(*m_weights->parentPlot()) < 30;
    const double last = std::max(2.0, static_cast<double>(d.maxLen));
    for (QCPAxisRect *rect : {m_weights, m_norms})
        rect->axis(QCPAxis::atBottom)->setRange(1.0, last);
    m_legend->clearItems();

    // One key entry a line style, whichever panel draws it: the causal mask's blue draws the first
    // key's weight above and ‖hₜ‖ below, no mask's dotted red both its levels (the key showed each
    // swatch twice, as if of four quantities).
    const bool noMaskNorm = d.bidirectionalNorm.has_value();
    m_causalWeight->setData(d.prefix, d.weight, true);
    const QString causal = u"causal: 1/(t + 1), ‖hₜ‖ this seed"_s;
    m_causalWeight->setName(terse ? causal : u"causal mask: 1/(t + 1) a key, ‖hₜ‖ measured (this seed)"_s);
    PlotItems::horizontal(m_bidirectionalWeight, 1.0, last, d.bidirectionalWeight);
    const QString noMask
        = terse ? u"no mask: 1/L"_s : u"no mask: 1/L = %1 a key"_s.arg(NumberText::compact(d.bidirectionalWeight, 3));
    const QString noMaskShort = noMaskNorm ? u"no mask: 1/L, one h for all"_s : u"no mask: 1/L"_s;
    const QString noMaskHow = d.bidirectionalMeasured ? u"measured"_s : u"expected"_s;
    m_bidirectionalWeight->setName(!noMaskNorm ? noMask
                                       : terse ? noMaskShort
                                               : noMask + u", one h for all (%1)"_s.arg(noMaskHow));
    setLogRange(m_weights->axis(QCPAxis::atLeft), d.bidirectionalWeight, 1.0);

    m_measured->setData(d.measuredPrefix, d.measured, true);
    m_expected->setVisible(!d.expected.isEmpty());
    if (!d.expected.isEmpty()) {
        m_expected->setData(d.prefix, d.expected, true);
        m_expected->setName(terse ? u"s·σ·√(d/(t + 1))"_s
                                  : u"expected s·σ·√(d/(t + 1)) = %1/√(t + 1)"_s.arg(NumberText::compact(
                                      std::abs(d.scale) * d.sigma * std::sqrt(double(d.dModel)), 4)));
    }
    m_bidirectionalNorm->setVisible(noMaskNorm);
    if (noMaskNorm)
        PlotItems::horizontal(m_bidirectionalNorm, 1.0, last, *d.bidirectionalNorm);
    // Shorter forms for labels on the curves where the key gives way to them (FigureRoom's labelCurves).
    // The terse forms first, which keep what each style draws in both panels.
    ShorterLabels::setEntry(m_causalWeight, {causal, u"causal"_s});
    ShorterLabels::setEntry(m_bidirectionalWeight, {noMaskShort, u"no mask"_s});
    ShorterLabels::setEntry(m_expected, {u"s·σ·√(d/(t + 1))"_s, u"expected"_s});
    for (QCPGraph *graph : {m_causalWeight, m_bidirectionalWeight, m_expected}) {
        if (graph->visible())
            MeasuredText::addToLegend(graph, m_legend);
    }
    double lo = d.bidirectionalNorm.value_or(INFINITY), hi = 0.0;
    for (const QList<double> *values : {&d.measured, &d.expected})
        for (const double v : *values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    setLogRange(m_norms->axis(QCPAxis::atLeft), lo, std::max(hi, lo));

    QStringList caption;
    if (!m_compact)
        caption.append(
            u"uniform attention, every score q·k alike: query t averages keys 0 … t, so hₜ = (x₀ + … + xₜ)/(t + 1) "
            "and x = s·E carries no position"_s);
    const auto measured = static_cast<std::int64_t>(d.norms ? d.norms->size() : 0);
    if (measured < d.maxLen)
        caption.append(u"‖hₜ‖ measured over the first %1 of %2 positions"_s.arg(FigureText::formatCount(measured),
                                                                                FigureText::formatCount(d.maxLen)));
    if (d.loaded)
        caption.append(u"loaded embedding rows: no expected norm (their mean need not be zero)"_s);
    PlotStyle::setCollapsibleText(m_caption, caption.join(u'\n'));
    const QString what = terse
        ? u"NoPE: order from the causal mask"_s
        : u"How does a layer without positions know order? Uniform attention over the causal prefix"_s;
    m_title->setText(u"%1  ·  d = %2, s = %3, σ = %4, L = %5"_s.arg(
        what, FigureText::formatCount(d.dModel), NumberText::compact(d.scale, 4), NumberText::compact(d.sigma, 4),
        FigureText::formatCount(d.maxLen)));
}

std::optional<HoverPoint> NopeOrderFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data)
        return std::nullopt;
    const NopeOrderData &d = *m_data;
    for (QCPAxisRect *rect : {m_weights, m_norms}) {
        if (!rect->rect().contains(pixel.toPoint()))
            continue;
        const auto t = std::llround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())) - 1;
        if (t < 0 || t >= d.maxLen)
            return std::nullopt;
        HoverPoint point;
        point.position = t;
        QStringList parts {u"first key's weight 1/(t + 1) = %1 (no mask: %2)"_s.arg(
            NumberText::compact(NopeOrder::causalWeight(t), 5), NumberText::compact(d.bidirectionalWeight, 5))};
        if (d.norms && t < static_cast<std::int64_t>(d.norms->size()))
            parts.append(u"‖hₜ‖ = %1"_s.arg(NumberText::compact((*d.norms)[static_cast<std::size_t>(t)], 5)));
        if (!d.loaded)
            parts.append(u"expected %1"_s.arg(
                NumberText::compact(std::abs(d.scale) * d.sigma * std::sqrt(double(d.dModel) / double(t + 1)), 5)));
        point.valueName = parts.join(u"; "_s);
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
