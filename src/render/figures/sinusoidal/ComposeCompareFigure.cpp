#include "ComposeCompareFigure.h"

#include "render/Colormaps.h"
#include "render/CoverageColorMap.h"
#include "render/FigureDescriptor.h"
#include "render/FigureRoom.h"
#include "render/GivenLabel.h"
#include "render/HeatmapPanel.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/StampedGraph.h"
#include "render/SwatchLegend.h"

#include "render/data/ViewOptions.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

constexpr double kDotSize = 3.0;
constexpr double kRingSize = 4.5;
const QSize kCaptionRoom(900, 560); // layout units

QCPGraph *dots(QCPAxisRect *rect, const QColor &color, bool ring)
{
    auto *graph = new StampedGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setPen(QPen(color, 1.3));
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(ring ? QCPScatterStyle(QCPScatterStyle::ssCircle, color, kRingSize)
                                : QCPScatterStyle(QCPScatterStyle::ssSquare, color, color, kDotSize));
    return graph;
}

// Each axis follows the other: zooming or panning either moves both.
void link(QCPAxis *a, QCPAxis *b)
{
    QObject::connect(a, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), b,
                     qOverload<const QCPRange &>(&QCPAxis::setRange));
    QObject::connect(b, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), a,
                     qOverload<const QCPRange &>(&QCPAxis::setRange));
}

// The grid's cells into the colour map, table cell j spanning [j - 0.5, j + 0.5] as in every
// heatmap of the program.
void setGrid(QCPColorMap *map, HeatmapMarks *marks, const HeatmapGrid &grid, bool meanOnly)
{
    QCPColorMapData *data = map->data();
    const Block &b = grid.block;
    data->setSize(grid.cols, grid.rows);
    data->setRange(HeatmapPanel::cellRange(b.col0, b.colEnd(), grid.cols),
                   HeatmapPanel::cellRange(b.row0, b.rowEnd(), grid.rows));
    for (int a = 0; a < grid.rows; ++a)
        for (int c = 0; c < grid.cols; ++c)
            data->setCell(c, a, grid.at(a, c));
    marks->setGrid(data->keyRange(), data->valueRange(), grid.cols, grid.rows);
    marks->setSpread(grid.spread);
    marks->setShowSpread(!meanOnly);
}

QList<double> magnitudes(const QList<double> &values)
{
    QList<double> out;
    out.reserve(values.size());
    for (const double v : values)
        out.append(std::abs(v));
    return out;
}

// "slowest cos j = 511: mean 1.00, std 0.0017 (an offset)": the reading from the numbers, for a
// slow column varies fully too once the positions span its wavelength.
QString columnText(const ColumnPart &pe, std::int64_t column, const QString &which)
{
    const qsizetype i = pe.columns.indexOf(static_cast<double>(column));
    if (i < 0)
        return {};
    const double std = pe.std[i];
    const QString reading = std < 0.1 ? u"an offset"_s : std > 0.6 ? u"varies fully"_s : u"varies in part"_s;
    // No "-0.00" for a mean that rounds to zero.
    const double mean = std::abs(pe.mean[i]) < 0.005 ? 0.0 : pe.mean[i];
    return u"%1 j = %2: mean %3, std %4 (%5)"_s.arg(which)
        .arg(column)
        .arg(mean, 0, 'f', 2)
        .arg(NumberText::compact(std, 2), reading);
}

// The typical spread of s*E: its std, averaged over its columns.
double meanStd(const ColumnPart &part)
{
    if (part.std.isEmpty())
        return 0.0;
    double sum = 0.0;
    for (const double v : part.std)
        sum += v;
    return sum / static_cast<double>(part.std.size());
}

} // namespace

std::unique_ptr<FigureDescriptor> makeComposeCompareFigure()
{
    return std::make_unique<FigureDescriptorOf<ComposeCompareModel, ComposeCompareFigure>>();
}

