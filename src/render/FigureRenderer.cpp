#include "FigureRenderer.h"

#include "figures/CurvesFigure.h"
#include "data/Detail.h"
#include "figures/DropoutFigure.h"
#include "FigureFit.h"
#include "figures/HeatmapFigure.h"
#include "figures/LearnedFigure.h"
#include "figures/MagnitudesFigure.h"
#include "PlotStyle.h"
#include "VisibleRequest.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace Qt::StringLiterals;

namespace posenc {

namespace FigureKinds {

QStringList names()
{
    return {u"heatmap"_s, u"curves"_s, u"magnitudes"_s, u"dropout"_s, u"learned"_s};
}

QString name(FigureKind kind)
{
    return names().at(static_cast<int>(kind));
}

std::optional<FigureKind> fromName(const QString &name)
{
    const qsizetype i = names().indexOf(name);
    return i < 0 ? std::nullopt : std::optional(static_cast<FigureKind>(i));
}

} // namespace FigureKinds

namespace {

using Fill = std::function<std::optional<QString>()>;

// Axes may be squeezed this small (layout units) before a figure is too small to draw.
constexpr int kMinAxisSide = 24;
// The learned figure's four heatmaps are read as pictures: smaller, they show nothing.
constexpr int kMinLearnedPanelSide = 64;

void scaleFont(QFont &font, double factor)
{
    font.setPointSizeF(font.pointSizeF() * factor);
}

// Every text of the figure scaled by `factor`: axis labels and ticks, titles, legends.
void scaleFonts(QCustomPlot *plot, double factor)
{
    if (factor == 1.0)
        return;
    const auto scaleAxis = [factor](QCPAxis *axis) {
        QFont label = axis->labelFont();
        scaleFont(label, factor);
        axis->setLabelFont(label);
        QFont ticks = axis->tickLabelFont();
        scaleFont(ticks, factor);
        axis->setTickLabelFont(ticks);
    };
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes())
            scaleAxis(axis);
        for (QCPLayoutElement *inset : rect->insetLayout()->elements(true)) {
            if (auto *legend = qobject_cast<QCPLegend *>(inset)) {
                QFont font = legend->font();
                scaleFont(font, factor);
                legend->setFont(font);
            }
        }
    }
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(element)) {
            QFont font = text->font();
            scaleFont(font, factor);
            text->setFont(font);
        } else if (auto *legend = qobject_cast<QCPLegend *>(element)) {
            QFont font = legend->font();
            scaleFont(font, factor);
            legend->setFont(font);
        } else if (auto *scale = qobject_cast<QCPColorScale *>(element)) {
            scaleAxis(scale->axis());
            scale->setBarWidth(qRound(scale->barWidth() * factor));
        }
    }
}

// Rounded up to a tenth, so that the size a message names is enough (9.03 cm -> 9.1 cm).
double upToTenth(double value)
{
    return std::ceil(value * 10.0 - 1e-9) / 10.0;
}

// Lays the figure out at `size` as the window does: a replot, which also fills QCustomPlot's
// cache of tick labels, whose sizes then set the margins (a label of powers of ten, drawn from
// the cache, takes less room than measured afresh).
void layOut(QCustomPlot *plot, QSize size)
{
    plot->setViewport(QRect(QPoint(0, 0), size));
    plot->replot();
}

QList<QRect> axisRectGeometry(QCustomPlot *plot)
{
    QList<QRect> rects;
    for (const QCPAxisRect *rect : plot->axisRects())
        rects.append(rect->rect());
    return rects;
}

