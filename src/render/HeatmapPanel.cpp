#include "HeatmapPanel.h"

#include "CoverageColorMap.h"
#include "FigureRoom.h"
#include "IndexTicker.h"
#include "MeasuredText.h"
#include "PlotStyle.h"

#include <QFontMetricsF>
#include <QPointer>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What a grid's cells that hold no finite number are: none, all −inf (an attention mask's keys
// never seen, drawn as masked), or some NaN or +inf (a fault, drawn in magenta).
struct NotNumbers
{
    bool any = false;
    bool masked = true;
    void note(float v)
    {
        any = true;
        masked = masked && std::isinf(v) && v < 0;
    }
    QCPColorGradient gradient(Colormap map) const
    {
        return any && masked ? Colormaps::maskedGradient(map) : Colormaps::gradient(map);
    }
};

// QCPColorMapData's cells, written as its setCell writes them (the cell, the data bounds it keeps,
// the mark that its image is stale) without a call and a range check a cell, which were a
// heatmap's filling. QCustomPlot keeps them protected; a pointer to the members, formed in a
// class derived from it, reaches them in any QCPColorMapData.
struct ColorMapCells : QCPColorMapData
{
    ColorMapCells() = delete;

    // Cell i of `data` (value row i / keySize, key column i % keySize) takes values[i], a value
    // that is no number NaN (drawn in a colour of its own); what was no number. Cells that
    // all hold their values already leave the image unmarked: a change that leaves the grid as it
    // was (a dropout mask at another d_model) neither colours the image again nor computes its
    // coverage (CoverageColorMap keeps the last while the image is the same).
    static NotNumbers fill(QCPColorMapData &data, const std::vector<float> &values)
    {
        double *cells = data.*(&ColorMapCells::mData);
        const auto count = static_cast<std::size_t>(data.keySize()) * static_cast<std::size_t>(data.valueSize());
        if (!cells || count == 0 || values.size() < count)
            return {};
        QCPRange &bounds = data.*(&ColorMapCells::mDataBounds);
        NotNumbers notNumbers;
        bool changed = false;
        for (std::size_t i = 0; i < count; ++i) {
            const float v = values[i];
            double z = v;
            if (!std::isfinite(v)) {
                notNumbers.note(v);
                z = std::numeric_limits<double>::quiet_NaN();
            }
            // Bit for bit, so that a NaN held is the NaN written.
            changed = changed || std::memcmp(&cells[i], &z, sizeof z) != 0;
            cells[i] = z;
            if (z < bounds.lower)
                bounds.lower = z;
            if (z > bounds.upper)
                bounds.upper = z;
        }
        if (changed)
            data.*(&ColorMapCells::mDataModified) = true;
        return notNumbers;
    }
};

// How far the ink of the tick labels down the sides of `rect` reaches above its top, as
// FigureRoom::ticksClearOfTexts reads it: a label on its top end (a reversed axis's 0) is centred
// on it; none where its end labels are blanked.
int endLabelsReach(const QCPAxisRect &rect)
{
    double reach = 0.0;
    for (QCPAxis *axis : {rect.axis(QCPAxis::atLeft), rect.axis(QCPAxis::atRight)}) {
        if (!axis || !axis->visible() || !axis->tickLabels())
            continue;
        const QFontMetricsF metrics(axis->tickLabelFont());
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i) {
            if (labels[i].isEmpty() || !axis->range().contains(ticks[i]))
                continue;
            const double baseline = axis->coordToPixel(ticks[i]) - metrics.height() / 2.0 + metrics.ascent();
            const double ink = baseline + MeasuredText::tightBoundingRect(axis->tickLabelFont(), labels[i]).top();
            reach = std::max(reach, rect.rect().top() - ink);
        }
    }
    return static_cast<int>(std::ceil(reach));
}

