#include "RopeRotationFigure.h"

#include "render/PlotItems.h"

#include "render/Colormaps.h"
#include "render/FigureDescriptor.h"
#include "render/MapOptions.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/StampedGraph.h"

#include "core/rope/RopeText.h"
#include "render/data/FigureText.h"
#include "render/data/ViewOptions.h"

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc {

// An axis rect whose two axes show the same length a pixel, centred on 0 and each showing
// [-half, half] at least: a circle in it stays round at any size, whatever the layout does to
// the rect after its data came (a title that wraps, a font scaled for a slide).
class RoundAxisRect final : public QCPAxisRect
{
public:
    explicit RoundAxisRect(QCustomPlot *plot)
        : QCPAxisRect(plot)
    { }

    void setHalf(double half)
    {
        m_half = half;
        square();
    }

    void update(UpdatePhase phase) override
    {
        QCPAxisRect::update(phase);
        if (phase == upLayout)
            square();
    }

private:
    void square()
    {
        const double w = std::max(rect().width(), 1);
        const double h = std::max(rect().height(), 1);
        const double across = w >= h ? m_half * w / h : m_half;
        const double down = w >= h ? m_half : m_half * h / w;
        axis(QCPAxis::atBottom)->setRange(-across, across);
        axis(QCPAxis::atLeft)->setRange(-down, down);
    }

    double m_half = 1.18;
};

namespace {

// Dots coloured in this many steps of the map: enough to read the order, few graphs to draw.
constexpr int kDotColours = 24;

QCPItemLine *arrow(QCPAxisRect *rect, const QColor &color, Qt::PenStyle style = Qt::SolidLine)
{
    auto *line = new QCPItemLine(rect->parentPlot());
    line->setClipAxisRect(rect);
    for (QCPItemPosition *end : {line->start, line->end}) {
        end->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        end->setAxisRect(rect);
    }
    line->setPen(QPen(color, 1.6, style));
    line->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 8, 10));
    return line;
}

QCPItemRect *frame(QCPAxisRect *rect)
{
    QCPItemRect *item = PlotItems::shade(rect, Qt::transparent);
    item->setBrush(Qt::NoBrush);
    item->setPen(QPen(QColor(20, 20, 20), 1.4));
    return item;
}

// The rope-cos and rope-sin tables' colours: one scale, the circle's radius either side of 0.
// `chosen`: the colour map --colormap chose (MapOptions::chosenColormap), which the maps are
// recoloured with after fill, or none for the figure's own.
HeatmapStyle tablesStyle(const RopeRotationData &data, std::optional<Colormap> chosen = std::nullopt)
{
    HeatmapStyle style;
    style.dataRange = {-data.attentionFactor, data.attentionFactor};
    if (chosen)
        style.colormap = *chosen;
    return style;
}

} // namespace

std::unique_ptr<FigureDescriptor> makeRopeRotationFigure()
{
    return std::make_unique<FigureDescriptorOf<RopeRotationModel, RopeRotationFigure>>();
}

// The tables' pixels, made in the data's job for the panels the request saw (panels(): the circle's,
// then rope-cos's and rope-sin's) in the colours the maps will have, as HeatmapFigure's: the GUI
// thread only draws them.
std::shared_ptr<const PreparedDrawing> RopeRotationFigure::prepare(const FigureData &data, const FigureRequest &request)
{
    const auto *rotation = dynamic_cast<const RopeRotationData *>(&data);
    if (!rotation || request.panels.size() < 3)
        return nullptr;
    const HeatmapStyle style = tablesStyle(*rotation, MapOptions::chosenColormap(request.state));
    auto made = std::make_shared<PreparedMaps>();
    made->data = &data;
    made->maps = {HeatmapPanel::prepareCoverage(rotation->cos, style, request.panels[1]),
                  HeatmapPanel::prepareCoverage(rotation->sin, style, request.panels[2])};
    return made;
}

