#include "FamiliesFigure.h"

#include "render/AxisRoom.h"

#include "FamiliesRoom.h"

#include "render/Colormaps.h"
#include "render/FigureBuild.h"
#include "render/FigureDescriptor.h"
#include "render/FigureFit.h"
#include "render/IndexTicker.h"
#include "render/KeptPanels.h"
#include "render/MeasuredText.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/SwatchLegend.h"

#include "core/NumberText.h"
#include "render/data/FigureText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kFamiliesChosenTint(255, 243, 205);
const QColor kFamiliesMaskedShade(150, 150, 150, 90);

QCPRange familiesPadded(const QList<double> &lo, const QList<double> &hi, double least, double most)
{
    double a = least, b = most;
    for (const double v : lo)
        if (std::isfinite(v))
            a = std::min(a, v);
    for (const double v : hi)
        if (std::isfinite(v))
            b = std::max(b, v);
    const double pad = 0.08 * std::max(b - a, 1e-9);
    return {a - pad, b + pad};
}

// The panels' grid: each row is stretched by its margins (the last row's outer rects hold the
// offset axis too; little room tightens each row to its own tick labels, FigureRoom) at each
// layout, from the margins just worked out, so that the plots are as high as each other (the last
// was the lowest, its axis's label spilling into the panel above, its ticks thinned to one).
class EqualPlotsGrid final : public QCPLayoutGrid
{
public:
    void updateLayout() override
    {
        const int rows = rowCount();
        const auto around = [this](int row) {
            double most = 0.0;
            for (int column = 0; column < columnCount(); ++column)
                if (const QCPLayoutElement *e = element(row, column))
                    most = std::max(most, double(e->margins().top() + e->margins().bottom()));
            return most;
        };
        double margins = 0.0;
        for (int row = 0; row < rows; ++row)
            margins += around(row);
        const double plot = (rect().height() - rowSpacing() * (rows - 1) - margins) / std::max(rows, 1);
        for (int row = 0; row < rows; ++row)
            setRowStretchFactor(row, plot > 0.0 ? (plot + around(row)) / (plot + around(0)) : 1.0);
        QCPLayoutGrid::updateLayout();
    }
};

QColor familiesColour(std::uint32_t rgb)
{
    return QColor::fromRgb(static_cast<QRgb>(rgb));
}

// A band's points, one a pixel of the output, merged so that each spans a unit of the layout (a
// logical pixel of the screen, about the pen's width): each point the least and the most of those
// it merges, at the first one's offset. On a 300-dpi slide BLOOM's PE·PE took one or two offsets a
// pixel, its least and most zig-zagging within the pen's width as its fastest cosines turn (2π
// offsets a turn), and drew blots along the curve; a unit's offsets span a turn, and draw its band.
// `unitsPerOffset`: the layout units an offset takes on the axis. A group closes once the next point
// is three quarters of a unit on: a screen's pixels, a unit apart (give or take an offset's
// rounding), are each drawn as they are.
FamilyCurve perLayoutUnit(const FamilyCurve &curve, double unitsPerOffset)
{
    if (!(unitsPerOffset > 0.0) || curve.offset.size() < 2)
        return curve;
    const qsizetype count = curve.offset.size();
    // Whether point n and the next are drawn (a point without a value, a gap, stays) and close on
    // the axis: a point before a long segment (the masked keys' constant run) keeps its own value,
    // or the segment would start from the merged least.
    const auto dense = [&](qsizetype n) {
        return n + 1 < count && std::isfinite(curve.lo[n]) && std::isfinite(curve.hi[n])
            && std::isfinite(curve.lo[n + 1]) && std::isfinite(curve.hi[n + 1])
            && (curve.offset[n + 1] - curve.offset[n]) * unitsPerOffset < 0.75;
    };
    FamilyCurve merged;
    for (qsizetype start = 0, n = 0; n < count; ++n) {
        if (dense(n) && dense(n + 1) && (curve.offset[n + 1] - curve.offset[start]) * unitsPerOffset < 0.75)
            continue;
        double lo = curve.lo[start], hi = curve.hi[start];
        for (qsizetype k = start + 1; k <= n; ++k) {
            lo = std::min(lo, curve.lo[k]);
            hi = std::max(hi, curve.hi[k]);
        }
        merged.offset.append(curve.offset[start]);
        merged.lo.append(lo);
        merged.hi.append(hi);
        start = n + 1;
    }
    return merged;
}