// Lays the figure out, fills it with data computed for that layout, and fills it again while
// the filling moved the axes (a title or a legend that appeared with the data): the data is
// always computed for the pixels it is drawn on.
std::optional<FigureError> settle(QCustomPlot *plot, const FigureOptions &options, const FigureSize &size,
                                  const Fill &fill, const QList<QCPAxisRect *> &pictures = {})
{
    scaleFonts(plot, options.fontPointSize / FigureOptions::kBaseFontPointSize);
    for (QCPAxisRect *rect : plot->axisRects())
        rect->setMinimumSize(kMinAxisSide, kMinAxisSide);
    for (QCPAxisRect *rect : pictures)
        rect->setMinimumSize(kMinLearnedPanelSide, kMinLearnedPanelSide);
    layOut(plot, size.layout);
    for (int pass = 0; pass < 4; ++pass) {
        const QList<QRect> before = axisRectGeometry(plot);
        if (auto refused = fill())
            return FigureError {FigureError::OverBudget, *refused};
        // QCustomPlot thins a graph to a few points per layout unit, which shows as steps when a
        // unit is several output pixels: a print draws every point.
        if (size.scale > 1.0) {
            for (int i = 0; i < plot->graphCount(); ++i)
                plot->graph(i)->setAdaptiveSampling(false);
        }
        if (options.title) {
            if (auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0)))
                title->setText(*options.title);
        }
        layOut(plot, size.layout);
        // Little room: wrap, thin and stack what would overlap, a few rounds at most.
        for (int round = 0; round < 8 && FigureFit::fit(plot); ++round)
            layOut(plot, size.layout);
        if (axisRectGeometry(plot) == before)
            break;
    }
    // Squeezed past the least its text, legends and axes need, they would overlap or be cut.
    const QSize least = plot->plotLayout()->minimumOuterSizeHint();
    if (least.width() > size.layout.width() || least.height() > size.layout.height()) {
        const double cm = 2.54 / FigureSize::unitsPerInch();
        const QSize need = least.expandedTo(size.layout);
        return FigureError {FigureError::TooSmall,
                            u"the %1 figure's text at %2 pt needs at least %3 x %4 cm (%5 x %6 pixels on screen)"_s
                                .arg(FigureKinds::name(options.kind))
                                .arg(options.fontPointSize)
                                .arg(upToTenth(need.width() * cm), 0, 'f', 1)
                                .arg(upToTenth(need.height() * cm), 0, 'f', 1)
                                .arg(need.width())
                                .arg(need.height())};
    }
    return std::nullopt;
}

QString refusal(const Engine &engine, Quantity quantity, const Block &block)
{
    return engine.check(quantity, {block.row0, 1, block.col0, block.cols})
        .value_or(u"%1: the engine refused rows of %2 columns within the memory budget (--memory-budget)"_s
                      .arg(Quantities::name(quantity))
                      .arg(block.cols));
}

// The cells in view: the options' positions and columns, or `fallback`.
Block inView(const FigureOptions &options, const Block &fallback)
{
    Block block = fallback;
    if (options.positions) {
        block.row0 = options.positions->first;
        block.rows = options.positions->second - options.positions->first;
    }
    if (!options.columns.empty()) {
        const auto [lo, hi] = std::minmax_element(options.columns.begin(), options.columns.end());
        block.col0 = *lo;
        block.cols = *hi - *lo + 1;
    }
    return block;
}

void showBlock(HeatmapPanel &panel, const Block &block)
{
    panel.axisRect()
        ->axis(QCPAxis::atBottom)
        ->setRange(static_cast<double>(block.col0) - 0.5, static_cast<double>(block.colEnd()) - 0.5);
    panel.axisRect()
        ->axis(QCPAxis::atLeft)
        ->setRange(static_cast<double>(block.row0) - 0.5, static_cast<double>(block.rowEnd()) - 0.5);
}

// The continuous view of a zoomed window, over the whole cells of showBlock.
void showView(HeatmapPanel &panel, const FigureOptions &options)
{
    if (options.columnView)
        panel.axisRect()->axis(QCPAxis::atBottom)->setRange(*options.columnView);
    if (options.positionView)
        panel.axisRect()->axis(QCPAxis::atLeft)->setRange(*options.positionView);
}

int pixelsAcross(const QCPAxisRect *rect, double scale)
{
    return std::max(1, qRound(rect->width() * scale));
}

std::optional<FigureError> buildHeatmap(QCustomPlot *plot, const Engine &engine, const FigureOptions &options,
                                        const FigureSize &size, const ComputeOptions &compute)
{
    HeatmapFigure figure(plot);
    const Quantity quantity = options.quantity;
    const Shape shape = engine.shape(quantity);
    showBlock(figure.panel(), inView(options, {0, shape.rows, 0, shape.cols}));
    showView(figure.panel(), options);
    return settle(plot, options, size, [&]() -> std::optional<QString> {
        const HeatmapRequest request = VisibleRequest::forPanel(figure.panel(), quantity, shape, size.scale);
        const auto grid = computeHeatmap(engine, request, Detail::Full, compute);
        if (!grid)
            return refusal(engine, quantity, request.block);
        figure.setGrid(*grid, shape, options.colormap);
        return std::nullopt;
    });
}

