#include "DropoutFigure.h"

#include "render/FigureDescriptor.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"

#include "core/ParamText.h"
#include "core/TitleText.h"
#include "render/data/FigureText.h"
#include "render/data/ViewOptions.h"

#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

std::unique_ptr<FigureDescriptor> makeDropoutFigure()
{
    return std::make_unique<FigureDescriptorOf<DropoutModel, DropoutFigure>>();
}

DropoutFigure::DropoutFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
{
    QFont font = plot->font();
    m_summary = new MeasuredTextElement(plot, QString(), font);
    plot->plotLayout()->addElement(1, 0, m_summary);
    auto *row = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, row);
    plot->plotLayout()->setRowStretchFactor(0, 0.01);
    plot->plotLayout()->setRowStretchFactor(1, 0.01);
    m_mask = std::make_unique<HeatmapPanel>(plot, row, 0, 0);
    m_output = std::make_unique<HeatmapPanel>(plot, row, 0, 1);
    row->setColumnSpacing(12);
    m_output->axisRect()->axis(QCPAxis::atLeft)->setLabel(QString());
    m_output->setMarksNamedByFigure(true); // the mask's legend names its grey cells
    m_mask->namePositions(true);
    // On little room Y stays, its dropped cells grey: the mask's panel goes.
    FigureRoom::setDispensable(m_mask->axisRect()->layout(), 1);
    m_sides = new QCPMarginGroup(plot);
    m_maskRoles = std::make_unique<TokenRoleMarks>(m_mask->axisRect());
    m_outputRoles = std::make_unique<TokenRoleMarks>(m_output->axisRect());
    // The two panels show the same cells: moving one moves the other.
    for (const auto &[from, to] :
         {std::pair {m_mask.get(), m_output.get()}, std::pair {m_output.get(), m_mask.get()}}) {
        for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            QCPAxis *source = from->axisRect()->axis(type);
            QCPAxis *target = to->axisRect()->axis(type);
            QObject::connect(source, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), target,
                             qOverload<const QCPRange &>(&QCPAxis::setRange));
        }
    }
}

namespace {

// The styles setData gives the mask's and Y's grids of `data`.
std::pair<HeatmapStyle, HeatmapStyle> stylesOf(const DropoutData &data, std::optional<Colormap> colormap)
{
    HeatmapStyle maskStyle = HeatmapStyle::forQuantity(Quantity::Mask, data.mask);
    HeatmapStyle outputStyle = HeatmapStyle::forQuantity(Quantity::Output, data.output);
    outputStyle.colorbarLabel = Quantities::label(Quantity::Output, data.params)
        + (data.output.minValue == 0.0 && data.output.maxValue == 0.0 ? u" (all 0)"_s : QString());
    if (colormap)
        maskStyle.colormap = outputStyle.colormap = *colormap;
    return {maskStyle, outputStyle};
}

std::optional<Colormap> dropoutColormap(const FigureState &state)
{
    return Colormaps::fromName(state.option(QString::fromUtf16(DropoutModel::kColormap)));
}

} // namespace

std::shared_ptr<const PreparedDrawing> DropoutFigure::prepare(const FigureData &data, const FigureRequest &request)
{
    const auto *dropout = dynamic_cast<const DropoutData *>(&data);
    if (!dropout || request.panels.size() < 2)
        return nullptr;
    const auto [maskStyle, outputStyle] = stylesOf(*dropout, dropoutColormap(request.state));
    // The mask's and Y's coverage of their panels, offered in that order (fill).
    auto made = std::make_shared<PreparedMaps>();
    made->data = &data;
    made->maps = {HeatmapPanel::prepareCoverage(dropout->mask, maskStyle, request.panels[0]),
                  HeatmapPanel::prepareCoverage(dropout->output, outputStyle, request.panels[1])};
    return made;
}