// The notes over the panels take a line each, and leave each plot lower than without them by as
// much: a figure shows them from this many lines of text up.
int familiesNotesFrom(qsizetype panels)
{
    return 26 + 3 * static_cast<int>(panels);
}

} // namespace

std::unique_ptr<FigureDescriptor> makeFamiliesFigure()
{
    return std::make_unique<FigureDescriptorOf<FamiliesModel, FamiliesFigure>>();
}

FamiliesFigure::FamiliesFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
{
    m_stack = new EqualPlotsGrid;
    m_stack->setProperty(AxisRoom::kEqualPlots, true);
    plot->plotLayout()->addElement(1, 0, m_stack);
    m_stack->setRowSpacing(0);
    m_stack->setColumnSpacing(16);
    auto *margins = new QCPMarginGroup(plot);
    const QList<const FamilySpec *> families = FamiliesModel::panelFamilies();
    for (qsizetype n = 0; n < families.size(); ++n) {
        auto *rect = new QCPAxisRect(plot);
        // The panels share the height: each may be as low as an export allows (QCustomPlot's own
        // least, 50, would overflow a view of the dashboard).
        rect->setMinimumSize(FigureBuild::kMinAxisSide, FigureBuild::kMinAxisSide);
        PlotStyle::styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        rect->axis(QCPAxis::atLeft)->setLabel(FamilyPanels::of(families[n]->encoding)->label);
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
        IndexTicker::install(rect->axis(QCPAxis::atBottom));
        // The note over the panel is its top axis's label: an axis without ticks or line.
        QCPAxis *top = rect->axis(QCPAxis::atTop);
        top->setVisible(true);
        top->setBasePen(Qt::NoPen);
        top->setTicks(false);
        top->setTickLabels(false);
        top->setLabelPadding(2);
        Panel panel;
        panel.family = families[n];
        panel.rect = rect;
        m_panels.append(panel);
    }
    arrange(1, QList<bool>(m_panels.size(), true));
    labelOffsets(nullptr);
    // One offset axis: zooming a panel zooms them all.
    for (const Panel &a : std::as_const(m_panels))
        for (const Panel &b : std::as_const(m_panels))
            if (a.rect != b.rect)
                QObject::connect(a.rect->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
                                 b.rect->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 4);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(3, 0, below);
    plot->plotLayout()->setRowStretchFactor(3, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);

    for (Panel &panel : m_panels) {
        panel.masked = PlotItems::shade(panel.rect, kFamiliesMaskedShade);
        panel.outside = PlotItems::shade(panel.rect, kFamiliesMaskedShade);
    }
    for (Panel &panel : m_panels)
        panel.zero = PlotItems::line(panel.rect, QColor(90, 90, 90), 1.0, Qt::DotLine);
    for (Panel &panel : m_panels) {
        const FamilyPanel &spec = *FamilyPanels::of(panel.family->encoding);
        const QColor colour = familiesColour(spec.colour);
        if (spec.style == FamilyPanelStyle::Band) {
            panel.lo = PlotItems::line(panel.rect, colour, 1.3);
            panel.hi = PlotItems::line(panel.rect, colour, 1.3);
            QColor fill = colour;
            fill.setAlpha(90);
            panel.hi->setBrush(fill);
            panel.hi->setChannelFillGraph(panel.lo);
        } else if (spec.style == FamilyPanelStyle::Steps) {
            panel.lo = PlotItems::line(panel.rect, colour, 1.8);
            panel.lo->setLineStyle(QCPGraph::lsStepLeft);
            // Buckets may run both ways from 0 (DeBERTa's): steps that meet the tick count keep
            // ticks on both sides however low the panel, where a rounder step left 0 alone.
            panel.rect->axis(QCPAxis::atLeft)->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
        }
    }
}