std::optional<FigureError> buildCurves(QCustomPlot *plot, const Engine &engine, const FigureOptions &options,
                                       const FigureSize &size, const ComputeOptions &compute)
{
    CurvesFigure figure(plot);
    figure.setCompact(PlotStyle::isCompact(size.layout));
    const Params &params = engine.params();
    // As the curves view opens: the first hundred positions, a few low, middle and high columns.
    if (options.positionView)
        figure.setPositionRange(options.positionView->lower, options.positionView->upper);
    else if (options.positions)
        figure.setPositionRange(static_cast<double>(options.positions->first),
                                static_cast<double>(options.positions->second - 1));
    else
        figure.setPositionRange(0.0, static_cast<double>(CurvesCompute::defaultLastPosition(params.maxLen)));
    const std::vector<std::int64_t> columns
        = options.columns.empty() ? CurvesCompute::defaultColumns(params.peColumns()) : options.columns;
    return settle(plot, options, size, [&]() -> std::optional<QString> {
        const QCPRange range = figure.axisRect()->axis(QCPAxis::atBottom)->range();
        const CurvesRequest request {columns, range.lower, range.upper, pixelsAcross(figure.axisRect(), size.scale)};
        const auto data = CurvesCompute::compute(engine, request, compute);
        if (!data)
            return refusal(engine, Quantity::Pe, {0, 1, 0, params.peColumns()});
        figure.setData(*data);
        return std::nullopt;
    });
}

std::optional<FigureError> buildMagnitudes(QCustomPlot *plot, const Engine &engine, const FigureOptions &options,
                                           const FigureSize &size, const ComputeOptions &compute)
{
    MagnitudesFigure figure(plot);
    figure.setCompact(PlotStyle::isCompact(size.layout));
    return settle(plot, options, size, [&]() -> std::optional<QString> {
        const auto data = MagnitudesCompute::compute(engine, pixelsAcross(figure.positionRect(), size.scale),
                                                     Detail::Full, compute);
        if (!data)
            return refusal(engine, Quantity::Input, {0, 1, 0, engine.params().dModel});
        figure.setData(*data);
        return std::nullopt;
    });
}

std::optional<FigureError> buildDropout(QCustomPlot *plot, const Engine &engine, const FigureOptions &options,
                                        const FigureSize &size, const ComputeOptions &compute)
{
    DropoutFigure figure(plot);
    const Shape shape = engine.shape(Quantity::Mask);
    // The mask panel leads; the output panel follows its axes.
    showBlock(figure.maskPanel(), inView(options, DropoutCompute::defaultBlock(shape)));
    showView(figure.maskPanel(), options);
    return settle(plot, options, size, [&]() -> std::optional<QString> {
        const HeatmapRequest visible = VisibleRequest::forPanel(figure.maskPanel(), Quantity::Mask, shape, size.scale);
        const auto data = DropoutCompute::compute(engine, {visible.block, visible.pixelRows, visible.pixelCols},
                                                  Detail::Full, compute);
        if (!data)
            return refusal(engine, Quantity::Output, visible.block);
        figure.setData(*data);
        if (options.colormap) {
            for (HeatmapPanel *panel : {&figure.maskPanel(), &figure.outputPanel()})
                panel->colorScale()->setGradient(Colormaps::gradient(*options.colormap));
        }
        return std::nullopt;
    });
}

