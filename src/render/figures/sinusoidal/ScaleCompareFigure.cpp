#include "ScaleCompareFigure.h"

#include "render/FigureDescriptor.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QCPGraph *addGraph(QCPAxisRect *rect, const QColor &color, Qt::PenStyle style)
{
    auto *graph = new QCPGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setPen(QPen(color, style == Qt::DashLine ? 1.6 : 1.3, style));
    graph->setAdaptiveSampling(true);
    return graph;
}

// "32.003": enough digits to tell the measured ratio from the expected one.
QString ratioText(double value)
{
    return NumberText::compact(value, 5);
}

// "σ = d^-1/2, s = √d": the panel's title in a paper column, its numbers left to the ratio.
QString compactHeader(const ScaleVariant &variant)
{
    const QString sigma = variant.init == InitKind::ScaledNormal ? u"σ = d^-1/2"_s : u"σ = 1"_s;
    const QString scale = variant.scale == ScaleKind::Sqrt ? u"s = √d"_s : u"s = 1"_s;
    return u"%1, %2"_s.arg(sigma, scale);
}

} // namespace

std::unique_ptr<FigureDescriptor> makeScaleCompareFigure()
{
    return std::make_unique<FigureDescriptorOf<ScaleCompareModel, ScaleCompareFigure>>();
}

ScaleCompareFigure::ScaleCompareFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
{
    // Three rows a panel (its title, its ratio, its axes), so that panels side by side keep
    // their axes level however their titles wrap.
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->setColumnSpacing(16);
    grid->setRowSpacing(0);
    auto *margins = new QCPMarginGroup(plot);
    for (int i = 0; i < 4; ++i) {
        Panel &panel = m_panels[static_cast<std::size_t>(i)];
        const int row = i / 2, col = i % 2;
        panel.header = PlotStyle::panelTitle(plot, true);
        panel.ratio = PlotStyle::panelTitle(plot, false);
        panel.rect = new QCPAxisRect(plot);
        grid->addElement(3 * row, col, panel.header);
        grid->addElement(3 * row + 1, col, panel.ratio);
        grid->addElement(3 * row + 2, col, panel.rect);
        if (row == 1)
            panel.header->setMargins(QMargins(2, 10, 2, 1)); // apart from the axes above
        PlotStyle::styleAxisRect(panel.rect);
        PlotStyle::setLogAxis(panel.rect->axis(QCPAxis::atLeft));
        IndexTicker::install(panel.rect->axis(QCPAxis::atBottom));
        panel.rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        // The axes are named once, at the grid's outer edges: all four share them.
        if (row == 1)
            panel.rect->axis(QCPAxis::atBottom)->setLabel(u"position p"_s);
        if (col == 0)
            panel.rect->axis(QCPAxis::atLeft)->setLabel(u"norm of row p"_s);
        panel.embedding = addGraph(panel.rect, PlotStyle::kEmbedding, Qt::SolidLine);
        panel.expectedEmbedding = addGraph(panel.rect, PlotStyle::kEmbedding.darker(140), Qt::DashLine);
        panel.pe = addGraph(panel.rect, PlotStyle::kPositional, Qt::SolidLine);
        panel.expectedPe = addGraph(panel.rect, PlotStyle::kPositional.darker(140), Qt::DashLine);
    }

    // One legend under the four panels, for all of them.
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 4);
    const Panel &first = m_panels.front();
    for (QCPGraph *graph : {first.embedding, first.expectedEmbedding, first.pe, first.expectedPe})
        MeasuredText::addToLegend(graph, m_legend);
    m_title->setText(u"Why s = √d"_s);
}

