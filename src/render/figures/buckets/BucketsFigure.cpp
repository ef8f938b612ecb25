#include "BucketsFigure.h"

#include "render/FigureDescriptor.h"
#include "render/FigureFit.h"
#include "render/FigureRoom.h"
#include "render/MapOptions.h"
#include "render/MeasuredText.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"
#include "render/SwatchLegend.h"

#include "core/t5/T5Buckets.h"
#include "render/data/FigureText.h"
#include "render/data/ViewOptions.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kBucketsAfter(0, 114, 178);
const QColor kBucketsBefore(213, 94, 0);
const QColor kBucketsCausal(0, 158, 115);
const QColor kBucketsDeberta(204, 121, 167);
const QColor kBucketsExactShade(86, 180, 233, 60);
const QColor kBucketsFarShade(120, 120, 120, 45);
const QColor kBucketsMark(60, 60, 60);
// The share of its decades the distances' axis runs before distance 1 (showDefaultView).
constexpr double kBucketsDistancePad = 0.04;

QCPGraph *bucketsStepGraph(QCPAxisRect *rect, const QColor &color, double width, Qt::PenStyle style = Qt::SolidLine)
{
    QCPGraph *graph = PlotItems::line(rect, color, width, style);
    graph->setLineStyle(QCPGraph::lsStepLeft);
    return graph;
}

QString bucketsCount(std::int64_t n)
{
    return FigureText::formatCount(n);
}

QString bucketsTitle(bool terse)
{
    QString title = terse ? u"T5 and DeBERTa buckets: exact near, logarithmic far"_s
                          : u"Relative position buckets: exact near, logarithmic far"_s;
    // T5 adds a number per bucket; DeBERTa's bucket picks rows of a learned relative embedding whose
    // projections meet the tokens' contents (HF's disentangled_attention_bias: c2p and p2c).
    if (!terse)
        title += u"  ·  T5: a learned bias per bucket; DeBERTa: c2p + p2c over its bucket's embedding rows"_s;
    return title;
}

// Each line drawn only while the entry that names it is (FigureRoom::setExplainedBy): DeBERTa's
// lines share T5's entries.
void explainLines(QCPLegend *legend, std::initializer_list<std::pair<QCPGraph *, QCPGraph *>> lines)
{
    for (const auto &[line, named] : lines)
        FigureRoom::setExplainedBy(line, legend->itemWithPlottable(named));
}

// The map's colours: T5's buckets on viridis from 0, DeBERTa's signed ones diverging about 0, or
// `chosen`, the colour map --colormap chose (MapOptions::chosenColormap), which the map is
// recoloured with after fill.
HeatmapStyle mapStyle(const BucketsData &d, std::optional<Colormap> chosen = std::nullopt)
{
    const bool t5Map = d.family == Encoding::T5;
    HeatmapStyle style;
    style.colormap = chosen.value_or(t5Map ? Colormap::Viridis : Colormap::Diverging);
    style.dataRange = {d.mapLow, d.mapHigh};
    style.wholeNumbers = true;
    // DeBERTa's bucket is signed (−256 … 255 for 256 buckets, a row of its table each): its map's
    // title and colour bar say so, where "256 buckets" over a bar of −255 … 255 read as two counts.
    style.colorbarLabel = t5Map ? Quantities::label(Quantity::T5Bucket) : u"DeBERTa signed bucket of i − j"_s;
    return style;
}

// Why the chosen family's map is not drawn, if it is not.
const std::optional<QString> &mapProblem(const BucketsData &d)
{
    return d.family == Encoding::T5 ? d.t5Problem : d.debertaProblem;
}

} // namespace

std::unique_ptr<FigureDescriptor> makeBucketsFigure()
{
    return std::make_unique<FigureDescriptorOf<BucketsModel, BucketsFigure>>();
}

