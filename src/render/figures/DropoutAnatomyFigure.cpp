#include "DropoutAnatomyFigure.h"

#include "render/FigureBuild.h"
#include "render/FigureDescriptor.h"
#include "render/FigureFit.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/SwatchLegend.h"

#include "core/TitleText.h"
#include "render/data/FigureText.h"
#include "render/data/ViewOptions.h"

#include "core/ParamText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Smaller (layout units), the role names and long texts would squeeze the panels.
constexpr QSize kAnatomyWideFigure(800, 560);
// Fewer lines of text in the figure's height (a slide at 14 pt): no subtitle, one-line panel
// titles, so that the panels keep their room.
constexpr double kAnatomyRoomyLines = 32.0;

bool hasPadding(const Params &p)
{
    return p.dropoutMode == DropoutMode::MaskedFill && p.sequenceLength() < p.maxLen;
}

} // namespace

std::unique_ptr<FigureDescriptor> makeDropoutAnatomyFigure()
{
    return std::make_unique<FigureDescriptorOf<DropoutAnatomyModel, DropoutAnatomyFigure>>();
}

DropoutAnatomyFigure::DropoutAnatomyFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
{
    QFont font = plot->font();
    m_subtitle = new MeasuredTextElement(plot, QString(), font);
    plot->plotLayout()->addElement(1, 0, m_subtitle);
    auto *heatmaps = new QCPLayoutGrid;
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, heatmaps);
    plot->plotLayout()->addElement(3, 0, below);
    plot->plotLayout()->setRowStretchFactor(0, 0.01);
    plot->plotLayout()->setRowStretchFactor(1, 0.01);
    plot->plotLayout()->setRowStretchFactor(2, 1.15);
    plot->plotLayout()->setRowStretchFactor(3, 1.0);
    plot->plotLayout()->setRowSpacing(4);
    layOutHeatmaps(plot, heatmaps);
    m_charts = std::make_unique<DropoutAnatomyCharts>(plot, below);
    // On little room X and Y in training stay: the charts go first, then the mask and Y in
    // evaluation (Y greys the cells the mask dropped).
    FigureRoom::setDispensable(below, 1);
}

void DropoutAnatomyFigure::layOutHeatmaps(QCustomPlot *plot, QCPLayoutGrid *grid)
{
    m_heatmaps = grid;
    grid->setColumnSpacing(6);
    grid->setRowSpacing(2);
    m_scale = new QCPColorScale(plot);
    grid->addElement(1, 4, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());
    // The mask keeps its own colours, out of the layout: its legend names them.
    m_maskScale = new QCPColorScale(plot);
    m_maskScale->setVisible(false);
    auto *sides = new QCPMarginGroup(plot);
    auto *row = new QCPMarginGroup(plot);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, row);
    for (int i = 0; i < 4; ++i) {
        if (i == MaskPanel) {
            auto *title = new QCPLayoutGrid;
            grid->addElement(0, i, title);
            m_titles[i] = PlotStyle::smallText(plot, title, 0, 0, TextRole::PanelTitle);
            // The legend in one line, centred under the title between two empty cells, which give
            // it the column's width to fit its entries in (FigureFit::roomWithin; spacers there
            // left it none, and it took a row an entry, the row of titles three lines high). Its
            // second cell holds the title where few lines fit (setMaskNameBeside).
            auto *line = new QCPLayoutGrid;
            title->addElement(1, 0, line);
            m_maskTitle = title;
            m_maskLine = line;
            m_maskLegend = SwatchLegend::create(plot, line, 0, 2);
            m_maskLegend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
            line->expandTo(1, 4);
            line->setColumnStretchFactor(1, 0.001);
            line->setColumnStretchFactor(2, 0.001);
            title->setRowSpacing(0);
        } else {
            m_titles[i] = PlotStyle::smallText(plot, grid, 0, i, TextRole::PanelTitle);
        }
        m_panels[i] = std::make_unique<HeatmapPanel>(plot, grid, 1, i, i == MaskPanel ? m_maskScale : m_scale);
        QCPAxisRect *rect = m_panels[i]->axisRect();
        // As small as an export lets axes be, so that the window lays the many panels out as the
        // export of its size does.
        rect->setMinimumSize(FigureBuild::kMinAxisSide, FigureBuild::kMinAxisSide);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, sides);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, row);
        if (i > 0)
            rect->axis(QCPAxis::atLeft)->setLabel(QString());
        else
            m_panels[i]->namePositions(true);
        m_roles.push_back(std::make_unique<TokenRoleMarks>(rect));
        grid->setColumnStretchFactor(i, 1.0);
        if (i == MaskPanel || i == EvaluationPanel) {
            FigureRoom::setDispensable(grid->element(0, i), 2);
            FigureRoom::setDispensable(rect, 2);
        }
    }
    grid->setColumnStretchFactor(4, 0.01);
    grid->setRowStretchFactor(0, 0.01);
    // Every panel shows the cells of the first.
    QCPAxisRect *lead = m_panels[InputPanel]->axisRect();
    for (int i = 1; i < 4; ++i) {
        for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            QCPAxis *source = lead->axis(type);
            QCPAxis *target = m_panels[i]->axisRect()->axis(type);
            QObject::connect(source, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), target,
                             qOverload<const QCPRange &>(&QCPAxis::setRange));
            QObject::connect(target, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), source,
                             qOverload<const QCPRange &>(&QCPAxis::setRange));
        }
    }
}

