#include "DropoutAnatomyCharts.h"

#include "render/FigureBuild.h"
#include "render/FigureFit.h"
#include "render/LegendPlacement.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/StampedGraph.h"

#include "render/data/FigureText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kKept(0, 114, 178);
const QColor kDropped(213, 94, 0);
const QColor kPassed(90, 90, 90);
const QColor kZeroed(204, 121, 167);
const QColor kBand(0, 114, 178, 45);
constexpr int kBandPoints = 201;
constexpr int kLegendColumns = 2;

QCPAxisRect *rectIn(QCustomPlot *plot, QCPLayoutGrid *grid, int col)
{
    auto *rect = new QCPAxisRect(plot);
    grid->addElement(1, col, rect);
    PlotStyle::styleAxisRect(rect);
    // As small as an export lets axes be: the window lays them out as the export does.
    rect->setMinimumSize(FigureBuild::kMinAxisSide, FigureBuild::kMinAxisSide);
    rect->setRangeDrag(Qt::Orientations());
    rect->setRangeZoom(Qt::Orientations());
    return rect;
}

QCPLegend *legendIn(QCustomPlot *plot, QCPLayoutGrid *grid, int col)
{
    auto *legend = new QCPLegend;
    grid->addElement(2, col, legend);
    legend->setLayer(u"legend"_s);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(kLegendColumns);
    QFont font = plot->font();
    legend->setFont(font);
    legend->setIconSize(18, 8);
    return legend;
}

// At most `columns` columns: FigureFit takes fewer where they do not fit.
void setColumns(QCPLegend *legend, int columns)
{
    FigureFit::setLegendWrap(legend, columns);
}

QCPGraph *dots(QCPAxisRect *rect, const QColor &color, QCPScatterStyle::ScatterShape shape = QCPScatterStyle::ssDisc)
{
    auto *graph = new StampedGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(QCPScatterStyle(shape, color, color, 4.5));
    return graph;
}

QCPGraph *line(QCPAxisRect *rect, const QPen &pen)
{
    auto *graph = new StampedGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setPen(pen);
    return graph;
}

} // namespace

DropoutAnatomyCharts::DropoutAnatomyCharts(QCustomPlot *plot, QCPLayoutGrid *grid)
    : m_grid(grid)
    , m_scatterTitle(PlotStyle::smallText(plot, grid, 0, 0, TextRole::PanelTitle))
    , m_fractionTitle(PlotStyle::smallText(plot, grid, 0, 1, TextRole::PanelTitle))
    , m_scatter(rectIn(plot, grid, 0))
    , m_fraction(rectIn(plot, grid, 1))
    , m_scatterLegend(legendIn(plot, grid, 0))
    , m_fractionLegend(legendIn(plot, grid, 1))
{
    grid->setColumnSpacing(16); // the fraction chart's label and numbers stand apart from the scatter
    grid->setRowSpacing(2);
    grid->setRowStretchFactor(0, 0.01);
    grid->setRowStretchFactor(2, 0.01);

    m_slopeEvaluation = line(m_scatter, QPen(kPassed, 1.0, Qt::DashLine));
    m_slopeKept = line(m_scatter, QPen(kKept, 1.0));
    m_slopeDropped = line(m_scatter, QPen(kDropped, 1.0));
    m_passed = dots(m_scatter, kPassed);
    m_zeroed = dots(m_scatter, kZeroed, QCPScatterStyle::ssCross);
    m_kept = dots(m_scatter, kKept);
    m_dropped = dots(m_scatter, kDropped);
    for (QCPGraph *graph : {m_kept, m_dropped, m_passed, m_zeroed, m_slopeEvaluation})
        MeasuredText::addToLegend(graph, m_scatterLegend);

    m_bandLow = line(m_fraction, Qt::NoPen);
    m_bandHigh = line(m_fraction, Qt::NoPen);
    m_bandHigh->setBrush(kBand);
    m_bandHigh->setChannelFillGraph(m_bandLow);
    m_expected = line(m_fraction, QPen(QColor(40, 40, 40), 1.0, Qt::DashLine));
    m_measured = dots(m_fraction, kKept);
    m_current = dots(m_fraction, kDropped, QCPScatterStyle::ssCircle);
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kDropped, 1.6), Qt::NoBrush, 10));
    for (QCPGraph *graph : {m_measured, m_bandHigh, m_expected, m_current})
        MeasuredText::addToLegend(graph, m_fractionLegend);
    m_fraction->axis(QCPAxis::atBottom)->setLabel(u"dropout probability p"_s);
    // Short of room the label's sense, not its first words ("fraction of cells …" on a 16:9 slide).
    ShorterLabels::set(m_fraction->axis(QCPAxis::atLeft), {u"fraction dropped"_s, u"fraction"_s});
    m_fraction->axis(QCPAxis::atBottom)->setRange(-0.02, 1.02);
    m_fraction->axis(QCPAxis::atLeft)->setRange(-0.02, 1.02);
}