std::optional<FigureError> buildLearned(QCustomPlot *plot, const Engine &engine, const FigureOptions &options,
                                        const FigureSize &size)
{
    LearnedFigure figure(plot);
    const Params &params = engine.params();
    // Rows 0..L-1 of the loaded matrix, as the window's view takes them (check() made sure of them).
    const RowMatrixXf &all = params.embeddings->values;
    const RowMatrixXf copy = all.rows() == params.maxLen ? RowMatrixXf() : RowMatrixXf(all.topRows(params.maxLen));
    const RowMatrixXf &learned = all.rows() == params.maxLen ? all : copy;
    return settle(plot, options, size,
                  [&]() -> std::optional<QString> {
                      // The pixels of the panels as the view computes them: layout units times the scale.
                      const QSize table = figure.tablePixels() * size.scale;
                      const int similarity = static_cast<int>(figure.similarityPixels() * size.scale);
                      auto data = LearnedCompute::compute(learned, params, table, similarity);
                      if (!data)
                          return u"learned: the figure could not be computed"_s;
                      figure.setData(*data);
                      return std::nullopt;
                  },
                  {figure.learnedPanel().axisRect(), figure.sinusoidalPanel().axisRect(),
                   figure.learnedSimilarityPanel().axisRect(), figure.sinusoidalSimilarityPanel().axisRect()});
}

} // namespace

QList<Quantity> FigureRenderer::heatmapQuantities()
{
    return {Quantity::Pe, Quantity::Embedding, Quantity::Input, Quantity::Output, Quantity::Mask, Quantity::Error};
}

std::optional<QString> FigureRenderer::check(const Engine &engine, const FigureOptions &options)
{
    const QString figure = FigureKinds::name(options.kind);
    const bool heatmapLike = options.kind == FigureKind::Heatmap || options.kind == FigureKind::Dropout;
    if (options.colormap && !heatmapLike)
        return u"--colormap: the %1 figure has no colormap (heatmap and dropout have)"_s.arg(figure);
    if (!(options.fontPointSize >= 4.0 && options.fontPointSize <= 36.0))
        return u"--font-size: must be between 4 and 36 points; got %1"_s.arg(options.fontPointSize);
    if ((options.kind == FigureKind::Magnitudes || options.kind == FigureKind::Learned)
        && (options.positions || !options.columns.empty()))
        return u"--positions, --dims: the %1 figure always shows every position and column"_s.arg(figure);
    if (options.kind == FigureKind::Learned) {
        const Params &params = engine.params();
        if (!params.embeddings)
            return u"--embeddings: the learned figure compares a learned position table with the sinusoidal PE; "
                   "give the table with --embeddings FILE[:TENSOR]"_s;
        if (params.embeddings->values.rows() < params.maxLen)
            return u"--max-len: is %1, but the learned table %2 has %3 rows"_s.arg(params.maxLen)
                .arg(params.embeddings->source)
                .arg(params.embeddings->values.rows());
        return std::nullopt;
    }
    const Shape shape = options.kind == FigureKind::Heatmap ? engine.shape(options.quantity)
        : options.kind == FigureKind::Dropout               ? engine.shape(Quantity::Mask)
                                              : Shape {engine.params().maxLen, engine.params().peColumns()};
    if (options.positions) {
        const auto [first, end] = *options.positions;
        if (first < 0 || first >= end || end > shape.rows)
            return u"--positions: must be A:B with 0 <= A < B <= %1 (positions of the %2 figure); got %3:%4"_s
                .arg(shape.rows)
                .arg(figure)
                .arg(first)
                .arg(end);
    }
    for (const std::int64_t column : options.columns) {
        if (column < 0 || column >= shape.cols)
            return u"--dims: columns must be in [0, %1) (columns of the %2 figure); got %3"_s.arg(shape.cols)
                .arg(figure)
                .arg(column);
    }
    return std::nullopt;
}

std::optional<FigureError> FigureRenderer::build(QCustomPlot *plot, const Engine &engine, const FigureOptions &options,
                                                 const FigureSize &size, const ComputeOptions &compute)
{
    switch (options.kind) {
    case FigureKind::Heatmap:
        return buildHeatmap(plot, engine, options, size, compute);
    case FigureKind::Curves:
        return buildCurves(plot, engine, options, size, compute);
    case FigureKind::Magnitudes:
        return buildMagnitudes(plot, engine, options, size, compute);
    case FigureKind::Dropout:
        return buildDropout(plot, engine, options, size, compute);
    case FigureKind::Learned:
        return buildLearned(plot, engine, options, size);
    }
    return std::nullopt;
}

} // namespace posenc