QList<ViewAxis> DropoutAnatomyFigure::viewAxes() const
{
    const QCPAxisRect *lead = m_panels[InputPanel]->axisRect();
    return {{QString::fromUtf16(DropoutAnatomyModel::kColumnsAxis), lead->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(DropoutAnatomyModel::kPositionsAxis), lead->axis(QCPAxis::atLeft)}};
}

void DropoutAnatomyFigure::showDefaultView(const Params &params, const FigureState &state)
{
    m_panels[InputPanel]->showBlock(ViewOptions::inView(state, DropoutAnatomyModel::defaultBlock(params)));
}

QList<PanelExtent> DropoutAnatomyFigure::panels(double pixelRatio) const
{
    return {m_panels[InputPanel]->extent(pixelRatio)};
}

void DropoutAnatomyFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &state)
{
    m_data = std::static_pointer_cast<const DropoutAnatomyData>(data);
    const DropoutAnatomyData &d = *m_data;
    const Params &p = d.params;
    // A small view keeps its room for the panels: shorter texts, the roles only outlined.
    const QRect viewport = m_title->parentPlot()->viewport();
    m_wide = !m_compact && viewport.width() >= kAnatomyWideFigure.width()
        && viewport.height() >= kAnatomyWideFigure.height();
    m_tight = PlotStyle::textLines(*m_title->parentPlot()) < kAnatomyRoomyLines;
    fillHeatmaps(d);
    m_charts->setLegendsInside(m_tight);
    m_charts->fill(d, !m_wide);
    const QString factor = p.dropout < 1.0 ? u"1/(1−p) = %1"_s.arg(NumberText::compact(1.0 / (1.0 - p.dropout)))
                                           : u"1/(1−p) undefined, nothing kept"_s;
    m_title->setText(u"What dropout does  ·  mode %1, %2, %3, seed %4  ·  %5, %6, %7"_s.arg(
        ParamText::toString(p.dropoutMode), FigureText::dropoutRateText(p, state), factor, QString::number(p.seed),
        TitleText::tableText(p), TitleText::scaleText(p), TitleText::sigmaText(p)));
    // Both are drawn whatever the parameters say; evaluation ones are told why training shows.
    const QString evaluating = p.training ? QString() : u"  ·  the parameters evaluate: training drawn to compare"_s;
    // masked_fill zeroes the padding in evaluation too: Y = X only on the sequence's rows.
    const QString identity = hasPadding(p) ? u"Y = masked_fill(X), X on the sequence's rows"_s : u"Y = X"_s;
    // Rows have roles only in the modes that treat them so; under sum no row is special.
    const QString rows = TokenRoles::matter(p)
        ? u"rows: "_s + TokenRoles::text(p)
        : u"mode %1: every row alike, none protected"_s.arg(ParamText::toString(p.dropoutMode));
    if (m_tight) {
        PlotStyle::setCollapsibleText(m_subtitle, QString());
        return;
    }
    if (!m_wide) {
        PlotStyle::setCollapsibleText(m_subtitle, rows);
        return;
    }
    PlotStyle::setCollapsibleText(
        m_subtitle,
        u"training: each cell kept with probability 1−p and scaled by 1/(1−p), else 0, so E[Y] = X  ·  "
        "evaluation: %1%2  ·  %3"_s.arg(identity, evaluating, rows));
}

