#include "SimilarityFigure.h"

#include "render/FigureDescriptor.h"
#include "render/FigureRoom.h"
#include "render/GivenLabel.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/StampedGraph.h"

#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"
#include "render/data/sinusoidal/SimilarityCompute.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kClosedForm(40, 40, 40);
const QColor kFirst(0, 114, 178);
const QColor kMiddle(213, 94, 0);

} // namespace

// The heatmap and the plot of the offsets with its legend, side by side or, where that gives the
// heatmap more room, one above the other. S[p, q] treats p and q alike and is constant along its
// diagonals: the heatmap is drawn square, so that those run at 45 degrees, and as large as the
// plot of S(k) leaves it. That plot keeps kBesideShare of the width (side by side) or kBelowShare
// of the height (stacked), and never less than kReadable pixels of plot area across or down; the
// heatmap never less than half of the plots' room (it is the figure's first panel) and, where it
// would have less than kReadable either way, alone (the plot of S(k) given up).
// Column 0 (row 0) holds the heatmap's box: its cell (axis rect and colour scale) at (0, 0) and
// spacers right of it and under it, which take what the square leaves. A layout whose least
// size does not fit is not chosen while the other fits.
class SquareHeatmapRow final : public QCPLayoutGrid
{
public:
    static constexpr double kBesideShare = 0.25;
    static constexpr double kBelowShare = 0.4;
    static constexpr int kReadable = 120;

    // Its box and spacers, once the row is in the plot's layout (a layout element needs its plot
    // before it takes elements).
    void populate(QCustomPlot *plot)
    {
        m_box = new QCPLayoutGrid;
        addElement(0, 0, m_box);
        m_box->addElement(0, 1, new QCPLayoutElement(plot));
        m_box->addElement(1, 0, new QCPLayoutElement(plot));
        m_box->setRowSpacing(0);
        m_box->setColumnSpacing(0);
        setColumnSpacing(14);
        setRowSpacing(10);
    }

    // Where the heatmap panel goes: at (0, 0).
    QCPLayoutGrid *box() const { return m_box; }

    void update(UpdatePhase phase) override
    {
        // The margins are this layout's (upMargins came first); the sections' sizes are set next.
        if (phase == upLayout)
            arrange();
        QCPLayoutGrid::update(phase);
    }

private:
    // A stretch factor for a section that should take no room (QCustomPlot needs it positive).
    static constexpr double kNone = 1e-6;