// The panels shown, in the list's order across `columns` columns, row by row, so that the plot's
// axis rects come in the list's order whatever the columns (FigureBuild compares them one by one);
// a panel not shown is out of the grid and hidden, with what it draws (labelOffsets labels the
// offset axes).
void FamiliesFigure::arrange(int columns, const QList<bool> &shown)
{
    if (columns == m_columns && shown == m_shown)
        return;
    m_columns = columns;
    m_shown = shown;
    for (const Panel &panel : std::as_const(m_panels)) {
        if (panel.rect->layout() == m_stack)
            m_stack->take(panel.rect);
    }
    for (QCPLayoutElement *filler : std::as_const(m_fillers))
        m_stack->remove(filler);
    m_fillers.clear();
    m_stack->simplify();
    QList<QCPAxisRect *> rects;
    for (qsizetype n = 0; n < m_panels.size(); ++n) {
        m_panels[n].rect->setVisible(shown[n]);
        KeptPanels::setLeftOut(m_panels[n].rect, !shown[n]); // for room (shownPanels)
        for (QCPItemRect *masked : {m_panels[n].masked, m_panels[n].outside})
            if (masked)
                masked->setVisible(shown[n] && masked->visible());
        if (shown[n])
            rects.append(m_panels[n].rect);
    }
    const auto count = static_cast<int>(rects.size());
    const int rows = (count + columns - 1) / columns;
    qDeleteAll(m_rowMargins); // each unsets its panels' group
    m_rowMargins.clear();
    for (int row = 0; row < rows; ++row)
        m_rowMargins.append(new QCPMarginGroup(m_stack->parentPlot()));
    for (int n = 0; n < count; ++n)
        rects[n]->setMarginGroup(QCP::msTop | QCP::msBottom, m_rowMargins[n / columns]);
    for (int n = count; n < rows * columns; ++n) {
        auto *filler = new QCPLayoutElement(m_stack->parentPlot());
        m_stack->addElement(n / columns, n % columns, filler);
        m_fillers.append(filler);
    }
    for (int n = 0; n < count; ++n)
        m_stack->addElement(n / columns, n % columns, rects[n]);
    m_stack->setRowStretchFactors(QList<double>(rows, 1.0)); // the last one's set at each layout
    m_stack->setColumnStretchFactors(QList<double>(columns, 1.0));
}

// Every panel, but on a page short of room as many as it holds (FamiliesRoom): the chosen
// family's, those the state's --keep names, then one of each kind before a second (a view of the
// window, not short of room, stacks all).
QList<bool> FamiliesFigure::shownPanels(Encoding chosen, double lines, const FigureState &state)
{
    m_othersGiveWay = false;
    const QCustomPlot &plot = *m_title->parentPlot();
    const double points = m_panels.front().rect->axis(QCPAxis::atBottom)->labelFont().pointSizeF();
    m_shortOfRoom = FigureRoom::shortOfRoom(plot, points);
    if (!m_shortOfRoom)
        return QList<bool>(m_panels.size(), true);
    const double width = lines * plot.viewport().width() / std::max(plot.viewport().height(), 1);
    QList<const FamilySpec *> families;
    for (const Panel &panel : m_panels)
        families.append(panel.family);
    // A page that holds no grid of panels (6 x 4 cm) draws them all and FigureRoom gives up all but
    // the chosen family's, after the texts: its one plot then takes the most of the page.
    const FamiliesRoom::Grid held = FamiliesRoom::held(lines, width, families.size());
    m_othersGiveWay = held.panels <= 1;
    if (m_othersGiveWay)
        return QList<bool>(m_panels.size(), true);
    m_heldColumns = held.columns;
    return FamiliesRoom::shown(families, chosen, FamiliesModel::keepWords(state).families, held.panels);
}

