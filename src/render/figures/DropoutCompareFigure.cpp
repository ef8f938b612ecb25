#include "DropoutCompareFigure.h"

#include "render/FigureBuild.h"
#include "render/FigureDescriptor.h"
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

// Rows of the panels' grid: a row of titles over each row of heatmaps.
constexpr int kOutputTitles = 0, kOutputs = 1, kPeTitles = 2, kPes = 3;
constexpr int kModeCount = static_cast<int>(kDropoutModeCount);
constexpr int kScaleColumn = kModeCount;
// Modes a row holds where they stand in two rows.
constexpr int kSquareColumns = (kModeCount + 1) / 2;
// The modes no room gives up: sum and embedding.
constexpr int kKeptModes = 2;
// Narrower (layout units), the eight panels' role names and long titles would squeeze the heatmaps.
constexpr int kCompareWideFigure = 800;
// Fewer lines of text in the figure's height (a slide at 14 pt), the long texts would take the
// heatmaps' room.
constexpr double kCompareRoomyLines = 40.0;
// Narrower than this a mode's column (layout units), the roles' names beside each of its heatmaps
// would leave them strips: the heatmaps outline the rows, the subtitle names them.
constexpr double kNamedColumn = 300.0;
// Taller than wide by this much (a lesson's view beside its panel), the modes stand in two rows:
// in one they would be strips five times taller than wide. So they do where a row does not fit.
constexpr double kSquareAspect = 1.15;

// The columns' axis named under the first column of panels alone, as the positions' beside it: the
// panels show the same columns (their axes move together), and named under each, room steps set
// "column j" in the row of the numbers of some and "j" of others, blanking different numbers
// (dropout-on-sum's slide for DiT-XL/2 read "0 5 10 15 20 j" beside "0 5 column j", as if of other
// ranges). Short of room, as the index "column j" names: "j" fits in the row of its numbers past
// the last (FigureRoom's labelsAlongTicks), where "column j" took a line under the panels at 6 x 4
// cm (as dropout-anatomy's).
void nameColumns(QCPAxisRect *rect, bool named)
{
    QCPAxis *axis = rect->axis(QCPAxis::atBottom);
    axis->setLabel(named ? u"column j"_s : QString());
    ShorterLabels::set(axis, named ? QStringList {u"j"_s} : QStringList());
}

QCPColorScale *scaleIn(QCustomPlot *plot, QCPLayoutGrid *grid, int row)
{
    auto *scale = new QCPColorScale(plot);
    grid->addElement(row, kScaleColumn, scale);
    scale->setType(QCPAxis::atRight);
    scale->setBarWidth(12);
    PlotStyle::styleAxisRect(scale->axis()->axisRect());
    // Its range comes from the parameters (±19.97 for a slide's Y): steps that meet the tick count
    // keep ticks inside it where a rounder step (±20) would leave only 0.
    scale->axis()->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
    return scale;
}

// The symmetric range of the grids together, so the panels compare: the widest of their
// quantities' ranges, which the resolution does not change (QuantitySpec::bound).
QCPRange sharedRange(const std::array<const HeatmapGrid *, kDropoutModeCount> &grids)
{
    double extent = 0.0;
    for (const HeatmapGrid *grid : grids)
        extent = std::max(extent, grid->colourExtent);
    return {-extent, extent};
}

} // namespace

std::unique_ptr<FigureDescriptor> makeDropoutCompareFigure()
{
    return std::make_unique<FigureDescriptorOf<DropoutCompareModel, DropoutCompareFigure>>();
}

