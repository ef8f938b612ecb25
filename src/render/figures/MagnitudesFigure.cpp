#include "MagnitudesFigure.h"

#include "render/FigureDescriptor.h"
#include "render/IndexTicker.h"
#include "render/PlotStyle.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kEmbedding(0, 114, 178);
const QColor kPositional(213, 94, 0);
const QColor kRatio(0, 158, 115);
constexpr double kDotSize = 2.5;
constexpr int kLogTickCount = 5; // QCPAxisTicker's default
constexpr double kCompactDotSize = 1.5;
constexpr double kRingSize = 4.0;
constexpr double kCompactRingSize = 2.5;

void setLog(QCPAxis *axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setSubTickCount(8);
    axis->setTicker(ticker);
    axis->setNumberFormat(u"gb"_s);
    axis->setNumberPrecision(0);
}

QCPLegend *insetLegend(QCustomPlot *plot, QCPAxisRect *rect)
{
    auto *legend = new QCPLegend;
    rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
    // Entries side by side in one or two short rows: the axes keep room above the data for them.
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(3);
    legend->setLayer(u"legend"_s);
    legend->setVisible(true);
    legend->setBrush(QColor(255, 255, 255, 220));
    legend->setBorderPen(QPen(QColor(0, 0, 0, 60)));
    QFont font = plot->font();
    font.setPointSizeF(8.0);
    legend->setFont(font);
    legend->setIconSize(18, 8);
    legend->setRowSpacing(-2);
    return legend;
}

// The range of positive values, padded for a log axis.
QCPRange logRange(std::initializer_list<const QList<double> *> lists, std::initializer_list<double> extra,
                  double headroom)
{
    double lo = INFINITY, hi = 0.0;
    const auto take = [&](double v) {
        if (std::isfinite(v) && v > 0.0) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    };
    for (const QList<double> *list : lists)
        for (double v : *list)
            take(v);
    for (double v : extra)
        take(v);
    if (!(hi > 0.0))
        return {0.1, 10.0};
    return {lo / 1.6, hi * headroom};
}

} // namespace

std::unique_ptr<FigureDescriptor> makeMagnitudesFigure()
{
    return std::make_unique<FigureDescriptorOf<MagnitudesModel, MagnitudesFigure>>();
}