// Which panels hold the offset axis's tick labels and label: where the others give way to it, the
// one panel kept, which is then alone on the page and would otherwise be drawn without them
// (FigureRoom gives up whole panels, never an axis's labels); on a page short of room, where the
// room's steps may give up any panel but the kept one, every panel, FigureRoom's shareAxes giving
// a panel's to the one under it and back where that one is given up (a quarter of the window kept
// the chosen family's panel of the top row alone, its offset axis unlabelled); else the last shown
// of each column.
void FamiliesFigure::labelOffsets(const QCPAxisRect *kept)
{
    const qsizetype count = m_shown.count(true);
    qsizetype n = 0; // the panel's place among those shown
    for (qsizetype i = 0; i < m_panels.size(); ++i) {
        if (!m_shown[i])
            continue;
        const Panel &panel = m_panels[i];
        const bool holds = m_othersGiveWay ? panel.rect == kept : m_shortOfRoom || n + m_columns >= count;
        ++n;
        QCPAxis *axis = panel.rect->axis(QCPAxis::atBottom);
        axis->setTickLabels(holds);
        axis->setLabel(holds ? u"offset k = j − q of the key from the query"_s : QString());
    }
}

QList<ViewAxis> FamiliesFigure::viewAxes() const
{
    return {{QString::fromUtf16(FamiliesModel::kOffsetsAxis), m_panels.front().rect->axis(QCPAxis::atBottom)}};
}

void FamiliesFigure::showDefaultView(const Params &params, const FigureState &state)
{
    const std::int64_t query = FamiliesModel::query(params, state);
    m_panels.front()
        .rect->axis(QCPAxis::atBottom)
        ->setRange(-static_cast<double>(query) - 0.5, static_cast<double>(params.maxLen - 1 - query) + 0.5);
}