DropoutCompareFigure::DropoutCompareFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_grid(new QCPLayoutGrid)
{
    QFont font = plot->font();
    m_subtitle = new MeasuredTextElement(plot, QString(), font);
    plot->plotLayout()->addElement(1, 0, m_subtitle);
    plot->plotLayout()->addElement(2, 0, m_grid);
    m_marksLegend = SwatchLegend::create(plot, plot->plotLayout(), 3, 0);
    m_marksLegend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_marksLegend->setWrap(3);
    plot->plotLayout()->setRowStretchFactor(0, 0.01);
    plot->plotLayout()->setRowStretchFactor(1, 0.01);
    plot->plotLayout()->setRowStretchFactor(3, 0.01);
    m_grid->setColumnSpacing(6);
    m_grid->setRowSpacing(2);
    m_outputScale = scaleIn(plot, m_grid, kOutputs);
    m_peScale = scaleIn(plot, m_grid, kPes);
    // Equal heatmaps: in each row the same margins at the top and bottom as its colour scale's,
    // and the panels of a column (Y over its PE part) the same on the left and right. Not every
    // column as the first, whose margin holds the positions' labels: the others would keep that
    // margin empty once they give their labels to it (FigureRoom), and their heatmaps a fifth
    // narrower; EqualPanels keeps the plots of a row equal instead.
    for (auto &sides : m_columnSides)
        sides = new QCPMarginGroup(plot);
    auto *outputRow = new QCPMarginGroup(plot);
    auto *peRow = new QCPMarginGroup(plot);
    m_outputScale->setMarginGroup(QCP::msTop | QCP::msBottom, outputRow);
    m_peScale->setMarginGroup(QCP::msTop | QCP::msBottom, peRow);
    for (int m = 0; m < kModeCount; ++m) {
        const auto i = static_cast<std::size_t>(m);
        m_modeTitles[i] = PlotStyle::smallText(plot, m_grid, kOutputTitles, m, TextRole::PanelTitle);
        m_peTitles[i] = PlotStyle::smallText(plot, m_grid, kPeTitles, m, TextRole::PanelTitle);
        m_output[i] = std::make_unique<HeatmapPanel>(plot, m_grid, kOutputs, m, m_outputScale);
        m_pe[i] = std::make_unique<HeatmapPanel>(plot, m_grid, kPes, m, m_peScale);
        for (const auto &[panel, row] : {std::pair {m_output[i].get(), outputRow}, std::pair {m_pe[i].get(), peRow}}) {
            QCPAxisRect *rect = panel->axisRect();
            // As small as an export lets axes be (FigureBuild), so that the window lays the
            // many panels out as the export of its size does.
            rect->setMinimumSize(FigureBuild::kMinAxisSide, FigureBuild::kMinAxisSide);
            rect->setMarginGroup(QCP::msLeft | QCP::msRight, m_columnSides[i]);
            rect->setMarginGroup(QCP::msTop | QCP::msBottom, row);
            if (m > 0)
                rect->axis(QCPAxis::atLeft)->setLabel(QString());
            else
                panel->namePositions(true);
            nameColumns(rect, m == 0);
            m_roles.push_back(std::make_unique<TokenRoleMarks>(rect));
        }
        m_grid->setColumnStretchFactor(m, 1.0);
        // On little room Y under the modes stays; their PE parts go, then the modes that differ
        // from sum in the special and padding rows alone (the last row of the modes in two rows),
        // then pe: sum beside embedding, the comparison the figure began with, stays.
        FigureRoom::setDispensable(m_peTitles[i], 1);
        FigureRoom::setDispensable(m_pe[i]->axisRect(), 1);
        const int order = m >= kSquareColumns ? 2 : m >= kKeptModes ? 3 : 0;
        FigureRoom::setDispensable(m_modeTitles[i], order);
        FigureRoom::setDispensable(m_output[i]->axisRect(), order);
    }
    FigureRoom::setDispensable(m_peScale, 1);
    m_grid->setColumnStretchFactor(kScaleColumn, 0.01);
    for (const int row : {kOutputTitles, kPeTitles})
        m_grid->setRowStretchFactor(row, 0.01);
    // Every panel shows the cells of the first: moving it moves them all, and moving any moves it.
    QCPAxisRect *lead = m_output[0]->axisRect();
    for (int m = 0; m < kModeCount; ++m) {
        for (HeatmapPanel *panel :
             {m_output[static_cast<std::size_t>(m)].get(), m_pe[static_cast<std::size_t>(m)].get()}) {
            if (panel->axisRect() == lead)
                continue;
            for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
                QCPAxis *source = lead->axis(type);
                QCPAxis *target = panel->axisRect()->axis(type);
                QObject::connect(source, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), target,
                                 qOverload<const QCPRange &>(&QCPAxis::setRange));
                QObject::connect(target, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), source,
                                 qOverload<const QCPRange &>(&QCPAxis::setRange));
            }
        }
    }
}

