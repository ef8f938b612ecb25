#include "ScaleCompareFigure.h"

#include "render/FigureDescriptor.h"
#include "render/GivenLabel.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QCPGraph *addGraph(QCPAxisRect *rect, const QColor &color, Qt::PenStyle style)
{
    auto *graph = new QCPGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setPen(QPen(color, style == Qt::DashLine ? 1.6 : 1.3, style));
    graph->setAdaptiveSampling(true);
    return graph;
}

// The four conventions' colours (Okabe-Ito, apart from s*E's blue and the PE's vermillion),
// their panels' titles in them; the parameters' own sigma and s in black. Lines that coincide
// (sigma 1 with s 1, and d^-1/2 with sqrt(d), both sqrt(2)) show as one inside the other: the
// first drawn are the widest.
const QColor kConvention[] = {QColor(0, 158, 115), QColor(204, 121, 167), QColor(230, 159, 0), QColor(86, 180, 233)};
constexpr double kConventionWidth[] = {4.0, 3.0, 2.2, 1.4};

// "32.003": enough digits to tell the measured ratio from the expected one.
QString ratioText(double value)
{
    return NumberText::compact(value, 5);
}

// "σ = d^-1/2, s = √d": the panel's title in a paper column, its numbers left to the ratio.
QString compactHeader(const ScaleVariant &variant)
{
    const QString sigma = variant.init == InitKind::ScaledNormal ? u"σ = d^-1/2"_s : u"σ = 1"_s;
    const QString scale = variant.scale == ScaleKind::Sqrt ? u"s = √d"_s : u"s = 1"_s;
    return u"%1, %2"_s.arg(sigma, scale);
}

} // namespace

std::unique_ptr<FigureDescriptor> makeScaleCompareFigure()
{
    return std::make_unique<FigureDescriptorOf<ScaleCompareModel, ScaleCompareFigure>>();
}

