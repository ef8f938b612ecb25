#include "MagnitudesFigure.h"

#include "render/DirectLabels.h"
#include "render/FigureDescriptor.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/LevelledGraph.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kRatio(0, 158, 115);
constexpr double kDotSize = 2.5;
constexpr int kLogTickCount = 5; // QCPAxisTicker's default
constexpr double kCompactDotSize = 1.5;
constexpr double kRingSize = 4.0;
constexpr double kCompactRingSize = 2.5;

// A legend in a row of its own above the axes it explains: it never hides their data, and it
// grows with the font size by taking its row, not the axes' room.
QCPLegend *legendAbove(QCustomPlot *plot, QCPLayoutGrid *block, int wrap)
{
    block->insertRow(0);
    QCPLegend *legend = PlotStyle::legendRow(plot, block, 0, wrap);
    legend->setRowSpacing(-2);
    return legend;
}

// A block of the figure: (a legend above) an axis rect.
QCPLayoutGrid *addBlock(QCustomPlot *plot, int row, QCPAxisRect *rect)
{
    auto *block = new QCPLayoutGrid;
    plot->plotLayout()->addElement(row, 0, block);
    block->setRowSpacing(0);
    block->addElement(0, 0, rect);
    return block;
}

// The least and the most positive value of some series.
struct Positive
{
    double lo = INFINITY, hi = 0.0;
};

Positive positive(std::initializer_list<const QList<double> *> lists, std::initializer_list<double> extra = {})
{
    Positive out;
    const auto take = [&out](double v) {
        if (std::isfinite(v) && v > 0.0) {
            out.lo = std::min(out.lo, v);
            out.hi = std::max(out.hi, v);
        }
    };
    for (const QList<double> *list : lists)
        for (double v : *list)
            take(v);
    for (double v : extra)
        take(v);
    return out;
}

// The range of positive values, padded for a log axis.
QCPRange logRange(const Positive &values, double headroom)
{
    if (!(values.hi > 0.0))
        return {0.1, 10.0};
    return {values.lo / 1.6, values.hi * headroom};
}

// The graphs' points of one MagnitudesData (MagnitudesFigure::prepare).
struct MagnitudesPoints final : PreparedDrawing
{
    const MagnitudesData *data = nullptr; // what they were made of
    std::shared_ptr<const LevelledPoints> embeddingNorm, peNorm, ratio;
    std::shared_ptr<const LevelledPoints> embeddingStd, peStd, embeddingMean, peMean;
    QList<double> embeddingMeanSize, peMeanSize; // |mean| per column
    // The axes' extents: the norms with their expected values, the ratio, the columns' RMS, and
    // their std and |mean|.
    Positive norms, ratios, rms, spread;
};

// The points (keys[i], values[i]), in the keys' order, with their levels; `finite`: those whose
// value is a number only.
std::shared_ptr<const LevelledPoints> points(const QList<double> &keys, const QList<double> &values,
                                             bool finite = false)
{
    const qsizetype n = std::min(keys.size(), values.size());
    QList<QCPGraphData> list;
    list.reserve(n);
    for (qsizetype i = 0; i < n; ++i)
        if (!finite || std::isfinite(values[i]))
            list.append(QCPGraphData(keys[i], values[i]));
    auto container = QSharedPointer<QCPGraphDataContainer>::create();
    container->set(list, true);
    return LevelledPoints::make(std::move(container));
}

LevelledGraph *levelled(QCPGraph *graph)
{
    return static_cast<LevelledGraph *>(graph);
}