RopeRotationFigure::RopeRotationFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_circle(new RoundAxisRect(plot))
    , m_positions(new QCPColorScale(plot))
    , m_scale(new QCPColorScale(plot))
{
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->setColumnSpacing(10);
    grid->setRowSpacing(2);
    m_circleTitle = PlotStyle::panelTitle(plot, false);
    m_cosTitle = PlotStyle::panelTitle(plot, false);
    m_sinTitle = PlotStyle::panelTitle(plot, false);
    // The circle and its positions' colour bar, then the two tables and theirs.
    grid->addElement(0, 0, m_circleTitle);
    grid->addElement(0, 2, m_cosTitle);
    grid->addElement(0, 3, m_sinTitle);
    grid->addElement(1, 0, m_circle);
    grid->addElement(1, 1, m_positions);
    m_cos = std::make_unique<HeatmapPanel>(plot, grid, 1, 2, m_scale);
    m_sin = std::make_unique<HeatmapPanel>(plot, grid, 1, 3, m_scale);
    grid->addElement(1, 4, m_scale);
    // On little room the turning pair stays: the sin table goes first, then the cos table.
    for (auto [order, element] : {std::pair {1, static_cast<QCPLayoutElement *>(m_sinTitle)},
                                  std::pair {1, static_cast<QCPLayoutElement *>(m_sin->axisRect())},
                                  std::pair {2, static_cast<QCPLayoutElement *>(m_cosTitle)},
                                  std::pair {2, static_cast<QCPLayoutElement *>(m_cos->axisRect())},
                                  std::pair {2, static_cast<QCPLayoutElement *>(m_scale)}})
        FigureRoom::setDispensable(element, order);
    // What the tables' fast pairs show, where a pixel row averages their turns: in the window as in
    // a file, and gone with the tables.
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_meansCaption = PlotStyle::smallText(plot, below, 0, 0);
    FigureRoom::setDispensable(m_meansCaption, 2);
    grid->setColumnStretchFactors({1.3, 0.01, 1.0, 1.0, 0.01});
    grid->setRowStretchFactors({0.001, 1.0});
    // The three plots' tops and bottoms level, each colour bar beside its plots.
    auto *margins = new QCPMarginGroup(plot);
    for (QCPLayoutElement *e : std::initializer_list<QCPLayoutElement *> {m_circle, m_positions, m_cos->axisRect(),
                                                                          m_sin->axisRect(), m_scale})
        e->setMarginGroup(QCP::msTop | QCP::msBottom, margins);

    PlotStyle::styleAxisRect(m_circle);
    m_circle->axis(QCPAxis::atBottom)->setLabel(u"cos(p·θᵢ)"_s);
    m_circle->axis(QCPAxis::atLeft)->setLabel(u"sin(p·θᵢ)"_s);
    for (QCPAxis *axis : {m_circle->axis(QCPAxis::atBottom), m_circle->axis(QCPAxis::atLeft)})
        axis->ticker()->setTickCount(4);
    m_ring = new QCPCurve(m_circle->axis(QCPAxis::atBottom), m_circle->axis(QCPAxis::atLeft));
    m_ring->setPen(QPen(QColor(170, 170, 170), 1.0));
    for (int c = 0; c < kDotColours; ++c) {
        auto *dots = new StampedGraph(m_circle->axis(QCPAxis::atBottom), m_circle->axis(QCPAxis::atLeft));
        const QColor color = Colormaps::colorAt(Colormap::Viridis, (c + 0.5) / kDotColours);
        dots->setLineStyle(QCPGraph::lsNone);
        dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 5));
        m_dots.append(dots);
    }
    m_firstArrow = arrow(m_circle, QColor(30, 30, 30));
    m_nextArrow = arrow(m_circle, QColor(213, 94, 0));
    m_shiftedFirst = arrow(m_circle, QColor(30, 30, 30), Qt::DashLine);
    m_shiftedNext = arrow(m_circle, QColor(213, 94, 0), Qt::DashLine);

    m_positions->setType(QCPAxis::atRight);
    m_positions->setBarWidth(10);
    m_positions->setGradient(Colormaps::gradient(Colormap::Viridis));
    m_positions->axis()->setLabel(u"position p"_s);
    m_positions->axis()->ticker()->setTickCount(4);
    PlotStyle::styleAxisRect(m_positions->axis()->axisRect());
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_scale->setGradient(Colormaps::gradient(Colormap::Diverging));
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());

    for (HeatmapPanel *panel : {m_cos.get(), m_sin.get()}) {
        for (QCPAxis *axis : {panel->axisRect()->axis(QCPAxis::atBottom), panel->axisRect()->axis(QCPAxis::atLeft)})
            axis->ticker()->setTickCount(4);
        panel->setShowSpread(false);
    }
    m_sin->axisRect()->axis(QCPAxis::atLeft)->setLabel(QString());
    // The two tables as wide as each other, whichever has the positions' labels: they tick alike.
    auto *sides = new QCPMarginGroup(plot);
    for (HeatmapPanel *panel : {m_cos.get(), m_sin.get()})
        panel->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, sides);
    m_cosFrame = frame(m_cos->axisRect());
    m_sinFrame = frame(m_sin->axisRect());
    // The two tables show the same cells: zooming one zooms the other.
    for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
        QCPAxis *a = m_cos->axisRect()->axis(type);
        QCPAxis *b = m_sin->axisRect()->axis(type);
        QObject::connect(a, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), b,
                         qOverload<const QCPRange &>(&QCPAxis::setRange));
        QObject::connect(b, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), a,
                         qOverload<const QCPRange &>(&QCPAxis::setRange));
    }
    m_circle->setRangeDrag({});
    m_circle->setRangeZoom({});
}