ScaleCompareFigure::ScaleCompareFigure(QCustomPlot *plot)
    : m_plot(plot)
    , m_title(PlotStyle::resetWithTitle(plot))
{
    // Three rows a panel (its title, its ratio, its axes), so that panels side by side keep
    // their axes level however their titles wrap.
    // The four panels on the left, the ratio against d_model on the right.
    auto *body = new QCPLayoutGrid;
    m_body = body;
    plot->plotLayout()->addElement(1, 0, body);
    body->setColumnSpacing(24);
    auto *grid = new QCPLayoutGrid;
    body->addElement(0, 0, grid);
    auto *side = new QCPLayoutGrid;
    m_side = side;
    // In the layout from the start, where the figure's fonts are scaled (FigureFonts walks the
    // layout); the data places it (placeSide).
    body->addElement(0, 1, side);
    FigureRoom::setDispensable(side, 1);
    body->setColumnStretchFactors({3.0, 1.0});
    m_place = Place::Beside;
    grid->setColumnSpacing(16);
    grid->setRowSpacing(0);
    auto *margins = new QCPMarginGroup(plot);
    // A row's panels share their top and bottom margins too: the right one's values are read on
    // its neighbour's scale once it gives it its tick labels (FigureRoom's shareAxes), so their
    // plots stay as high as each other whatever either's x label does (set along its ticks, the
    // right one's plot was taller and its lines lower than the same values beside it).
    const std::array rows {new QCPMarginGroup(plot), new QCPMarginGroup(plot)};
    for (int i = 0; i < 4; ++i) {
        Panel &panel = m_panels[static_cast<std::size_t>(i)];
        const int row = i / 2, col = i % 2;
        panel.header = PlotStyle::panelTitle(plot, true);
        panel.header->setTextColor(kConvention[i].darker(140)); // legible as text on white
        panel.ratio = PlotStyle::panelTitle(plot, false);
        panel.rect = new QCPAxisRect(plot);
        // The first convention's panel shows the figure's point alone: s·E beside the PE.
        if (i == 0)
            FigureRoom::setPrimary(panel.rect);
        grid->addElement(3 * row, col, panel.header);
        grid->addElement(3 * row + 1, col, panel.ratio);
        grid->addElement(3 * row + 2, col, panel.rect);
        if (row == 1)
            panel.header->setMargins(QMargins(2, 10, 2, 1)); // apart from the axes above
        // On little room the ratio beside goes first, then the lower row of conventions.
        if (row == 1)
            for (QCPLayoutElement *element :
                 std::initializer_list<QCPLayoutElement *> {panel.header, panel.ratio, panel.rect})
                FigureRoom::setDispensable(element, 2);
        PlotStyle::styleAxisRect(panel.rect);
        PlotStyle::setLogAxis(panel.rect->axis(QCPAxis::atLeft));
        IndexTicker::install(panel.rect->axis(QCPAxis::atBottom));
        panel.rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        panel.rect->setMarginGroup(QCP::msTop | QCP::msBottom, rows[static_cast<std::size_t>(row)]);
        // The axes are named once, at the grid's outer edges: all four share them.
        if (row == 1)
            panel.rect->axis(QCPAxis::atBottom)->setLabel(u"position p"_s);
        if (col == 0)
            panel.rect->axis(QCPAxis::atLeft)->setLabel(u"norm of row p"_s);
        panel.embedding = addGraph(panel.rect, PlotStyle::kEmbedding, Qt::SolidLine);
        panel.expectedEmbedding = addGraph(panel.rect, PlotStyle::kEmbedding.darker(140), Qt::DashLine);
        panel.pe = addGraph(panel.rect, PlotStyle::kPositional, Qt::SolidLine);
        panel.expectedPe = addGraph(panel.rect, PlotStyle::kPositional.darker(140), Qt::DashLine);
    }

    // The ratio in closed form against d_model, log-log: each convention a line, the
    // parameters' own sigma and s in black with a dot at their d, and the level of equal norms.
    m_ratioHeader = PlotStyle::panelTitle(plot, true);
    m_ratioHeader->setText(u"‖s·E‖ / ‖PE‖ against d_model"_s);
    ShorterLabels::setText(m_ratioHeader, {u"‖s·E‖ / ‖PE‖ against d"_s, u"‖s·E‖ / ‖PE‖"_s});
    m_ownRatio = PlotStyle::panelTitle(plot, false);
    m_ratioRect = new QCPAxisRect(plot);
    side->addElement(0, 0, m_ratioHeader);
    side->addElement(1, 0, m_ownRatio);
    side->addElement(2, 0, m_ratioRect);
    side->setRowSpacing(0);
    PlotStyle::styleAxisRect(m_ratioRect);
    PlotStyle::setLogAxis(m_ratioRect->axis(QCPAxis::atLeft));
    PlotStyle::setLogAxis(m_ratioRect->axis(QCPAxis::atBottom));
    m_ratioRect->axis(QCPAxis::atBottom)->setLabel(u"d_model"_s);
    m_ratioRect->axis(QCPAxis::atLeft)->setLabel(u"‖s·E‖ / ‖PE‖ (expected)"_s);
    for (std::size_t i = 0; i < std::size(kConvention); ++i) {
        m_ratioLines.push_back(addGraph(m_ratioRect, kConvention[i], Qt::SolidLine));
        m_ratioLines.back()->setPen(QPen(kConvention[i], kConventionWidth[i]));
    }
    m_ownLine = addGraph(m_ratioRect, Qt::black, Qt::SolidLine);
    m_ownLine->setPen(QPen(Qt::black, 2.0, Qt::DashLine));
    m_ownDot = addGraph(m_ratioRect, Qt::black, Qt::SolidLine);
    m_ownDot->setLineStyle(QCPGraph::lsNone);
    m_ownDot->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, Qt::black, Qt::black, 7));
    m_equal = addGraph(m_ratioRect, QColor(120, 120, 120), Qt::DotLine);
    m_equal->setName(u"equal norms"_s);
    // An ordinary key under the chart, which the layout moves into a corner its lines leave free
    // (FigureRoom's legendsInside) or, short of room, gives up before any panel: the lines take
    // the colours of the panels' titles. Pinned to the chart's top left with two decades of
    // headroom for it, its six rows covered the end of the σ 1, s √d line on a 14-pt slide.
    m_ratioLegend = PlotStyle::legendRow(plot, side, 3, 1);
    FigureRoom::setDispensable(m_ratioLegend, 1);

    // One legend under the four panels, for all of them.
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 4);
    const Panel &first = m_panels.front();
    for (QCPGraph *graph : {first.embedding, first.expectedEmbedding, first.pe, first.expectedPe})
        MeasuredText::addToLegend(graph, m_legend);
    m_title->setText(u"Why s = √d"_s);
}

