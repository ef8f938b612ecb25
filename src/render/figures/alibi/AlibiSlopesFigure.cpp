#include "AlibiSlopesFigure.h"

#include "render/FigureDescriptor.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"
#include "render/StampedGraph.h"

#include "render/data/FigureText.h"
#include "render/data/alibi/AlibiText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kSlopesGeometric(0, 114, 178);
const QColor kSlopesInterleaved(213, 94, 0);
const QColor kSlopesPlain(120, 120, 120);

QCPGraph *alibiSlopeGraph(QCPAxisRect *rect, const QColor &color, QCPScatterStyle::ScatterShape shape, double size,
                          Qt::PenStyle line)
{
    auto *graph = new StampedGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setPen(line == Qt::NoPen ? QPen(Qt::NoPen) : QPen(color, 1.3, line));
    graph->setLineStyle(line == Qt::NoPen ? QCPGraph::lsNone : QCPGraph::lsLine);
    graph->setScatterStyle(QCPScatterStyle(shape, color, color, size));
    return graph;
}

} // namespace

std::unique_ptr<FigureDescriptor> makeAlibiSlopesFigure()
{
    return std::make_unique<FigureDescriptorOf<AlibiSlopesModel, AlibiSlopesFigure>>();
}

AlibiSlopesFigure::AlibiSlopesFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
{
    plot->plotLayout()->addElement(1, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"head k"_s);
    IndexTicker::install(m_rect->axis(QCPAxis::atBottom));
    PlotItems::setLog2Axis(m_rect->axis(QCPAxis::atLeft), true, 8);
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"slope mₖ (log scale)"_s);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 3, 2);
    // Tall enough for the ring around head K whole.
    m_legend->setIconSize(18, 14);
    m_plain = alibiSlopeGraph(m_rect, kSlopesPlain, QCPScatterStyle::ssCircle, 5, Qt::DotLine);
    m_plain->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kSlopesPlain, 1.0), Qt::NoBrush, 5));
    m_series = alibiSlopeGraph(m_rect, kSlopesGeometric, QCPScatterStyle::ssNone, 0, Qt::DotLine);
    m_places = alibiSlopeGraph(m_rect, kSlopesInterleaved, QCPScatterStyle::ssDiamond, 9, Qt::NoPen);
    m_places->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(kSlopesInterleaved, 1.3), Qt::white, 9));
    m_geometric = alibiSlopeGraph(m_rect, kSlopesGeometric, QCPScatterStyle::ssDisc, 7, Qt::SolidLine);
    m_interleaved = alibiSlopeGraph(m_rect, kSlopesInterleaved, QCPScatterStyle::ssDiamond, 9, Qt::DashLine);
    m_chosen = alibiSlopeGraph(m_rect, Qt::black, QCPScatterStyle::ssCircle, 15, Qt::NoPen);
    m_chosen->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.6), Qt::NoBrush, 14));
}