QList<ViewAxis> RopeRotationFigure::viewAxes() const
{
    const QCPAxisRect *rect = m_cos->axisRect();
    return {{QString::fromUtf16(RopeRotationModel::kColumnsAxis), rect->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(RopeRotationModel::kPositionsAxis), rect->axis(QCPAxis::atLeft)}};
}

void RopeRotationFigure::showDefaultView(const Params &params, const FigureState &state)
{
    const auto range = ViewOptions::positionRange(state).value_or(
        std::pair {std::int64_t(0), std::min(params.maxLen, RopeRotationModel::kFirstPositions)});
    m_cos->showBlock({range.first, range.second - range.first, 0, RopeRotationModel::shownColumns(params)});
}

QList<PanelExtent> RopeRotationFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_circle->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_circle->axis(QCPAxis::atLeft)->range();
    return {{m_circle->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}},
            m_cos->extent(pixelRatio),
            m_sin->extent(pixelRatio)};
}

void RopeRotationFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const RopeRotationData>(data);
    const RopeRotationData &d = *m_data;
    const double radius = d.attentionFactor;
    m_circle->setHalf(1.18 * radius);
    // A slide's large text leaves the panels little room: the titles keep to what they must say.
    const bool terse = m_compact || PlotStyle::textLines(*m_circle->parentPlot()) < 28;
    QList<double> ringX, ringY, ringT;
    for (int s = 0; s <= 180; ++s) {
        const double angle = 2.0 * std::numbers::pi * s / 180.0;
        ringT.append(s);
        ringX.append(radius * std::cos(angle));
        ringY.append(radius * std::sin(angle));
    }
    m_ring->setData(ringT, ringX, ringY, true);

    // Each dot in the colour of its position, from the first position in view to the last.
    const double first = d.position.isEmpty() ? 0.0 : d.position.front();
    const double last = d.position.isEmpty() ? 1.0 : d.position.back();
    QList<QList<double>> xs(kDotColours), ys(kDotColours);
    for (qsizetype k = 0; k < d.position.size(); ++k) {
        const double t = last > first ? (d.position[k] - first) / (last - first) : 0.0;
        const int c = std::clamp(static_cast<int>(t * kDotColours), 0, kDotColours - 1);
        xs[c].append(d.x[k]);
        ys[c].append(d.y[k]);
    }
    for (int c = 0; c < kDotColours; ++c)
        m_dots[c]->setData(xs[c], ys[c]);
    m_positions->setDataRange(QCPRange(first, std::max(last, first + 1.0)));
    // The turn from the first position to the next, the angle theta_i itself; and the same two
    // positions a third of the view on, dashed, turned by as much: the angle between a query's
    // and a key's pair depends on n − m alone, so their score does.
    const bool arrows = !d.position.isEmpty();
    const double shift = std::max(2.0, std::round((last - first) / 3.0));
    const auto point = [&](QCPItemLine *line, double p) {
        line->setVisible(arrows);
        line->start->setCoords(0.0, 0.0);
        line->end->setCoords(radius * std::cos(p * d.frequency), radius * std::sin(p * d.frequency));
    };
    point(m_firstArrow, first);
    point(m_nextArrow, first + 1.0);
    point(m_shiftedFirst, first + shift);
    point(m_shiftedNext, first + shift + 1.0);
    const QString positions = d.position.isEmpty()
        ? u"no position in view"_s
        : u"p = %1–%2"_s.arg(FigureText::formatCount(std::int64_t(first)), FigureText::formatCount(std::int64_t(last)));
    QStringList notes;
    if (d.oneTurn)
        notes.append(u"one turn"_s);
    if (d.stride > 1)
        notes.append(u"one position in %1"_s.arg(d.stride));
    const QString note = notes.isEmpty() ? QString() : u" (%1)"_s.arg(notes.join(u", "_s));
    const auto at = [](double p) { return FigureText::formatCount(std::int64_t(p)); };
    // The dashed pair is as far round from the solid one as each is from the other: θᵢ. On little
    // room the pair stays whole and what the arrows are is said shorter, never cut (a 14-pt slide
    // kept "pair 4, p = 0–15 …" and lost the arrows the lesson's text points at). One statement,
    // wrapped to its column: a second line was the first a title in one line gave up, and with it
    // the arrows (rope-relative's 16:9 slide read "pair 4, p = 0–15").
    const QString ats[] {at(first), at(first + 1.0), at(first + shift), at(first + shift + 1.0)};
    const QString circle = u"pair %1, %2"_s.arg(d.pair).arg(positions);
    m_circleTitle->setText(circle + note
                           + u"; arrows p = %1, %2; dashed %3, %4: θᵢ apart"_s.arg(ats[0], ats[1], ats[2], ats[3]));
    // Shorter, as true: the solid arrows are the first pair of positions named, the dashed the second;
    // the positions last, which the colour bar beside the circle numbers.
    ShorterLabels::setText(m_circleTitle,
                           {u"%1: arrows p = %2, %3 and %4, %5: θᵢ apart"_s.arg(circle, ats[0], ats[1], ats[2], ats[3]),
                            u"%1: arrows θᵢ apart"_s.arg(circle), u"pair %1: arrows θᵢ apart"_s.arg(d.pair)});

    const HeatmapStyle style = tablesStyle(d);
    m_cos->setGrid(d.cos, style);
    m_sin->setGrid(d.sin, style);
    PreparedMaps::offer(prepared(), *data, {m_cos.get(), m_sin.get()});
    const QString factor = radius == 1.0 ? QString() : u"%1·"_s.arg(NumberText::compact(radius, 4));
    m_scale->axis()->setLabel(u"%1cos(p·θᵢ), %1sin(p·θᵢ)"_s.arg(factor));
    // The bar colours both panels: short of room, it names both still.
    ShorterLabels::set(m_scale->axis(), {u"%1cos, %1sin"_s.arg(factor)});
    m_circle->axis(QCPAxis::atBottom)->setLabel(u"%1cos(p·θᵢ)"_s.arg(factor));
    m_circle->axis(QCPAxis::atLeft)->setLabel(u"%1sin(p·θᵢ)"_s.arg(factor));
    m_cosTitle->setText(u"rope-cos"_s);
    m_sinTitle->setText(u"rope-sin"_s);
    const bool half = d.layout == RopeLayout::Half;
    for (HeatmapPanel *panel : {m_cos.get(), m_sin.get()})
        // rope-cos and rope-sin are [max_len, rotary_dim]: their columns are the rotary ones, the last
        // 64 of DeepSeek-V3's 192-wide head, not the head's first (RopeInputFigure::fill).
        panel->axisRect()->axis(QCPAxis::atBottom)->setLabel(half ? u"pair i"_s : u"rotary j (pair ⌊j/2⌋)"_s);
    const double c0 = static_cast<double>(d.column) - 0.5;
    const double c1 = static_cast<double>(d.column) + (half ? 0.5 : 1.5);
    PlotItems::placeShade(m_cosFrame, true, c0, c1);
    PlotItems::placeShade(m_sinFrame, true, c0, c1);

    const double wavelength = d.frequency > 0.0 ? 2.0 * std::numbers::pi / d.frequency : INFINITY;
    const QString turn = d.frequency > 0.0 ? u"θᵢ = %1 rad a position, wavelength %2"_s.arg(
                             NumberText::compact(d.frequency, 4), NumberText::compact(wavelength, 4))
                                           : u"θᵢ = 0: this pair never turns"_s;
    QStringList parts {m_compact ? u"RoPE rotation, pair %1"_s.arg(d.pair)
                                 : u"RoPE turns pair %1 by p·θᵢ"_s.arg(d.pair),
                       turn, d.scaling, d.model};
    if (!terse)
        parts.append(RopeText::layoutText(d.layout));
    // Each of the note's forms, the shorter ones too, says it is of the tables, not of the circle.
    QStringList cells = FigureText::cellsPerPixelText(d.cos.block, d.cos.rows, d.cos.cols)
                            .split(FigureText::kLengthVariants, Qt::SkipEmptyParts);
    for (QString &form : cells)
        form.prepend(u"tables: "_s);
    setScreenNote(cells.join(FigureText::kLengthVariants),
                  d.cos.isPreview() ? FigureText::previewText(d.cos.rowCoverage) : QString());
    if (d.cos.isPreview())
        parts.append(u"preview"_s);
    fillMeansCaption(d);
    m_title->setText(parts.join(u"  ·  "_s));
    ShorterLabels::setModelParts(m_title, {d.scaling, d.model});
}