MagnitudesFigure::MagnitudesFigure(QCustomPlot *plot)
    : m_plot(plot)
    , m_title(PlotStyle::resetWithTitle(plot))
    , m_positions(new QCPAxisRect(plot))
    , m_columns(new QCPAxisRect(plot))
{
    plot->plotLayout()->addElement(1, 0, m_positions);
    plot->plotLayout()->addElement(2, 0, m_columns);
    for (QCPAxisRect *rect : {m_positions, m_columns}) {
        PlotStyle::styleAxisRect(rect);
        setLog(rect->axis(QCPAxis::atLeft));
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
    }
    auto *margins = new QCPMarginGroup(plot);
    m_positions->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_columns->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_positions->axis(QCPAxis::atBottom)->setLabel(u"position p"_s);
    m_positions->axis(QCPAxis::atLeft)->setLabel(u"norm of row p"_s);
    QCPAxis *ratioAxis = m_positions->axis(QCPAxis::atRight);
    ratioAxis->setVisible(true);
    ratioAxis->setLabel(u"ratio"_s);
    ratioAxis->setLabelColor(kRatio);
    ratioAxis->setTickLabelColor(kRatio);
    setLog(ratioAxis);
    m_columns->axis(QCPAxis::atBottom)->setLabel(u"column j"_s);
    m_columns->axis(QCPAxis::atLeft)->setLabel(u"std and |mean|"_s);
    IndexTicker::install(m_positions->axis(QCPAxis::atBottom));
    IndexTicker::install(m_columns->axis(QCPAxis::atBottom));

    m_positionLegend = insetLegend(plot, m_positions);
    m_columnLegend = insetLegend(plot, m_columns);
    m_columnLegend->setWrap(2); // the std row over the |mean| row
    m_embeddingNorm = addGraph(m_positions, QCPAxis::atLeft, kEmbedding, Qt::SolidLine, m_positionLegend);
    m_peNorm = addGraph(m_positions, QCPAxis::atLeft, kPositional, Qt::SolidLine, m_positionLegend);
    m_ratio = addGraph(m_positions, QCPAxis::atRight, kRatio, Qt::SolidLine, m_positionLegend);
    m_expectedEmbedding
        = addGraph(m_positions, QCPAxis::atLeft, kEmbedding.darker(140), Qt::DashLine, m_positionLegend);
    m_expectedPe = addGraph(m_positions, QCPAxis::atLeft, kPositional.darker(140), Qt::DashLine, m_positionLegend);
    m_embeddingStd = addGraph(m_columns, QCPAxis::atLeft, kEmbedding, Qt::SolidLine, m_columnLegend);
    m_peStd = addGraph(m_columns, QCPAxis::atLeft, kPositional, Qt::SolidLine, m_columnLegend);
    m_embeddingMean = addGraph(m_columns, QCPAxis::atLeft, kEmbedding, Qt::SolidLine, m_columnLegend);
    m_peMean = addGraph(m_columns, QCPAxis::atLeft, kPositional, Qt::SolidLine, m_columnLegend);
    m_embeddingNorm->setName(u"‖s·Eₚ‖"_s);
    m_peNorm->setName(u"‖PEₚ‖"_s);
    m_ratio->setName(u"ratio (right axis)"_s);
    m_expectedEmbedding->setName(u"expected √(s²σ²d)"_s);
    m_expectedPe->setName(u"expected √(d/2)"_s);
    m_embeddingStd->setName(u"std of s·E[:, j]"_s);
    m_peStd->setName(u"std of PE[:, j]"_s);
    m_embeddingMean->setName(u"|mean| of s·E[:, j]"_s);
    m_peMean->setName(u"|mean| of PE[:, j]"_s);
    m_ratio->setPen(QPen(kRatio, 1.0));
    // Per column, sine and cosine columns alternate between two levels: dots, not a zigzag.
    // Small filled squares for the std (as legible as discs at this size, and far cheaper to
    // draw), rings for the |mean|.
    for (QCPGraph *graph : {m_embeddingStd, m_peStd, m_embeddingMean, m_peMean}) {
        graph->setLineStyle(QCPGraph::lsNone);
        const bool mean = graph == m_embeddingMean || graph == m_peMean;
        const QColor color = graph->pen().color();
        graph->setScatterStyle(mean ? QCPScatterStyle(QCPScatterStyle::ssCircle, color, kRingSize)
                                    : QCPScatterStyle(QCPScatterStyle::ssSquare, color, color, kDotSize));
    }
    m_title->setText(u"Magnitudes"_s);

    // The compact legend's entries: graphs that hold no data.
    const auto entry = [this](const QString &name, const QPen &pen) {
        auto *graph = new QCPGraph(m_positions->axis(QCPAxis::atBottom), m_positions->axis(QCPAxis::atLeft));
        graph->setPen(pen);
        graph->setName(name);
        m_compactEntries.append(graph);
    };
    entry(u"s·E"_s, QPen(kEmbedding, 1.3));
    entry(u"PE"_s, QPen(kPositional, 1.3));
    entry(u"ratio (right)"_s, QPen(kRatio, 1.0));
    entry(u"expected"_s, QPen(Qt::darkGray, 1.6, Qt::DashLine));
    // And what the two markers per column mean.
    const auto marker = [this](const QString &name, const QCPScatterStyle &style) {
        auto *graph = new QCPGraph(m_positions->axis(QCPAxis::atBottom), m_positions->axis(QCPAxis::atLeft));
        graph->setPen(QPen(Qt::darkGray));
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(style);
        graph->setName(name);
        m_compactEntries.append(graph);
    };
    marker(u"std"_s, QCPScatterStyle(QCPScatterStyle::ssSquare, Qt::darkGray, Qt::darkGray, kDotSize));
    marker(u"|mean|"_s, QCPScatterStyle(QCPScatterStyle::ssCircle, Qt::darkGray, kRingSize));
}