    void arrange()
    {
        auto *offsets = qobject_cast<QCPLayoutGrid *>(elementCount() == 2 ? elementAt(1) : nullptr);
        auto *cell = qobject_cast<QCPLayoutGrid *>(m_box->element(0, 0));
        auto *heat = cell ? qobject_cast<QCPAxisRect *>(cell->element(0, 0)) : nullptr;
        auto *plotOfS = offsets ? qobject_cast<QCPAxisRect *>(offsets->element(0, 0)) : nullptr;
        if (!heat || !plotOfS)
            return;
        const QMargins margins = heat->margins();
        // The plot of S(k) given up on little room (FigureRoom::setDispensable): the heatmap's
        // square takes the row, beside the room that plot's hidden column keeps.
        const bool alone = !plotOfS->realVisibility();
        // The colour scale beside the heatmap keeps the least width it needs (its stretch is small).
        int besides = 0;
        if (QCPLayoutElement *scale = cell->element(0, 1); scale && scale->visible())
            besides = getFinalMinimumOuterSize(scale).width() + cell->columnSpacing();
        const double across = margins.left() + margins.right() + besides;
        const double down = margins.top() + margins.bottom();
        const double width = rect().width();
        const double height = rect().height();
        // What the plot of S(k) needs either way: its share, and room to be read.
        const QSize heatLeast = getFinalMinimumOuterSize(cell);
        const QSize offsetsLeast = getFinalMinimumOuterSize(offsets);
        const QMargins plotMargins = plotOfS->margins();
        const double besideNeed
            = std::max({kBesideShare * (width - columnSpacing()),
                        plotMargins.left() + plotMargins.right() + double(kReadable), double(offsetsLeast.width())});
        // Its height but for its plot's: its legend's and its margins'.
        const double offsetsDown = offsetsLeast.height() - plotOfS->minimumOuterSizeHint().height()
            + plotMargins.top() + plotMargins.bottom();
        const double belowNeed = std::max(
            {kBelowShare * (height - rowSpacing()), offsetsDown + double(kReadable), double(offsetsLeast.height())});
        // The heatmap's side either way, and whether each way's least size fits.
        // Never less than half of the plots' room: the heatmap is the figure's first panel.
        const double besidePlots = width - columnSpacing() - across - plotMargins.left() - plotMargins.right();
        const double stackedPlots = height - rowSpacing() - down - offsetsDown;
        const double beside
            = std::min(height - down, std::max(width - columnSpacing() - besideNeed - across, besidePlots / 2.0));
        const double stacked
            = std::min(width - across, std::max(height - rowSpacing() - belowNeed - down, stackedPlots / 2.0));
        const bool besideFits = heatLeast.width() + columnSpacing() + offsetsLeast.width() <= width
            && std::max(heatLeast.height(), offsetsLeast.height()) <= height;
        const bool stackedFits = std::max(heatLeast.width(), offsetsLeast.width()) <= width
            && heatLeast.height() + rowSpacing() + offsetsLeast.height() <= height;
        // The plot of S(k) may go only where neither way holds both at their least sizes (6 x 4 cm
        // at 9 pt) or gives the heatmap kReadable across (a column, where it was 15 units wide
        // beside that plot, its colour bar's label wrapped to three columns and 'position p' off
        // the page): a small view that holds both keeps it (FigureRoom reads this when it gives up).
        if (!alone) {
            const bool both = (besideFits || stackedFits) && std::max(beside, stacked) >= kReadable;
            FigureRoom::setDispensable(offsets, both ? 0 : 1);
        }
        // Alone, the heatmap stays where it was: its hidden neighbour keeps no room either way.
        const bool stack = alone ? rowCount() == 2 : stackedFits && (!besideFits || stacked > beside);
        if (stack != (rowCount() == 2)) {
            take(offsets);
            simplify();
            addElement(stack ? 1 : 0, stack ? 0 : 1, offsets);
        }
        const double aloneSide = stack ? std::min(width - across, height - rowSpacing() - down)
                                       : std::min(height - down, width - columnSpacing() - across);
        const double side = std::max(1.0, alone ? aloneSide : stack ? stacked : beside);
        if (alone) {
            // Square in its box, the spacers right of it and under it taking the rest.
            setRowStretchFactors(stack ? QList<double> {1.0, kNone} : QList<double> {1.0});
            setColumnStretchFactors(stack ? QList<double> {1.0} : QList<double> {1.0, kNone});
            // The box is the row's first section, as this grid will size it: the hidden section
            // and the spacing beside it keep a unit or so (a square one unit narrow on 6 x 4 cm).
            QVector<int> leastWidths, leastHeights, mostWidths, mostHeights;
            getMinimumRowColSizes(&leastWidths, &leastHeights);
            getMaximumRowColSizes(&mostWidths, &mostHeights);
            const double boxWidth = getSectionSizes(mostWidths, leastWidths, columnStretchFactors().toVector(),
                                                    int(width) - columnSpacing() * (columnCount() - 1))
                                        .value(0, int(width));
            const double boxHeight = getSectionSizes(mostHeights, leastHeights, rowStretchFactors().toVector(),
                                                     int(height) - rowSpacing() * (rowCount() - 1))
                                         .value(0, int(height));
            m_box->setColumnStretchFactors({side + across, std::max(kNone, boxWidth - side - across)});
            m_box->setRowStretchFactors({side + down, std::max(kNone, boxHeight - side - down)});
        } else if (stack) {
            setColumnStretchFactors({1.0});
            setRowStretchFactors({side + down, std::max(kNone, height - rowSpacing() - side - down)});
            m_box->setColumnStretchFactors({side + across, std::max(kNone, width - side - across)});
            m_box->setRowStretchFactors({1.0, kNone});
        } else {
            setRowStretchFactors({1.0});
            setColumnStretchFactors({side + across, std::max(kNone, width - columnSpacing() - side - across)});
            m_box->setColumnStretchFactors({1.0, kNone});
            m_box->setRowStretchFactors({side + down, std::max(kNone, height - side - down)});
        }
    }

    QCPLayoutGrid *m_box = nullptr;
};

namespace {

SquareHeatmapRow *addRow(QCustomPlot *plot)
{
    auto *row = new SquareHeatmapRow;
    plot->plotLayout()->addElement(1, 0, row);
    row->populate(plot);
    return row;
}

// The two measured series fall on the same points: one filled, one a larger ring around it.
QCPGraph *dots(QCPAxisRect *rect, const QColor &color, bool ring)
{
    auto *graph = new StampedGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(ring ? QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 1.2), Qt::NoBrush, 7)
                                : QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 3.5));
    return graph;
}

} // namespace