// The top of a heatmap and of its colour bar beside it. The bar's end label needs half a line
// above the bar; the heatmap needs that only where its own tick labels reach so far into a text
// above it (learned's panel names on a slide): at the page's top edge a label the page cuts is
// blanked, as any (FigureRoom::tidy), and keeps no room. A heatmap whose height the page holds (a
// square one on a wide page) is not lowered for its bar's label: the bar is shortened by it
// instead, its top level with the heatmap's or below, as matplotlib's colorbar(shrink).
class TopMargins final : public QCPMarginGroup
{
public:
    TopMargins(QCustomPlot *plot, QCPAxisRect *panel, bool bar)
        : QCPMarginGroup(plot)
        , m_panel(panel)
        , m_bar(bar)
    { }

protected:
    int commonMargin(QCP::MarginSide side) const override
    {
        const int own = QCPMarginGroup::commonMargin(side);
        if (!m_panel)
            return own;
        // The panel comes first in its cell: its margins are laid out before the bar's.
        if (m_bar)
            return std::max(own, QCP::getMarginValue(m_panel->margins(), side));
        const bool atEdge = m_panel->outerRect().top() <= m_panel->parentPlot()->viewport().top();
        return atEdge ? own : std::max(own, endLabelsReach(*m_panel));
    }

private:
    QPointer<QCPAxisRect> m_panel;
    bool m_bar;
};

} // namespace

HeatmapStyle HeatmapStyle::forQuantity(Quantity quantity, const HeatmapGrid &grid)
{
    HeatmapStyle style;
    style.colorbarLabel = Quantities::label(quantity);
    // The PE on its own diverging map over its bound: ±1 for a formula, a loaded table's largest.
    if (quantity == Quantity::Pe) {
        style.dataRange = {-grid.colourExtent, grid.colourExtent};
        return style;
    }
    if (quantity == Quantity::Mask) {
        style.colormap = Colormap::Cividis;
        style.dataRange = {0.0, 1.0};
        // One cell a pixel: every value is 1 or 0. Averaged: the kept fraction of a pixel's cells.
        if (grid.rows == grid.block.rows && grid.cols == grid.block.cols && !grid.isPreview())
            style.categories = {{1.0, u"kept"_s}, {0.0, u"dropped"_s}};
        else
            style.colorbarLabel = u"mask: kept fraction"_s;
        return style;
    }
    // Symmetric so that zero stays white, and as wide at any resolution (QuantitySpec::bound).
    style.dataRange = {-grid.colourExtent, grid.colourExtent};
    if (grid.minValue == 0.0 && grid.maxValue == 0.0) {
        style.colorbarLabel += u" (all 0)"_s;
        return style;
    }
    // Data of one sign (buckets, a bias, a similarity of few positions) on a sequential map from
    // zero, where a diverging one would leave half its colours unused and the rest one shade.
    if (grid.minValue >= 0.0) {
        style.colormap = Colormap::Viridis;
        style.dataRange = {0.0, grid.colourExtent};
    } else if (grid.maxValue <= 0.0) {
        style.colormap = Colormap::Viridis;
        style.dataRange = {-grid.colourExtent, 0.0};
    }
    return style;
}

HeatmapStyle HeatmapStyle::forRange(double least, double most, double extent)
{
    HeatmapStyle style;
    style.dataRange = {-extent, extent};
    if (least >= 0.0 && most > 0.0) {
        style.colormap = Colormap::Viridis;
        style.dataRange = {0.0, extent};
    } else if (most <= 0.0 && least < 0.0) {
        style.colormap = Colormap::Viridis;
        style.dataRange = {-extent, 0.0};
    }
    return style;
}

QList<Swatch> HeatmapStyle::swatches() const
{
    QList<Swatch> swatches;
    const double span = dataRange.upper - dataRange.lower;
    for (const auto &[value, label] : categories)
        swatches.append({Colormaps::colorAt(colormap, span > 0.0 ? (value - dataRange.lower) / span : 0.5), label});
    return swatches + notes;
}