ComposeCompareFigure::ComposeCompareFigure(QCustomPlot *plot)
    : m_plot(plot)
    , m_title(PlotStyle::resetWithTitle(plot))
    , m_scale(new QCPColorScale(plot))
{
    // Rows: headers, how the parts sit, heatmaps, captions, statistics; the colour scale beside
    // the heatmaps in a third, narrow column.
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->setColumnSpacing(16);
    grid->setRowSpacing(2);
    auto *heights = new QCPMarginGroup(plot);
    for (int i = 0; i < 2; ++i) {
        Side &side = m_sides[static_cast<std::size_t>(i)];
        // The heatmap and the statistics of a side share their columns' axis, so their margins.
        auto *columns = new QCPMarginGroup(plot);
        side.header = PlotStyle::panelTitle(plot, true);
        side.layout = PlotStyle::panelTitle(plot, false);
        side.heat = new QCPAxisRect(plot);
        side.caption = PlotStyle::panelTitle(plot, false);
        side.stats = new QCPAxisRect(plot);
        grid->addElement(0, i, side.header);
        grid->addElement(1, i, side.layout);
        grid->addElement(2, i, side.heat);
        grid->addElement(3, i, side.caption);
        grid->addElement(4, i, side.stats);
        // What sits where and the caption are notes; on little room the two heatmaps stay, the
        // statistics under them go.
        FigureRoom::setRole(side.layout, TextRole::Caption);
        FigureRoom::setRole(side.caption, TextRole::Caption);
        FigureRoom::setDispensable(side.caption, 1);
        FigureRoom::setDispensable(side.stats, 1);
        for (QCPAxisRect *rect : {side.heat, side.stats}) {
            PlotStyle::styleAxisRect(rect);
            rect->setMarginGroup(QCP::msLeft | QCP::msRight, columns);
            IndexTicker::install(rect->axis(QCPAxis::atBottom));
        }
        side.heat->axis(QCPAxis::atLeft)->setRangeReversed(true);
        IndexTicker::install(side.heat->axis(QCPAxis::atLeft));
        side.heat->axis(QCPAxis::atBottom)->setLabel(u"column j"_s);
        side.stats->axis(QCPAxis::atBottom)->setLabel(u"column j"_s);
        // Short of room, the index alone, in the row of its numbers past the last (FigureRoom's
        // labelsAlongTicks): the row "column j" takes under the maps goes to them.
        for (QCPAxisRect *rect : {side.heat, side.stats})
            ShorterLabels::set(rect->axis(QCPAxis::atBottom), {u"j"_s});
        if (i == 0) {
            side.heat->axis(QCPAxis::atLeft)->setLabel(u"position p"_s);
            side.stats->axis(QCPAxis::atLeft)->setLabel(u"std ■, |mean| ○"_s);
        }
        side.map = new CoverageColorMap(side.heat->axis(QCPAxis::atBottom), side.heat->axis(QCPAxis::atLeft));
        side.map->setInterpolate(false);
        side.map->setTightBoundary(false);
        side.map->setAntialiased(false);
        side.map->setColorScale(m_scale);
        side.marks = new HeatmapMarks(side.heat->axis(QCPAxis::atBottom), side.heat->axis(QCPAxis::atLeft));
        PlotStyle::setLogAxis(side.stats->axis(QCPAxis::atLeft));
        side.stats->setRangeDrag(Qt::Horizontal);
        side.stats->setRangeZoom(Qt::Horizontal);
        side.embeddingStd = dots(side.stats, PlotStyle::kEmbedding, false);
        side.embeddingMean = dots(side.stats, PlotStyle::kEmbedding, true);
        side.peStd = dots(side.stats, PlotStyle::kPositional, false);
        side.peMean = dots(side.stats, PlotStyle::kPositional, true);
    }
    // One colour scale for both heatmaps, as tall as they are.
    grid->addElement(2, 2, m_scale);
    grid->setColumnStretchFactors({1.0, 1.0, 0.01});
    grid->setRowStretchFactors({0.001, 0.001, 1.0, 0.001, 1.0});
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_scale->setGradient(Colormaps::gradient(Colormap::Diverging));
    m_scale->axis()->setLabel(u"X"_s);
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());
    // The statistics of both sides too: the concatenation's is read on the sum's scale once it
    // gives it its tick labels (FigureRoom's shareAxes), so their plots stay as high as each other
    // whatever either's x label does (set along its ticks, one ran lower than the other).
    auto *statsHeights = new QCPMarginGroup(plot);
    for (const Side &side : m_sides) {
        side.heat->setMarginGroup(QCP::msTop | QCP::msBottom, heights);
        side.stats->setMarginGroup(QCP::msTop | QCP::msBottom, statsHeights);
    }
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, heights);
    // The two heatmaps show the same cells, the statistics the same columns.
    const Side &sum = m_sides[0], &concat = m_sides[1];
    link(sum.heat->axis(QCPAxis::atBottom), concat.heat->axis(QCPAxis::atBottom));
    link(sum.heat->axis(QCPAxis::atLeft), concat.heat->axis(QCPAxis::atLeft));
    link(sum.heat->axis(QCPAxis::atBottom), sum.stats->axis(QCPAxis::atBottom));
    link(concat.heat->axis(QCPAxis::atBottom), concat.stats->axis(QCPAxis::atBottom));

    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 4);
    for (QCPGraph *graph : {sum.embeddingStd, sum.embeddingMean, sum.peStd, sum.peMean})
        MeasuredText::addToLegend(graph, m_legend);
    m_title->setText(u"Sum or concatenate?"_s);
}