void DropoutAnatomyFigure::fillHeatmaps(const DropoutAnatomyData &d)
{
    const Params &p = d.params;
    HeatmapStyle shared;
    // The widest of the three quantities' ranges, the same at any resolution (QuantitySpec::bound).
    double extent = 0.0;
    for (const HeatmapGrid *grid : {&d.input, &d.training, &d.evaluation})
        extent = std::max(extent, grid->colourExtent);
    shared.dataRange = {-extent, extent};
    shared.colorbarLabel = u"X and Y"_s;
    m_panels[InputPanel]->setGrid(d.input, shared);
    m_panels[TrainingPanel]->setGrid(d.training, shared);
    m_panels[EvaluationPanel]->setGrid(d.evaluation, shared);
    HeatmapStyle mask = HeatmapStyle::forQuantity(Quantity::Mask, d.mask);
    const bool exact = !mask.categories.isEmpty();
    // The cells the mask drops are grey in Y (HeatmapMarks): one entry names both, but where few
    // lines fit (a 14-pt slide): there the legend keeps to one line beside the mask's name, so
    // that the row of titles is one line high, not three (the lesson's text says they are grey).
    const bool greyInY = m_panels[TrainingPanel]->markSwatches().size() > 0 && !m_tight;
    mask.categories = {{1.0, u"kept"_s}, {0.0, greyInY ? u"dropped (grey in Y)"_s : u"dropped"_s}};
    // At p = 0 every cell is kept: the key names no colour the mask cannot take.
    if (p.dropout <= 0.0)
        mask.categories.removeLast();
    m_panels[MaskPanel]->setGrid(d.mask, mask);
    QList<Swatch> swatches = mask.swatches();
    if (hasPadding(p))
        swatches.append({Colormaps::colorAt(mask.colormap, 0.0), u"padding"_s, Qt::BDiagPattern});
    SwatchLegend::set(m_maskLegend, swatches);
    // One row where few lines fit (beside the mask's name), else one entry a line as the titles
    // beside it wrap: never two entries over one, a cell of the legend left empty.
    FigureFit::setLegendWrap(m_maskLegend, m_tight ? int(swatches.size()) : 1);
    for (const auto &roles : m_roles)
        roles->update(p, m_wide);

    const QString evaluation = hasPadding(p) ? u"Y = masked_fill(X)"_s : u"Y = X"_s;
    // Tight, one line each: the formulas are the lesson's, the panels what they show; the mask's
    // name in the line of its legend, the row of titles one line high.
    setMaskNameBeside(m_tight && exact);
    const std::array<QString, 4> titles = m_tight
        ? std::array<QString, 4> {u"input X"_s, exact ? u"M:"_s : u"mask M, kept fraction"_s, u"training: Y"_s,
                                  u"evaluation: Y"_s}
        : std::array<QString, 4> {
            u"input\n%1"_s.arg(Quantities::label(Quantity::Input, p)),
            exact ? u"keep mask M ~ Bernoulli(1−p)"_s : u"keep mask M, kept fraction a pixel"_s,
            u"training, p = %1\n%2"_s.arg(NumberText::compact(p.dropout), DropoutAnatomyCompute::trainingFormula(p)),
            u"evaluation\n%1"_s.arg(evaluation)};
    for (std::size_t i = 0; i < titles.size(); ++i)
        m_titles[i]->setText(titles[i]); // FigureFit wraps it within its column
    // The columns' axis, short of room, as the index the titles' X and Y take: "j" fits in the row
    // of its numbers past the last (FigureRoom's labelsAlongTicks), where "column j" would take
    // the place of a number or a line under the four panels.
    for (const auto &panel : m_panels)
        ShorterLabels::set(panel->axisRect()->axis(QCPAxis::atBottom), {u"j"_s});
    // Above its bar on little room, the scale's label within the bar's column, clear of the name
    // of the panel beside it.
    ShorterLabels::set(m_scale->axis(), {u"X, Y"_s});
}

void DropoutAnatomyFigure::setMaskNameBeside(bool beside)
{
    QCPTextElement *name = m_titles[MaskPanel];
    if ((name->layout() == m_maskLine) == beside)
        return;
    // No empty row left over the line: QCPLayout's sizing gave up on it in a small view.
    if (beside) {
        m_maskTitle->take(name);
        m_maskTitle->simplify();
        m_maskLine->addElement(0, 1, name);
    } else {
        m_maskLine->take(name);
        m_maskTitle->insertRow(0);
        m_maskTitle->addElement(0, 0, name);
    }
}

QList<PositionAxis> DropoutAnatomyFigure::positionAxes() const
{
    QList<PositionAxis> axes;
    for (const auto &panel : m_panels)
        axes.append({panel->axisRect(), true});
    return axes;
}

std::optional<HoverPoint> DropoutAnatomyFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    const Shape shape = engine.shape(Quantity::Output);
    for (int i = 0; i < 4; ++i) {
        const auto cell = m_panels[i]->cellAt(pixel, shape);
        if (!cell)
            continue;
        Params params = engine.params();
        params.training = i != EvaluationPanel;
        const Engine source(params);
        const Quantity quantity = i == InputPanel ? Quantity::Input
            : i == MaskPanel                      ? Quantity::Mask
                                                  : Quantity::Output;
        RowMatrixXf value(1, 1);
        source.computeBlock(quantity, {cell->first, 1, cell->second, 1}, value);
        HoverPoint point;
        point.position = cell->first;
        point.column = cell->second;
        point.value = value(0, 0);
        // The readout's parts are those of the view's parameters: the value joins them where it is one.
        if (i == InputPanel || params.training == engine.params().training)
            point.quantity = quantity;
        point.valueName = i == InputPanel ? u"X"_s
            : i == MaskPanel              ? u"kept"_s
            : i == TrainingPanel          ? u"Y in training"_s
                                          : u"Y in evaluation"_s;
        return point;
    }
    return m_charts->hoverAt(pixel);
}

} // namespace posenc
