#include "PositionIdsFigure.h"

#include "render/FigureBuild.h"
#include "render/FigureDescriptor.h"
#include "render/FigureRoom.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/SwatchLegend.h"

#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/positions/BatchIds.h"
#include "core/positions/BatchParamRows.h"
#include "render/data/FigureText.h"
#include "render/data/VisibleCells.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kIdsPadding(150, 150, 150);
const QColor kIdsPaddingShade(150, 150, 150, 80);
const QColor kIdsDecodeShade(0, 158, 115, 45);
const QColor kIdsChosen(213, 94, 0);

QString idsChoiceWord(IdsChoice choice)
{
    return BatchParamRows::choiceWords().value(int(choice));
}

// The ids chosen in a word, for a title short of room: "arange" of "arange-with-padding" (the
// others' words are their point: "restarted" of "restarted-without-block-mask" would say none).
QString idsChoiceBrief(IdsChoice choice)
{
    return choice == IdsChoice::ArangeWithPadding ? u"arange"_s : idsChoiceWord(choice);
}

// What the reference computes for this batch, in a few words.
QString referenceWords(const PositionIdsData &d)
{
    // A model that adds its term by column reads no ids (WhisperEncoder.forward): its columns.
    if (d.byColumn)
        return u"by column: the model adds row c of its table to column c and reads no ids"_s;
    // An M-RoPE pack's ids are the collator's, which Qwen2VLTextModel.forward gives t, h and w alike.
    if (d.documents)
        return d.axes == 3 ? u"the flattening collator: each document from 0, on t, h and w alike"_s
                           : u"the flattening collator: each document from 0"_s;
    if (d.axes == 3)
        return d.cache > 0 ? u"get_rope_index with the mask, decode steps at cache_position + rope_deltas"_s
                           : u"get_rope_index with the mask"_s;
    return d.cache > 0 ? u"generation: cumsum(mask) − 1, the decode steps after the cache"_s
                       : u"generation: attention_mask.cumsum(−1) − 1, padding 1"_s;
}

} // namespace

std::unique_ptr<FigureDescriptor> makePositionIdsFigure()
{
    return std::make_unique<FigureDescriptorOf<PositionIdsModel, PositionIdsFigure>>();
}