std::unique_ptr<FigureDescriptor> makeSimilarityFigure()
{
    return std::make_unique<FigureDescriptorOf<SimilarityModel, SimilarityFigure>>();
}

SimilarityFigure::SimilarityFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_row(addRow(plot))
    , m_panel(plot, m_row->box(), 0, 0)
    , m_offsets(new QCPAxisRect(plot))
    , m_legend(new QCPLegend)
{
    // Beside the heatmap: the offsets' axes over their legend.
    auto *right = new QCPLayoutGrid;
    m_row->addElement(0, 1, right);
    right->addElement(0, 0, m_offsets);
    right->addElement(1, 0, m_legend);
    right->setRowStretchFactor(1, 0.001);
    // On a page too small for both, the heatmap alone (SquareHeatmapRow marks it dispensable there).
    m_legend->setLayer(u"legend"_s);
    m_legend->setBorderPen(Qt::NoPen);
    m_legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    QFont font = plot->font();
    m_legend->setFont(font);
    m_legend->setIconSize(18, 8);

    QCPAxisRect *heat = m_panel.axisRect();
    heat->axis(QCPAxis::atBottom)->setLabel(u"position q"_s);
    heat->axis(QCPAxis::atLeft)->setLabel(u"position p"_s);
    PlotStyle::styleAxisRect(m_offsets);
    m_offsets->axis(QCPAxis::atBottom)->setLabel(u"offset k = q − p"_s);
    IndexTicker::install(m_offsets->axis(QCPAxis::atBottom));
    m_offsets->setRangeDrag(Qt::Horizontal);
    m_offsets->setRangeZoom(Qt::Horizontal);
    m_closedForm = new QCPGraph(m_offsets->axis(QCPAxis::atBottom), m_offsets->axis(QCPAxis::atLeft));
    m_closedForm->setPen(QPen(kClosedForm, 1.3));
    m_first = dots(m_offsets, kFirst, false);
    m_middle = dots(m_offsets, kMiddle, true);
    for (QCPGraph *graph : {m_closedForm, m_first, m_middle})
        MeasuredText::addToLegend(graph, m_legend);
}

QList<ViewAxis> SimilarityFigure::viewAxes() const
{
    const QCPAxisRect *heat = m_panel.axisRect();
    return {{QString::fromUtf16(SimilarityModel::kQAxis), heat->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(SimilarityModel::kPAxis), heat->axis(QCPAxis::atLeft)},
            {QString::fromUtf16(SimilarityModel::kOffsetsAxis), m_offsets->axis(QCPAxis::atBottom)}};
}

void SimilarityFigure::showDefaultView(const Params &params, const FigureState &state)
{
    Block block {0, params.maxLen, 0, params.maxLen};
    if (const auto range = ViewOptions::positionRange(state))
        block = {range->first, range->second - range->first, range->first, range->second - range->first};
    m_panel.showBlock(block);
    // At L = 1 the only offset is 0: half an offset either side, as a position axis shows one position.
    const auto last = static_cast<double>(SimilarityModel::defaultLastOffset(params.maxLen));
    m_offsets->axis(QCPAxis::atBottom)->setRange(last > 0.0 ? QCPRange(0.0, last) : QCPRange(-0.5, 0.5));
}