QList<PanelExtent> AlibiSlopesFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void AlibiSlopesFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const AlibiSlopesData>(data);
    const AlibiSlopesData &d = *m_data;
    const auto heads = static_cast<double>(d.heads);
    m_rect->axis(QCPAxis::atBottom)->setRange(d.seriesPlace.isEmpty() ? 0.5 : 0.0, heads + 0.5);
    QList<double> geometricHead, geometricSlope, interleavedHead, interleavedSlope, plainHead;
    for (qsizetype i = 0; i < d.slopes.size(); ++i) {
        const bool geometric = i < d.geometric;
        (geometric ? geometricHead : interleavedHead).append(static_cast<double>(i + 1));
        (geometric ? geometricSlope : interleavedSlope).append(d.slopes[i]);
    }
    for (qsizetype i = 0; i < d.plain.size(); ++i)
        plainHead.append(static_cast<double>(i + 1));
    // Markers while each head has room for its own; lines alone past that.
    const bool markers = d.heads <= 128;
    for (QCPGraph *graph : {m_geometric, m_interleaved, m_plain}) {
        QCPScatterStyle style = graph->scatterStyle();
        style.setShape(markers ? (graph == m_geometric   ? QCPScatterStyle::ssDisc
                                      : graph == m_plain ? QCPScatterStyle::ssCircle
                                                         : QCPScatterStyle::ssDiamond)
                               : QCPScatterStyle::ssNone);
        graph->setScatterStyle(style);
    }
    m_geometric->setData(geometricHead, geometricSlope, true);
    // The series on to head 1/2, where the first interleaved slope sits: 2^(-8x/P) is a line here.
    const auto power = static_cast<double>(d.geometric);
    m_series->setData({0.5, power}, {std::exp2(-4.0 / power), std::exp2(-8.0)}, true);
    QList<double> places;
    for (qsizetype i = 0; i < d.seriesPlace.size(); ++i)
        places.append(d.slopes[d.geometric + i]);
    m_places->setData(d.seriesPlace, places, true);
    m_series->setVisible(!d.seriesPlace.isEmpty());
    m_places->setVisible(!d.seriesPlace.isEmpty() && markers);
    m_interleaved->setData(interleavedHead, interleavedSlope, true);
    m_plain->setData(plainHead, d.plain, true);
    m_chosen->setData({static_cast<double>(d.head)}, {d.slopes.value(d.head - 1)}, true);
    m_rect->axis(QCPAxis::atLeft)->setRange(PlotItems::logRange(d.slopes + d.plain, 1.5));

    m_legend->clearItems();
    // On a slide or a small view the plot keeps its room: short legends, the interleave alone.
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    const QString p = QString::number(d.geometric);
    const QString firstHeads = d.geometric == 1 ? u"head 1"_s : u"heads 1–%1"_s.arg(p);
    m_geometric->setName(terse ? u"%1: 2^(−8k/%2)"_s.arg(firstHeads, p)
                               : u"%1: the geometric series mₖ = 2^(−8k/%2)"_s.arg(firstHeads, p));
    MeasuredText::addToLegend(m_geometric, m_legend);
    if (!d.plain.isEmpty()) {
        const QString range = d.heads - d.geometric == 1 ? u"head %1"_s.arg(d.heads)
                                                         : u"heads %1–%2"_s.arg(d.geometric + 1).arg(d.heads);
        m_interleaved->setName(terse ? u"%1: interleaved"_s.arg(range)
                                     : u"%1: interleaved from the %2-head series"_s.arg(range).arg(2 * d.geometric));
        m_plain->setName(terse ? u"plain 2^(−8k/%1): wrong"_s.arg(d.heads)
                               : u"plain 2^(−8k/%1) for every head: the bug (mlx#343)"_s.arg(d.heads));
        m_places->setName(terse ? u"their place on the series"_s
                                : u"their place on the series: head ½, then halfway between two heads"_s);
        MeasuredText::addToLegend(m_interleaved, m_legend);
        if (m_places->visible())
            MeasuredText::addToLegend(m_places, m_legend);
        MeasuredText::addToLegend(m_plain, m_legend);
    }
    m_chosen->setName(u"head K = %1"_s.arg(d.head));
    MeasuredText::addToLegend(m_chosen, m_legend);
    m_interleaved->setVisible(!interleavedHead.isEmpty());
    m_plain->setVisible(!d.plain.isEmpty());

    // The interleave in words, where there is one; the slopes of a few heads listed.
    QString caption = d.interleave;
    if (caption.isEmpty())
        caption = u"H = %1 is a power of two: every head is on the series, r = 2^(−8/%1)"_s.arg(d.heads);
    if (d.heads <= 16 && !terse) {
        QStringList values;
        for (const double m : d.slopes)
            values.append(NumberText::compact(m, 3));
        caption += u"\nslopes: "_s + values.join(u", "_s);
    }
    PlotStyle::setCollapsibleText(m_caption, caption);
    const QString what = terse ? u"ALiBi slopes"_s : u"ALiBi: the slope of each head"_s;
    m_title->setText(u"%1  ·  H = %2 heads  ·  head K = %3: m = %4"_s.arg(what).arg(d.heads).arg(d.head).arg(
        AlibiText::slopeText(d.slopes.value(d.head - 1))));
}

std::optional<HoverPoint> AlibiSlopesFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const AlibiSlopesData &d = *m_data;
    const auto k = std::llround(m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
    if (k < 1 || k > d.heads)
        return std::nullopt;
    HoverPoint point;
    point.hasPosition = false;
    point.value = d.slopes[k - 1];
    QString name = u"head %1 (%2): slope %3"_s.arg(k)
                       .arg(k <= d.geometric ? u"geometric"_s : u"interleaved"_s)
                       .arg(AlibiText::powerText(d.slopes[k - 1]));
    if (!d.plain.isEmpty())
        name += u", the plain series would give %1"_s.arg(NumberText::compact(d.plain[k - 1], 4));
    point.valueName = name;
    return point;
}

} // namespace posenc