void MagnitudesFigure::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    m_positionLegend->setVisible(!compact);
    m_columnLegend->setVisible(!compact);
    QCPLayoutGrid *layout = m_plot->plotLayout();
    if (compact) {
        // A row of its own under both axes, owned by the layout while it is shown.
        m_compactLegend = new QCPLegend;
        layout->addElement(layout->rowCount(), 0, m_compactLegend);
        layout->setRowStretchFactor(layout->rowCount() - 1, 0.001);
        m_compactLegend->setLayer(u"legend"_s);
        m_compactLegend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        m_compactLegend->setWrap(3);
        m_compactLegend->setBrush(Qt::NoBrush);
        m_compactLegend->setBorderPen(Qt::NoPen);
        m_compactLegend->setMargins(QMargins(2, 0, 8, 0));
        m_compactLegend->setColumnSpacing(6);
        QFont font = m_plot->font();
        font.setPointSizeF(8.0);
        m_compactLegend->setFont(font);
        m_compactLegend->setIconSize(14, 8);
        for (QCPGraph *graph : m_compactEntries)
            graph->addToLegend(m_compactLegend);
    } else {
        layout->remove(m_compactLegend); // deletes it and its items
        layout->simplify();
        m_compactLegend = nullptr;
    }
    // Eight sub-ticks a decade crowd into a black bar on a short log axis, and its labels
    // into each other: fewer of both.
    for (QCPAxis *axis :
         {m_positions->axis(QCPAxis::atLeft), m_positions->axis(QCPAxis::atRight), m_columns->axis(QCPAxis::atLeft)}) {
        axis->setSubTicks(!compact);
        axis->ticker()->setTickCount(compact ? 2 : kLogTickCount);
    }
    for (QCPGraph *graph : {m_embeddingStd, m_peStd, m_embeddingMean, m_peMean}) {
        QCPScatterStyle dots = graph->scatterStyle();
        const bool ring = dots.shape() == QCPScatterStyle::ssCircle;
        dots.setSize(compact ? (ring ? kCompactRingSize : kCompactDotSize) : (ring ? kRingSize : kDotSize));
        graph->setScatterStyle(dots);
    }
}

QCPGraph *MagnitudesFigure::addGraph(QCPAxisRect *rect, QCPAxis::AxisType valueAxis, const QColor &color,
                                     Qt::PenStyle style, QCPLegend *legend)
{
    auto *graph = new QCPGraph(rect->axis(QCPAxis::atBottom), rect->axis(valueAxis));
    graph->setPen(QPen(color, style == Qt::DashLine ? 1.6 : 1.3, style));
    graph->setAdaptiveSampling(true);
    graph->addToLegend(legend);
    return graph;
}