std::shared_ptr<const MagnitudesPoints> makePoints(const MagnitudesData &data)
{
    auto made = std::make_shared<MagnitudesPoints>();
    made->data = &data;
    made->embeddingNorm = points(data.positions, data.embeddingNorm);
    made->peNorm = points(data.positions, data.peNorm);
    // Where ||PE_p|| is 0 (position 0 of a lone sine, d 1) the ratio is no number: left out.
    made->ratio = points(data.positions, data.ratio, true);
    const auto sizes = [](const QList<double> &values) {
        QList<double> out;
        out.reserve(values.size());
        for (const double v : values)
            out.append(std::abs(v));
        return out;
    };
    made->embeddingMeanSize = sizes(data.embeddingMean);
    made->peMeanSize = sizes(data.peMean);
    made->embeddingStd = points(data.columns, data.embeddingStd);
    made->peStd = points(data.columns, data.peStd);
    made->embeddingMean = points(data.columns, made->embeddingMeanSize);
    made->peMean = points(data.columns, made->peMeanSize);
    made->norms = positive({&data.peNorm, &data.embeddingNorm},
                           {data.expectedEmbeddingNorm, data.expectedPeNorm.value_or(data.expectedEmbeddingNorm)});
    made->ratios = positive({&data.ratio});
    made->rms = positive({&data.peRms, &data.embeddingRms});
    made->spread = positive({&data.peStd, &data.embeddingStd, &made->peMeanSize, &made->embeddingMeanSize});
    return made;
}

} // namespace

std::shared_ptr<const PreparedDrawing> MagnitudesFigure::prepare(const FigureData &data)
{
    const auto *magnitudes = dynamic_cast<const MagnitudesData *>(&data);
    return magnitudes ? makePoints(*magnitudes) : nullptr;
}

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
    m_positionBlock = addBlock(plot, 1, m_positions);
    m_columnBlock = addBlock(plot, 2, m_columns);
    // On little room the norms per position stay: the statistics per column go.
    FigureRoom::setDispensable(m_columnBlock, 1);
    for (QCPAxisRect *rect : {m_positions, m_columns}) {
        PlotStyle::styleAxisRect(rect);
        PlotStyle::setLogAxis(rect->axis(QCPAxis::atLeft));
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
    }
    auto *margins = new QCPMarginGroup(plot);
    m_positions->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_columns->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_positions->axis(QCPAxis::atBottom)->setLabel(u"position p"_s);
    m_positions->axis(QCPAxis::atLeft)->setLabel(u"norm of row p"_s);
    // In symbols on little room, whole: "norm of …" said nothing of what it measures.
    ShorterLabels::set(m_positions->axis(QCPAxis::atLeft), {u"‖row p‖"_s});
    QCPAxis *ratioAxis = m_positions->axis(QCPAxis::atRight);
    ratioAxis->setVisible(true);
    ratioAxis->setLabel(u"ratio"_s);
    ratioAxis->setLabelColor(kRatio);
    ratioAxis->setTickLabelColor(kRatio);
    PlotStyle::setLogAxis(ratioAxis);
    m_columns->axis(QCPAxis::atBottom)->setLabel(u"column j"_s);
    m_columns->axis(QCPAxis::atLeft)->setLabel(u"std and |mean|"_s);
    IndexTicker::install(m_positions->axis(QCPAxis::atBottom));
    IndexTicker::install(m_columns->axis(QCPAxis::atBottom));

    m_embeddingNorm = addGraph(m_positions, QCPAxis::atLeft, PlotStyle::kEmbedding, Qt::SolidLine);
    m_expectedEmbedding = addGraph(m_positions, QCPAxis::atLeft, PlotStyle::kEmbedding.darker(140), Qt::DashLine);
    m_peNorm = addGraph(m_positions, QCPAxis::atLeft, PlotStyle::kPositional, Qt::SolidLine);
    m_expectedPe = addGraph(m_positions, QCPAxis::atLeft, PlotStyle::kPositional.darker(140), Qt::DashLine);
    m_ratio = addGraph(m_positions, QCPAxis::atRight, kRatio, Qt::SolidLine);
    m_embeddingStd = addGraph(m_columns, QCPAxis::atLeft, PlotStyle::kEmbedding, Qt::SolidLine);
    m_embeddingMean = addGraph(m_columns, QCPAxis::atLeft, PlotStyle::kEmbedding, Qt::SolidLine);
    m_peStd = addGraph(m_columns, QCPAxis::atLeft, PlotStyle::kPositional, Qt::SolidLine);
    m_peMean = addGraph(m_columns, QCPAxis::atLeft, PlotStyle::kPositional, Qt::SolidLine);
    addBlockLegends();
    m_embeddingNorm->setName(u"‖s·Eₚ‖"_s);
    m_peNorm->setName(u"‖PEₚ‖"_s);
    m_ratio->setName(u"ratio (right axis)"_s);
    m_expectedEmbedding->setName(u"expected"_s);
    m_expectedPe->setName(u"expected"_s);
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
    entry(u"s·E"_s, QPen(PlotStyle::kEmbedding, 1.3));
    entry(u"PE"_s, QPen(PlotStyle::kPositional, 1.3));
    entry(u"ratio (right)"_s, QPen(kRatio, 1.0));
    m_compactPositionEntries = m_compactEntries.mid(1, 2);
    entry(u"expected"_s, QPen(Qt::darkGray, 1.6, Qt::DashLine));
    // Each names a line of the norms' panel, where labels on the curves stand for the key
    // (DirectLabels); "expected" as setData says.
    for (const auto &[proxy, drawn] :
         {std::pair {m_compactEntries[0], m_embeddingNorm}, std::pair {m_compactEntries[1], m_peNorm},
          std::pair {m_compactEntries[2], m_ratio}, std::pair {m_compactEntries[3], m_expectedEmbedding}})
        DirectLabels::setStandsFor(proxy, drawn);
    // And what the two markers per column mean: of the columns' panel, so that the entries go with
    // it where little room gives it up (FigureRoom takes out the entries of a panel given up).
    const auto marker = [this](const QString &name, const QCPScatterStyle &style) {
        auto *graph = new QCPGraph(m_columns->axis(QCPAxis::atBottom), m_columns->axis(QCPAxis::atLeft));
        graph->setPen(QPen(Qt::darkGray));
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(style);
        graph->setName(name);
        m_compactEntries.append(graph);
    };
    marker(u"std"_s, QCPScatterStyle(QCPScatterStyle::ssSquare, Qt::darkGray, Qt::darkGray, kDotSize));
    marker(u"|mean|"_s, QCPScatterStyle(QCPScatterStyle::ssCircle, Qt::darkGray, kRingSize));
}

