#include "RopeInputFigure.h"

#include "render/PlotItems.h"
#include "render/ShorterLabels.h"

#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"

#include "core/rope/RopeText.h"
#include "render/data/FigureText.h"
#include "render/data/ViewOptions.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QCPItemRect *passingFrame(QCPAxisRect *rect)
{
    QCPItemRect *item = PlotItems::shade(rect, Qt::transparent);
    item->setBrush(Qt::NoBrush);
    item->setPen(QPen(QColor(20, 20, 20), 1.4, Qt::DashLine));
    return item;
}

} // namespace

std::unique_ptr<FigureDescriptor> makeRopeInputFigure()
{
    return std::make_unique<FigureDescriptorOf<RopeInputModel, RopeInputFigure>>();
}

RopeInputFigure::RopeInputFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_scale(new QCPColorScale(plot))
{
    m_note = PlotStyle::smallText(plot, plot->plotLayout(), 1, 0);
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, grid);
    grid->setColumnSpacing(10);
    grid->setRowSpacing(2);
    m_beforeTitle = PlotStyle::panelTitle(plot, false);
    m_afterTitle = PlotStyle::panelTitle(plot, false);
    m_changeTitle = PlotStyle::panelTitle(plot, false);
    grid->addElement(0, 0, m_beforeTitle);
    grid->addElement(0, 1, m_afterTitle);
    grid->addElement(0, 2, m_changeTitle);
    m_before = std::make_unique<HeatmapPanel>(plot, grid, 1, 0, m_scale);
    m_after = std::make_unique<HeatmapPanel>(plot, grid, 1, 1, m_scale);
    m_change = std::make_unique<HeatmapPanel>(plot, grid, 1, 2, m_scale);
    grid->addElement(1, 3, m_scale);
    // On little room the rotated columns stay: the change goes first, then the columns before.
    for (auto [order, title, panel] :
         {std::tuple {1, m_changeTitle, m_change.get()}, std::tuple {2, m_beforeTitle, m_before.get()}}) {
        FigureRoom::setDispensable(title, order);
        FigureRoom::setDispensable(panel->axisRect(), order);
    }
    grid->setColumnStretchFactors({1.0, 1.0, 1.0, 0.01});
    grid->setRowStretchFactors({0.001, 1.0});
    auto *margins = new QCPMarginGroup(plot);
    for (QCPLayoutElement *e : std::initializer_list<QCPLayoutElement *> {m_before->axisRect(), m_after->axisRect(),
                                                                          m_change->axisRect(), m_scale})
        e->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    // The three as wide as each other, whichever has the positions' labels: they tick alike.
    auto *sides = new QCPMarginGroup(plot);
    for (HeatmapPanel *panel : {m_before.get(), m_after.get(), m_change.get()})
        panel->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, sides);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());
    for (HeatmapPanel *panel : {m_before.get(), m_after.get(), m_change.get()}) {
        panel->setShowSpread(false);
        for (QCPAxis *axis : {panel->axisRect()->axis(QCPAxis::atBottom), panel->axisRect()->axis(QCPAxis::atLeft)})
            axis->ticker()->setTickCount(4);
        m_passing.append(passingFrame(panel->axisRect()));
    }
    for (HeatmapPanel *panel : {m_after.get(), m_change.get()})
        panel->axisRect()->axis(QCPAxis::atLeft)->setLabel(QString());
    // The three show the same cells: zooming one zooms the others.
    for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
        QCPAxis *lead = m_after->axisRect()->axis(type);
        for (HeatmapPanel *panel : {m_before.get(), m_change.get()}) {
            QCPAxis *other = panel->axisRect()->axis(type);
            QObject::connect(lead, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), other,
                             qOverload<const QCPRange &>(&QCPAxis::setRange));
            QObject::connect(other, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), lead,
                             qOverload<const QCPRange &>(&QCPAxis::setRange));
        }
    }
}

QList<ViewAxis> RopeInputFigure::viewAxes() const
{
    const QCPAxisRect *rect = m_after->axisRect();
    return {{QString::fromUtf16(RopeInputModel::kColumnsAxis), rect->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(RopeInputModel::kPositionsAxis), rect->axis(QCPAxis::atLeft)}};
}

void RopeInputFigure::showDefaultView(const Params &params, const FigureState &state)
{
    const Shape shape = Quantities::shape(Quantity::RopeInput, params);
    const std::int64_t rows = std::min(shape.rows, RopeInputModel::kFirstPositions);
    m_after->showBlock(ViewOptions::inView(state, {0, rows, 0, shape.cols}));
}

QList<PanelExtent> RopeInputFigure::panels(double pixelRatio) const
{
    return {m_before->extent(pixelRatio), m_after->extent(pixelRatio), m_change->extent(pixelRatio)};
}

void RopeInputFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const RopeInputData>(data);
    const RopeInputData &d = *m_data;
    // One colour range for all: a rotation keeps each pair's norm, so before and after spread alike.
    HeatmapStyle style;
    const double extent = std::max({d.before.colourExtent, d.after.colourExtent, 1e-12});
    style.dataRange = {-extent, extent};
    m_before->setGrid(d.before, style);
    m_after->setGrid(d.after, style);
    m_change->setGrid(d.change, style);
    m_scale->axis()->setLabel(m_compact ? u"value"_s : u"X, R(p)·X and their difference"_s);
    // The bar colours the three panels: short of room, "value" rather than the first panel's "X".
    ShorterLabels::set(m_scale->axis(), {u"value"_s});
    const bool passing = d.rotaryDim < d.headDim;
    // A head whose every column turns is numbered as its rotary columns: an MLA preset's head_dim is
    // its qk_rope_head_dim, the last 64 of DeepSeek-V3's and Kimi K2's 192 query-key columns (its
    // config's qk_nope_head_dim 128 before them), which "column j" from 0 called the head's first.
    for (HeatmapPanel *panel : {m_before.get(), m_after.get(), m_change.get()})
        panel->axisRect()->axis(QCPAxis::atBottom)->setLabel(passing ? u"column j"_s : u"rotary j"_s);
    const double r = static_cast<double>(d.rotaryDim) - 0.5, end = static_cast<double>(d.headDim) - 0.5;
    for (QCPItemRect *frame : m_passing)
        PlotItems::placeShade(frame, passing, r, end);
    // One line each on a third of a slide: the title says it is one head, the hover names the table.
    m_beforeTitle->setText(m_compact ? u"X = s·E"_s : u"before: X = s·E"_s);
    m_afterTitle->setText(m_compact ? u"R(p)·X"_s : u"after: R(p)·X"_s);
    m_changeTitle->setText(m_compact ? u"change"_s : u"change: R(p)·X − X"_s);
    // The change's details in a caption, not its panel's name: on a third of a 14-pt slide they
    // wrapped the name to four lines, and the room steps gave up the figure's title lines (the
    // layout the lesson asks about) before any panel name (rope-layouts for Phi-4 mini).
    QStringList details;
    if (d.attentionFactor != 1.0)
        details.append(u"cos and sin × %1"_s.arg(NumberText::compact(d.attentionFactor, 4)));
    if (passing)
        details.append(u"columns %1– pass, dashed"_s.arg(d.rotaryDim));
    PlotStyle::setCollapsibleText(
        m_note, m_compact || details.isEmpty() ? QString() : u"change: %1"_s.arg(details.join(u"; "_s)));
    // The pairing first after the figure's name: the panels show it, and a title short of room
    // keeps its first parts (rope-layouts' slide for GPT-J lost it after the scaling and the model).
    QStringList parts {m_compact ? u"RoPE on the input"_s : u"RoPE turns one head of the input, pair by pair"_s,
                       RopeText::layoutText(d.layout), d.scaling, d.model};
    if (!m_compact)
        parts.append(d.input);
    const QString preview = d.after.isPreview() ? FigureText::previewText(d.after.rowCoverage) : QString();
    setScreenNote(FigureText::cellsPerPixelText(d.after.block, d.after.rows, d.after.cols), preview);
    if (!preview.isEmpty())
        parts.append(preview);
    m_title->setText(parts.join(u"  ·  "_s));
    ShorterLabels::setModelParts(m_title, {d.scaling, d.model});
}

QList<PositionAxis> RopeInputFigure::positionAxes() const
{
    return {{m_before->axisRect(), true}, {m_after->axisRect(), true}, {m_change->axisRect(), true}};
}

std::optional<HoverPoint> RopeInputFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const Shape head = engine.shape(Quantity::RopeInput);
    for (const HeatmapPanel *panel : {m_before.get(), m_after.get(), m_change.get()}) {
        const auto cell = panel->cellAt(pixel, head);
        if (!cell)
            continue;
        // The cell itself, exact, from the engine: X, R(p)·X, or their difference.
        const Block block {cell->first, 1, cell->second, 1};
        RowMatrixXf before(1, 1), after(1, 1);
        engine.computeBlock(Quantity::Input, block, before);
        engine.computeBlock(Quantity::RopeInput, block, after);
        HoverPoint point;
        point.position = cell->first;
        point.column = cell->second;
        if (panel == m_before.get()) {
            point.value = before(0, 0);
            point.valueName = u"X before the rotation"_s;
            point.quantity = Quantity::Input;
        } else if (panel == m_after.get()) {
            point.value = after(0, 0);
            point.valueName = u"rope-input"_s;
            point.quantity = Quantity::RopeInput;
        } else {
            point.value = double(after(0, 0)) - double(before(0, 0));
            point.valueName = u"rope-input − X"_s;
        }
        return point;
    }
    return std::nullopt;
}

QList<QCPAxisRect *> RopeInputFigure::pictureRects() const
{
    return {m_before->axisRect(), m_after->axisRect(), m_change->axisRect()};
}

} // namespace posenc