PositionIdsFigure::PositionIdsFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_map(plot, plot->plotLayout(), 1, 0)
    , m_rowRect(new QCPAxisRect(plot))
{
    // Padding is grey, named in the legend under the row: not a "not a number".
    m_map.setMarksNamedByFigure(true);
    m_map.axisRect()->axis(QCPAxis::atLeft)->setLabel(u"row of the batch"_s);
    ShorterLabels::set(m_map.axisRect()->axis(QCPAxis::atLeft), {u"batch row"_s, u"row"_s});
    m_map.axisRect()->axis(QCPAxis::atBottom)->setLabel(u"column"_s);
    // The batch's ids are the figure; one row's against the reference goes first for room.
    FigureRoom::setPrimary(m_map.axisRect());
    m_rowTitle = PlotStyle::panelTitle(plot, false);
    plot->plotLayout()->addElement(2, 0, m_rowTitle);
    plot->plotLayout()->addElement(3, 0, m_rowRect);
    m_rowRect->setMinimumSize(FigureBuild::kMinAxisSide, FigureBuild::kMinAxisSide);
    PlotStyle::styleAxisRect(m_rowRect);
    m_rowRect->axis(QCPAxis::atBottom)->setLabel(u"column"_s);
    m_rowRect->axis(QCPAxis::atLeft)->setLabel(u"position id"_s);
    IndexTicker::install(m_rowRect->axis(QCPAxis::atBottom));
    IndexTicker::install(m_rowRect->axis(QCPAxis::atLeft));
    m_rowRect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    m_rowRect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    QObject::connect(m_map.axisRect()->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
                     m_rowRect->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    QObject::connect(m_rowRect->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
                     m_map.axisRect()->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    m_reference = PlotItems::line(m_rowRect, Qt::black, 2.0);
    m_reference->setName(u"reference"_s);
    m_chosen = PlotItems::line(m_rowRect, kIdsChosen, 2.0, Qt::DashLine);
    m_starts = PlotItems::line(m_rowRect, QColor(0, 114, 178), 1.2, Qt::DotLine);
    m_starts->setName(u"a document starts"_s);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 4, 5);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(5, 0, below);
    plot->plotLayout()->setRowStretchFactor(5, 0.001);
    plot->plotLayout()->setRowStretchFactor(1, 1.2);
    plot->plotLayout()->setRowStretchFactor(3, 1.0);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
}

QList<ViewAxis> PositionIdsFigure::viewAxes() const
{
    return {{u"columns"_s, m_map.axisRect()->axis(QCPAxis::atBottom)},
            {u"rows"_s, m_map.axisRect()->axis(QCPAxis::atLeft)},
            {u"ids"_s, m_rowRect->axis(QCPAxis::atLeft)}};
}

void PositionIdsFigure::showDefaultView(const Params &params, const FigureState &state)
{
    const Shape shape = Quantities::shape(Quantity::PositionIds, params);
    m_map.fitAxes({shape.rows / BatchIds::axesOf(params), shape.cols});
    // The ids drawn reach the largest of the reference's and the chosen ones on the drawn axis, over
    // the batch (M-RoPE's fall short of the row's length with an image, and pass it with a
    // Qwen2.5-VL video's t); a batch with no ids (a row cutting an image) keeps the row's length.
    std::int64_t top = shape.cols;
    const Engine engine(params);
    if (const BatchIds &ids = engine.source<BatchIds>(); !ids.problem()) {
        const int axis = PositionIdsModel::axisOf(params, state);
        top = std::max(ids.maxId(IdsChoice::Reference, axis), ids.maxId(params.batch.ids, axis)) + 1;
    }
    m_rowRect->axis(QCPAxis::atLeft)->setRange(-0.5, double(std::max<std::int64_t>(top, 1)) + 0.5);
}

QList<PanelExtent> PositionIdsFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rowRect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rowRect->axis(QCPAxis::atLeft)->range();
    return {m_map.extent(pixelRatio), {m_rowRect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void PositionIdsFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const PositionIdsData>(data);
    const PositionIdsData &d = *m_data;
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    const QString axis = d.axes == 3 ? u" (%1)"_s.arg(QStringList {u"t"_s, u"h"_s, u"w"_s}.value(d.axis)) : QString();
    HeatmapStyle style;
    style.colormap = Colormap::Viridis;
    style.dataRange = {0.0, d.most};
    style.wholeNumbers = true;
    style.colorbarLabel = terse ? u"id"_s + axis : u"position id"_s + axis;
    m_map.setGrid(d.grid, style);
    QCPColorGradient gradient = m_map.colorScale()->gradient();
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(kIdsPadding);
    m_map.colorScale()->setGradient(gradient);
    m_map.colorMap()->setGradient(gradient);
    setScreenNote(d.grid.cols > 0 ? FigureText::cellsPerPixelText(d.grid.block, d.grid.rows, d.grid.cols) : QString());
    fillRow(d);
    // Ids a model never reads are not its positions: T5's buckets are its columns' (compute_bias
    // over arange). The title's first part says so, in words no shortening parts (no clause).
    const bool unread = !d.unreadBy.isEmpty();
    // Which ids the map draws is in the title's first part, that a title short of room keeps: the
    // colours are those ids, and left-padding's slide, cut to "Position ids  ·  2 rows × 32,768",
    // drew arange's ids under a title that named none. Where even the first part is too long, the
    // ids alone ("arange-with-padding ids", "arange ids").
    const QString choice = idsChoiceWord(d.choice);
    const QString subject = unread
        ? u"Position ids%1 never read"_s.arg(terse ? QString() : axis)
        : (terse ? u"Position ids: %1"_s.arg(choice) : u"Position ids%1 of a batch: %2"_s.arg(axis, choice));
    QStringList forms {u"%1 ids%2"_s.arg(choice, axis)};
    if (const QString brief = idsChoiceBrief(d.choice); brief != choice)
        forms.append(u"%1 ids%2"_s.arg(brief, axis));
    ShorterLabels::setText(m_title, unread ? QStringList() : forms);
    // Terse, the batch's shape names its rows alone, the columns the axes' word: on a 14-pt 16:9
    // slide's half "Position ids never read  ·  2 rows × 32,768" holds one line, and with "columns"
    // the title kept its subject alone.
    const QString columns
        = terse ? NumberText::count(d.cols) : FigureText::countText(d.cols, u"column"_s, u"columns"_s);
    // Terse, a map of ids that are read gives its shape to the axes and the row's title ("of
    // 32,768"), its prefill to the row's decode steps: its title is the ids it draws, kept whole.
    QStringList parts {subject};
    if (unread || !terse)
        parts.append(u"%1 × %2"_s.arg(FigureText::countText(d.rows, u"row"_s, u"rows"_s), columns));
    // A model that reads no ids: which ids the map draws matters less than that it reads none.
    if (unread)
        parts.append(u"ids: %1"_s.arg(choice));
    if (d.cache > 0 && (unread || !terse))
        parts.append(u"prefill %1"_s.arg(NumberText::count(d.cache)));
    m_title->setText(parts.join(u"  ·  "_s));
    QString caption = d.problem.isEmpty() ? u"reference: %1; grey: padding (masked, its id %2)."_s.arg(
                          referenceWords(d), d.byColumn ? u"the column"_s : u"1"_s)
                                          : u"No ids: %1."_s.arg(d.problem);
    if (d.axes == 3 && !d.documents && d.problem.isEmpty())
        caption += u" Row %1's rope_deltas = %2."_s.arg(d.row).arg(QString::number(d.ropeDelta).replace(u'-', u'−'));
    if (d.grid.cols > 0 && !d.grid.isCellByCell())
        caption += u" A pixel of the map: the exact mean of its real tokens' ids."_s;
    if (d.allRuns > d.runs.size())
        caption += u" The first %1 of %2 segments shaded."_s.arg(d.runs.size()).arg(d.allRuns);
    // Why nothing is drawn is said at any size.
    PlotStyle::setCollapsibleText(m_caption, terse && d.problem.isEmpty() ? QString() : caption);
}

void PositionIdsFigure::fillRow(const PositionIdsData &d)
{
    m_reference->setData(d.x, d.reference, true);
    m_chosen->setData(d.differs ? d.x : QList<double> {}, d.differs ? d.chosen : QList<double> {}, true);
    m_chosen->setName(idsChoiceWord(d.choice));
    // Beside "reference" in a narrow cell ("arange-with-pa…" named no choice), as position-effect's
    // key says it.
    ShorterLabels::setEntry(m_chosen, {u"chosen ids"_s});
    QCustomPlot *plot = m_title->parentPlot();
    const auto shaded = std::count_if(d.runs.begin(), d.runs.end(), [](const auto &r) { return !r.real || r.decode; });
    while (m_shades.size() < shaded)
        m_shades.append(PlotItems::shade(m_rowRect, kIdsPaddingShade));
    qsizetype used = 0;
    bool padding = false, decode = false;
    for (const PositionIdsData::Run &run : d.runs) {
        if (run.real && !run.decode)
            continue;
        m_shades[used]->setBrush(run.real ? kIdsDecodeShade : kIdsPaddingShade);
        PlotItems::placeShade(m_shades[used++], true, double(run.start) - 0.5, double(run.end) - 0.5);
        (run.real ? decode : padding) = true;
    }
    for (qsizetype i = used; i < m_shades.size(); ++i)
        PlotItems::placeShade(m_shades[i], false);
    // The documents' starts, as dotted lines across the panel.
    QList<double> sx, sy;
    // Across the panel, whatever its zoom: from below 0 to past the row's length and its ids.
    const double top = std::max(double(std::max<std::int64_t>(d.cols, 1)), d.most);
    for (const double s : d.documentStarts) {
        sx << s - 0.5 << s - 0.5 << std::nan("");
        sy << -0.5 << top + 0.5 << std::nan("");
    }
    m_starts->setData(sx, sy, true);
    m_rowTitle->setText(d.problem.isEmpty() ? u"row %1: %2 real tokens of %3"_s.arg(d.row).arg(
                            NumberText::count(d.realTokens), NumberText::count(d.cols))
                                            : u"row %1: no ids"_s.arg(d.row));
    // Shorter by its clause, its numbers kept, in a narrow cell of a slide.
    ShorterLabels::setText(m_rowTitle, d.problem.isEmpty()
                                           ? QStringList {u"row %1: %2 of %3 real"_s.arg(d.row).arg(
                                                              NumberText::count(d.realTokens), NumberText::count(d.cols)),
                                                          u"row %1: %2 real"_s.arg(d.row).arg(NumberText::count(d.realTokens))}
                                           : QStringList());
    m_legend->clearItems();
    MeasuredText::addToLegend(m_reference, m_legend);
    if (d.differs)
        MeasuredText::addToLegend(m_chosen, m_legend);
    if (padding)
        SwatchLegend::add(m_legend, {kIdsPadding, u"padding"_s});
    if (decode)
        SwatchLegend::add(m_legend, {QColor(0, 158, 115), u"decode steps"_s});
    if (!d.documentStarts.isEmpty())
        MeasuredText::addToLegend(m_starts, m_legend);
    Q_UNUSED(plot);
}

std::optional<HoverPoint> PositionIdsFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data || !m_data->problem.isEmpty())
        return std::nullopt;
    const auto cell = m_map.cellAt(pixel, {m_data->rows, m_data->cols});
    std::int64_t row = m_data->row, column = 0;
    if (cell) {
        row = cell->first;
        column = cell->second;
    } else if (m_rowRect->rect().contains(pixel.toPoint())) {
        column = std::clamp<std::int64_t>(std::llround(m_rowRect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())), 0,
                                          m_data->cols - 1);
    } else {
        return std::nullopt;
    }
    const std::int64_t rows = m_data->rows;
    RowMatrixXf value(1, 1);
    engine.computeBlock(Quantity::PositionIds, {m_data->axis * rows + row, 1, column, 1}, value);
    HoverPoint point;
    point.hasPosition = false;
    point.value = value(0, 0);
    point.valueName = u"row %1, column %2: position id"_s.arg(row).arg(column);
    point.quantity = Quantity::PositionIds;
    return point;
}

QList<QCPAxisRect *> PositionIdsFigure::pictureRects() const
{
    return {m_map.axisRect()};
}

} // namespace posenc