void DropoutAnatomyCharts::fill(const DropoutAnatomyData &data, bool brief)
{
    fillScatter(data, brief);
    fillFraction(data, brief);
}

void DropoutAnatomyCharts::setLegendsInside(bool inside)
{
    if (inside == m_inside)
        return;
    m_inside = inside;
    int col = 0;
    for (const auto &[legend, rect] :
         {std::pair {m_scatterLegend, m_scatter}, std::pair {m_fractionLegend, m_fraction}}) {
        if (inside) {
            m_grid->take(legend);
            rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
            legend->setBrush(QColor(255, 255, 255, 210));
            LegendPlacement::setBest(legend);
        } else {
            rect->insetLayout()->take(legend);
            m_grid->addElement(2, col, legend);
            legend->setBrush(Qt::NoBrush);
        }
        ++col;
    }
    m_grid->simplify();
    const QList<double> factors = inside ? QList<double> {0.01, 1.0} : QList<double> {0.01, 1.0, 0.01};
    // A grid stacked on a page grown for its panels (StackedPanels) keeps the factors it was given.
    if (m_grid->rowCount() == factors.size())
        m_grid->setRowStretchFactors(factors);
}

void DropoutAnatomyCharts::fillScatter(const DropoutAnatomyData &d, bool brief)
{
    const Params &p = d.params;
    const bool embedding = p.dropoutMode == DropoutMode::Embedding;
    const bool positional = p.dropoutMode == DropoutMode::Positional;
    m_kept->setData(d.kept.x, d.kept.y);
    m_dropped->setData(d.dropped.x, d.dropped.y);
    m_passed->setData(d.passed.x, d.passed.y);
    m_zeroed->setData(d.zeroed.x, d.zeroed.y);
    double lo = 0.0, hi = 0.0;
    for (const ScatterPoints *points : {&d.kept, &d.dropped, &d.passed, &d.zeroed})
        for (const double x : points->x) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    const double pad = 0.05 * std::max(hi - lo, 1e-9);
    lo -= pad;
    hi += pad;
    const double slope = p.dropout < 1.0 ? 1.0 / (1.0 - p.dropout) : 0.0;
    m_slopeKept->setData({lo, hi}, {slope * lo, slope * hi});
    m_slopeKept->setVisible(p.dropout < 1.0);
    m_slopeDropped->setData({lo, hi}, {0.0, 0.0});
    // At p = 0 nothing is dropped: no line of slope 0, no entry for it (modernbert-base's p = 0
    // drew a "dropped" line and named "dropped: 0 (0)").
    const bool dropsNothing = p.dropout <= 0.0;
    m_slopeDropped->setVisible(!dropsNothing);
    m_slopeEvaluation->setData({lo, hi}, {lo, hi});
    m_scatter->axis(QCPAxis::atBottom)->setRange(lo, hi);
    const double top = std::max(slope, 1.0);
    m_scatter->axis(QCPAxis::atLeft)->setRange(top * lo, top * hi);
    m_scatter->axis(QCPAxis::atBottom)
        ->setLabel(embedding        ? u"s·E, the dropout's input"_s
                       : positional ? u"PE, the dropout's input"_s
                                    : u"X, the dropout's input"_s);
    m_scatter->axis(QCPAxis::atLeft)
        ->setLabel(embedding        ? u"Y − PE, its output"_s
                       : positional ? u"Y − s·E, its output"_s
                                    : u"Y, its output"_s);

    const auto named = [](QCPGraph *graph, const QString &name, qsizetype count) {
        graph->setName(u"%1 (%2)"_s.arg(name, FigureText::formatCount(count)));
    };
    named(m_kept, dropsNothing ? u"kept: × 1"_s : p.dropout < 1.0 ? u"kept: × 1/(1−p)"_s : u"kept"_s, d.kept.size());
    named(m_dropped, u"dropped: 0"_s, d.dropped.size());
    named(m_passed, u"passed through: × 1"_s, d.passed.size());
    named(m_zeroed, u"padding zeroed"_s, d.zeroed.size());
    m_slopeEvaluation->setName(d.zeroed.size() > 0 ? u"evaluation: Y = X (not the padding)"_s : u"evaluation: Y = X"_s);
    // Only the kinds of cells in view are named, and the dropped ones only where p can drop any.
    for (QCPGraph *graph : {m_dropped, m_passed, m_zeroed}) {
        graph->removeFromLegend(m_scatterLegend);
        if (graph->dataCount() > 0 || (graph == m_dropped && !dropsNothing))
            MeasuredText::addToLegend(graph, m_scatterLegend);
    }
    QString rows = d.scatterEveryRow ? QString() : u", evenly spaced rows"_s;
    if (d.nonFiniteCells > 0)
        rows += u", %1 not finite left out"_s.arg(FigureText::formatCount(d.nonFiniteCells));
    const QString slopes = dropsNothing ? u"p = 0: slope 1, nothing dropped"_s
        : p.dropout < 1.0 ? u"slopes %1 (kept) and 0 (dropped)"_s.arg(NumberText::compact(1.0 / (1.0 - p.dropout)))
                          : u"p = 1: slope 0, every cell under dropout dropped"_s;
    const QString title = brief ? u"output against input, %1"_s.arg(slopes)
                                : u"each cell's output against its input: %1 cells in view%2\n%3"_s.arg(
                                    FigureText::formatCount(d.scatterCells), rows, slopes);
    m_scatterTitle->setText(title); // FigureFit wraps the texts and legends within their column
    // Short of room the slopes whole, not the words the axes say ("output against input, slopes
    // 1.111 (kept) …" on a 14-pt slide): what a reader checks the dots against.
    ShorterLabels::setText(m_scatterTitle, brief ? QStringList {slopes} : QStringList());
    setColumns(m_scatterLegend, m_inside ? 1 : brief ? 4 : kLegendColumns);
}