void ScaleCompareFigure::setData(const ScaleCompareData &data)
{
    const double last = static_cast<double>(std::max<std::int64_t>(data.maxLen - 1, 1));
    const double expectedPe = std::sqrt(data.meanSquaredPeNorm);
    double lo = expectedPe, hi = expectedPe;
    const auto take = [&](double v) {
        if (std::isfinite(v) && v > 0.0) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    };
    for (const double v : data.peNorm)
        take(v);
    for (const ScaleVariant &variant : data.variants) {
        take(variant.expectedEmbeddingNorm);
        for (const double v : variant.embeddingNorm)
            take(v);
    }
    // One range for the four panels, so that their levels compare; a decade at least.
    const QCPRange values(lo / 1.6, std::max(hi * 1.6, lo * 10.0));

    for (qsizetype i = 0; i < data.variants.size() && i < qsizetype(m_panels.size()); ++i) {
        const ScaleVariant &variant = data.variants[i];
        Panel &panel = m_panels[static_cast<std::size_t>(i)];
        panel.embedding->setData(data.positions, variant.embeddingNorm, true);
        panel.pe->setData(data.positions, data.peNorm, true);
        PlotStyle::showLonePoint(panel.embedding);
        PlotStyle::showLonePoint(panel.pe);
        panel.expectedEmbedding->setData({0.0, last}, {variant.expectedEmbeddingNorm, variant.expectedEmbeddingNorm},
                                         true);
        panel.expectedPe->setData({0.0, last}, {expectedPe, expectedPe}, true);
        panel.rect->axis(QCPAxis::atBottom)->setRange(-0.5, last + 0.5);
        panel.rect->axis(QCPAxis::atLeft)->setRange(values);
        panel.header->setText(m_compact ? compactHeader(variant)
                                        : u"%1,  %2"_s.arg(variant.sigmaText, variant.scaleText));
        // On little room the rules without their numbers, which the ratio below says.
        ShorterLabels::setText(panel.header, {compactHeader(variant)});
        panel.ratio->setText(
            m_compact ? u"‖s·E‖ / ‖PE‖ = %1 (expected %2)"_s.arg(ratioText(variant.measuredRatio),
                                                                 ratioText(variant.expectedRatio))
                      : u"‖s·E‖ / ‖PE‖ = %1  ·  expected %2 = %3"_s.arg(
                          ratioText(variant.measuredRatio), data.ratioFormula, ratioText(variant.expectedRatio)));
    }
    setRatios(data);
    const Panel &first = m_panels.front();
    const TitleText::RowIndex &index = data.index;
    for (const Panel &panel : m_panels)
        for (QCPAxis *axis : {panel.rect->axis(QCPAxis::atBottom), panel.rect->axis(QCPAxis::atLeft)})
            if (!axis->label().isEmpty())
                GivenLabel::give(
                    axis,
                    index.named(axis == panel.rect->axis(QCPAxis::atLeft) ? u"norm of row p"_s : u"position p"_s));
    first.embedding->setName(index.named(u"‖s·Eₚ‖"_s));
    first.pe->setName(index.named(u"‖PEₚ‖"_s));
    first.expectedEmbedding->setName(m_compact ? data.expectedEmbeddingFormula
                                               : u"expected "_s + data.expectedEmbeddingFormula);
    first.expectedPe->setName(m_compact ? data.expectedPeFormula : u"expected "_s + data.expectedPeFormula);
    // Eight sub-ticks a decade crowd into a black bar on a short log axis.
    for (const Panel &panel : m_panels)
        panel.rect->axis(QCPAxis::atLeft)->setSubTicks(!m_compact);

    // The question, then the model's d and L, then what the panels draw: a slide short of room keeps
    // the title's first parts, and Whisper's d = 1,280, L = 1,500 did not fit one line after the
    // whole of what is drawn (its 14-pt slides kept the question alone, not whose norms they are).
    QStringList parts {u"Why s = √d"_s, data.parameters,
                       index.named(u"‖s·Eₚ‖ against ‖PEₚ‖ for σ ∈ {1, d^-1/2} × s ∈ {1, √d}"_s)};
    parts.append(data.loadedMatrixSetAside ? u"E seeded N(0, σ²) in place of the loaded matrix"_s
                                           : u"E seeded N(0, σ²)"_s);
    if (!data.isExact())
        parts.append(index.named(u"norms at one position in %1"_s.arg(FigureText::formatCount(data.positionStride))));
    m_title->setText(parts.join(u"  ·  "_s));
    ShorterLabels::setModelParts(m_title, {data.parameters.section(u"  ·  "_s, 0, 0)});
}

