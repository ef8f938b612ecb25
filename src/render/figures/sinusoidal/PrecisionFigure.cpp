#include "PrecisionFigure.h"

#include "render/Colormaps.h"
#include "render/CoverageColorMap.h"
#include "render/FigureDescriptor.h"
#include "render/GivenLabel.h"
#include "render/HeatmapPanel.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"

#include "render/data/ViewOptions.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kMeasured(213, 94, 0);
const QColor kBound(40, 40, 40);
// The floor of the log axes: errors below it (float32 values that round alike) are drawn at it.
constexpr double kFloor = 1e-9;

void setLog(QCPAxis *axis)
{
    PlotStyle::setLogAxis(axis, 0);
}

} // namespace

std::unique_ptr<FigureDescriptor> makePrecisionFigure()
{
    return std::make_unique<FigureDescriptorOf<PrecisionModel, PrecisionFigure>>();
}

PrecisionFigure::PrecisionFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_bands(new QCPAxisRect(plot))
    , m_cells(new QCPAxisRect(plot))
    , m_map(nullptr)
    , m_scale(new QCPColorScale(plot))
    , m_legend(new QCPLegend)
{
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->addElement(0, 0, m_bands);
    grid->addElement(1, 0, m_legend);
    grid->addElement(2, 0, m_cells);
    grid->addElement(2, 1, m_scale);
    grid->setRowStretchFactor(1, 0.001);
    grid->setColumnStretchFactor(1, 0.01);
    // On little room the maximum per band of positions stays: the map per pixel goes.
    FigureRoom::setDispensable(m_cells, 1);
    FigureRoom::setDispensable(m_scale, 1);
    grid->setColumnSpacing(4);
    // The two panels' plot areas line up, so that a position is at the same x in both.
    auto *margins = new QCPMarginGroup(plot);
    m_bands->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_cells->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    // The colorbar spans the lower panel's plot area.
    auto *scaleMargins = new QCPMarginGroup(plot);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, scaleMargins);
    m_cells->setMarginGroup(QCP::msTop | QCP::msBottom, scaleMargins);
    for (QCPAxisRect *rect : {m_bands, m_cells}) {
        PlotStyle::styleAxisRect(rect);
        rect->axis(QCPAxis::atBottom)->setLabel(u"position p"_s);
        IndexTicker::install(rect->axis(QCPAxis::atBottom));
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
    }
    m_cells->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    m_cells->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    // Zooming the positions of one panel zooms the other's.
    QObject::connect(m_bands->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
                     m_cells->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    QObject::connect(m_cells->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
                     m_bands->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    setLog(m_bands->axis(QCPAxis::atLeft));
    m_bands->axis(QCPAxis::atLeft)->setLabel(u"max |error|"_s);
    m_cells->axis(QCPAxis::atLeft)->setLabel(u"column j"_s);
    IndexTicker::install(m_cells->axis(QCPAxis::atLeft));
    m_cells->axis(QCPAxis::atLeft)->setRangeReversed(true);

    m_measured = new QCPGraph(m_bands->axis(QCPAxis::atBottom), m_bands->axis(QCPAxis::atLeft));
    m_measured->setPen(QPen(kMeasured, 1.2));
    m_measured->setLineStyle(QCPGraph::lsStepCenter);
    m_bound = new QCPGraph(m_bands->axis(QCPAxis::atBottom), m_bands->axis(QCPAxis::atLeft));
    m_bound->setPen(QPen(kBound, 1.2, Qt::DashLine));
    // On its layer before its items: a legend's background drawn after them would hide them.
    m_legend->setLayer(u"legend"_s);
    for (QCPGraph *graph : {m_measured, m_bound})
        MeasuredText::addToLegend(graph, m_legend);
    m_legend->setBorderPen(Qt::NoPen);
    m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_legend->setWrap(2);
    QFont font = plot->font();
    m_legend->setFont(font);
    m_legend->setIconSize(18, 8);

    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_scale->setDataScaleType(QCPAxis::stLogarithmic);
    setLog(m_scale->axis());
    m_scale->axis()->setLabel(u"max |error| in each block"_s);
    m_scale->setGradient(Colormaps::gradient(Colormap::Viridis));
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());
    m_map = new CoverageColorMap(m_cells->axis(QCPAxis::atBottom), m_cells->axis(QCPAxis::atLeft));
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_map->setAntialiased(false);
    m_map->setColorScale(m_scale);
}