void MagnitudesFigure::addBlockLegends()
{
    // Five entries over the norms, four over the columns: one row each where the figure is wide.
    m_positionLegend = legendAbove(m_plot, m_positionBlock, 5);
    // Refilled by setData, which knows whether there is a position term to name.
    for (QCPGraph *graph : {m_embeddingNorm, m_expectedEmbedding, m_peNorm, m_expectedPe, m_ratio})
        MeasuredText::addToLegend(graph, m_positionLegend);
    m_columnLegend = legendAbove(m_plot, m_columnBlock, 4);
    for (QCPGraph *graph : {m_embeddingStd, m_embeddingMean, m_peStd, m_peMean})
        MeasuredText::addToLegend(graph, m_columnLegend);
}

void MagnitudesFigure::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    QCPLayoutGrid *layout = m_plot->plotLayout();
    if (compact) {
        // The legends above the axes leave (removing deletes them and their items); one short
        // legend takes a row of its own under both axes.
        for (QCPLayoutGrid *block : {m_positionBlock, m_columnBlock}) {
            block->remove(block->element(0, 0)); // the legend's row, with the legend
            block->simplify();
        }
        m_positionLegend = m_columnLegend = nullptr;
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
        m_compactLegend->setFont(font);
        m_compactLegend->setIconSize(14, 8);
        for (QCPGraph *graph : m_compactEntries)
            if (m_hasPositionTerm || !m_compactPositionEntries.contains(graph))
                MeasuredText::addToLegend(graph, m_compactLegend);
    } else {
        layout->remove(m_compactLegend); // deletes it and its items
        layout->simplify();
        m_compactLegend = nullptr;
        addBlockLegends();
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
                                     Qt::PenStyle style)
{
    auto *graph = new LevelledGraph(rect->axis(QCPAxis::atBottom), rect->axis(valueAxis));
    graph->setPen(QPen(color, style == Qt::DashLine ? 1.6 : 1.3, style));
    graph->setAdaptiveSampling(true);
    return graph;
}