ComposeCompareFigure::~ComposeCompareFigure() = default;

void ComposeCompareFigure::setData(const ComposeCompareData &data, bool meanOnly)
{
    // The captions in numbers take four lines a side: for a slide or a maximised view, where
    // they leave the heatmaps and the statistics their room.
    const QSize room = m_plot->viewport().size();
    const bool roomy = !m_compact && room.width() >= kCaptionRoom.width() && room.height() >= kCaptionRoom.height();
    m_scale->setDataRange({-data.colorLimit, data.colorLimit});
    const TitleText::RowIndex &index = data.panels[0].grid.index;
    if (QCPAxis *rows = m_sides[0].heat->axis(QCPAxis::atLeft); !rows->label().isEmpty())
        GivenLabel::give(rows, index.axis());
    // The std and |mean| on one range for both sides, five decades at most below the largest (a
    // column averaging to zero lies under the axis) and two at least, so that decades are labelled.
    double lo = INFINITY, hi = 0.0;
    for (const ComposePanel &panel : data.panels)
        for (const QList<double> *list : {&panel.pe.std, &panel.embedding.std, &panel.pe.mean, &panel.embedding.mean})
            for (const double v : *list)
                if (std::isfinite(v) && std::abs(v) > 0.0) {
                    lo = std::min(lo, std::abs(v));
                    hi = std::max(hi, std::abs(v));
                }
    QCPRange values(0.01, 10.0);
    if (hi > 0.0)
        values = QCPRange(std::min(std::max(lo / 1.6, hi * 1e-5), hi / 100.0), hi * 2.0);

    for (std::size_t i = 0; i < m_sides.size(); ++i) {
        const ComposePanel &panel = data.panels[i];
        Side &side = m_sides[i];
        setGrid(side.map, side.marks, panel.grid, meanOnly);
        side.header->setText(i == 0 ? u"sum: "_s + panel.label : u"concat: "_s + panel.label);
        // A paper column keeps the heatmaps and the statistics; the words come with the room.
        PlotStyle::setCollapsibleText(side.layout, m_compact ? QString() : panel.layout);
        side.embeddingStd->setData(panel.embedding.columns, panel.embedding.std, true);
        side.embeddingMean->setData(panel.embedding.columns, magnitudes(panel.embedding.mean), true);
        side.peStd->setData(panel.pe.columns, panel.pe.std, true);
        side.peMean->setData(panel.pe.columns, magnitudes(panel.pe.mean), true);
        side.stats->axis(QCPAxis::atLeft)->setRange(values);
        QStringList caption;
        caption.append(columnText(panel.pe, panel.fastestCos, u"fastest cos"_s));
        caption.append(columnText(panel.pe, panel.slowestCos, u"slowest cos"_s));
        if (!panel.embedding.std.isEmpty())
            caption.append(u"s·E: std ≈ %1"_s.arg(NumberText::compact(meanStd(panel.embedding), 3)));
        caption.removeAll(QString());
        PlotStyle::setCollapsibleText(side.caption, roomy ? u"PE, "_s + caption.join(u"  ·  "_s) : QString());
    }
    const ComposePanel &sum = data.panels[0];
    // One legend for both sides; what lies under their axis is counted in it, not left out unsaid.
    const ComposePanel &concat = data.panels[1];
    const auto name = [&](const QString &compact, const QString &full, const QList<double> &a, const QList<double> &b) {
        return FigureText::belowAxisName(m_compact ? compact : full, {&a, &b}, values.lower, true);
    };
    m_sides[0].embeddingStd->setName(
        name(u"s·E std"_s, u"std of s·E[:, j]"_s, sum.embedding.std, concat.embedding.std));
    m_sides[0].embeddingMean->setName(
        name(u"s·E |mean|"_s, u"|mean| of s·E[:, j]"_s, sum.embedding.mean, concat.embedding.mean));
    m_sides[0].peStd->setName(name(u"PE std"_s, u"std of PE[:, j]"_s, sum.pe.std, concat.pe.std));
    m_sides[0].peMean->setName(name(u"PE |mean|"_s, u"|mean| of PE[:, j]"_s, sum.pe.mean, concat.pe.mean));

    // The oscillation mark named beside the statistics' entries, while either heatmap draws it.
    if (m_spreadItem) {
        m_legend->removeItem(m_spreadItem);
        m_spreadItem = nullptr;
    }
    for (const Side &side : m_sides) {
        const QList<Swatch> swatches = HeatmapPanel::swatchesOf(*side.marks);
        if (!swatches.isEmpty()) {
            m_spreadItem = SwatchLegend::add(m_legend, swatches.last());
            m_spreadItem->setFont(m_legend->font());
            // A mark over the heatmaps, as the heatmap's own legend of marks: left alone in the key
            // once the statistics' panels are given up, it goes with them (FigureRoom).
            FigureRoom::setRole(m_spreadItem, TextRole::Caption);
            break;
        }
    }
    // The lines are drawn while their entry is: a page that gives it up draws the means alone.
    for (const Side &side : m_sides)
        side.marks->setExplainedBy(m_spreadItem);

    QStringList parts {u"Sum or concatenate?"_s, data.parameters};
    if (data.embeddingsSliced)
        parts.append(u"concat takes E's first %1 columns"_s.arg(data.panels[1].params.embeddingColumns()));
    const QString preview = sum.grid.isPreview() ? FigureText::previewText(sum.grid.rowCoverage) : QString();
    setScreenNote(index.named(FigureText::cellsPerPixelText(sum.grid.block, sum.grid.rows, sum.grid.cols)), preview);
    if (!preview.isEmpty())
        parts.append(preview);
    if (!m_compact || !data.statisticsExact())
        parts.append(data.statisticsExact()
                         ? (data.maxLen == 1 ? u"statistics over the one %1"_s.arg(index.noun())
                                             : u"statistics over all %1"_s.arg(index.count(data.maxLen)))
                         : u"statistics estimated from %1 of %2"_s.arg(FigureText::formatCount(data.statisticsRows),
                                                                       index.count(data.maxLen)));
    m_title->setText(parts.join(u"  ·  "_s));
}

