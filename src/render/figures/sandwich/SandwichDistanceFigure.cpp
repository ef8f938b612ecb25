#include "SandwichDistanceFigure.h"

#include "render/Colormaps.h"
#include "render/FigureDescriptor.h"
#include "render/MeasuredText.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"

#include "core/NumberText.h"
#include "core/sandwich/SandwichBias.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Head h's colour: head 1 dark, head H light, along viridis up to 0.85.
QColor headColor(std::int64_t head, std::int64_t heads)
{
    const double t = heads > 1 ? 0.85 * static_cast<double>(head - 1) / static_cast<double>(heads - 1) : 0.0;
    return Colormaps::colorAt(Colormap::Viridis, t);
}

// A curve's points: each pixel's least, then its most where they differ, so that a pixel that
// holds many distances draws their whole range.
void setCurve(QCPGraph *graph, const FamilyCurve &curve)
{
    QList<double> x, y;
    for (qsizetype i = 0; i < curve.offset.size(); ++i) {
        x.append(curve.offset[i]);
        y.append(curve.lo[i]);
        if (curve.hi[i] != curve.lo[i]) {
            x.append(curve.offset[i]);
            y.append(curve.hi[i]);
        }
    }
    graph->setData(x, y, true);
}

} // namespace

std::unique_ptr<FigureDescriptor> makeSandwichDistanceFigure()
{
    return std::make_unique<FigureDescriptorOf<SandwichDistanceModel, SandwichDistanceFigure>>();
}

SandwichDistanceFigure::SandwichDistanceFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
{
    plot->plotLayout()->addElement(1, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"distance r = |i − j|"_s);
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"bias added to the score q·k"_s);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 3, 4);
    m_farMean = PlotItems::line(m_rect, QColor(90, 90, 90), 1.3, Qt::DashLine);
}

QList<ViewAxis> SandwichDistanceFigure::viewAxes() const
{
    return {{QString::fromUtf16(SandwichDistanceModel::kDistancesAxis), m_rect->axis(QCPAxis::atBottom)}};
}

void SandwichDistanceFigure::showDefaultView(const Params &params, const FigureState &)
{
    m_rect->axis(QCPAxis::atBottom)->setRange(-0.5, static_cast<double>(params.maxLen) - 0.5);
}

QList<PanelExtent> SandwichDistanceFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void SandwichDistanceFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const SandwichDistanceData>(data);
    const SandwichDistanceData &d = *m_data;
    const SandwichParams &p = d.sandwich;
    while (m_lines.size() < d.curves.size())
        m_lines.append(PlotItems::line(m_rect, Qt::black, 1.3));
    m_legend->clearItems();
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    double lo = d.farMean, hi = 0.0;
    for (qsizetype n = 0; n < m_lines.size(); ++n) {
        QCPGraph *graph = m_lines[n];
        graph->setVisible(n < d.curves.size());
        if (n >= d.curves.size())
            continue;
        const std::int64_t head = d.heads[n];
        const bool chosen = head == p.head;
        graph->setPen(QPen(headColor(head, p.heads), chosen ? 2.8 : 1.3));
        setCurve(graph, d.curves[n]);
        for (const QList<double> *values : {&d.curves[n].lo, &d.curves[n].hi})
            for (const double v : *values) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        // Head 1, head H and head K are named: the colours run between the first two.
        if (head == 1 || head == p.heads || chosen) {
            const QString scale = NumberText::compact(1.0 / SandwichBias::scale(p.heads, head), 3);
            graph->setName(terse ? u"head %1 (× %2)"_s.arg(head).arg(scale)
                                 : u"head %1: the sum − d/2, × H/(8·%1) = %2"_s.arg(head).arg(scale));
            MeasuredText::addToLegend(graph, m_legend);
        }
    }
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    PlotItems::horizontal(m_farMean, x.lower, x.upper, d.farMean);
    m_farMean->setName(
        terse ? u"head %1's far mean"_s.arg(p.head)
              : u"head %1's far mean −d/2 ÷ 8K/H = %2"_s.arg(p.head).arg(NumberText::compact(d.farMean, 4)));
    MeasuredText::addToLegend(m_farMean, m_legend);
    const double pad = 0.05 * std::max(hi - lo, 1e-9);
    m_rect->axis(QCPAxis::atLeft)->setRange(lo - pad, hi + pad);

    QStringList caption;
    if (!m_compact)
        caption.append(u"every head: (Σₖ cos(r/10000^(2k/d)) − d/2) / (8h/H), k = 1 … ⌈d/2⌉ = %1 — the sinusoid's "
                       "PE·PE shifted by −d/2 and scaled like ALiBi's slopes"_s.arg(SandwichBias::terms(p.headDim)));
    if (d.preview)
        caption.append(u"preview: %1 distances a pixel"_s.arg(d.sampled));
    else if (d.sampled > 0)
        caption.append(u"%1 distances sampled a pixel, each line their least to their most"_s.arg(d.sampled));
    if (p.heads > SandwichBias::kMaxDrawnHeads)
        caption.append(u"%1 of %2 heads drawn"_s.arg(d.heads.size()).arg(p.heads));
    PlotStyle::setCollapsibleText(m_caption, caption.join(u'\n'));
    setScreenNote({}, d.preview ? u"preview: %1 distances a pixel"_s.arg(d.sampled) : QString());
    const QString what = terse ? u"Sandwich bias by distance"_s : u"Sandwich: each head's bias against the distance"_s;
    m_title->setText(u"%1  ·  H = %2, d = %3  ·  head K = %4"_s.arg(what).arg(p.heads).arg(p.headDim).arg(p.head));
}

std::optional<HoverPoint> SandwichDistanceFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const auto r = static_cast<std::int64_t>(std::llround(m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
    if (r < 0 || r >= m_data->maxLen)
        return std::nullopt;
    const SandwichParams &p = m_data->sandwich;
    HoverPoint point;
    point.hasPosition = false;
    point.value = SandwichBias::atDistance(SandwichBias::frequencies(p.headDim), p.headDim,
                                           SandwichBias::scale(p.heads, p.head), r);
    point.valueName = u"distance %1: head %2's bias"_s.arg(r).arg(p.head);
    return point;
}

} // namespace posenc