void DropoutAnatomyCharts::fillFraction(const DropoutAnatomyData &d, bool brief)
{
    const std::int64_t n = d.countedCells;
    m_probabilities = d.probabilities;
    m_fractions = d.dropFractions;
    m_counted = n;
    m_dropout = d.params.dropout;
    QList<double> ps, low, high;
    for (int k = 0; k < kBandPoints; ++k) {
        const double at = static_cast<double>(k) / (kBandPoints - 1);
        const double band = 4.0 * DropoutAnatomyCompute::sigma(at, n);
        ps.append(at);
        low.append(at - band);
        high.append(at + band);
    }
    m_bandLow->setData(ps, low, true);
    m_bandHigh->setData(ps, high, true);
    m_expected->setData({0.0, 1.0}, {0.0, 1.0}, true);
    m_measured->setData(d.probabilities, d.dropFractions, true);
    m_current->setData({d.params.dropout}, {d.measuredAtP}, true);
    m_bandHigh->setName(u"p ± 4√(p(1−p)/n)"_s);
    m_expected->setName(u"expected: p"_s);
    m_measured->setName(u"measured, nested masks"_s);
    m_current->setName(
        u"at p = %1: %2"_s.arg(NumberText::compact(d.params.dropout), NumberText::compact(d.measuredAtP, 3)));
    const QString title = n == 0
        ? u"fraction dropped against p: no cell in view is under dropout\n(rows passed through or zeroed)"_s
        : brief ? u"fraction dropped against p, n = %1 cells in view"_s.arg(FigureText::formatCount(n))
                : u"fraction dropped against p, n = %1 cells in view\none seed for every p: a cell dropped at p stays "
                  "dropped above it (nested masks), so the dots stray together"_s.arg(FigureText::formatCount(n));
    m_fractionTitle->setText(title);
    // Where few lines fit, in one line as its title says it, not wrapped in two beside the chart.
    m_fraction->axis(QCPAxis::atLeft)->setLabel(m_inside ? u"fraction dropped"_s : u"fraction of cells dropped"_s);
    setColumns(m_fractionLegend, m_inside ? 1 : brief ? 4 : kLegendColumns);
}

std::optional<HoverPoint> DropoutAnatomyCharts::hoverAt(const QPointF &pixel) const
{
    HoverPoint point;
    point.hasPosition = false;
    if (m_fraction->rect().contains(pixel.toPoint()) && !m_probabilities.isEmpty()) {
        const double at = m_fraction->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        qsizetype k = 0;
        for (qsizetype i = 1; i < m_probabilities.size(); ++i) {
            if (std::abs(m_probabilities[i] - at) < std::abs(m_probabilities[k] - at))
                k = i;
        }
        const double p = m_probabilities[k];
        point.valueName = u"p = %1: dropped %2 of %3 cells, expected %1 ± %4 (4σ)"_s.arg(
            NumberText::compact(p), NumberText::compact(m_fractions.value(k), 4), FigureText::formatCount(m_counted),
            NumberText::compact(4.0 * DropoutAnatomyCompute::sigma(p, m_counted), 3));
        return point;
    }
    if (m_scatter->rect().contains(pixel.toPoint())) {
        const double x = m_scatter->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        const QString kept = m_dropout < 1.0 ? NumberText::compact(x / (1.0 - m_dropout), 4) : u"none"_s;
        point.valueName = m_dropout <= 0.0
            ? u"input %1: kept %1 (× 1), nothing dropped at p = 0"_s.arg(NumberText::compact(x, 4))
            : u"input %1: kept %2 (× 1/(1 − p)), dropped 0"_s.arg(NumberText::compact(x, 4), kept);
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