// Beside the panels in a wide figure (a slide, an export); below them in a tall one (a view
// beside a lesson); left out where neither leaves it room (a paper column, a view of four).
void ScaleCompareFigure::placeSide()
{
    const QRect viewport = m_plot->viewport();
    Place want = Place::Beside;
    if (m_compact)
        want = Place::None;
    else if (viewport.height() >= 1.2 * viewport.width())
        want = Place::Below;
    else if (viewport.width() < kLeastWidthBeside)
        want = Place::None;
    if (want != m_place) {
        if (m_place != Place::None) {
            m_body->take(m_side);
            m_body->simplify();
        }
        if (want == Place::Beside) {
            m_body->addElement(0, 1, m_side);
            m_body->setColumnStretchFactors({3.0, 1.0});
        } else if (want == Place::Below) {
            m_body->addElement(1, 0, m_side);
            m_body->setRowStretchFactors({2.0, 1.0});
        }
        m_place = want;
    }
    // Below the panels the chart is as wide as they are: its key in rows of three.
    m_ratioLegend->setWrap(m_place == Place::Below ? 3 : 1);
    // Out of the layout its elements keep their last place: hidden, they draw nothing there.
    const bool shown = m_place != Place::None;
    for (QCPLayoutElement *element :
         std::initializer_list<QCPLayoutElement *> {m_side, m_ratioRect, m_ratioHeader, m_ownRatio, m_ratioLegend})
        element->setVisible(shown);
}

void ScaleCompareFigure::setRatios(const ScaleCompareData &data)
{
    placeSide();
    m_ratioLegend->clearItems();
    double lo = INFINITY, hi = 0.0, dLo = INFINITY, dHi = 0.0;
    const auto draw = [&](QCPGraph *graph, const RatioAgainstD *curve) {
        graph->setVisible(curve != nullptr && !curve->d.isEmpty());
        if (!graph->visible())
            return;
        graph->setData(curve->d, curve->ratio, true);
        // Short, for a legend inside a narrow plot: "σ 1, s √d", and "yours" (named above it).
        graph->setName(curve->yours ? u"yours"_s : QString(curve->label).replace(u" = "_s, u" "_s));
        MeasuredText::addToLegend(graph, m_ratioLegend);
        for (qsizetype i = 0; i < curve->d.size(); ++i) {
            if (std::isfinite(curve->ratio[i]) && curve->ratio[i] > 0.0) {
                lo = std::min(lo, curve->ratio[i]);
                hi = std::max(hi, curve->ratio[i]);
            }
            dLo = std::min(dLo, curve->d[i]);
            dHi = std::max(dHi, curve->d[i]);
        }
    };
    const RatioAgainstD *own = nullptr;
    std::size_t line = 0;
    for (const RatioAgainstD &curve : data.ratios) {
        if (curve.yours)
            own = &curve;
        else if (line < m_ratioLines.size())
            draw(m_ratioLines[line++], &curve);
    }
    for (; line < m_ratioLines.size(); ++line)
        draw(m_ratioLines[line], nullptr);
    draw(m_ownLine, own);
    if (!(dHi > 0.0) || !(hi > 0.0)) {
        m_ownDot->setVisible(false);
        m_equal->setVisible(false);
        m_ownRatio->setText(QString());
        ShorterLabels::setText(m_ownRatio, {});
        return;
    }
    m_equal->setVisible(true);
    m_equal->setData({dLo, dHi}, {1.0, 1.0}, true);
    MeasuredText::addToLegend(m_equal, m_ratioLegend);
    m_ownDot->setVisible(own != nullptr);
    if (own) {
        m_ownDot->setData({data.d}, {data.ownRatio}, true);
        const QString at = FigureText::formatCount(std::llround(data.d));
        m_ownRatio->setText(u"%1 at d = %2: %3"_s.arg(own->label, at, ratioText(data.ownRatio)));
        // The rules are the panel's whose colour the line takes; the dot is at d.
        ShorterLabels::setText(
            m_ownRatio,
            {u"yours at d = %1: %2"_s.arg(at, ratioText(data.ownRatio)), u"yours: %1"_s.arg(ratioText(data.ownRatio))});
    } else {
        m_ownRatio->setText(u"E is the loaded matrix: its σ is its own"_s);
        ShorterLabels::setText(m_ownRatio, {});
    }
    m_ratioRect->axis(QCPAxis::atBottom)->setRange(dLo / 1.2, dHi * 1.2);
    // A little room above the highest line, where a corner may take the key.
    m_ratioRect->axis(QCPAxis::atLeft)->setRange(std::min(lo, 1.0) / 2.0, std::max(hi, 1.0) * 4.0);
}