// The map's pixels, made in the data's job for the panel the request saw (panels(): T5's curves,
// DeBERTa's, then the map) in the colours the map will have, as HeatmapFigure's: the GUI thread
// only draws them.
std::shared_ptr<const PreparedDrawing> BucketsFigure::prepare(const FigureData &data, const FigureRequest &request)
{
    const auto *buckets = dynamic_cast<const BucketsData *>(&data);
    if (!buckets || request.panels.size() < 3 || mapProblem(*buckets))
        return nullptr;
    auto made = std::make_shared<PreparedMaps>();
    made->data = &data;
    made->maps = {HeatmapPanel::prepareCoverage(
        buckets->map, mapStyle(*buckets, MapOptions::chosenColormap(request.state)), request.panels[2])};
    return made;
}

BucketsFigure::BucketsFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_t5(new QCPAxisRect(plot))
    , m_deberta(new QCPAxisRect(plot))
{
    auto *row = new QCPLayoutGrid;
    m_row = row;
    plot->plotLayout()->addElement(1, 0, row);
    row->setColumnSpacing(16);
    auto *curves = new QCPLayoutGrid;
    row->addElement(0, 0, curves);
    curves->addElement(0, 0, m_t5);
    curves->addElement(1, 0, m_deberta);
    curves->setRowSpacing(6);
    auto *margins = new QCPMarginGroup(plot);
    for (QCPAxisRect *rect : {m_t5, m_deberta}) {
        PlotStyle::styleAxisRect(rect);
        PlotItems::setLog2Axis(rect->axis(QCPAxis::atBottom), false, 6);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
    }
    m_t5->axis(QCPAxis::atLeft)->setLabel(u"T5 bucket"_s);
    m_deberta->axis(QCPAxis::atLeft)->setLabel(u"DeBERTa |bucket|"_s);
    // Both name the distance: the upper gives its labels to the lower while both are shown
    // (FigureRoom), and keeps them when the lower goes on little room.
    for (QCPAxisRect *rect : {m_t5, m_deberta})
        rect->axis(QCPAxis::atBottom)->setLabel(u"distance |j − i| between key and query"_s);
    // The two curves' panels share their distances.
    for (auto [a, b] : {std::pair {m_t5, m_deberta}, std::pair {m_deberta, m_t5}})
        QObject::connect(a->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
                         b->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));

    auto *right = new QCPLayoutGrid;
    m_mapCell = right;
    // On little room the map goes after the other family's curve (fill).
    FigureRoom::setDispensable(m_mapCell, 2);
    row->addElement(0, 1, right);
    m_mapTitle = PlotStyle::panelTitle(plot, false);
    right->addElement(0, 0, m_mapTitle);
    m_map = std::make_unique<HeatmapPanel>(plot, right, 1, 0);
    right->setRowStretchFactors({0.001, 1.0});
    right->setRowSpacing(2);
    m_map->setShowSpread(false);
    QCPAxisRect *map = m_map->axisRect();
    map->axis(QCPAxis::atBottom)->setLabel(u"key j"_s);
    map->axis(QCPAxis::atLeft)->setLabel(u"query i"_s);
    for (QCPAxis *axis : {map->axis(QCPAxis::atBottom), map->axis(QCPAxis::atLeft)})
        axis->ticker()->setTickCount(4);
    row->setColumnStretchFactors({1.15, 1.0});

    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 4);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(3, 0, below);
    plot->plotLayout()->setRowStretchFactor(3, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);

    // Shades first, behind the curves.
    m_t5Exact = PlotItems::shade(m_t5, kBucketsExactShade);
    m_t5Capped = PlotItems::shade(m_t5, kBucketsFarShade);
    m_debertaExact = PlotItems::shade(m_deberta, kBucketsExactShade);
    m_debertaGrowth = PlotItems::shade(m_deberta, kBucketsFarShade);
    m_t5CausalExact = PlotItems::line(m_t5, kBucketsCausal, 1.0, Qt::DotLine);
    m_t5MaxDistance = PlotItems::line(m_t5, kBucketsMark, 1.2, Qt::DashLine);
    m_t5Length = PlotItems::line(m_t5, kBucketsMark, 1.0, Qt::DotLine);
    m_debertaMaxPosition = PlotItems::line(m_deberta, kBucketsMark, 1.2, Qt::DashLine);
    m_debertaSpan = PlotItems::line(m_deberta, kBucketsMark, 1.0, Qt::DashDotLine);
    m_debertaLength = PlotItems::line(m_deberta, kBucketsMark, 1.0, Qt::DotLine);
    m_t5Causal = bucketsStepGraph(m_t5, kBucketsCausal, 1.6, Qt::DashLine);
    m_t5Before = bucketsStepGraph(m_t5, kBucketsBefore, 1.8);
    m_t5After = bucketsStepGraph(m_t5, kBucketsAfter, 1.8);
    m_debertaCurve = bucketsStepGraph(m_deberta, kBucketsDeberta, 1.8);
}