HeatmapPanel::HeatmapPanel(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int col)
    : m_rect(new QCPAxisRect(plot))
    , m_map(nullptr)
    , m_scale(new QCPColorScale(plot))
    , m_cell(new QCPLayoutGrid)
{
    layout->addElement(row, col, m_cell);
    m_cell->addElement(0, 0, m_rect);
    m_cell->addElement(0, 1, m_scale);
    m_cell->setColumnStretchFactor(0, 1.0);
    m_cell->setColumnStretchFactor(1, 0.01);
    m_cell->setColumnSpacing(4);
    m_scaleBottom = new QCPMarginGroup(plot);
    m_rect->setMarginGroup(QCP::msBottom, m_scaleBottom);
    m_scale->setMarginGroup(QCP::msBottom, m_scaleBottom);
    m_rect->setMarginGroup(QCP::msTop, new TopMargins(plot, m_rect, false));
    m_scaleTop = new TopMargins(plot, m_rect, true);
    m_scale->setMarginGroup(QCP::msTop, m_scaleTop);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());
    initAxes();
}

HeatmapPanel::HeatmapPanel(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int col, QCPColorScale *sharedScale)
    : m_rect(new QCPAxisRect(plot))
    , m_map(nullptr)
    , m_scale(sharedScale)
    , m_sharedScale(true)
{
    layout->addElement(row, col, m_rect);
    initAxes();
}