void RopeRotationFigure::fillMeansCaption(const RopeRotationData &d)
{
    if (d.firstMeanPair < 0) {
        PlotStyle::setCollapsibleText(m_meansCaption, QString());
        return;
    }
    const bool one = d.firstMeanPair == d.lastMeanPair;
    const QString pairs
        = one ? u"pair %1"_s.arg(d.firstMeanPair) : u"pairs %1–%2"_s.arg(d.firstMeanPair).arg(d.lastMeanPair);
    const QString per = d.positionsPerPixel >= 10.0 ? FigureText::formatCount(std::int64_t(std::round(d.positionsPerPixel)))
                                                    : NumberText::compact(d.positionsPerPixel, 2);
    // Said where the tables are drawn: their fast pairs' cells are the means of a pixel's
    // positions (the view's note says only how many), paler than their wave, 0 over whole turns.
    PlotStyle::setCollapsibleText(
        m_meansCaption,
        u"Tables: each pixel is the mean of ~%1 positions; %2 %3 half a turn or more across them, so %4 "
        "pixels show the mean (paler, ~0 over whole turns), not the wave."_s.arg(per, pairs, one ? u"turns"_s : u"turn"_s,
                                                                                one ? u"its"_s : u"their"_s));
    ShorterLabels::setText(m_meansCaption, {u"tables: %1 drawn as means of ~%2 positions a pixel (½ turn or more)"_s.arg(pairs, per),
                                            u"tables: %1 as pixel means of ~%2 positions"_s.arg(pairs, per)});
}