QList<PanelExtent> SimilarityFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_offsets->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_offsets->axis(QCPAxis::atLeft)->range();
    return {m_panel.extent(pixelRatio), {m_offsets->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void SimilarityFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const SimilarityData>(data);
    const SimilarityData &d = *m_data;
    // Its rows and columns both the table's: two positions p and q, or two timesteps t and t′.
    const TitleText::RowIndex &index = d.grid.index;
    const QString s = index.named(d.cosine ? u"cos(PE[p], PE[q])"_s : u"PE[p] · PE[q]"_s);
    QCPAxisRect *heat = m_panel.axisRect();
    GivenLabel::give(heat->axis(QCPAxis::atBottom), index.named(u"position q"_s));
    GivenLabel::give(heat->axis(QCPAxis::atLeft), index.axis());
    GivenLabel::give(m_offsets->axis(QCPAxis::atBottom), index.named(u"offset k = q − p"_s));
    HeatmapStyle style = HeatmapStyle::forQuantity(Quantity::Similarity, d.grid);
    style.colorbarLabel = s;
    m_panel.setGrid(d.grid, style);

    m_closedForm->setData(d.offsets, d.closedForm, true);
    PlotStyle::showLonePoint(m_closedForm);
    m_first->setData(d.measuredOffsets, d.measuredFirst, true);
    // No middle row (L < 3 or offsets reaching the table's end): no values, whatever the offsets.
    if (d.middle > 0)
        m_middle->setData(d.measuredOffsets, d.measuredMiddle, true);
    else
        m_middle->data()->clear();
    m_middle->setVisible(d.middle > 0);
    m_middle->removeFromLegend(m_legend);
    if (d.middle > 0)
        MeasuredText::addToLegend(m_middle, m_legend);
    const QString sum = d.peColumns % 2 == 0 ? u"Σᵢ cos(k·wᵢ)"_s : u"Σᵢ cos(k·wᵢ), lone sine averaged"_s;
    m_closedForm->setName(m_compact ? u"closed form"_s : u"closed form %1"_s.arg(sum));
    m_first->setName(index.named(m_compact ? u"p = 0"_s : u"table at p = 0"_s));
    m_middle->setName(index.named(m_compact ? u"p = %1"_s.arg(d.middle)
                                            : u"table at p = %1"_s.arg(FigureText::formatCount(d.middle))));
    GivenLabel::give(m_offsets->axis(QCPAxis::atLeft),
                     d.cosine ? u"cosine at offset k"_s : index.named(u"S(k) = PE[p] · PE[p+k]"_s));
    double lo = 0.0, hi = 0.0;
    for (const QList<double> *values : {&d.closedForm, &d.measuredFirst, &d.measuredMiddle})
        for (const double v : *values) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    const double pad = 0.06 * std::max(hi - lo, 1e-9);
    m_offsets->axis(QCPAxis::atLeft)->setRange(lo - pad, hi + pad);

    // Positions p down a cell by positions q across it.
    const QString cells = FigureText::averagedCellsText(d.grid.block, d.grid.rows, d.grid.cols);
    const QString averaged
        = cells.isEmpty() ? cells : index.named(u"  ·  each cell averages %1 positions (p × q)"_s.arg(cells));
    // Whole sin/cos pairs make S a function of q - p alone; a lone sine column (odd d) adds a
    // part that depends on p, and float32 angles add their rounding.
    const QString relative
        = index.named(d.translationInvariant ? u"a function of q − p only"_s : u"nearly a function of q − p"_s);
    m_title->setText(u"%1  ·  %2, d = %3  ·  %4%5"_s.arg(
        d.cosine ? u"Cosine similarity"_s : index.named(u"Similarity S[p, q] = PE[p] · PE[q]"_s),
        index.count(d.table.rows), FigureText::formatCount(d.peColumns), relative, averaged));
}

QList<PositionAxis> SimilarityFigure::positionAxes() const
{
    return {{m_panel.axisRect(), true}};
}

std::optional<HoverPoint> SimilarityFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    if (const auto cell = m_panel.cellAt(pixel, engine.shape(Quantity::Similarity))) {
        // The exact dot product of the two rows: microseconds.
        const std::int64_t k = engine.params().peColumns();
        RowMatrixXf p(1, k), q(1, k);
        engine.computeBlock(Quantity::Pe, {cell->first, 1, 0, k}, p);
        engine.computeBlock(Quantity::Pe, {cell->second, 1, 0, k}, q);
        const Eigen::VectorXd a = p.row(0).cast<double>(), b = q.row(0).cast<double>();
        HoverPoint point;
        point.position = cell->first;
        point.value = m_data->cosine ? a.dot(b) / std::max(a.norm() * b.norm(), 1e-300) : a.dot(b);
        point.valueName = m_data->grid.index.named(u"q = %1, k = q − p = %2, %3"_s.arg(cell->second)
                                                       .arg(cell->second - cell->first)
                                                       .arg(m_data->cosine ? u"cosine"_s : u"S"_s));
        return point;
    }
    if (m_offsets->rect().contains(pixel.toPoint())) {
        const double k = std::round(m_offsets->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
        if (k < 0 || k >= static_cast<double>(engine.params().maxLen))
            return std::nullopt;
        HoverPoint point;
        point.hasPosition = false;
        point.value = SimilarityCompute::closedForm(engine.params(), k, m_data->cosine);
        point.valueName = u"offset k = %1, closed form"_s.arg(k);
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