void HeatmapPanel::initAxes()
{
    PlotStyle::styleAxisRect(m_rect);
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"column j"_s);
    namePositions(false);
    m_rect->axis(QCPAxis::atLeft)->setRangeReversed(true);
    IndexTicker::install(m_rect->axis(QCPAxis::atBottom));
    IndexTicker::install(m_rect->axis(QCPAxis::atLeft));
    m_map = new CoverageColorMap(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_map->setAntialiased(false);
    m_map->setColorScale(m_scale);
    m_marks = new HeatmapMarks(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
}

void HeatmapPanel::setShowSpread(bool show)
{
    m_marks->setShowSpread(show);
    if (!m_sharedScale)
        showMarksLegend(markSwatches());
}

QList<Swatch> HeatmapPanel::markSwatches() const
{
    return swatchesOf(*m_marks);
}

QList<Swatch> HeatmapPanel::swatchesOf(const HeatmapMarks &marks)
{
    QList<Swatch> swatches;
    if (marks.hasNotNumbers() && marks.notNumbersMasked())
        swatches.append({Colormaps::maskedColor(), u"masked (−inf)"_s});
    else if (marks.hasNotNumbers())
        swatches.append({HeatmapMarks::notNumberColor(), u"not a number (NaN or inf)"_s});
    if (marks.hasMark(CellMark::Dropped))
        swatches.append({HeatmapMarks::droppedColor(), u"dropped (no value)"_s});
    if (marks.hasMark(CellMark::Padding))
        swatches.append({HeatmapMarks::droppedColor(), u"padding (masked_fill)"_s, Qt::BDiagPattern});
    if (marks.showsSpread() && marks.hasSpread())
        swatches.append({Qt::white, u"lines: PE swings in the pixel"_s, Qt::HorPattern});
    return swatches;
}

QList<Swatch> HeatmapPanel::markSwatches(const QList<const HeatmapPanel *> &panels)
{
    QList<Swatch> swatches;
    QStringList named;
    for (const HeatmapPanel *panel : panels) {
        for (const Swatch &swatch : panel->markSwatches()) {
            if (named.contains(swatch.label))
                continue;
            named.append(swatch.label);
            swatches.append(swatch);
        }
    }
    return swatches;
}

TextRole HeatmapPanel::marksLegendRole(const QList<Swatch> &swatches)
{
    const bool cells = std::any_of(swatches.cbegin(), swatches.cend(),
                                   [](const Swatch &swatch) { return swatch.hatch != Qt::HorPattern; });
    return cells ? TextRole::Key : TextRole::Caption;
}

// The legend and the colorbar stand where the figure's room put them for the layout it fitted (the
// bar across beside the legend in a strip that holds the legend's cell, the legend in its plot's
// corner) until that room is undone (FigureRoom::restore), which puts each back in its cell: a grid
// set in between leaves them there. One put in its cell again then found the strip in it (Qt's
// warning "There is already an element", in the monkey after a family's page changed).
void HeatmapPanel::showMarksLegend(const QList<Swatch> &swatches)
{
    if (swatches.isEmpty() || m_marksNamedByFigure) {
        if (!m_marksLegend || !m_marksLegend->layout())
            return;
        if (m_marksLegend->layout() == m_cell) {
            m_cell->take(m_marksLegend);
            m_cell->simplify();
        } else {
            // Where the room holds it, and in its cell once the room is undone: no entries, no room.
            SwatchLegend::set(m_marksLegend, {});
        }
        m_marksLegend->setVisible(false);
        return;
    }
    if (!m_marksLegend) {
        m_marksLegend = SwatchLegend::create(m_rect->parentPlot(), m_cell, 1, 0);
        m_marksLegend->setFont(m_scale->axis()->tickLabelFont());
        m_marksLegend->setWrap(2);
        m_marksLegend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    } else if (!m_marksLegend->layout()) {
        m_cell->addElement(1, 0, m_marksLegend);
    }
    m_cell->setRowStretchFactor(1, 0.001);
    m_marksLegend->setVisible(true);
    SwatchLegend::set(m_marksLegend, swatches);
    FigureRoom::setRole(m_marksLegend, marksLegendRole(swatches));
    // The swing lines are drawn while their legend is: given up for room, it takes them with it.
    m_marks->setExplainedBy(m_marksLegend);
}

void HeatmapPanel::namePositions(bool dropoutInTitle)
{
    m_positionsNamed = dropoutInTitle;
    m_rect->axis(QCPAxis::atLeft)->setLabel(dropoutInTitle ? m_index.noun() : m_index.axis());
}

QCPRange HeatmapPanel::cellRange(std::int64_t first, std::int64_t end, int cells)
{
    const double lower = static_cast<double>(first) - 0.5;
    const double upper = static_cast<double>(end) - 0.5;
    if (cells <= 1)
        return {lower, upper};
    const double half = (upper - lower) / cells / 2;
    return {lower + half, upper - half};
}

void HeatmapPanel::setGrid(const HeatmapGrid &grid, const HeatmapStyle &style)
{
    QCPColorMapData *data = m_map->data();
    const Block &b = grid.block;
    // Rows named before this grid came are named again where it indexes them otherwise; not where
    // the page gave the label to a neighbour (FigureRoom's shared axis, which its undo shows again).
    if (std::exchange(m_index, grid.index) != grid.index && m_positionsNamed
        && !m_rect->axis(QCPAxis::atLeft)->label().isEmpty())
        namePositions(*m_positionsNamed);
    data->setSize(grid.cols, grid.rows);
    data->setRange(cellRange(b.col0, b.colEnd(), grid.cols), cellRange(b.row0, b.rowEnd(), grid.rows));
    const NotNumbers notNumbers = ColorMapCells::fill(*data, grid.values);
    // The cells asked for have come, as they were or not: drawn where their ranges put them, never
    // the last image stretched (CoverageColorMap::setDataPending). A coverage offered for the last
    // grid is not this one's.
    static_cast<CoverageColorMap *>(m_map)->setDataPending(false);
    static_cast<CoverageColorMap *>(m_map)->offer(nullptr);
    m_marks->setGrid(data->keyRange(), data->valueRange(), grid.cols, grid.rows);
    m_marks->setSpread(grid.spread);
    m_marks->setMarks(grid.marks);
    m_marks->setNotNumbers(notNumbers.any, notNumbers.masked);
    m_scale->setGradient(notNumbers.gradient(style.colormap)); // a NaN in a colour of its own
    m_scale->setDataRange(style.dataRange);
    m_scale->axis()->setLabel(style.colorbarLabel);
    // A figure of whole numbers draws them at every filling: its bar keeps its whole ticks.
    if (style.wholeNumbers && !dynamic_cast<IndexTicker *>(m_scale->axis()->ticker().data()))
        IndexTicker::install(m_scale->axis());
    if (m_sharedScale)
        return;
    showLegend(!style.categories.isEmpty());
    if (m_legend)
        SwatchLegend::set(m_legend, style.swatches());
    showMarksLegend(markSwatches());
}

void HeatmapPanel::showLegend(bool categorical)
{
    if (categorical && !m_legend) {
        m_side = new QCPLayoutGrid;
        m_cell->addElement(0, 2, m_side);
        m_legend = SwatchLegend::create(m_rect->parentPlot(), m_side, 0, 0);
        m_side->addElement(1, 0, new QCPLayoutElement(m_rect->parentPlot()));
        m_side->setRowStretchFactor(0, 0.001);
        m_cell->take(m_side);
        m_cell->simplify();
        // The colorbar's text was scaled with the figure's font size (FigureFonts): so is this.
        m_legend->setFont(m_scale->axis()->tickLabelFont());
    }
    QCPLayoutElement *shown = categorical ? static_cast<QCPLayoutElement *>(m_side) : m_scale;
    QCPLayoutElement *hidden = categorical ? static_cast<QCPLayoutElement *>(m_scale) : m_side;
    // Beside the heatmap, or where the room put it (showMarksLegend).
    if (shown->layout())
        return;
    if (hidden && hidden->layout())
        hidden->layout()->take(hidden);
    m_cell->addElement(0, 1, shown);
    shown->setVisible(true);
    if (hidden)
        hidden->setVisible(false);
    // A colorbar set aside is laid out no more, and keeps the margins it had when it last was, which
    // its groups would still count (QCPMarginGroup::commonMargin): it leaves them until it is shown
    // again. Dropout's mask, made compact and then large again, stood 5 units lower or higher than
    // the heatmap beside it as its view's sizes before had left its bar (tst_viewroom).
    m_scale->setMarginGroup(QCP::msBottom, categorical ? nullptr : m_scaleBottom.data());
    m_scale->setMarginGroup(QCP::msTop, categorical ? nullptr : m_scaleTop.data());
}

void HeatmapPanel::showBlock(const Block &block)
{
    m_rect->axis(QCPAxis::atBottom)
        ->setRange(static_cast<double>(block.col0) - 0.5, static_cast<double>(block.colEnd()) - 0.5);
    m_rect->axis(QCPAxis::atLeft)
        ->setRange(static_cast<double>(block.row0) - 0.5, static_cast<double>(block.rowEnd()) - 0.5);
}

PanelExtent HeatmapPanel::extent(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}, m_rect->rect().topLeft()};
}

