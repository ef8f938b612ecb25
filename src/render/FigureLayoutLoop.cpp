#include "FigureLayoutLoop.h"

#include "AxisRoom.h"
#include "DirectLabelScene.h"
#include "DirectLabels.h"
#include "EqualPanels.h"
#include "FigureFit.h"
#include "FigureRoom.h"
#include "FigureRoomSteps.h"
#include "LegendPlacementInputs.h"
#include "PlotStyle.h"
#include "ShadeLabels.h"
#include "SqueezedLayout.h"

#include <atomic>

namespace posenc {

namespace {

std::atomic<quint64> g_fittings {0};
std::atomic<quint64> g_layouts {0};

} // namespace

quint64 FigureLayoutLoop::fittings()
{
    return g_fittings.load(std::memory_order_relaxed);
}

quint64 FigureLayoutLoop::layouts()
{
    return g_layouts.load(std::memory_order_relaxed);
}

FigureLayoutLoop::FigureLayoutLoop(QCustomPlot *plot, double points)
    : m_plot(plot)
    , m_points(points)
{ }

FigureLayoutLoop::FigureLayoutLoop(QCustomPlot *plot, QSize size, double points)
    : m_plot(plot)
    , m_points(points)
    , m_fileSize(size)
{ }

void FigureLayoutLoop::layOut()
{
    g_layouts.fetch_add(1, std::memory_order_relaxed);
    m_current = false;
    FigureFonts::apply(m_plot, m_points);
    AxisRoom::holdLabelWords(m_plot);
    PlotStyle::widenHairlines(m_plot);
    AxisRoom::keepInsetsOffAxes(m_plot);
    // A colorbar's margins in a group are the largest of its own current ones and its neighbours'
    // (QCPLayoutElement::calculateAutoMargin): without starting from none they would never shrink
    // when its neighbours' labels go.
    for (QCPLayoutElement *element : m_plot->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element))
            scale->setMargins(QMargins());
    // A file's page is laid out at its own size, not the widget's. Laid out only, not drawn: the
    // file is drawn once, when it is written (QCustomPlot::toPainter); a replot here drew every
    // layer of every candidate layout a lesson's page weighs (docs/ARCHITECTURE.md, Exporting).
    if (m_fileSize)
        m_plot->setViewport(QRect(QPoint(0, 0), *m_fileSize));
    QCPLayoutGrid *layout = m_plot->plotLayout();
    layout->setOuterRect(m_fileSize ? m_plot->viewport() : m_plot->rect());
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        layout->update(phase);
    // End tick labels the page would cut get their margin (AxisRoom::holdEndTickLabels).
    if (AxisRoom::holdEndTickLabels(m_plot))
        for (const auto phase : {QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
            layout->update(phase);
    SqueezedLayout::collapseOverflowed(layout);
}

void FigureLayoutLoop::computingFor()
{
    m_computedFor = axisRects();
}

void FigureLayoutLoop::settle()
{
    layOut();
    m_settled = false;
    for (int round = 0; round < FigureFit::kMaxRounds; ++round) {
        // Once the texts fit, panels side by side that room steps left uneven are made even.
        if (!FigureFit::fit(m_plot) && !EqualPanels::equalize(m_plot)) {
            // Labels in shades and on curves stand where the layout as it ends leaves them clear,
            // the curves' keeping off the shades'.
            ShadeLabels::place(m_plot);
            DirectLabels::place(m_plot);
            m_settled = true;
            m_current = !m_fileSize;
            m_currentRect = m_plot->rect();
            return;
        }
        layOut();
    }
}

void FigureLayoutLoop::refitKeepingRoom()
{
    const LegendPlacement::Fitting fitting;
    const DirectLabels::Fitting labelling;
    FigureFit::fitTexts(m_plot);
    settle();
}

bool FigureLayoutLoop::isCurrent() const
{
    return m_current && m_plot->rect() == m_currentRect;
}

void FigureLayoutLoop::giveUpTo(const std::vector<int> &path)
{
    FigureRoom::restore(m_plot);
    FigureFit::unthinTicks(m_plot);
    settle();
    if (FigureRoom::tidy(m_plot))
        settle();
    for (const int step : path)
        if (FigureRoom::giveUp(m_plot, step))
            settle();
}

void FigureLayoutLoop::fitRoom()
{
    FigureRoom::restore(m_plot);
    FigureFit::unthinTicks(m_plot);
    settle();
    if (FigureRoom::tidy(m_plot))
        settle();
    // The fewest steps that fit; where none does, the step whose figure fitted its page with the
    // largest plots (a panel of a fixed aspect given up can leave less plot, not more).
    // Whether the figure is within its page is asked once a layout: FigureRoom::fits asked it again
    // of the layout the plot share had just asked it of, and a step that changes nothing leaves the
    // layout as it was. `fits` is FigureRoom::fits of that answer.
    bool inside = FigureRoom::within(*m_plot);
    const auto fits = [&] {
        return inside
            && (!FigureRoom::shortOfRoom(*m_plot, m_points)
                || FigureRoom::plotShare(*m_plot) >= FigureRoom::kMinPlotShare);
    };
    // The plots drawn (colour scales aside): a step that draws fewer panels than the best before
    // is the best only where it gives the plots kPanelGain more of the page than it. A panel is
    // given up to fit, or for a real gain: dropout-on-sum's slide for a model of d = 1024 gave up
    // three of its five upper panels for half a percent of the page.
    const auto panels = [this] {
        qsizetype count = 0;
        for (QCPAxisRect *rect : m_plot->axisRects())
            count += rect->realVisibility() && !dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect) ? 1 : 0;
        return count;
    };
    std::vector<int> taken, best;
    double bestShare = inside ? FigureRoom::plotShare(*m_plot) : -1.0;
    qsizetype bestPanels = panels();
    // Climbs `steps` from the layout as it is; true once the figure fits.
    const auto climb = [&](const std::vector<int> &steps) {
        for (const int step : steps) {
            // Fitted with its ticks as they end (retick may give an axis back ticks whose labels
            // take more room): the figure drawn is the one that fits, not the one measured before it.
            if (fits()) {
                retick();
                inside = FigureRoom::within(*m_plot);
                if (fits())
                    return true;
            }
            taken.push_back(step);
            if (FigureRoom::giveUp(m_plot, step)) {
                settle();
                inside = FigureRoom::within(*m_plot);
            }
            const double share = inside ? FigureRoom::plotShare(*m_plot) : -1.0;
            // Against the best before with the panels it drew: a step that keeps the panels the
            // best kept (alibi-bias's colour bar's label above its bar, once the second map had
            // gone for a real gain) needs no more than any gain.
            const qsizetype drawn = panels();
            if (share > bestShare + (drawn < bestPanels ? FigureRoom::kPanelGain : 1e-9)) {
                best = taken;
                bestShare = share;
                bestPanels = drawn;
            }
        }
        return false;
    };
    // First the steps that give up room, then from the first that gives up panels on, but for the
    // title's and the keys' (FigureRoom::StepGives). The ladder is climbed again from the title's
    // step where that does not fit, or fits only by giving up a panel: that way is taken where it
    // fits drawing more panels (a page whose title's room alone holds a panel keeps the panel).
    std::vector<int> withTitle, before, fromTitle;
    int panelsFrom = FigureRoom::steps() + 1;
    for (int step = FigureRoom::steps(); step >= 1; --step)
        if (FigureRoom::stepGives(step) == FigureRoom::StepGives::Panels)
            panelsFrom = step;
    bool past = false;
    for (int step = 1; step <= FigureRoom::steps(); ++step) {
        const FigureRoom::StepGives gives = FigureRoom::stepGives(step);
        past |= gives == FigureRoom::StepGives::Title;
        (past ? fromTitle : before).push_back(step);
        if (gives == FigureRoom::StepGives::Room)
            withTitle.push_back(step);
    }
    for (int step = panelsFrom; step <= FigureRoom::steps(); ++step)
        if (const FigureRoom::StepGives gives = FigureRoom::stepGives(step);
            gives == FigureRoom::StepGives::Room || gives == FigureRoom::StepGives::Panels)
            withTitle.push_back(step);
    const qsizetype all = panels();
    const bool titled = !FigureRoom::fullTitle(*m_plot).isEmpty();
    const bool fitted = climb(withTitle);
    if (fitted && (!titled || panels() == all))
        return;
    if (titled) {
        const std::vector<int> kept = taken;
        const qsizetype keptPanels = panels();
        taken = before;
        giveUpTo(taken);
        inside = FigureRoom::within(*m_plot);
        if (climb(fromTitle) && (!fitted || panels() > keptPanels))
            return;
        if (fitted) {
            // The steps that fitted, taken again from the figure as it was made: without the
            // climb's thinnings on the way the layout may come out a unit apart, short of the
            // page's half (compose-compare at a column, its plots 49.99 %), where the best step
            // climbed is drawn instead.
            giveUpTo(kept);
            retick();
            inside = FigureRoom::within(*m_plot);
            if (fits() || best.empty() || best == kept || bestShare <= FigureRoom::plotShare(*m_plot))
                return;
            giveUpTo(best);
            return retick();
        }
    }
    if (!fits() && best != taken && bestShare >= 0.0)
        giveUpTo(best);
    retick();
}

void FigureLayoutLoop::retick()
{
    // The ticks thinned from the figure's own for the layout as it ends, whatever the layouts
    // on the way thinned: a view and its export of one size then tick alike. Where none was
    // thinned and the last layout settled, laying out again would give the same figure: a fitting
    // of a figure that fits its room at once lays it out once, not twice.
    if (FigureFit::unthinTicks(m_plot) || !m_settled)
        settle();
    // A label along its tick labels that left its axis fewer than two numbers, with the ticks as
    // they end, goes back to its axis: a step's layout on the way may leave it fewer, that a later
    // step's room gives back (document-distance's x axis at a column, 8 pt).
    if (FigureRoom::keepScalesReadable(m_plot))
        settle();
    // A label a step set along its tick labels on the way goes back under its axis where the
    // figure as it ends has the room for it there (FigureRoom::labelsBackWhereRoom). A view of the
    // window tries them once for a figure that lays out alike: a change its layout does not read
    // (RoPE's θ) tries again only those that went back, as its export finds them.
    if (FigureRoom::fits(*m_plot, m_points))
        FigureRoom::labelsBackWhereRoom(
            m_plot,
            [this] {
                // Laid out with its ticks as they end, as retick lays the figure out.
                FigureFit::unthinTicks(m_plot);
                settle();
                if (!FigureRoom::tickLabelsApart(*m_plot) && FigureRoom::Steps::separateTickLabels(m_plot))
                    settle();
                return FigureRoom::fits(*m_plot, m_points);
            },
            m_fileSize ? nullptr : &m_labelsBack);
    if (FigureRoom::oneLabelFormPerRow(m_plot))
        settle();
    // The ticks given back may set the end numbers of panels side by side against each other
    // (compose-compare's "500" on its neighbour's "0" at 6 x 4 cm): they are set apart again as the
    // step that does so set them apart on the way (FigureRoom::Steps::separateTickLabels).
    if (!FigureRoom::tickLabelsApart(*m_plot) && FigureRoom::Steps::separateTickLabels(m_plot))
        settle();
    // Two axes' tick labels meeting at a corner of their panel: the end one of one goes.
    if (FigureRoom::Steps::pruneCornerTicks(m_plot))
        settle();
}

bool FigureLayoutLoop::refitAfterFilling()
{
    g_fittings.fetch_add(1, std::memory_order_relaxed);
    {
        const LegendPlacement::Fitting fitting;
        const DirectLabels::Fitting labelling;
        fitRoom();
    }
    if (m_computedFor.isEmpty() || axisRects() == m_computedFor || m_refits >= kMaxRefits)
        return false;
    ++m_refits;
    return true;
}

QList<QRect> FigureLayoutLoop::axisRects() const
{
    QList<QRect> rects;
    for (const QCPAxisRect *rect : m_plot->axisRects())
        rects.append(rect->rect());
    return rects;
}

} // namespace posenc