void MagnitudesFigure::setData(const MagnitudesData &data)
{
    // Its rows named as they are indexed: positions p, or a timestep embedding's timesteps t.
    const TitleText::RowIndex &index = data.index;
    if (m_index != index) {
        m_index = index;
        m_positions->axis(QCPAxis::atBottom)->setLabel(index.axis());
        m_positions->axis(QCPAxis::atLeft)->setLabel(index.named(u"norm of row p"_s));
        ShorterLabels::set(m_positions->axis(QCPAxis::atLeft), {index.named(u"‖row p‖"_s)});
        m_embeddingNorm->setName(index.named(u"‖s·Eₚ‖"_s));
        m_peNorm->setName(index.named(u"‖PEₚ‖"_s));
    }
    // Without a position term (NoPE) only s·E is drawn: no PE, no ratio to it, no right axis.
    const bool pe = data.hasPositionTerm;
    if (pe != m_hasPositionTerm) {
        m_hasPositionTerm = pe;
        if (m_compactLegend) {
            m_compactLegend->clearItems();
            for (QCPGraph *graph : m_compactEntries)
                if (pe || !m_compactPositionEntries.contains(graph))
                    MeasuredText::addToLegend(graph, m_compactLegend);
        }
    }
    for (QCPGraph *graph : {m_peNorm, m_ratio, m_peStd, m_peMean})
        graph->setVisible(pe);
    // The compact key's "expected" labelled, where labels stand for it, beside the expected norm of
    // PE where there is one: drawn over a measured norm of one value for every position (the
    // sinusoid's), it leaves a label a place beside both, where s·E's noisy norm crosses its own.
    DirectLabels::setStandsFor(m_compactEntries[3], pe ? m_expectedPe : m_expectedEmbedding);
    m_positions->axis(QCPAxis::atRight)->setVisible(pe);
    // The points made in the job when they were made of this data (a window's view), here otherwise
    // (an export): the graphs share them, d or L points copied on no thread but the job's.
    const auto *prepared = dynamic_cast<const MagnitudesPoints *>(this->prepared().get());
    const std::shared_ptr<const MagnitudesPoints> made = prepared && prepared->data == &data
        ? std::static_pointer_cast<const MagnitudesPoints>(this->prepared())
        : makePoints(data);
    levelled(m_embeddingNorm)->setLevels(made->embeddingNorm);
    levelled(m_peNorm)->setLevels(made->peNorm);
    levelled(m_ratio)->setLevels(made->ratio);
    for (QCPGraph *graph : {m_embeddingNorm, m_peNorm, m_ratio})
        PlotStyle::showLonePoint(graph);
    const double last = static_cast<double>(std::max<std::int64_t>(data.maxLen - 1, 1));
    m_expectedEmbedding->setData({0.0, last}, {data.expectedEmbeddingNorm, data.expectedEmbeddingNorm}, true);
    if (data.expectedPeNorm)
        m_expectedPe->setData({0.0, last}, {*data.expectedPeNorm, *data.expectedPeNorm}, true);
    else
        m_expectedPe->data()->clear();
    m_expectedPe->setVisible(pe && data.expectedPeNorm.has_value());
    const QList<double> &peMean = made->peMeanSize, &embeddingMean = made->embeddingMeanSize;
    levelled(m_embeddingStd)->setLevels(made->embeddingStd);
    levelled(m_peStd)->setLevels(made->peStd);
    levelled(m_embeddingMean)->setLevels(made->embeddingMean);
    levelled(m_peMean)->setLevels(made->peMean);

    m_expectedEmbedding->setName(
        u"expected %1 = %2"_s.arg(data.expectedEmbeddingFormula, NumberText::compact(data.expectedEmbeddingNorm)));
    m_expectedPe->setName(data.expectedPeNorm ? u"expected %1 = %2"_s.arg(data.expectedPeFormula,
                                                                          NumberText::compact(*data.expectedPeNorm))
                                              : u"expected"_s);
    if (m_positionLegend) {
        // Odd k has no closed form to draw, nor to name.
        m_positionLegend->clearItems();
        for (QCPGraph *graph : {m_embeddingNorm, m_expectedEmbedding, m_peNorm, m_expectedPe, m_ratio})
            if (graph->visible())
                MeasuredText::addToLegend(graph, m_positionLegend);
    }
    if (m_columnLegend) {
        m_columnLegend->clearItems();
        for (QCPGraph *graph : {m_embeddingStd, m_embeddingMean, m_peStd, m_peMean})
            if (graph->visible())
                MeasuredText::addToLegend(graph, m_columnLegend);
    }
    m_positions->axis(QCPAxis::atBottom)->setRange(-0.5, last + 0.5);
    const double positionHeadroom = 2.0;
    const double columnHeadroom = m_compact ? 12.0 : 2.0; // a short axis keeps a second decade labelled
    m_positions->axis(QCPAxis::atLeft)->setRange(logRange(made->norms, positionHeadroom));
    m_positions->axis(QCPAxis::atRight)->setRange(logRange(made->ratios, positionHeadroom));
    m_columns->axis(QCPAxis::atBottom)->setRange(-0.5, static_cast<double>(data.columns.size()) - 0.5);
    // The RMS bounds the std and the |mean| from above; below, down to the smallest of them but
    // five decades at most: a |mean| smaller still (a column averaging to zero) lies under the axis.
    QCPRange columnRange = logRange(made->rms, columnHeadroom);
    const QCPRange lowRange = logRange(made->spread, 1.0);
    columnRange.lower = std::max(std::min(columnRange.lower, lowRange.lower), columnRange.upper * 1e-5);
    m_columns->axis(QCPAxis::atLeft)->setRange(columnRange);
    // What lies under the axis is counted in the legend, not left out unsaid.
    m_embeddingStd->setName(FigureText::belowAxisName(u"std of s·E[:, j]"_s, {&data.embeddingStd}, columnRange.lower));
    m_peStd->setName(FigureText::belowAxisName(u"std of PE[:, j]"_s, {&data.peStd}, columnRange.lower));
    m_embeddingMean->setName(FigureText::belowAxisName(u"|mean| of s·E[:, j]"_s, {&embeddingMean}, columnRange.lower));
    m_peMean->setName(FigureText::belowAxisName(u"|mean| of PE[:, j]"_s, {&peMean}, columnRange.lower));
    // A paper column keeps the parameters and drops what the axis labels say.
    QStringList parts {u"Magnitudes"_s, data.parameters};
    if (!m_compact)
        parts = QStringList {index.named(u"Magnitudes per position (top), mean and std per column (bottom)"_s),
                             data.input, data.parameters};
    if (data.positionStride > 1)
        parts.append(index.named(u"norms at one position in %1"_s.arg(FigureText::formatCount(data.positionStride))));
    if (!data.columnStatsExact())
        parts.append(u"per column, s·E estimated from %1 of %2"_s.arg(FigureText::formatCount(data.rmsRows),
                                                                      index.count(data.maxLen)));
    m_title->setText(parts.join(u"  ·  "_s));
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
        point.valueName
            = m_data->index.named(u"‖s·Eₚ‖ = %1, ‖PEₚ‖ = %2, ratio"_s.arg(m_data->embeddingNorm[i], 0, 'g', 5)
                                      .arg(m_data->peNorm[i], 0, 'g', 5));
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