void DropoutCompareFigure::arrange(bool square)
{
    if (square == m_square)
        return;
    m_square = square;
    QList<QCPLayoutElement *> parts {m_outputScale, m_peScale};
    for (std::size_t m = 0; m < kDropoutModeCount; ++m)
        parts += {m_modeTitles[m], m_output[m]->axisRect(), m_peTitles[m], m_pe[m]->axisRect()};
    for (QCPLayoutElement *part : parts)
        m_grid->take(part);
    m_grid->simplify();
    // Each mode a column of its title, Y, its PE part's title and the PE part; in two rows the
    // last modes under the first.
    for (int m = 0; m < kModeCount; ++m) {
        const auto i = static_cast<std::size_t>(m);
        const int row = square ? 4 * (m / kSquareColumns) : 0;
        const int col = square ? m % kSquareColumns : m;
        for (QCPAxisRect *rect : {m_output[i]->axisRect(), m_pe[i]->axisRect()})
            rect->setMarginGroup(QCP::msLeft | QCP::msRight, m_columnSides[std::size_t(col)]);
        m_grid->addElement(row + kOutputTitles, col, m_modeTitles[i]);
        m_grid->addElement(row + kOutputs, col, m_output[i]->axisRect());
        m_grid->addElement(row + kPeTitles, col, m_peTitles[i]);
        m_grid->addElement(row + kPes, col, m_pe[i]->axisRect());
        for (QCPAxisRect *rect : {m_output[i]->axisRect(), m_pe[i]->axisRect()})
            nameColumns(rect, col == 0);
    }
    const int scaleColumn = square ? kSquareColumns : kScaleColumn;
    m_grid->addElement(kOutputs, scaleColumn, m_outputScale);
    m_grid->addElement(kPes, scaleColumn, m_peScale);
    for (int col = 0; col < m_grid->columnCount(); ++col)
        m_grid->setColumnStretchFactor(col, col == scaleColumn ? 0.01 : 1.0);
    for (int row = 0; row < m_grid->rowCount(); ++row)
        m_grid->setRowStretchFactor(row, row % 2 == 0 ? 0.01 : 1.0);
}

QList<ViewAxis> DropoutCompareFigure::viewAxes() const
{
    const QCPAxisRect *lead = m_output[0]->axisRect();
    return {{QString::fromUtf16(DropoutCompareModel::kColumnsAxis), lead->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(DropoutCompareModel::kPositionsAxis), lead->axis(QCPAxis::atLeft)}};
}

void DropoutCompareFigure::showDefaultView(const Params &params, const FigureState &state)
{
    m_output[0]->showBlock(ViewOptions::inView(state, DropoutCompareModel::defaultBlock(params)));
}

QList<PanelExtent> DropoutCompareFigure::panels(double pixelRatio) const
{
    return {m_output[0]->extent(pixelRatio)};
}

void DropoutCompareFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &state)
{
    m_data = std::static_pointer_cast<const DropoutCompareData>(data);
    const DropoutCompareData &d = *m_data;
    const Params &params = d.params;
    // A small view keeps its room for the heatmaps: shorter texts, the roles only outlined.
    const QCustomPlot &plot = *m_grid->parentPlot();
    // In a row too where the row's least width is more than the page has (6 x 4 cm at 9 pt): its
    // panels' and colour bar's, with their margins. Not its titles': FigureFit wraps them to their
    // columns, and those the last filling left unwrapped (a view made large again after a compact
    // one) would hold the modes in two rows where a fresh view draws one.
    arrange(false);
    int row = m_grid->columnSpacing() * kModeCount + m_outputScale->minimumOuterSizeHint().width();
    for (const auto &panel : m_output)
        row += panel->axisRect()->minimumOuterSizeHint().width();
    arrange((!m_compact && plot.viewport().height() > kSquareAspect * plot.viewport().width())
            || row > plot.viewport().width());
    const bool wide = !m_compact && plot.viewport().width() >= kCompareWideFigure
        && PlotStyle::textLines(plot) >= kCompareRoomyLines;
    HeatmapStyle output;
    std::array<const HeatmapGrid *, kDropoutModeCount> outputs {}, peParts {};
    for (std::size_t m = 0; m < kDropoutModeCount; ++m) {
        outputs[m] = &d.modes[m].output;
        peParts[m] = &d.modes[m].pePart;
    }
    output.dataRange = sharedRange(outputs);
    output.colorbarLabel = u"Y"_s;
    HeatmapStyle pe;
    pe.dataRange = sharedRange(peParts);
    pe.colorbarLabel = u"PE part of Y"_s;
    for (std::size_t m = 0; m < kDropoutModeCount; ++m) {
        const DropoutModePanel &panel = d.modes[m];
        m_output[m]->setGrid(panel.output, output);
        m_pe[m]->setGrid(panel.pePart, pe);
        // Short of room, the mode's name alone: its formula is in the subtitle's place, the lesson.
        m_modeTitles[m]->setText(wide ? DropoutCompareCompute::modeTitle(panel)
                                      : ParamText::toString(panel.mode)); // FigureFit wraps it within its column
        m_peTitles[m]->setText(DropoutCompareCompute::peText(panel, !wide));
        // Under its mode's column and the PE's colour bar, "lost" is the PE's: a fifth of a
        // slide's width at 14 pt held "PE …" of "PE lost: 10 %". Short of room, the PE's fall, in
        // one wording on every page: a column narrower still (MAE's 16:9 slide, 24 columns a panel)
        // held "−10 %" where the 4:3 slide read "lost: 10 %", as if of two quantities; at one
        // precision in every form (DropoutCompareCompute::percentText). The fall names what falls,
        // on one line, in one run of text (its minus the tick labels' hyphen: "−" was drawn in a run of
        // its own): a bare "−10 %" between the rows of a slide said not of what.
        const QString amount = DropoutCompareCompute::percentText(panel.lostFraction());
        const QString fall = (amount == u"0"_s ? u"PE\u00a0%1\u00a0%"_s : u"PE\u00a0-%1\u00a0%"_s).arg(amount);
        ShorterLabels::setText(m_peTitles[m], panel.peCells > 0 ? QStringList {fall} : QStringList());
    }
    // Two of the modes treat rows by their role: every panel marks them, to compare.
    const Params roled = DropoutCompareCompute::withMode(params, DropoutMode::ProtectSpecial);
    const bool named
        = wide && plot.viewport().width() / (m_square ? double(kSquareColumns) : double(kModeCount)) >= kNamedColumn;
    for (const auto &roles : m_roles)
        roles->update(roled, named);
    QList<const HeatmapPanel *> panels;
    for (std::size_t m = 0; m < kDropoutModeCount; ++m)
        panels += {m_output[m].get(), m_pe[m].get()};
    // Its dropped cells' grey and padding's hatch stay drawn: their legend is kept as a key is (a
    // 1366 x 768 window's view drew them with no text saying what they were).
    const QList<Swatch> swatches = HeatmapPanel::markSwatches(panels);
    SwatchLegend::set(m_marksLegend, swatches);
    FigureRoom::setRole(m_marksLegend, HeatmapPanel::marksLegendRole(swatches));
    // A grid averaging several cells a pixel, or a preview, says so.
    const HeatmapGrid &grid = d.modes[0].output;
    QString detail;
    const QString preview = grid.isPreview() ? FigureText::previewText(grid.rowCoverage) : QString();
    setScreenNote(grid.index.named(FigureText::cellsPerPixelText(grid.block, grid.rows, grid.cols)), preview);
    if (!preview.isEmpty())
        detail += u"  ·  "_s + preview;
    // Whose p it is, where not the model's, a statement of its own: a slide's narrow cell keeps p.
    // Said as the other dropout figures say it (FigureText::dropoutRateText, "p = 0.1, the
    // lesson's"), the seed then a part of its own, which a title short of room gives up before
    // whose p it is (dropout-on-sum's 16:9 slide for MAE gave up "p: the lesson's").
    const QString owner = FigureText::dropoutOwnerText(state);
    const QString dropout = !params.training ? u"evaluation: no dropout"_s
        : owner.isEmpty() ? u"p = %1, seed %2"_s.arg(NumberText::compact(params.dropout)).arg(params.seed)
                          : u"%1  ·  seed %2"_s.arg(FigureText::dropoutRateText(params, state)).arg(params.seed);
    const QString what = wide
        ? u"Dropout modes side by side, one %1 and one mask"_s.arg(Quantities::label(Quantity::Input, params))
        : u"Dropout modes, one X and one mask"_s;
    m_title->setText(u"%1  ·  %2  ·  %3, %4, %5%6"_s.arg(what, dropout, TitleText::tableText(params),
                                                         TitleText::scaleText(params), TitleText::sigmaText(params),
                                                         detail));
    // The counts leave the padding out: attention masks it, whatever dropout did to it.
    QString counted = d.paddingInView ? u"sequence's cells in view"_s : u"cells in view"_s;
    if (!d.everyRow)
        counted += u", evenly spaced rows"_s;
    const QString sequence = d.choseSequence
        ? u"  ·  seq_len unset: %1 here, so that padding shows"_s.arg(FigureText::formatCount(params.sequenceLength()))
        : QString();
    if (!wide) {
        m_subtitle->setText(u"top: Y  ·  below: its PE part (the PE alone, same mask), counted over the %1  ·  "
                            "rows: %2%3"_s.arg(counted, TokenRoles::text(params), sequence));
        return;
    }
    // The two questions the figure answers: where the PE survives, and which rows masked_fill spares.
    QString special;
    if (params.training && params.dropout > 0.0) {
        // The roles the rows have, each named once: [CLS] alone for a patch table's cls row.
        const QList<TokenRole> roles = TokenRoles::of(params);
        QStringList names;
        for (const TokenRole &role : roles)
            names.append(role.name);
        names.removeDuplicates();
        const QString named = names.size() < 2
            ? names.value(0)
            : names.sliced(0, names.size() - 1).join(u", "_s) + u" and "_s + names.last();
        special = roles.isEmpty()
            ? u"  ·  protect-special has no special row to keep: it drops as sum does"_s
            : u"  ·  masked-fill zeroes the padding and drops %1 like any row, protect-special keeps %2 whole"_s.arg(
                named, roles.size() == 1 ? u"it"_s : u"them"_s);
    }
    m_subtitle->setText(
        u"top: Y  ·  below: its PE part, Y from the PE alone with the same mask: under sum a dropped "
        "cell loses its PE, under embedding never, under pe as under sum%1  ·  counted over the %2  ·  rows: %3%4"_s
            .arg(special, counted, TokenRoles::text(params), sequence));
}