QList<PositionAxis> RopeRotationFigure::positionAxes() const
{
    return {{m_cos->axisRect(), true}, {m_sin->axisRect(), true}};
}

std::optional<HoverPoint> RopeRotationFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    for (const auto &[panel, quantity] :
         {std::pair {m_cos.get(), Quantity::RopeCos}, std::pair {m_sin.get(), Quantity::RopeSin}}) {
        const auto cell = panel->cellAt(pixel, engine.shape(quantity));
        if (!cell)
            continue;
        RowMatrixXf value(1, 1);
        engine.computeBlock(quantity, {cell->first, 1, cell->second, 1}, value);
        HoverPoint point;
        point.position = cell->first;
        point.column = cell->second;
        point.value = value(0, 0);
        point.valueName = Quantities::name(quantity);
        point.quantity = quantity;
        return point;
    }
    if (!m_circle->rect().contains(pixel.toPoint()) || m_data->position.isEmpty())
        return std::nullopt;
    // The dot nearest the mouse.
    const double x = m_circle->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const double y = m_circle->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
    qsizetype best = 0;
    double distance = INFINITY;
    for (qsizetype k = 0; k < m_data->position.size(); ++k) {
        const double dd = std::hypot(m_data->x[k] - x, m_data->y[k] - y);
        if (dd < distance) {
            distance = dd;
            best = k;
        }
    }
    HoverPoint point;
    point.position = static_cast<std::int64_t>(m_data->position[best]);
    point.value = std::atan2(m_data->y[best], m_data->x[best]);
    point.valueName = u"angle of pair %1 (rad, within ±π)"_s.arg(m_data->pair);
    return point;
}

QList<QCPAxisRect *> RopeRotationFigure::pictureRects() const
{
    return {m_circle, m_cos->axisRect(), m_sin->axisRect()};
}

} // namespace posenc