QList<ViewAxis> BucketsFigure::viewAxes() const
{
    const QCPAxisRect *rect = m_map->axisRect();
    return {{QString::fromUtf16(BucketsModel::kKeysAxis), rect->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(BucketsModel::kQueriesAxis), rect->axis(QCPAxis::atLeft)},
            {QString::fromUtf16(BucketsModel::kDistancesAxis), m_t5->axis(QCPAxis::atBottom)}};
}

void BucketsFigure::showDefaultView(const Params &params, const FigureState &state)
{
    Block block {0, params.maxLen, 0, params.maxLen};
    if (const auto range = ViewOptions::positionRange(state))
        block = {range->first, range->second - range->first, range->first, range->second - range->first};
    m_map->showBlock(block);
    const double farthest = static_cast<double>(std::max<std::int64_t>(BucketsModel::farthest(params), 2));
    // From 4 % of its decades before distance 1: its "1" stood in the lower panel's corner, where it
    // met the bucket axis's "0" and one of them gave way (DeBERTa's slide lost its 0).
    // A compact figure's room ladder gives the corner's number up instead, for its key's room.
    m_t5->axis(QCPAxis::atBottom)->setRange(m_compact ? 1.0 : std::pow(farthest, -kBucketsDistancePad), farthest);
}

QList<PanelExtent> BucketsFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const QCPAxisRect *rect : {m_t5, m_deberta}) {
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
        list.append({rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    list.append(m_map->extent(pixelRatio));
    return list;
}

void BucketsFigure::arrange(bool stacked)
{
    if (stacked == m_stacked)
        return;
    m_stacked = stacked;
    m_row->take(m_mapCell);
    m_row->simplify();
    m_row->addElement(stacked ? 1 : 0, stacked ? 0 : 1, m_mapCell);
    if (stacked) {
        m_row->setColumnStretchFactors({1.0});
        m_row->setRowStretchFactors({1.0, 1.0});
    } else {
        m_row->setRowStretchFactors({1.0});
        m_row->setColumnStretchFactors({1.15, 1.0});
    }
}

void BucketsFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    // A figure taller than wide (a narrow view beside a lesson) puts the map under the curves.
    const QRect viewport = m_title->parentPlot()->viewport();
    arrange(viewport.height() > viewport.width());
    m_data = std::static_pointer_cast<const BucketsData>(data);
    const BucketsData &d = *m_data;
    const double farthest = static_cast<double>(std::max<std::int64_t>(d.farthest, 2));
    const double length = static_cast<double>(d.maxLen - 1);
    m_legend->clearItems();
    const auto add = [this](QCPGraph *graph) { MeasuredText::addToLegend(graph, m_legend); };
    // On a slide or a small view the plots keep their room: short legends, the pixel note alone.
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;

    // T5: both sides of the bidirectional map, and the causal one.
    const bool t5 = !d.t5Problem;
    const bool bidirectional = t5 && d.t5HasBidirectional, causal = t5 && d.t5HasCausal;
    for (QCPGraph *graph : {m_t5After, m_t5Before})
        graph->setVisible(bidirectional);
    // The causal exact span's end is named by the caption alone: drawn with it (setExplainedBy).
    m_t5Causal->setVisible(causal);
    m_t5CausalExact->setVisible(causal && !terse);
    FigureRoom::setExplainedBy(m_t5CausalExact, m_caption);
    m_t5MaxDistance->setVisible(t5);
    m_t5After->setData(d.t5After.distance, d.t5After.bucket, true);
    m_t5Before->setData(d.t5Before.distance, d.t5Before.bucket, true);
    m_t5Causal->setData(d.t5Causal.distance, d.t5Causal.bucket, true);
    // The direction the parameters choose, wider.
    for (auto [graph, chosen] : {std::pair {m_t5After, !d.t5IsCausal}, std::pair {m_t5Before, !d.t5IsCausal},
                                 std::pair {m_t5Causal, d.t5IsCausal}}) {
        QPen pen = graph->pen();
        pen.setWidthF(chosen ? 2.4 : 1.3);
        graph->setPen(pen);
    }
    const double t5Top = static_cast<double>(std::max<std::int64_t>(d.t5Buckets - 1, 1));
    m_t5->axis(QCPAxis::atLeft)->setRange(-0.04 * t5Top, 1.06 * t5Top);
    PlotItems::placeShade(m_t5Exact, bidirectional && d.t5ExactBidirectional > 1, 1.0,
                          static_cast<double>(d.t5ExactBidirectional));
    PlotItems::placeShade(m_t5Capped, t5 && d.t5MaxDistance < d.farthest, static_cast<double>(d.t5MaxDistance),
                          farthest);
    PlotItems::vertical(m_t5CausalExact, static_cast<double>(d.t5ExactCausal), -t5Top, 2.0 * t5Top);
    PlotItems::vertical(m_t5MaxDistance, static_cast<double>(d.t5MaxDistance), -t5Top, 2.0 * t5Top);
    // Its lines drawn only where the key names them: a terse key leaves "max-len − 1" out.
    const bool lengthShown = length >= 1.0 && length < farthest && !terse;
    m_t5Length->setVisible(lengthShown);
    PlotItems::vertical(m_t5Length, length, -t5Top, 2.0 * t5Top);
    if (t5) {
        m_t5After->setName(terse ? u"T5 key after"_s : u"T5, key after the query"_s);
        m_t5Before->setName(terse ? u"T5 key before"_s : u"T5, key before it"_s);
        m_t5Causal->setName(terse ? u"T5 causal"_s : u"T5 causal (keys after: bucket 0)"_s);
        for (QCPGraph *graph : {m_t5After, m_t5Before, m_t5Causal})
            if (graph->visible())
                add(graph);
    }

    // DeBERTa: |bucket|, the same either side.
    const bool deberta = !d.debertaProblem;
    for (QCPGraph *graph : {m_debertaCurve, m_debertaMaxPosition, m_debertaSpan})
        graph->setVisible(deberta);
    m_debertaCurve->setData(d.deberta.distance, d.deberta.bucket, true);
    double debertaTop = static_cast<double>(d.debertaBuckets);
    for (const double b : d.deberta.bucket)
        debertaTop = std::max(debertaTop, b);
    m_deberta->axis(QCPAxis::atLeft)->setRange(-0.04 * debertaTop, 1.06 * debertaTop);
    PlotItems::placeShade(m_debertaExact, deberta && d.debertaMid > 1, 1.0, static_cast<double>(d.debertaMid));
    const double growth = static_cast<double>(d.debertaMaxPosition - 1);
    PlotItems::placeShade(m_debertaGrowth, deberta && growth < farthest, growth, farthest);
    PlotItems::vertical(m_debertaMaxPosition, growth, -debertaTop, 2.0 * debertaTop);
    // c2p reads rows -buckets .. buckets - 1 (p2c mirrored): HF clamps bucket + buckets to [0, 2 buckets - 1].
    PlotItems::horizontal(m_debertaSpan, 1.0, farthest, static_cast<double>(d.debertaBuckets - 1));
    m_debertaLength->setVisible(lengthShown);
    PlotItems::vertical(m_debertaLength, length, -debertaTop, 2.0 * debertaTop);
    if (deberta) {
        m_debertaCurve->setName(terse ? u"DeBERTa"_s : u"DeBERTa |bucket of i − j|"_s);
        add(m_debertaCurve);
    }
    keyTheMarks(d, terse, lengthShown);

    // The map of the chosen family.
    const bool t5Map = d.family == Encoding::T5;
    // On little room the chosen family's curve stays: the other family's goes, then the map.
    FigureRoom::setDispensable(m_t5, t5Map ? 0 : 1);
    FigureRoom::setDispensable(m_deberta, t5Map ? 1 : 0);
    const std::optional<QString> &problem = mapProblem(d);
    if (!problem) {
        m_map->setGrid(d.map, mapStyle(d));
        PreparedMaps::offer(prepared(), *data, {m_map.get()});
    }
    QString mapTitle = t5Map
        ? (d.t5IsCausal ? u"T5 causal map, %1 buckets"_s : u"T5 bidirectional map, %1 buckets"_s).arg(d.t5Buckets)
        : u"DeBERTa map: signed buckets, %1 a side"_s.arg(d.debertaBuckets);
    if (problem)
        mapTitle = *problem;
    m_mapTitle->setText(mapTitle);

    QStringList caption;
    if (t5 && !terse)
        caption.append(
            d.t5IsCausal
                ? u"T5 causal: exact below %1, logarithmic to max_distance %2; every key farther back shares bucket "
                  "%3"_s.arg(d.t5ExactCausal)
                      .arg(bucketsCount(d.t5MaxDistance))
                      .arg(d.t5Buckets - 1)
                : u"T5: exact below %1 (causal %2), logarithmic to max_distance %3; every key farther shares its "
                  "side's last bucket (%4 before, %5 after)"_s.arg(d.t5ExactBidirectional)
                      .arg(d.t5ExactCausal)
                      .arg(bucketsCount(d.t5MaxDistance))
                      .arg(d.t5Buckets / 2 - 1)
                      .arg(d.t5Buckets - 1));
    if (deberta && !terse)
        caption.append(
            (d.debertaTopTo > 0
                 ? u"DeBERTa: exact to %1, then logarithmic, rounded up: %2 from distance %3 to %4, past it uncapped"_s
                       .arg(d.debertaMid)
                       .arg(d.debertaBuckets - 1)
                       .arg(bucketsCount(d.debertaTopFrom), bucketsCount(d.debertaTopTo))
                 : u"DeBERTa: exact to %1, then %2 from distance %3 on"_s.arg(d.debertaMid)
                       .arg(d.debertaBuckets - 1)
                       .arg(bucketsCount(d.debertaTopFrom)))
            + u" (the attention reads buckets −%1 … %2)"_s.arg(d.debertaBuckets).arg(d.debertaBuckets - 1));
    if (!problem && !d.map.isCellByCell())
        caption.append(terse ? u"a map pixel: the mean bucket of its %1 cells"_s.arg(
                           FigureText::averagedCellsText(d.map.block, d.map.rows, d.map.cols))
                             : u"each map pixel: the mean bucket of its %1 cells (the buckets are whole numbers)"_s.arg(
                                 FigureText::averagedCellsText(d.map.block, d.map.rows, d.map.cols)));
    if (t5 && t5Map && !d.t5IsCausal && !problem && !d.map.isCellByCell() && !terse)
        caption.append(
            u"on the diagonal a pixel mixes keys before (0–%1) and after (%2–%3) the query"_s.arg(d.t5Buckets / 2 - 1)
                .arg(d.t5Buckets / 2)
                .arg(d.t5Buckets - 1));
    PlotStyle::setCollapsibleText(m_caption, caption.join(u"\n"_s));
    m_title->setText(bucketsTitle(terse));
}

void BucketsFigure::keyTheMarks(const BucketsData &d, bool terse, bool lengthShown)
{
    const auto add = [this](QCPGraph *graph) { MeasuredText::addToLegend(graph, m_legend); };
    SwatchLegend::add(m_legend, {kBucketsExactShade, terse ? u"exact"_s : u"exact: one bucket a distance"_s});
    SwatchLegend::add(
        m_legend, {kBucketsFarShade, terse ? u"capped / past max"_s : u"T5 capped, DeBERTa past its max_position"_s});
    // Each dashed line by its own parameter: T5's cap is max_distance, DeBERTa's max_position.
    m_t5MaxDistance->setName(terse ? u"T5 max_distance"_s : u"T5 max_distance %1"_s.arg(bucketsCount(d.t5MaxDistance)));
    if (!d.t5Problem)
        add(m_t5MaxDistance);
    m_debertaMaxPosition->setName(terse
                                      ? u"DeBERTa max_position − 1"_s
                                      : u"DeBERTa max_position − 1 = %1"_s.arg(bucketsCount(d.debertaMaxPosition - 1)));
    if (!d.debertaProblem)
        add(m_debertaMaxPosition);
    m_debertaSpan->setName(u"DeBERTa's %1rows: −%2 … %3"_s.arg(terse ? QString() : u"attention "_s)
                               .arg(d.debertaBuckets)
                               .arg(d.debertaBuckets - 1));
    if (!d.debertaProblem)
        add(m_debertaSpan);
    m_t5Length->setName(u"max-len − 1 = %1"_s.arg(bucketsCount(d.maxLen - 1)));
    if (lengthShown)
        add(m_t5Length);
    explainLines(m_legend,
                 {{m_t5MaxDistance, m_t5MaxDistance},
                  {m_debertaMaxPosition, m_debertaMaxPosition},
                  {m_debertaSpan, m_debertaSpan},
                  {m_t5Length, m_t5Length},
                  {m_debertaLength, m_t5Length}});
    FigureFit::setLegendWrap(m_legend, terse ? 3 : 4);
}

QList<PositionAxis> BucketsFigure::positionAxes() const
{
    return {{m_map->axisRect(), true}};
}

std::optional<HoverPoint> BucketsFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const Params &params = engine.params();
    if (const auto cell = m_map->cellAt(pixel, {params.maxLen, params.maxLen})) {
        const BucketsData &d = *m_data;
        if (d.family == Encoding::T5 ? d.t5Problem.has_value() : d.debertaProblem.has_value())
            return std::nullopt;
        const std::int64_t k = cell->second - cell->first;
        HoverPoint point;
        point.position = cell->first;
        point.value = static_cast<double>(BucketsModel::mapBucket(params, d.family, k));
        point.valueName = u"key j = %1, j − i = %2, %3 bucket"_s.arg(cell->second)
                              .arg(k)
                              .arg(d.family == Encoding::T5 ? u"T5"_s : u"DeBERTa"_s);
        return point;
    }
    for (QCPAxisRect *rect : {m_t5, m_deberta}) {
        if (!rect->rect().contains(pixel.toPoint()))
            continue;
        const auto distance = std::llround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
        if (distance < 1)
            return std::nullopt;
        HoverPoint point;
        point.hasPosition = false;
        QStringList parts;
        if (!m_data->t5Problem) {
            const T5Params &t5 = params.t5;
            parts.append(u"T5 %1 after, %2 before, causal %3"_s
                             .arg(T5Buckets::bucket(distance, t5.buckets, t5.maxDistance, true))
                             .arg(T5Buckets::bucket(-distance, t5.buckets, t5.maxDistance, true))
                             .arg(T5Buckets::bucket(-distance, t5.buckets, t5.maxDistance, false)));
        }
        if (!m_data->debertaProblem)
            parts.append(u"DeBERTa ±%1"_s.arg(BucketsModel::mapBucket(params, Encoding::Deberta, -distance)));
        point.valueName = u"distance %1: %2"_s.arg(distance).arg(parts.join(u"; "_s));
        return point;
    }
    return std::nullopt;
}

QList<QCPAxisRect *> BucketsFigure::pictureRects() const
{
    return {m_map->axisRect()};
}

} // namespace posenc
