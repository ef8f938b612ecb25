#include "AlibiAttentionFigure.h"

#include "AlibiPlot.h"

#include "render/FigureDescriptor.h"
#include "render/MeasuredText.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/StampedGraph.h"

#include "core/alibi/AlibiSlopes.h"
#include "render/data/FigureText.h"
#include "render/data/alibi/AlibiText.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kAttentionGuide(110, 110, 110);

// Legend entries for at most this many heads; past it the first, K and the last.
constexpr qsizetype kAttentionNamedHeads = 8;

QCPGraph *attentionSpanDots(QCPAxisRect *rect, QCPScatterStyle::ScatterShape shape)
{
    auto *graph = new StampedGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setPen(QPen(Qt::black));
    graph->setScatterStyle(QCPScatterStyle(shape, QPen(Qt::black, 1.2), Qt::white, 8));
    return graph;
}

// The distances drawn, 1 .. `farthest` on a log axis and 4 % of its decades beyond each end: the
// half-weight circle of a steep head sits at distance 1, and was cut in half by the left axis.
QCPRange distances(double farthest)
{
    const double pad = std::pow(farthest, 0.04);
    return {1.0 / pad, farthest * pad};
}

// The heads whose span is distance 0, the query's own key, which a log axis has no place for:
// "heads 1–2", "head 1", "heads 1, 3"; empty for none. The alibi lesson said "head 1 puts half its
// weight on the keys within a distance of 0" while the figure drew no circle for it.
QString atZero(const QList<std::int64_t> &heads)
{
    if (heads.isEmpty())
        return {};
    QStringList runs;
    for (qsizetype n = 0; n < heads.size();) {
        qsizetype end = n;
        while (end + 1 < heads.size() && heads[end + 1] == heads[end] + 1)
            ++end;
        runs.append(end == n ? QString::number(heads[n]) : u"%1–%2"_s.arg(heads[n]).arg(heads[end]));
        n = end + 1;
    }
    const bool one = heads.size() == 1;
    return u" (%1 %2: at distance 0, off the log axis)"_s.arg(one ? u"head"_s : u"heads"_s, runs.join(u", "_s));
}

} // namespace

std::unique_ptr<FigureDescriptor> makeAlibiAttentionFigure()
{
    return std::make_unique<FigureDescriptorOf<AlibiAttentionModel, AlibiAttentionFigure>>();
}

AlibiAttentionFigure::AlibiAttentionFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_weights(new QCPAxisRect(plot))
    , m_shares(new QCPAxisRect(plot))
{
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->addElement(0, 0, m_weights);
    grid->addElement(1, 0, m_shares);
    grid->setRowSpacing(4);
    auto *margins = new QCPMarginGroup(plot);
    for (QCPAxisRect *rect : {m_weights, m_shares}) {
        PlotStyle::styleAxisRect(rect);
        PlotStyle::setLogAxis(rect->axis(QCPAxis::atBottom));
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    }
    PlotStyle::setLogAxis(m_weights->axis(QCPAxis::atLeft));
    m_weights->axis(QCPAxis::atLeft)->setLabel(u"weight of one key"_s);
    ShorterLabels::set(m_weights->axis(QCPAxis::atLeft), {u"weight"_s});
    m_shares->axis(QCPAxis::atLeft)->setLabel(u"share within distance"_s);
    m_shares->axis(QCPAxis::atLeft)->setRange(0.0, 1.02);
    // Both name the distance: the upper gives its labels to the lower while both are shown
    // (FigureRoom), and keeps them when the shares go on little room.
    // On little room the distance by its formula, short enough to stand along its tick labels.
    for (QCPAxisRect *rect : {m_weights, m_shares}) {
        rect->axis(QCPAxis::atBottom)->setLabel(u"distance |i − j| of the key from the query"_s);
        ShorterLabels::set(rect->axis(QCPAxis::atBottom), {u"distance |i − j|"_s});
    }
    FigureRoom::setDispensable(m_shares, 1);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 2);
    m_halfLine = PlotItems::line(m_shares, kAttentionGuide, 1.0, Qt::DotLine);
    m_ninetyLine = PlotItems::line(m_shares, kAttentionGuide, 1.0, Qt::DashLine);
    m_halfSpans = attentionSpanDots(m_shares, QCPScatterStyle::ssCircle);
    m_ninetySpans = attentionSpanDots(m_shares, QCPScatterStyle::ssSquare);
    m_halfSpans->setName(u"half the weight"_s);
    m_ninetySpans->setName(u"90% of it"_s);
}