QList<PositionAxis> DropoutCompareFigure::positionAxes() const
{
    QList<PositionAxis> axes;
    for (std::size_t m = 0; m < kDropoutModeCount; ++m)
        axes += {{m_output[m]->axisRect(), true}, {m_pe[m]->axisRect(), true}};
    return axes;
}

std::optional<HoverPoint> DropoutCompareFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    const Shape shape = engine.shape(Quantity::Output);
    for (std::size_t m = 0; m < kDropoutModeCount; ++m) {
        for (const bool pePart : {false, true}) {
            const HeatmapPanel &panel = pePart ? *m_pe[m] : *m_output[m];
            const auto cell = panel.cellAt(pixel, shape);
            if (!cell)
                continue;
            const DropoutMode mode = DropoutCompareCompute::kModes[m];
            const Params params = DropoutCompareCompute::withMode(DropoutCompareCompute::shown(engine.params()), mode);
            const Engine source(pePart ? DropoutCompareCompute::peOnly(params) : params);
            RowMatrixXf value(1, 1);
            source.computeBlock(Quantity::Output, {cell->first, 1, cell->second, 1}, value);
            HoverPoint point;
            point.position = cell->first;
            point.column = cell->second;
            point.value = value(0, 0);
            // The readout's parts are those of the view's parameters: the value joins them where it is
            // one (the view's mode, and the view's own seq_len).
            if (!pePart && mode == engine.params().dropoutMode
                && !DropoutCompareCompute::choseSequence(engine.params()))
                point.quantity = Quantity::Output;
            point.valueName = (pePart ? u"PE part of Y, %1"_s : u"Y, %1"_s).arg(ParamText::toString(mode));
            return point;
        }
    }
    return std::nullopt;
}

} // namespace posenc