QList<PanelExtent> FamiliesFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const Panel &panel : m_panels) {
        const QCPRange x = panel.rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = panel.rect->axis(QCPAxis::atLeft)->range();
        list.append({panel.rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void FamiliesFigure::fillPanel(Panel &panel, const FamilyPanelData &d, const QCPRange &view, bool terse)
{
    QList<double> lo = d.curve.lo, hi = d.curve.hi;
    // Where the others give way to the chosen family's panel, the legend is its alone.
    const bool keyed = !m_othersGiveWay || d.family == m_data->chosen;
    const bool band = FamilyPanels::of(panel.family->encoding)->style == FamilyPanelStyle::Band;
    const FamilyCurve drawn
        = band ? perLayoutUnit(d.curve, panel.rect->width() / std::max(view.size(), 1e-9)) : d.curve;
    if (panel.lo)
        panel.lo->setData(drawn.offset, drawn.lo, true);
    if (panel.hi)
        panel.hi->setData(drawn.offset, drawn.hi, true);
    for (QCPGraph *graph : {panel.lo, panel.hi})
        if (graph)
            graph->setVisible(!d.problem);
    // Lines: a line per curve, made as the lines drawn change, in its shade's colour.
    while (panel.lines.size() < d.lines.size())
        panel.lines.append(PlotItems::line(panel.rect, Qt::black, 1.3));
    for (qsizetype n = 0; n < panel.lines.size(); ++n) {
        QCPGraph *graph = panel.lines[n];
        graph->setVisible(n < d.lines.size());
        if (n >= d.lines.size())
            continue;
        const FamilyPanelLine &line = d.lines[n];
        const FamilyPanel &spec = *FamilyPanels::of(panel.family->encoding);
        graph->setPen(
            QPen(Colormaps::colorAt(spec.lineColormap, line.shade), line.emphasised ? 2.6 : 1.3, spec.lineStyle));
        graph->setData(line.curve.offset, line.curve.lo, true);
        lo += line.curve.lo;
        hi += line.curve.hi;
        const QString name = terse ? line.terseName : line.name;
        if (!name.isEmpty() && keyed) {
            graph->setName(name);
            MeasuredText::addToLegend(graph, m_legend);
        }
    }
    panel.rect->axis(QCPAxis::atLeft)->setRange(familiesPadded(lo, hi, d.least, d.most));
    const bool masked = d.maskedAfterQuery && view.upper > 0.0;
    PlotItems::placeShade(panel.masked, masked, 0.5, std::max(view.upper, 0.5) + 1e9);
    // A sliding window's keys behind the query, k <= -W, under the same entry as the causal mask's.
    const std::optional<std::int64_t> window = m_data->window;
    const bool outside = d.maskedAfterQuery && window && view.lower < 0.5 - double(*window);
    PlotItems::placeShade(panel.outside, outside, std::min(view.lower, 0.5 - double(window.value_or(0))) - 1e9,
                          0.5 - double(window.value_or(0)));
    // One entry per mask: the panels a causal model masks alike share theirs.
    const QString maskName = terse ? d.terseMaskName : d.maskName;
    if ((masked || outside) && keyed && !m_maskNamesKeyed.contains(maskName)) {
        m_maskNamesKeyed.append(maskName);
        SwatchLegend::add(m_legend, {kFamiliesMaskedShade, maskName});
    }
    const QCPRange y = panel.rect->axis(QCPAxis::atLeft)->range();
    PlotItems::vertical(panel.zero, 0.0, y.lower, y.upper);
    QCPAxis *top = panel.rect->axis(QCPAxis::atTop);
    top->setLabel(terse ? QString() : d.note);
    QFont font = top->labelFont();
    font.setBold(d.family == m_data->chosen);
    top->setLabelFont(font);
    panel.rect->setBackground(d.family == m_data->chosen ? QBrush(kFamiliesChosenTint) : QBrush(Qt::NoBrush));
}

// Without the notes, the chosen family is named in its axis label; a label FigureFit broke into
// lines is left as it is while the texts do not change.
void FamiliesFigure::setLabels(bool terse, Encoding chosen)
{
    if (terse == m_terse && m_chosen == chosen)
        return;
    m_terse = terse;
    m_chosen = chosen;
    for (const Panel &panel : std::as_const(m_panels)) {
        QCPAxis *axis = panel.rect->axis(QCPAxis::atLeft);
        QFont font = axis->labelFont();
        font.setBold(terse && panel.family->encoding == chosen);
        axis->setLabelFont(font);
        const FamilyPanel &spec = *FamilyPanels::of(panel.family->encoding);
        axis->setLabel(terse ? spec.terseLabel : spec.label);
    }
}

QString FamiliesFigure::caption(const FamiliesData &d, const QCPRange &view, bool terse) const
{
    QStringList buckets, bands;
    for (const Panel &panel : m_panels) {
        if (!panel.rect->visible())
            continue; // a panel a crowded page leaves out is not described
        const FamilyPanel &spec = *FamilyPanels::of(panel.family->encoding);
        if (spec.bucketStandsIn)
            buckets.append(u"%1: %2"_s.arg(spec.name, spec.bucketTerm));
        if (spec.style == FamilyPanelStyle::Band)
            bands.append(spec.terseLabel);
    }
    QStringList caption;
    if (!buckets.isEmpty()) {
        const bool many = buckets.size() > 1;
        caption.append(
            terse ? u"%1. The bucket index stands for %2"_s.arg(buckets.join(u"; "_s), many ? u"them"_s : u"it"_s)
                  : u"%1. Learned, %2 no fixed values: the bucket index stands for %3"_s.arg(
                      buckets.join(u"; "_s), many ? u"they have"_s : u"it has"_s, many ? u"them"_s : u"it"_s));
    }
    const QString sums = bands.join(u" and "_s);
    if (d.preview)
        caption.append(u"preview: %1 at %2 offsets a pixel"_s.arg(sums).arg(d.sampled));
    else if (d.sampled > 0)
        caption.append(
            u"%1: %2 offsets sampled a pixel, each band their least to their most"_s.arg(sums).arg(d.sampled));
    else if (!terse && !bands.isEmpty() && !d.panels.isEmpty() && d.panels.front().curve.offset.size() > 0
             && d.panels.front().curve.offset.size() < view.upper - view.lower - 1.0)
        caption.append(u"%1: a band, the least to the most of a pixel's offsets"_s.arg(sums));
    return caption.join(u"\n"_s);
}

QStringList FamiliesFigure::captionForms(const FamiliesData &d) const
{
    QStringList named, bands;
    for (const Panel &panel : m_panels) {
        if (!panel.rect->visible())
            continue;
        const FamilyPanel &spec = *FamilyPanels::of(panel.family->encoding);
        if (spec.bucketStandsIn)
            named.append(spec.name);
        if (spec.style == FamilyPanelStyle::Band)
            bands.append(spec.terseLabel);
    }
    const QString buckets = named.isEmpty()
        ? QString()
        : u"%1: the bucket index stands for %2"_s.arg(named.join(u", "_s),
                                                      named.size() > 1 ? u"learned values"_s : u"a learned value"_s);
    const QString sampled = d.sampled > 0 && !bands.isEmpty()
        ? u"%1: the least to the most of %2 offsets a pixel"_s.arg(bands.join(u", "_s)).arg(d.sampled)
        : QString();
    if (buckets.isEmpty() || sampled.isEmpty())
        return buckets.isEmpty() && sampled.isEmpty() ? QStringList() : QStringList {buckets + sampled};
    return {buckets + u"  ·  "_s + sampled, buckets + u"  ·  bands: %1 offsets a pixel"_s.arg(d.sampled), buckets};
}

void FamiliesFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &state)
{
    m_data = std::static_pointer_cast<const FamiliesData>(data);
    const FamiliesData &d = *m_data;
    const QCPRange view = m_panels.front().rect->axis(QCPAxis::atBottom)->range();
    // On a slide or a view of the dashboard the panels keep their room: no notes over them, short
    // legends. The notes take a line each: a figure shows them from enough lines of text up.
    const double lines = PlotStyle::textLines(*m_title->parentPlot());
    const bool terse = m_compact || lines < familiesNotesFrom(m_panels.size());
    const QList<bool> shown = shownPanels(d.chosen, lines, state);
    m_legend->clearItems();
    m_maskNamesKeyed.clear();
    for (qsizetype n = 0; n < m_panels.size(); ++n) {
        if (const FamilyPanelData *panelData = d.panel(m_panels[n].family->encoding); panelData && shown[n])
            fillPanel(m_panels[n], *panelData, view, terse);
    }
    // The chosen family's panel is tinted where others stand beside it: the key says so.
    bool chosenShown = false;
    for (qsizetype n = 0; n < m_panels.size(); ++n)
        chosenShown |= shown[n] && m_panels[n].family->encoding == d.chosen;
    if (chosenShown && shown.count(true) > 1 && !m_othersGiveWay)
        SwatchLegend::add(m_legend, {kFamiliesChosenTint, u"this model's family"_s});
    const bool heldGrid = m_shortOfRoom && !m_othersGiveWay;
    arrange(heldGrid ? m_heldColumns : FamiliesRoom::columns(lines, shown.count(true)), shown);
    // The legend's wish set anew at each filling (FigureFit::setLegendWrap): its entries change
    // with the panels masked and shown, and a wish fitted to the last filling's count (one mask
    // entry) kept a view's legend in fewer columns than the export of the same room.
    FigureFit::setLegendWrap(m_legend, 4);
    setLabels(terse, d.chosen);
    // On little room the chosen family's panel stays (the first where it has none): the others go.
    const bool hasChosen = std::any_of(m_panels.cbegin(), m_panels.cend(),
                                       [&](const Panel &panel) { return panel.family->encoding == d.chosen; });
    const QCPAxisRect *keptRect = nullptr;
    for (const Panel &panel : std::as_const(m_panels)) {
        const bool kept = hasChosen ? panel.family->encoding == d.chosen : panel.rect == m_panels.front().rect;
        FigureRoom::setDispensable(panel.rect, kept ? 0 : 1);
        if (kept)
            keptRect = panel.rect;
    }
    labelOffsets(keptRect);
    // The empty cells of a short last row go with the panels, or the kept panel keeps its cell.
    for (QCPLayoutElement *filler : std::as_const(m_fillers))
        FigureRoom::setDispensable(filler, 1);
    PlotStyle::setCollapsibleText(m_caption, caption(d, view, terse));
    // Where the notes are drawn and the caption's lines find no room, a line of it stays
    // (FigureRoom's captionsInShorterForms): the bucket panels' values are no bias, and a 1366 x 768
    // window's view gave the caption up whole. A terse page gives its panels the room (a slide).
    ShorterLabels::setText(m_caption, terse ? QStringList() : captionForms(d));
    setScreenNote({}, d.preview ? u"preview: %1 offsets a pixel"_s.arg(d.sampled) : QString());
    // What the families do: "Absolute, rotary, bias", from the kinds of those with a panel.
    QStringList kinds;
    for (const Panel &panel : std::as_const(m_panels)) {
        const QString kind = panel.family->kind == FamilyKind::Term ? u"absolute"_s
            : panel.family->kind == FamilyKind::Rotation            ? u"rotary"_s
                                                                    : u"bias"_s;
        if (!kinds.contains(kind))
            kinds.append(kind);
    }
    QString described = kinds.join(u", "_s);
    if (!described.isEmpty())
        described[0] = described[0].toUpper();
    // Where the others give way to the kept panel (a page that holds no grid of them), the title
    // counts the one panel drawn: a title says what the page shows.
    // The room may still give the others up (FigureRoom::setDispensable): the title then counts
    // the kept one (FigureRoom::setTextWhenAlone).
    const auto titleOf = [&](qsizetype drawn) {
        const QString count = drawn < m_panels.size()
            ? u"%1 of %2"_s.arg(FamiliesModel::countWord(drawn), FamiliesModel::panelCount())
            : FamiliesModel::panelCount();
        const QString title
            = terse ? u"One query, %1 families"_s.arg(count) : u"%1: one query, %2 families"_s.arg(described, count);
        return title
            + u"  ·  query q = %1 of %2 positions"_s.arg(FigureText::formatCount(d.query),
                                                         FigureText::formatCount(d.maxLen));
    };
    const qsizetype drawn = m_othersGiveWay ? 1 : shown.count(true);
    m_title->setText(titleOf(drawn));
    FigureRoom::setTextWhenAlone(m_title, drawn > 1 ? titleOf(1) : QString());
}

std::optional<HoverPoint> FamiliesFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const FamiliesData &d = *m_data;
    // As the panels were computed: with the model's mask (FamiliesModel::panelParams).
    const Params params = FamiliesModel::panelParams(engine.params());
    for (const Panel &panel : m_panels) {
        if (!panel.rect->visible() || !panel.rect->rect().contains(pixel.toPoint()))
            continue;
        const auto k = std::llround(panel.rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
        const std::int64_t key = d.query + k;
        if (key < 0 || key >= params.maxLen)
            return std::nullopt;
        HoverPoint point;
        point.position = key;
        const FamilyPanel &spec = *FamilyPanels::of(panel.family->encoding);
        if (spec.valueAt) {
            const auto value = spec.valueAt(params, d.query, key);
            if (!value)
                return std::nullopt;
            point.value = value->value;
            point.valueName = value->name;
            return point;
        }
        // A band's drawn value at k's pixel.
        const FamilyPanelData *data = d.panel(panel.family->encoding);
        if (!data || data->problem || spec.style != FamilyPanelStyle::Band)
            return std::nullopt;
        const FamilyCurve &curve = data->curve;
        const auto at = std::lower_bound(curve.offset.cbegin(), curve.offset.cend(), static_cast<double>(k) - 0.5);
        if (at == curve.offset.cend())
            return std::nullopt;
        const qsizetype i = at - curve.offset.cbegin();
        point.value = curve.lo[i];
        point.valueName = u"k ≈ %1: %2%3"_s.arg(
            NumberText::compact(curve.offset[i], 6), spec.bandValueName,
            curve.lo[i] == curve.hi[i] ? QString()
                                       : u" (to %1 in this pixel)"_s.arg(NumberText::compact(curve.hi[i], 4)));
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