std::shared_ptr<const PreparedCoverage> HeatmapPanel::prepareCoverage(const HeatmapGrid &grid, const HeatmapStyle &style,
                                                                      const PanelExtent &extent)
{
    const auto count = static_cast<std::size_t>(grid.cols) * static_cast<std::size_t>(grid.rows);
    if (grid.cols <= 0 || grid.rows <= 0 || grid.values.size() < count || extent.size.isEmpty())
        return nullptr;
    // The cells as setGrid writes them (ColorMapCells::fill): a value that is no number NaN.
    std::vector<double> cells(count);
    NotNumbers notNumbers;
    for (std::size_t i = 0; i < count; ++i) {
        const float v = grid.values[i];
        if (std::isfinite(v)) {
            cells[i] = v;
        } else {
            notNumbers.note(v);
            cells[i] = std::numeric_limits<double>::quiet_NaN();
        }
    }
    auto prepared = std::make_shared<PreparedCoverage>();
    // The colour scale's range as the map takes it (QCPColorMap::setDataRange).
    prepared->gradient = notNumbers.gradient(style.colormap);
    prepared->range = style.logarithmic ? QCPRange(style.dataRange).sanitizedForLogScale()
                                        : QCPRange(style.dataRange).sanitizedForLinScale();
    prepared->logarithmic = style.logarithmic;
    prepared->keys = grid.cols;
    prepared->rows = grid.rows;
    prepared->source = CoverageColorMap::mapImage(cells.data(), grid.cols, grid.rows, prepared->gradient,
                                                  prepared->range, style.logarithmic);
    prepared->cells = std::move(cells);
    // The map's rectangle as CoverageColorMap::draw takes it, through QCPAxis::coordToPixel of a linear
    // bottom axis and a reversed left one over the axis rect (QRect: its bottom is top + height - 1).
    const Block &b = grid.block;
    const QCPRange keys = cellRange(b.col0, b.colEnd(), grid.cols), values = cellRange(b.row0, b.rowEnd(), grid.rows);
    const double left = extent.at.x(), width = extent.size.width(), height = extent.size.height();
    const double bottom = extent.at.y() + extent.size.height() - 1;
    const auto keyPixel = [&](double key) { return (key - extent.x.lower) / extent.x.size() * width + left; };
    const auto valuePixel = [&](double value) { return bottom - (extent.y.upper - value) / extent.y.size() * height; };
    QRectF imageRect = QRectF(QPointF(keyPixel(keys.lower), valuePixel(values.lower)),
                              QPointF(keyPixel(keys.upper), valuePixel(values.upper)))
                           .normalized();
    const double halfWidth = grid.cols > 1 ? 0.5 * imageRect.width() / (grid.cols - 1) : 0.0;
    const double halfHeight = grid.rows > 1 ? 0.5 * imageRect.height() / (grid.rows - 1) : 0.0;
    imageRect.adjust(-halfWidth, -halfHeight, halfWidth, halfHeight);
    // The plottable's clip, the axis rect, within the layer's (QCPLayer::draw: a line higher).
    const QRect rect(extent.at, extent.size);
    const QRectF visible = QRectF(rect).intersected(QRectF(rect.translated(0, -1)));
    const QTransform toDevice = QTransform::fromScale(extent.pixelRatio, extent.pixelRatio);
    prepared->keyReversed = false;
    prepared->valueReversed = true;
    prepared->target = toDevice.mapRect(imageRect);
    prepared->clip = toDevice.mapRect(visible).toAlignedRect();
    prepared->image = CoverageColorMap::coverage(prepared->source.mirrored(false, true), prepared->target,
                                                 prepared->clip, &prepared->origin);
    return prepared;
}