QList<ViewAxis> ComposeCompareFigure::viewAxes() const
{
    const QCPAxisRect *heat = m_sides[0].heat;
    return {{QString::fromUtf16(ComposeCompareModel::kColumnsAxis), heat->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(ComposeCompareModel::kPositionsAxis), heat->axis(QCPAxis::atLeft)}};
}

void ComposeCompareFigure::showDefaultView(const Params &params, const FigureState &state)
{
    const Block block = ViewOptions::inView(state, {0, params.maxLen, 0, params.dModel});
    // The links carry the ranges to the other heatmap and to the statistics.
    QCPAxisRect *heat = m_sides[0].heat;
    heat->axis(QCPAxis::atBottom)
        ->setRange(static_cast<double>(block.col0) - 0.5, static_cast<double>(block.colEnd()) - 0.5);
    heat->axis(QCPAxis::atLeft)
        ->setRange(static_cast<double>(block.row0) - 0.5, static_cast<double>(block.rowEnd()) - 0.5);
}

QList<PanelExtent> ComposeCompareFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const Side &side : m_sides) {
        const QCPRange x = side.heat->axis(QCPAxis::atBottom)->range();
        const QCPRange y = side.heat->axis(QCPAxis::atLeft)->range();
        list.append({side.heat->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void ComposeCompareFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &state)
{
    m_data = std::static_pointer_cast<const ComposeCompareData>(data);
    for (std::size_t i = 0; i < m_engines.size(); ++i)
        m_engines[i] = std::make_unique<Engine>(m_data->panels[i].params);
    setData(*m_data, ViewOptions::isMeanOnly(state));
}

QList<QCPAxisRect *> ComposeCompareFigure::pictureRects() const
{
    return {m_sides[0].heat, m_sides[1].heat, m_sides[0].stats, m_sides[1].stats};
}

QList<PositionAxis> ComposeCompareFigure::positionAxes() const
{
    return {{m_sides[0].heat, true}, {m_sides[1].heat, true}};
}

std::optional<HoverPoint> ComposeCompareFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    for (std::size_t i = 0; i < m_sides.size(); ++i) {
        const Side &side = m_sides[i];
        const ComposePanel &panel = m_data->panels[i];
        const QString name = i == 0 ? u"sum"_s : u"concat"_s;
        if (side.heat->rect().contains(pixel.toPoint())) {
            const auto j = static_cast<std::int64_t>(
                std::floor(side.heat->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()) + 0.5));
            const auto p = static_cast<std::int64_t>(
                std::floor(side.heat->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y()) + 0.5));
            if (p < 0 || p >= m_data->table.rows || j < 0 || j >= m_data->table.cols)
                return std::nullopt;
            // One cell, exact, from the side's own engine: microseconds.
            RowMatrixXf value(1, 1);
            m_engines[i]->computeBlock(Quantity::Input, {p, 1, j, 1}, value);
            HoverPoint point;
            point.position = p;
            point.value = value(0, 0);
            point.valueName = u"%1: %2"_s.arg(name, panel.label);
            // The readout reads every part of the cell from the window's parameters: right only
            // for the side composed as they are; the other side gives its X alone.
            if (panel.params.compose == engine.params().compose) {
                point.column = j;
                point.quantity = Quantity::Input;
            } else {
                point.valueName = u"%1: column %2, %3"_s.arg(name).arg(j).arg(panel.label);
            }
            return point;
        }
        if (side.stats->rect().contains(pixel.toPoint())) {
            const auto j
                = static_cast<std::int64_t>(std::llround(side.stats->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
            if (j < 0 || j >= m_data->table.cols)
                return std::nullopt;
            // The readout shows a value after its name: the last std read is it.
            QStringList parts;
            std::optional<double> last;
            for (const auto &[part, what] : {std::pair {&panel.embedding, u"s·E"_s}, {&panel.pe, u"PE"_s}}) {
                const qsizetype c = part->columns.indexOf(static_cast<double>(j));
                if (c < 0)
                    continue;
                if (last)
                    parts.last() += u" %1"_s.arg(*last, 0, 'g', 4);
                parts.append(u"%1 mean %2, %1 std"_s.arg(what).arg(part->mean[c], 0, 'g', 4));
                last = part->std[c];
            }
            HoverPoint point;
            point.hasPosition = false;
            point.value = last;
            point.valueName = u"%1, column %2: %3"_s.arg(name).arg(j).arg(parts.join(u", "_s));
            return point;
        }
    }
    return std::nullopt;
}

} // namespace posenc
