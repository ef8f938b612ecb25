#include "RopeScoreFigure.h"

#include "render/PlotItems.h"
#include "render/ShorterLabels.h"

#include "render/FigureDescriptor.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"

#include "render/data/FigureText.h"

#include "core/NumberText.h"
#include "core/positions/BatchLayout.h"
#include "core/rope/RopeScore.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kAligned(0, 114, 178);
const QColor kRandom(0, 158, 115);
const QColor kBound(213, 94, 0);

QCPRange paddedRange(std::initializer_list<const QList<double> *> lists, double least, double most)
{
    double lo = least, hi = most;
    for (const QList<double> *values : lists)
        for (const double v : *values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    const double pad = 0.06 * std::max(hi - lo, 1e-9);
    return {lo - pad, hi + pad};
}

} // namespace

std::unique_ptr<FigureDescriptor> makeRopeScoreFigure()
{
    return std::make_unique<FigureDescriptorOf<RopeScoreModel, RopeScoreFigure>>();
}

RopeScoreFigure::Envelope RopeScoreFigure::envelope(QCPAxisRect *rect, const QColor &pen, const QColor &fill)
{
    Envelope e;
    e.lo = PlotItems::line(rect, pen, 1.2);
    e.hi = PlotItems::line(rect, pen, 1.2);
    e.hi->setBrush(fill);
    e.hi->setChannelFillGraph(e.lo);
    if (pen == Qt::transparent) {
        e.lo->setPen(Qt::NoPen);
        e.hi->setPen(Qt::NoPen);
    }
    return e;
}

void RopeScoreFigure::setEnvelope(const Envelope &envelope, const QList<double> &x, const RopeScoreSeries &series)
{
    envelope.lo->setData(x, series.lo, true);
    envelope.hi->setData(x, series.hi, true);
}

RopeScoreFigure::RopeScoreFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_scores(new QCPAxisRect(plot))
    , m_bounds(new QCPAxisRect(plot))
{
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->addElement(0, 0, m_scores);
    grid->addElement(1, 0, m_bounds);
    grid->setRowStretchFactors({2.0, 1.0});
    grid->setRowSpacing(4);
    auto *margins = new QCPMarginGroup(plot);
    for (QCPAxisRect *rect : {m_scores, m_bounds}) {
        PlotStyle::styleAxisRect(rect);
        PlotStyle::setLogAxis(rect->axis(QCPAxis::atBottom));
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    }
    // Both name the distance: the upper panel gives its labels to the lower while both are shown
    // (FigureRoom), and keeps them when the bound's panel goes on little room.
    for (QCPAxisRect *rect : {m_scores, m_bounds})
        rect->axis(QCPAxis::atBottom)->setLabel(u"relative distance k = n − m"_s);
    FigureRoom::setDispensable(m_bounds, 1);
    m_scores->axis(QCPAxis::atLeft)->setLabel(u"score ⟨R(m)q, R(n)k⟩"_s);
    m_bounds->axis(QCPAxis::atLeft)->setLabel(u"RoFormer bound"_s);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 2);
    m_zero = PlotItems::line(m_scores, QColor(120, 120, 120), 1.0, Qt::DotLine);
    // The q = k curve first, its swing a lighter band, and the random samples' band and mean over it:
    // past k ≈ 2·10³ at θ 10^4 the aligned curve swings across zero, and drawn last it hid the
    // random mean the lesson points at (rope-decay).
    QColor alignedFill = kAligned;
    alignedFill.setAlpha(110);
    m_aligned = envelope(m_scores, kAligned, alignedFill);
    QColor bandFill = kRandom;
    bandFill.setAlpha(50);
    m_band = envelope(m_scores, Qt::transparent, bandFill);
    m_mean = envelope(m_scores, kRandom, kRandom);
    m_bound = envelope(m_bounds, kBound, kBound);
}

void RopeScoreFigure::showDefaultView(const Params &params, const FigureState &)
{
    const double last = static_cast<double>(BatchLayout::farthestKey(params));
    for (QCPAxisRect *rect : {m_scores, m_bounds})
        rect->axis(QCPAxis::atBottom)->setRange(1.0, std::max(last, 2.0));
}