void MagnitudesFigure::setData(const MagnitudesData &data)
{
    m_embeddingNorm->setData(data.positions, data.embeddingNorm, true);
    m_peNorm->setData(data.positions, data.peNorm, true);
    m_ratio->setData(data.positions, data.ratio, true);
    const double last = static_cast<double>(std::max<std::int64_t>(data.maxLen - 1, 1));
    m_expectedEmbedding->setData({0.0, last}, {data.expectedEmbeddingNorm, data.expectedEmbeddingNorm}, true);
    if (data.expectedPeNorm)
        m_expectedPe->setData({0.0, last}, {*data.expectedPeNorm, *data.expectedPeNorm}, true);
    else
        m_expectedPe->data()->clear();
    m_expectedPe->setVisible(data.expectedPeNorm.has_value());
    const auto magnitudes = [](const QList<double> &values) {
        QList<double> out;
        out.reserve(values.size());
        for (const double v : values)
            out.append(std::abs(v));
        return out;
    };
    const QList<double> peMean = magnitudes(data.peMean), embeddingMean = magnitudes(data.embeddingMean);
    m_embeddingStd->setData(data.columns, data.embeddingStd, true);
    m_peStd->setData(data.columns, data.peStd, true);
    m_embeddingMean->setData(data.columns, embeddingMean, true);
    m_peMean->setData(data.columns, peMean, true);

    m_positions->axis(QCPAxis::atBottom)->setRange(-0.5, last + 0.5);
    // Headroom above the data for the legend inside the axes; compact, it is below.
    const double positionHeadroom = m_compact ? 2.0 : 40.0;
    const double columnHeadroom = 12.0; // keeps a second decade labelled on a short axis
    m_positions->axis(QCPAxis::atLeft)
        ->setRange(logRange({&data.peNorm, &data.embeddingNorm},
                            {data.expectedEmbeddingNorm, data.expectedPeNorm.value_or(data.expectedEmbeddingNorm)},
                            positionHeadroom));
    m_positions->axis(QCPAxis::atRight)->setRange(logRange({&data.ratio}, {}, positionHeadroom));
    m_columns->axis(QCPAxis::atBottom)->setRange(-0.5, static_cast<double>(data.columns.size()) - 0.5);
    // The RMS bounds the std and the |mean| from above; below, down to the smallest of them but
    // five decades at most: a |mean| smaller still (a column averaging to zero) lies under the axis.
    QCPRange columnRange = logRange({&data.peRms, &data.embeddingRms}, {}, columnHeadroom);
    const QCPRange lowRange = logRange({&data.peStd, &data.embeddingStd, &peMean, &embeddingMean}, {}, 1.0);
    columnRange.lower = std::max(std::min(columnRange.lower, lowRange.lower), columnRange.upper * 1e-5);
    m_columns->axis(QCPAxis::atLeft)->setRange(columnRange);
    QString detail;
    if (data.positionStride > 1)
        detail = u"  ·  norms at every %1th position"_s.arg(data.positionStride);
    if (!data.columnStatsExact())
        detail += u"  ·  per column, s·E estimated from %1 of %2 positions"_s.arg(FigureText::formatCount(data.rmsRows),
                                                                                  FigureText::formatCount(data.maxLen));
    m_title->setText(u"Magnitudes per position (top)  ·  mean and std per column (bottom)%1"_s.arg(detail));
}

void MagnitudesFigure::showDefaultView(const Params &, const FigureState &)
{
    // The axes fit the data again.
    if (m_data)
        setData(*m_data);
}

QList<PanelExtent> MagnitudesFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const QCPAxisRect *rect : {m_positions, m_columns}) {
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
        list.append({rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void MagnitudesFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const MagnitudesData>(data);
    setData(*m_data);
}

QList<PositionAxis> MagnitudesFigure::positionAxes() const
{
    return {{m_positions, false}};
}

std::optional<HoverPoint> MagnitudesFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || m_data->positions.isEmpty())
        return std::nullopt;
    const auto indexOf = [](const QList<double> &keys, double x) {
        const auto it = std::lower_bound(keys.begin(), keys.end(), x);
        qsizetype i = std::clamp<qsizetype>(it - keys.begin(), 0, keys.size() - 1);
        if (i > 0 && std::abs(keys[i - 1] - x) < std::abs(keys[i] - x))
            --i;
        return i;
    };
    HoverPoint point;
    if (m_positions->rect().contains(pixel.toPoint())) {
        const double x = m_positions->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        const qsizetype i = indexOf(m_data->positions, x);
        point.position = static_cast<std::int64_t>(m_data->positions[i]);
        point.value = m_data->ratio[i];
        point.valueName = u"‖s·E_p‖ = %1, ‖PE_p‖ = %2, ratio"_s.arg(m_data->embeddingNorm[i], 0, 'g', 5)
                              .arg(m_data->peNorm[i], 0, 'g', 5);
        return point;
    }
    if (m_columns->rect().contains(pixel.toPoint()) && !m_data->columns.isEmpty()) {
        const double x = m_columns->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        const qsizetype j = indexOf(m_data->columns, x);
        point.hasPosition = false;
        point.column = static_cast<std::int64_t>(j);
        point.value = m_data->peRms[j] / m_data->embeddingRms[j];
        point.valueName = u"RMS PE = %1, RMS s·E = %2, ratio"_s.arg(m_data->peRms[j], 0, 'g', 5)
                              .arg(m_data->embeddingRms[j], 0, 'g', 5);
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
