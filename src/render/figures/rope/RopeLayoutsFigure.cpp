#include "RopeLayoutsFigure.h"

#include "render/FigureDescriptor.h"
#include "render/MeasuredText.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"

#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeLayoutScore.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kOwn(0, 114, 178);
const QColor kOther(213, 94, 0);

QString layoutName(RopeLayout layout)
{
    return layout == RopeLayout::Half ? u"rotate_half (i, i + h)"_s : u"interleaved (2i, 2i + 1)"_s;
}

QString shortName(RopeLayout layout)
{
    return layout == RopeLayout::Half ? u"rotate_half"_s : u"interleaved"_s;
}

QCPGraph *marks(QCPAxisRect *rect, const QColor &color)
{
    QCPGraph *graph = PlotItems::line(rect, color, 1.2);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 1.5), Qt::white, 7));
    return graph;
}

} // namespace

std::unique_ptr<FigureDescriptor> makeRopeLayoutsFigure()
{
    return std::make_unique<FigureDescriptorOf<RopeLayoutsModel, RopeLayoutsFigure>>();
}

RopeLayoutsFigure::RopeLayoutsFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_scores(new QCPAxisRect(plot))
{
    plot->plotLayout()->addElement(1, 0, m_scores);
    PlotStyle::styleAxisRect(m_scores);
    PlotStyle::setLogAxis(m_scores->axis(QCPAxis::atBottom));
    m_scores->axis(QCPAxis::atBottom)->setLabel(u"relative distance k = n − m"_s);
    ShorterLabels::set(m_scores->axis(QCPAxis::atBottom), {u"distance k"_s, u"k"_s});
    m_scores->axis(QCPAxis::atLeft)->setLabel(u"score ⟨R(m)q, R(n)k⟩"_s);
    ShorterLabels::set(m_scores->axis(QCPAxis::atLeft), {u"score"_s});
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 3, 2);
    m_zero = PlotItems::line(m_scores, QColor(120, 120, 120), 1.0, Qt::DotLine);
    m_other = PlotItems::line(m_scores, kOther, 1.3, Qt::DashLine);
    m_own = PlotItems::line(m_scores, kOwn, 1.6);
    m_otherMarks = marks(m_scores, kOther);
    m_ownMarks = marks(m_scores, kOwn);
}

void RopeLayoutsFigure::showDefaultView(const Params &params, const FigureState &)
{
    m_scores->axis(QCPAxis::atBottom)->setRange(1.0, std::max(2.0, static_cast<double>(params.maxLen - 1)));
}

QList<PanelExtent> RopeLayoutsFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_scores->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_scores->axis(QCPAxis::atLeft)->range();
    return {{m_scores->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void RopeLayoutsFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const RopeLayoutsData>(data);
    const RopeLayoutsData &d = *m_data;
    const double last = std::max(2.0, static_cast<double>(d.last));
    m_scores->axis(QCPAxis::atBottom)->setRange(1.0, last);
    PlotItems::horizontal(m_zero, 1.0, last, 0.0);
    m_own->setData(d.distance, d.own, true);
    m_other->setData(d.distance, d.other, true);
    QList<double> at, ownAt, otherAt;
    for (const RopeLayoutsData::Mark &mark : d.marks) {
        at.append(mark.distance);
        ownAt.append(mark.own);
        otherAt.append(mark.other);
    }
    m_ownMarks->setData(at, ownAt, true);
    m_otherMarks->setData(at, otherAt, true);
    double lo = 0.0, hi = 0.0;
    for (const QList<double> *values : {&d.own, &d.other})
        for (const double v : *values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    const double pad = 0.06 * std::max(hi - lo, 1e-9);
    m_scores->axis(QCPAxis::atLeft)->setRange(lo - pad, hi + pad);

    const RopeLayout other = RopeLayoutScore::other(d.layout);
    m_legend->clearItems();
    // The two entries in one row of a 14-pt slide, 4:3 or 16:9 ("the weights' own layout: …" beside
    // "the same weights read as …" took two rows on a 4:3 one).
    m_own->setName(m_compact ? u"the model's layout, %1"_s.arg(shortName(d.layout))
                             : u"the weights' layout: %1"_s.arg(layoutName(d.layout)));
    m_other->setName(m_compact ? u"read as %1"_s.arg(shortName(other)) : u"read as %1"_s.arg(layoutName(other)));
    ShorterLabels::setEntry(m_own, {shortName(d.layout)});
    ShorterLabels::setEntry(m_other, {shortName(other)});
    for (QCPGraph *graph : {m_own, m_other})
        MeasuredText::addToLegend(graph, m_legend);

    QStringList caption;
    if (!m_compact)
        caption.append(u"q_j = sin(j + 1), k_j = cos(2j + 1) over %1 columns, %2 pairs turned; at k = 0 both read "
                       "⟨q, k⟩ = %3"_s.arg(d.headDim)
                           .arg(d.pairs)
                           .arg(NumberText::compact(d.atZero, 3)));
    QStringList values;
    for (const RopeLayoutsData::Mark &mark : d.marks) {
        // The two scores in the digits that tell them apart: GLM-4.5's read "-1.002 against -1.003".
        int digits = 3;
        while (digits < NumberText::kMostDigits && mark.own != mark.other
               && NumberText::compact(mark.own, digits) == NumberText::compact(mark.other, digits))
            ++digits;
        values.append(u"k = %1: %2 against %3"_s.arg(NumberText::compact(mark.distance, 4),
                                                     NumberText::compact(mark.own, digits),
                                                     NumberText::compact(mark.other, digits)));
    }
    if (!values.isEmpty())
        caption.append(values.join(u"; "_s));
    if (d.last > d.every)
        caption.append(
            u"past k = %1, %2 distances sampled"_s.arg(NumberText::count(d.every), NumberText::count(d.sampled)));
    PlotStyle::setCollapsibleText(m_caption, caption.join(u'\n'));

    const QString what = m_compact ? u"RoPE layouts"_s : u"Half or interleaved: one q and k scored in both layouts"_s;
    m_title->setText(QStringList {what, d.scaling, d.model}.join(u"  ·  "_s));
    ShorterLabels::setModelParts(m_title, {d.scaling, d.model});
}

std::optional<HoverPoint> RopeLayoutsFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data || !m_scores->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const auto k = std::llround(m_scores->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
    if (k < 0 || k > m_data->last)
        return std::nullopt;
    // The distance itself, exact: the readout at the cursor of both curves.
    const Params &params = engine.params();
    const RopeFrequencies::Table table = RopeFrequencies::table(params);
    const double kk = static_cast<double>(k);
    HoverPoint point;
    point.hasPosition = false;
    point.valueName = u"k = %1: %2 %3, %4 %5"_s.arg(k).arg(
        shortName(m_data->layout),
        NumberText::compact(RopeLayoutScore::score(params, table, 0.0, kk, m_data->layout), 4),
        shortName(RopeLayoutScore::other(m_data->layout)),
        NumberText::compact(RopeLayoutScore::score(params, table, 0.0, kk, RopeLayoutScore::other(m_data->layout)), 4));
    return point;
}

} // namespace posenc