QList<PanelExtent> RopeScoreFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const QCPAxisRect *rect : {m_scores, m_bounds}) {
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
        list.append({rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void RopeScoreFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const RopeScoreData>(data);
    const RopeScoreData &d = *m_data;
    setEnvelope(m_band, d.distance, d.band);
    setEnvelope(m_mean, d.distance, d.mean);
    setEnvelope(m_aligned, d.distance, d.aligned);
    setEnvelope(m_bound, d.distance, d.bound);
    const double last = std::max(static_cast<double>(d.last), 2.0);
    PlotItems::horizontal(m_zero, 1.0, last, 0.0);
    m_scores->axis(QCPAxis::atLeft)
        ->setRange(paddedRange({&d.band.lo, &d.band.hi, &d.aligned.lo, &d.aligned.hi}, 0.0, 1.0));
    m_bounds->axis(QCPAxis::atLeft)->setRange(paddedRange({&d.bound.lo, &d.bound.hi}, 0.0, 1.0));

    m_legend->clearItems();
    // q is all ones over the whole head, as the model's q·k reads it: a partial rotary's unturned
    // columns add 1 each (GPT-NeoX's 72 of 96), which the legend says.
    const std::int64_t unturned = d.headDim - 2 * d.pairs;
    if (unturned > 0)
        m_aligned.hi->setName(
            m_compact
                ? u"q = k (%1 ones)"_s.arg(d.headDim)
                : u"q = k (all ones over head_dim %1, %2 unturned): ⟨q, R(k)q⟩ / ‖q‖²"_s.arg(d.headDim).arg(unturned));
    else
        m_aligned.hi->setName(m_compact ? u"q = k"_s : u"q = k (all ones): ⟨q, R(k)q⟩ / ‖q‖²"_s);
    m_mean.hi->setName(m_compact ? u"random q, k: mean"_s
                                 : u"random unit q, k: mean of %1 samples"_s.arg(RopeScore::kSamples));
    m_band.hi->setName(u"± 1 std of the samples"_s);
    ShorterLabels::setEntry(m_band.hi, {u"± 1 std"_s});
    m_bound.hi->setName(m_compact ? u"bound (1/h)·Σⱼ|Sⱼ|"_s
                                  : u"RoFormer's bound (1/h)·Σⱼ|Sⱼ|, Sⱼ the sum of e^(i·k·θₗ) over l < j"_s);
    for (QCPGraph *graph : {m_aligned.hi, m_mean.hi, m_band.hi, m_bound.hi})
        MeasuredText::addToLegend(graph, m_legend);

    // What the figure draws, not a lesson's question: rope-relative's score view was titled with
    // rope-decay's "Does RoPE decay with distance?".
    QStringList parts {u"RoPE score against distance"_s, d.scaling, d.model};
    // A chunked or windowed attention sees no key past its reach: the axis stops there, and says why.
    if (!d.reach.isEmpty())
        parts.append(u"distances to %1: its layers %2"_s.arg(NumberText::count(d.last), d.reach));
    // Where a pixel holds many distances, a series is the band from their least to their most.
    if (!m_compact && PlotStyle::textLines(*m_scores->parentPlot()) >= 28 && d.distance.size() < d.computed)
        parts.append(u"a band: the least to the most of a pixel's distances"_s);
    if (d.perPixel > 0)
        parts.append(u"long distances: %1 sampled a pixel"_s.arg(d.perPixel));
    if (d.preview)
        parts.append(u"preview"_s);
    setScreenNote({}, d.preview ? u"preview"_s : QString());
    if (d.last < 1)
        parts.append(u"max-len 1: no distance past 0"_s);
    m_title->setText(parts.join(u"  ·  "_s));
    ShorterLabels::setModelParts(m_title, {d.scaling, d.model});
}

std::optional<HoverPoint> RopeScoreFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    for (QCPAxisRect *rect : {m_scores, m_bounds}) {
        if (!rect->rect().contains(pixel.toPoint()))
            continue;
        const auto k = std::llround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
        if (k < 0 || k > BatchLayout::farthestKey(engine.params()))
            return std::nullopt;
        // The row itself, exact, from the engine.
        RowMatrixXf row(1, 4);
        engine.computeBlock(Quantity::RopeScore, {k, 1, 0, 4}, row);
        HoverPoint point;
        point.hasPosition = false;
        point.valueName = u"k = %1: q = k %2, random mean %3 ± %4, bound %5"_s.arg(k).arg(
            NumberText::compact(row(0, RopeScoreModel::Aligned), 4),
            NumberText::compact(row(0, RopeScoreModel::Mean), 3), NumberText::compact(row(0, RopeScoreModel::Std), 3),
            NumberText::compact(row(0, RopeScoreModel::Bound), 4));
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