void AlibiAttentionFigure::showDefaultView(const Params &params, const FigureState &state)
{
    const std::int64_t query = AlibiAttentionModel::query(params, state);
    const auto keys = AlibiAttention::keysOf(params.maxLen, query, params.alibi.mask);
    const double farthest = std::max(static_cast<double>(keys.farthest()), 2.0);
    for (QCPAxisRect *rect : {m_weights, m_shares})
        rect->axis(QCPAxis::atBottom)->setRange(distances(farthest));
}

QList<PanelExtent> AlibiAttentionFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const QCPAxisRect *rect : {m_weights, m_shares}) {
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
        list.append({rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void AlibiAttentionFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const AlibiAttentionData>(data);
    const AlibiAttentionData &d = *m_data;
    // One pair of curves a head, made as the heads drawn change.
    while (m_weightCurves.size() < d.drawn.size()) {
        m_weightCurves.append(PlotItems::line(m_weights, Qt::black, 1.3));
        m_shareCurves.append(PlotItems::line(m_shares, Qt::black, 1.3));
    }
    m_legend->clearItems();
    const qsizetype count = d.drawn.size();
    // Colours by slope: the steepest and the gentlest of the heads drawn.
    double steepest = 0.0, gentlest = INFINITY;
    for (const AlibiAttentionHead &head : d.drawn) {
        steepest = std::max(steepest, head.slope);
        gentlest = std::min(gentlest, head.slope);
    }
    const bool terse = m_compact || PlotStyle::textLines(*m_weights->parentPlot()) < 30;
    double top = 0.0;
    QList<double> halfX, halfY, ninetyX, ninetyY;
    QList<std::int64_t> halfAtZero, ninetyAtZero;
    // The heads keyed, steepest first: the key runs along the colours, which run by slope.
    QList<std::pair<double, QCPGraph *>> keyed;
    for (qsizetype n = 0; n < m_weightCurves.size(); ++n) {
        const bool shown = n < count;
        m_weightCurves[n]->setVisible(shown);
        m_shareCurves[n]->setVisible(shown);
        if (!shown)
            continue;
        const AlibiAttentionHead &head = d.drawn[n];
        const QPen pen = AlibiPlot::headPen(head.slope, steepest, gentlest, head.head == d.head);
        for (QCPGraph *graph : {m_weightCurves[n], m_shareCurves[n]})
            graph->setPen(pen);
        m_weightCurves[n]->setData(d.distance, head.weight, true);
        m_shareCurves[n]->setData(d.distance, head.within, true);
        for (const double w : head.weight)
            top = std::max(top, w);
        // On the guide line of its share, at the least distance that holds it, one mark a distance:
        // at the shares reached there, the steep heads' marks of distance 1, 2 and 3 lay piled on
        // one another (MPT-7B's 32 heads, four circles at distance 1 between 0.5 and 0.7).
        if (head.half >= 1) {
            if (!halfX.contains(static_cast<double>(head.half))) {
                halfX.append(static_cast<double>(head.half));
                halfY.append(0.5);
            }
        } else {
            halfAtZero.append(head.head);
        }
        if (head.ninety >= 1) {
            if (!ninetyX.contains(static_cast<double>(head.ninety))) {
                ninetyX.append(static_cast<double>(head.ninety));
                ninetyY.append(0.9);
            }
        } else {
            ninetyAtZero.append(head.head);
        }
        // The steepest, the gentlest and head K where not every head is named: the colours run
        // between the first two.
        const bool named
            = count <= kAttentionNamedHeads || head.slope == steepest || head.slope == gentlest || head.head == d.head;
        if (!named)
            continue;
        const QString m = NumberText::compact(head.slope, 3);
        // The ends of the colours named as such where the heads between are not named: a key of
        // "head 8" in the lightest colour beside "head 9" in the darkest read as if by head. Before
        // the head, so that its first part (FigureRoom's shortenEntries) keeps it.
        const QString end = count <= kAttentionNamedHeads || steepest == gentlest ? QString()
            : head.slope == steepest                                              ? u"steepest "_s
            : head.slope == gentlest                                              ? u"gentlest "_s
                                                                                  : QString();
        m_weightCurves[n]->setName(
            terse ? u"%1head %2: half ≤ %3, 90% ≤ %4"_s.arg(end).arg(head.head).arg(
                FigureText::formatCount(head.half), FigureText::formatCount(head.ninety))
                  : u"%1head %2 (m = %3): half within %4, 90% within %5"_s.arg(end).arg(head.head).arg(
                      m, FigureText::formatCount(head.half), FigureText::formatCount(head.ninety)));
        // On little room a head by its number, "h3", so that the key of heads takes fewer rows.
        QStringList forms {u"head %1"_s.arg(head.head), u"h%1"_s.arg(head.head)};
        if (!end.isEmpty())
            forms = QStringList {u"%1head %2"_s.arg(end).arg(head.head), u"%1h%2"_s.arg(end).arg(head.head)} + forms;
        ShorterLabels::setEntry(m_weightCurves[n], forms);
        keyed.append({head.slope, m_weightCurves[n]});
    }
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &[slope, curve] : keyed)
        MeasuredText::addToLegend(curve, m_legend);
    // The spans' dots, sorted by distance as a graph keeps its keys.
    const auto sorted = [](QList<double> &x, QList<double> &y) {
        QList<qsizetype> order(x.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&x](qsizetype a, qsizetype b) { return x[a] < x[b]; });
        QList<double> sx, sy;
        for (const qsizetype i : order) {
            sx.append(x[i]);
            sy.append(y[i]);
        }
        x = sx;
        y = sy;
    };
    sorted(halfX, halfY);
    sorted(ninetyX, ninetyY);
    m_halfSpans->setData(halfX, halfY, true);
    m_ninetySpans->setData(ninetyX, ninetyY, true);
    m_halfSpans->setName(u"half the weight"_s + atZero(halfAtZero));
    m_ninetySpans->setName(u"90% of it"_s + atZero(ninetyAtZero));
    MeasuredText::addToLegend(m_halfSpans, m_legend);
    MeasuredText::addToLegend(m_ninetySpans, m_legend);
    // The two ends of the colours in a row, the spans' marks in the next: in three columns the
    // marks' first took the room their names needed.
    m_legend->setWrap(keyed.size() == 2 ? 2 : 3);

    const double farthest = std::max(static_cast<double>(d.keys.farthest()), 2.0);
    for (QCPAxisRect *rect : {m_weights, m_shares})
        rect->axis(QCPAxis::atBottom)->setRange(distances(farthest));
    PlotItems::horizontal(m_halfLine, 1.0, farthest, 0.5);
    PlotItems::horizontal(m_ninetyLine, 1.0, farthest, 0.9);
    // Weights over six decades below the largest: a steep head's tail falls out of view.
    const double high = top > 0.0 ? top * 2.0 : 1.0;
    m_weights->axis(QCPAxis::atLeft)->setRange(high * 1e-6, high);

    QStringList parts {terse ? u"ALiBi attention span"_s
                             : u"How far does each ALiBi head look? Softmax weight, content scores zero"_s,
                       u"query %1 of %2"_s.arg(FigureText::formatCount(d.query), FigureText::formatCount(d.maxLen)),
                       AlibiText::maskText(d.mask)};
    if (!terse)
        parts.append(u"w(d) = e^(−m·d)/Z"_s);
    if (d.drawn.size() < d.heads)
        parts.append(u"%1 of %2 heads drawn"_s.arg(d.drawn.size()).arg(d.heads));
    if (d.keys.farthest() < 1)
        parts.append(u"the query sees only itself"_s);
    m_title->setText(parts.join(u"  ·  "_s));
}

std::optional<HoverPoint> AlibiAttentionFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const AlibiAttentionData &d = *m_data;
    for (QCPAxisRect *rect : {m_weights, m_shares}) {
        if (!rect->rect().contains(pixel.toPoint()))
            continue;
        const auto distance = std::llround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
        if (distance < 0 || distance > d.keys.farthest())
            return std::nullopt;
        // Head K's numbers at that distance, exact.
        const double slope = AlibiSlopes::of(engine.params().alibi.heads, engine.params().alibi.head);
        HoverPoint point;
        point.hasPosition = false;
        point.value = AlibiAttention::weight(slope, d.keys, distance);
        point.valueName
            = u"distance %1: head %2's weight of one key (%3 of the weight within it)"_s.arg(distance).arg(d.head).arg(
                NumberText::compact(AlibiAttention::within(slope, d.keys, distance), 4));
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