QList<ViewAxis> PrecisionFigure::viewAxes() const
{
    return {{QString::fromUtf16(PrecisionModel::kPositionsAxis), m_cells->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(PrecisionModel::kColumnsAxis), m_cells->axis(QCPAxis::atLeft)}};
}

void PrecisionFigure::showDefaultView(const Params &params, const FigureState &state)
{
    const auto range = ViewOptions::positionRange(state).value_or(std::pair {std::int64_t(0), params.maxLen});
    m_cells->axis(QCPAxis::atBottom)
        ->setRange(static_cast<double>(range.first) - 0.5, static_cast<double>(range.second) - 0.5);
    m_cells->axis(QCPAxis::atLeft)->setRange(-0.5, static_cast<double>(PrecisionModel::columns(params)) - 0.5);
}

QList<PanelExtent> PrecisionFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const QCPAxisRect *rect : {m_bands, m_cells}) {
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
        list.append({rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void PrecisionFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const PrecisionData>(data);
    const PrecisionData &d = *m_data;
    QList<double> measured;
    for (const double v : d.bandMax)
        measured.append(std::max(v, kFloor));
    m_measured->setData(d.bandCentre, measured, true);
    m_bound->setData(d.bandCentre, d.bound, true);
    PlotStyle::showLonePoint(m_measured);
    PlotStyle::showLonePoint(m_bound);
    // The band a point spans, in positions: what a slide can say, where "a pixel" could not.
    const TitleText::RowIndex &index = d.index;
    // Not a label the page gave to the panel below (FigureRoom's shared axis, which its undo shows again).
    for (QCPAxisRect *rect : {m_bands, m_cells})
        if (!rect->axis(QCPAxis::atBottom)->label().isEmpty())
            GivenLabel::give(rect->axis(QCPAxis::atBottom), index.axis());
    const QString over
        = index.named(d.bandPositions > 1.0 ? u"over each ~%1 positions"_s.arg(FigureText::formatRatio(d.bandPositions))
                                            : u"at each position"_s);
    const QString columns
        = d.bandPairsComplete ? u"every column"_s : u"the fastest %1 pairs"_s.arg(FigureText::formatCount(d.bandPairs));
    m_measured->setName(m_compact ? u"max |error|"_s : u"max |error| %1, %2"_s.arg(over, columns));
    // RoPE's θ_i, times its attention factor a where it has one (PrecisionModel::bound).
    const QString bound = !d.rope    ? u"bound p·w₀·2⁻²³ + 2⁻²⁵"_s
        : d.amplitude > 1.0          ? u"bound a·p·θ₀·2⁻²³ + 2⁻²⁴, a = %1"_s.arg(NumberText::compact(d.amplitude, 4))
        : d.amplitude < 1.0          ? u"bound a·p·θ₀·2⁻²³ + 2⁻²⁵, a = %1"_s.arg(NumberText::compact(d.amplitude, 4))
                                     : u"bound p·θ₀·2⁻²³ + 2⁻²⁵"_s;
    m_bound->setName(m_compact ? u"bound"_s : index.named(bound));
    // The decades the errors span, not those below the smallest.
    double lo = INFINITY, hi = kFloor * 10;
    for (const QList<double> *values : {static_cast<const QList<double> *>(&measured), &d.bound}) {
        for (const double v : *values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    m_bands->axis(QCPAxis::atLeft)->setRange(std::max(kFloor, std::min(lo, hi) / 3.0), hi * 3.0);

    QCPColorMapData *cells = m_map->data();
    const Block &b = d.block;
    if (d.cols > 0 && d.rows > 0) {
        // Positions on x, columns on y.
        cells->setSize(d.cols, d.rows);
        cells->setRange(HeatmapPanel::cellRange(b.row0, b.rowEnd(), d.cols),
                        HeatmapPanel::cellRange(b.col0, b.colEnd(), d.rows));
        for (int y = 0; y < d.rows; ++y)
            for (int x = 0; x < d.cols; ++x)
                cells->setCell(x, y, std::max(static_cast<double>(d.at(y, x)), kFloor));
    }
    // Two decades at least: over fewer than 1.6, QCPAxisTickerLog ticks in linear steps, which the
    // one-digit labels round alike ("2·10⁻⁸" three times at L = 1, where every error is 0).
    m_scale->setDataRange(QCPRange(kFloor, std::max(hi, kFloor * 100)));
    // What a block of the map holds, said as the band panel says its "at each position": one cell
    // where the map holds every position and column, else the positions or columns it groups.
    const bool positionByPosition = static_cast<std::int64_t>(d.cols) == b.rows;
    const bool columnByColumn = static_cast<std::int64_t>(d.rows) == b.cols;
    const QString block = positionByPosition && columnByColumn ? u"in each cell"_s
        : positionByPosition                                   ? u"in each block of columns"_s
        : columnByColumn                                       ? u"in each block of positions"_s
                                                               : u"in each block"_s;
    m_scale->axis()->setLabel(m_compact ? u"max |error|"_s : u"max |error| "_s + block);

    // RoPE's columns: its pairs' sines, then their cosines (the error quantity's).
    const QString what = m_compact ? u"Float32-angle error"_s
        : d.rope                   ? u"Float32 angles: max |sin, cos(float(p)·float(θ)) − sin, cos(p·θ)|"_s
                                   : u"Float32 angles: max |PE(float(p)·float(w)) − PE(p·w)|"_s;
    // RoPE's columns are its pairs' sines then cosines: counted, not named d as the sinusoid's width.
    const QString width = d.rope ? u"%1 columns (sin | cos)"_s.arg(FigureText::formatCount(d.peColumns))
                                 : u"d = %1"_s.arg(FigureText::formatCount(d.peColumns));
    QString title
        = u"%1  ·  %2, %3"_s.arg(what, FigureText::countText(b.rowEnd(), u"position"_s, u"positions"_s), width);
    if (d.largest > 0.0)
        title += u"  ·  largest %1 at position %2"_s.arg(NumberText::compact(d.largest, 3),
                                                         FigureText::formatCount(d.largestAt));
    if (d.stride > 1)
        title += u"  ·  preview: one position in %1 below"_s.arg(FigureText::formatCount(d.stride));
    if (d.columnsTaken > 0)
        title += u"  ·  preview: the last position and the fastest %1 columns of each pixel below"_s.arg(
            FigureText::formatCount(d.columnsTaken));
    else if (d.share > 1)
        title += u"  ·  preview: the last 1/%1 of each pixel's positions below"_s.arg(FigureText::formatCount(d.share));
    if (!d.bandPairsComplete)
        title += u"  ·  preview: the fastest %1 pairs above"_s.arg(FigureText::formatCount(d.bandPairs));
    m_title->setText(index.named(title));
    setScreenNote({},
                  d.stride > 1
                      ? index.named(u"preview: one position in %1 below"_s.arg(FigureText::formatCount(d.stride)))
                      : QString());
}

QList<PositionAxis> PrecisionFigure::positionAxes() const
{
    return {{m_bands, false}, {m_cells, false}};
}

std::optional<HoverPoint> PrecisionFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    for (QCPAxisRect *rect : {m_bands, m_cells}) {
        if (!rect->rect().contains(pixel.toPoint()))
            continue;
        const auto p = static_cast<std::int64_t>(std::llround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
        if (p < 0 || p >= engine.params().maxLen)
            return std::nullopt;
        HoverPoint point;
        point.position = p;
        if (rect == m_cells) {
            const auto j
                = static_cast<std::int64_t>(std::llround(rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y())));
            if (j < 0 || j >= PrecisionModel::columns(engine.params()))
                return std::nullopt;
            // The cell itself, exact, from the engine.
            RowMatrixXf value(1, 1);
            engine.computeBlock(Quantity::Error, {p, 1, j, 1}, value);
            point.column = j;
            point.columnIsPe = engine.params().encoding != Encoding::Rope;
            point.value = value(0, 0);
            point.valueName = u"error"_s;
        } else {
            // The sinusoid's w_0 = 1 (the legend's); RoPE's fastest θ_i and its attention factor.
            const std::vector<double> w = PrecisionModel::frequencies(engine.params());
            point.value = m_data->rope ? PrecisionModel::bound(p, w.empty() ? 0.0 : w.front(), m_data->amplitude)
                                       : PrecisionModel::bound(p, 1.0);
            point.valueName = u"bound at this position"_s;
        }
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