void ScaleCompareFigure::setData(const ScaleCompareData &data)
{
    const double last = static_cast<double>(std::max<std::int64_t>(data.maxLen - 1, 1));
    const double expectedPe = std::sqrt(data.meanSquaredPeNorm);
    double lo = expectedPe, hi = expectedPe;
    const auto take = [&](double v) {
        if (std::isfinite(v) && v > 0.0) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    };
    for (const double v : data.peNorm)
        take(v);
    for (const ScaleVariant &variant : data.variants) {
        take(variant.expectedEmbeddingNorm);
        for (const double v : variant.embeddingNorm)
            take(v);
    }
    // One range for the four panels, so that their levels compare; a decade at least.
    const QCPRange values(lo / 1.6, std::max(hi * 1.6, lo * 10.0));

    for (qsizetype i = 0; i < data.variants.size() && i < qsizetype(m_panels.size()); ++i) {
        const ScaleVariant &variant = data.variants[i];
        Panel &panel = m_panels[static_cast<std::size_t>(i)];
        panel.embedding->setData(data.positions, variant.embeddingNorm, true);
        panel.pe->setData(data.positions, data.peNorm, true);
        PlotStyle::showLonePoint(panel.embedding);
        PlotStyle::showLonePoint(panel.pe);
        panel.expectedEmbedding->setData({0.0, last}, {variant.expectedEmbeddingNorm, variant.expectedEmbeddingNorm},
                                         true);
        panel.expectedPe->setData({0.0, last}, {expectedPe, expectedPe}, true);
        panel.rect->axis(QCPAxis::atBottom)->setRange(-0.5, last + 0.5);
        panel.rect->axis(QCPAxis::atLeft)->setRange(values);
        panel.header->setText(m_compact ? compactHeader(variant)
                                        : u"%1,  %2"_s.arg(variant.sigmaText, variant.scaleText));
        panel.ratio->setText(
            m_compact ? u"‖s·E‖ / ‖PE‖ = %1 (expected %2)"_s.arg(ratioText(variant.measuredRatio),
                                                                 ratioText(variant.expectedRatio))
                      : u"‖s·E‖ / ‖PE‖ = %1  ·  expected %2 = %3"_s.arg(
                          ratioText(variant.measuredRatio), data.ratioFormula, ratioText(variant.expectedRatio)));
    }
    const Panel &first = m_panels.front();
    first.embedding->setName(u"‖s·Eₚ‖"_s);
    first.pe->setName(u"‖PEₚ‖"_s);
    first.expectedEmbedding->setName(m_compact ? data.expectedEmbeddingFormula
                                               : u"expected "_s + data.expectedEmbeddingFormula);
    first.expectedPe->setName(m_compact ? data.expectedPeFormula : u"expected "_s + data.expectedPeFormula);
    // Eight sub-ticks a decade crowd into a black bar on a short log axis.
    for (const Panel &panel : m_panels)
        panel.rect->axis(QCPAxis::atLeft)->setSubTicks(!m_compact);

    QStringList parts {u"Why s = √d: ‖s·Eₚ‖ against ‖PEₚ‖ for σ ∈ {1, d^-1/2} × s ∈ {1, √d}"_s, data.parameters};
    parts.append(data.loadedMatrixSetAside ? u"E seeded N(0, σ²) in place of the loaded matrix"_s
                                           : u"E seeded N(0, σ²)"_s);
    if (!data.isExact())
        parts.append(u"norms at one position in %1"_s.arg(FigureText::formatCount(data.positionStride)));
    m_title->setText(parts.join(u"  ·  "_s));
}

QList<PanelExtent> ScaleCompareFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const Panel &panel : m_panels) {
        const QCPRange x = panel.rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = panel.rect->axis(QCPAxis::atLeft)->range();
        list.append({panel.rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void ScaleCompareFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const ScaleCompareData>(data);
    setData(*m_data);
}

QList<QCPAxisRect *> ScaleCompareFigure::pictureRects() const
{
    QList<QCPAxisRect *> rects;
    for (const Panel &panel : m_panels)
        rects.append(panel.rect);
    return rects;
}

QList<PositionAxis> ScaleCompareFigure::positionAxes() const
{
    QList<PositionAxis> axes;
    for (const Panel &panel : m_panels)
        axes.append({panel.rect, false});
    return axes;
}

std::optional<HoverPoint> ScaleCompareFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || m_data->positions.isEmpty())
        return std::nullopt;
    for (qsizetype i = 0; i < m_data->variants.size() && i < qsizetype(m_panels.size()); ++i) {
        const Panel &panel = m_panels[static_cast<std::size_t>(i)];
        if (!panel.rect->rect().contains(pixel.toPoint()))
            continue;
        const double x = panel.rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        const QList<double> &positions = m_data->positions;
        const auto it = std::lower_bound(positions.begin(), positions.end(), x);
        qsizetype r = std::clamp<qsizetype>(it - positions.begin(), 0, positions.size() - 1);
        if (r > 0 && std::abs(positions[r - 1] - x) < std::abs(positions[r] - x))
            --r;
        const ScaleVariant &variant = m_data->variants[i];
        HoverPoint point;
        point.position = static_cast<std::int64_t>(positions[r]);
        point.value = variant.embeddingNorm[r] / m_data->peNorm[r];
        point.valueName = u"%1, %2: ‖s·Eₚ‖ = %3, ‖PEₚ‖ = %4, ratio"_s.arg(variant.sigmaText, variant.scaleText)
                              .arg(variant.embeddingNorm[r], 0, 'g', 5)
                              .arg(m_data->peNorm[r], 0, 'g', 5);
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