void DropoutFigure::setData(const DropoutData &data, std::optional<Colormap> colormap, const QString &rate)
{
    const Params &params = data.params;
    auto [maskStyle, outputStyle] = stylesOf(data, colormap);
    if (params.dropoutMode == DropoutMode::MaskedFill && params.sequenceLength() < params.maxLen)
        maskStyle.notes = {{Colormaps::colorAt(maskStyle.colormap, 0.0), u"padding"_s, Qt::BDiagPattern}};
    // Y's cells the mask zeroed are grey: the mask's own entry says so, but in a paper column,
    // whose legend has no room for it.
    if (!data.output.marks.empty() && !maskStyle.categories.isEmpty() && !m_compact)
        maskStyle.categories.back().second = u"dropped (grey in Y)"_s;
    m_mask->setGrid(data.mask, maskStyle);
    m_output->setGrid(data.output, outputStyle);
    // Equal margins beside both heatmaps, so that the two show their cells at one size; a paper
    // column has no room to spare for it, and the roles are only outlined there.
    for (const HeatmapPanel *panel : {m_mask.get(), m_output.get()})
        panel->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, m_compact ? nullptr : m_sides);
    m_maskRoles->update(params, !m_compact);
    m_outputRoles->update(params, !m_compact);
    // TitleText::dropoutText's words, p's stated as the figures state it (FigureText::dropoutRateText).
    const QString dropout = params.training
        ? u"%1, dropout mode %2"_s.arg(rate.isEmpty() ? FigureText::dropoutRateText(params, {}) : rate,
                                       ParamText::toString(params.dropoutMode))
        : TitleText::dropoutText(params);
    const QString parameters = u"%1  ·  %2, %3, %4"_s.arg(dropout, TitleText::tableText(params),
                                                          TitleText::scaleText(params), TitleText::sigmaText(params));
    const QString output = Quantities::label(Quantity::Output, params);
    m_title->setText(m_compact ? u"Mask M and %1  ·  %2"_s.arg(output, parameters)
                               : u"Dropout: keep mask M (1 kept, 0 dropped) and %1  ·  %2"_s.arg(output, parameters));
    m_summary->setText(m_compact || !TokenRoles::matter(params)
                           ? DropoutCompute::summary(data)
                           : DropoutCompute::summary(data) + u"  ·  rows: "_s + TokenRoles::text(params));
}

QList<ViewAxis> DropoutFigure::viewAxes() const
{
    // The mask panel leads; the output panel follows its axes.
    return {{QString::fromUtf16(DropoutModel::kColumnsAxis), m_mask->axisRect()->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(DropoutModel::kPositionsAxis), m_mask->axisRect()->axis(QCPAxis::atLeft)}};
}

void DropoutFigure::showDefaultView(const Params &params, const FigureState &state)
{
    m_mask->showBlock(ViewOptions::inView(state, DropoutCompute::sequenceBlock(params, 48, 48)));
}

QList<PanelExtent> DropoutFigure::panels(double pixelRatio) const
{
    return {m_mask->extent(pixelRatio), m_output->extent(pixelRatio)};
}

void DropoutFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &state)
{
    m_data = std::static_pointer_cast<const DropoutData>(data);
    setData(*m_data, dropoutColormap(state), FigureText::dropoutRateText(m_data->params, state));
    // The job's coverage of the two maps, drawn where their panels are as the request saw them.
    PreparedMaps::offer(prepared(), *data, {m_mask.get(), m_output.get()});
}

QList<PositionAxis> DropoutFigure::positionAxes() const
{
    return {{m_mask->axisRect(), true}, {m_output->axisRect(), true}};
}

std::optional<HoverPoint> DropoutFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    const Shape shape = engine.shape(Quantity::Mask);
    for (const auto &[panel, quantity] :
         {std::pair {m_mask.get(), Quantity::Mask}, std::pair {m_output.get(), Quantity::Output}}) {
        const auto cell = panel->cellAt(pixel, shape);
        if (!cell)
            continue;
        HoverPoint point;
        point.position = cell->first;
        point.column = cell->second;
        RowMatrixXf value(1, 1);
        engine.computeBlock(quantity, {cell->first, 1, cell->second, 1}, value);
        point.value = value(0, 0);
        point.valueName = quantity == Quantity::Mask ? u"kept"_s : u"Y"_s;
        point.quantity = quantity;
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