void HeatmapPanel::offerCoverage(std::shared_ptr<const PreparedCoverage> prepared)
{
    static_cast<CoverageColorMap *>(m_map)->offer(std::move(prepared));
}

void PreparedMaps::offer(const std::shared_ptr<const PreparedDrawing> &prepared, const FigureData &data,
                         std::initializer_list<HeatmapPanel *> panels)
{
    const auto *made = dynamic_cast<const PreparedMaps *>(prepared.get());
    if (!made || made->data != &data)
        return;
    std::size_t i = 0;
    for (HeatmapPanel *panel : panels) {
        if (i < made->maps.size())
            panel->offerCoverage(made->maps[i]);
        ++i;
    }
}

std::optional<std::pair<std::int64_t, std::int64_t>> HeatmapPanel::cellAt(const QPointF &pixel, Shape table) const
{
    if (!m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double col = m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const double row = m_rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
    const auto j = static_cast<std::int64_t>(std::floor(col + 0.5));
    const auto p = static_cast<std::int64_t>(std::floor(row + 0.5));
    if (p < 0 || p >= table.rows || j < 0 || j >= table.cols)
        return std::nullopt;
    return std::pair {p, j};
}

void HeatmapPanel::fitAxes(Shape shape)
{
    m_rect->axis(QCPAxis::atBottom)->setRange(-0.5, static_cast<double>(shape.cols) - 0.5);
    m_rect->axis(QCPAxis::atLeft)->setRange(-0.5, static_cast<double>(shape.rows) - 0.5);
}

} // namespace posenc