QList<PanelExtent> ScaleCompareFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const Panel &panel : m_panels) {
        const QCPRange x = panel.rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = panel.rect->axis(QCPAxis::atLeft)->range();
        list.append({panel.rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void ScaleCompareFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const ScaleCompareData>(data);
    setData(*m_data);
}

QList<QCPAxisRect *> ScaleCompareFigure::pictureRects() const
{
    QList<QCPAxisRect *> rects;
    for (const Panel &panel : m_panels)
        rects.append(panel.rect);
    return rects;
}

QList<PositionAxis> ScaleCompareFigure::positionAxes() const
{
    QList<PositionAxis> axes;
    for (const Panel &panel : m_panels)
        axes.append({panel.rect, false});
    return axes;
}

std::optional<HoverPoint> ScaleCompareFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || m_data->positions.isEmpty())
        return std::nullopt;
    for (qsizetype i = 0; i < m_data->variants.size() && i < qsizetype(m_panels.size()); ++i) {
        const Panel &panel = m_panels[static_cast<std::size_t>(i)];
        if (!panel.rect->rect().contains(pixel.toPoint()))
            continue;
        const double x = panel.rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        const QList<double> &positions = m_data->positions;
        const auto it = std::lower_bound(positions.begin(), positions.end(), x);
        qsizetype r = std::clamp<qsizetype>(it - positions.begin(), 0, positions.size() - 1);
        if (r > 0 && std::abs(positions[r - 1] - x) < std::abs(positions[r] - x))
            --r;
        const ScaleVariant &variant = m_data->variants[i];
        HoverPoint point;
        point.position = static_cast<std::int64_t>(positions[r]);
        point.value = variant.embeddingNorm[r] / m_data->peNorm[r];
        point.valueName = u"%1, %2: %3"_s.arg(
            variant.sigmaText, variant.scaleText,
            m_data->index.named(u"‖s·Eₚ‖ = %1, ‖PEₚ‖ = %2, ratio"_s.arg(variant.embeddingNorm[r], 0, 'g', 5)
                                    .arg(m_data->peNorm[r], 0, 'g', 5)));
        return point;
    }
    return ratioAt(pixel);
}

// The ratio chart's lines at the cursor's d_model: each named line's ratio there.
std::optional<HoverPoint> ScaleCompareFigure::ratioAt(const QPointF &pixel) const
{
    if (!m_ratioRect || !m_ratioRect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double d = m_ratioRect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    QStringList values;
    for (QCPGraph *graph : m_ratioRect->graphs()) {
        if (graph->name().isEmpty() || graph->data()->size() < 2 || !graph->visible())
            continue;
        // The line between the points about d.
        auto after = graph->data()->findBegin(d, false);
        if (after == graph->data()->constEnd() || after == graph->data()->constBegin())
            continue;
        const auto before = after - 1;
        const double t = (d - before->key) / (after->key - before->key);
        values.append(
            u"%1 %2"_s.arg(graph->name(), NumberText::compact(before->value + t * (after->value - before->value), 4)));
    }
    if (values.isEmpty())
        return std::nullopt;
    HoverPoint point;
    point.hasPosition = false;
    point.valueName = u"d_model %1: ‖s·E‖/‖PE‖ %2"_s.arg(NumberText::compact(d, 4), values.join(u"; "_s));
    return point;
}

} // namespace posenc
