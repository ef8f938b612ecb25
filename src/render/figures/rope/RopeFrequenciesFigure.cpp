#include "RopeFrequenciesFigure.h"

#include "RopePlot.h"
#include "render/PlotItems.h"

#include "render/FigureDescriptor.h"
#include "render/FigureFit.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/SwatchLegend.h"

#include "core/rope/RopeText.h"
#include "core/rope/RopeTypes.h"
#include "render/data/FigureText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kBlendedShade(230, 159, 0, 55);
const QColor kDividedShade(86, 180, 233, 70);
const QColor kCritical(160, 30, 120);

// A band's legend entry: llama3's by the wavelengths it parts at, yarn's by its ramp; the
// divided band said of the wavelengths on the axis, each × f (its θᵢ ÷ f).
QString bandName(const RopeFrequenciesData &d, RopeBand band)
{
    const QString factor = d.factor ? RopeText::number(*d.factor) : u"the factor"_s;
    if (d.type == RopeType::Llama3) {
        const QString low = RopeText::number(d.keptBelow), high = RopeText::number(d.dividedAbove);
        switch (band) {
        case RopeBand::Kept:
            return u"kept: λ < %1"_s.arg(low);
        case RopeBand::Blended:
            return u"blended: λ %1–%2"_s.arg(low, high);
        case RopeBand::Divided:
            return u"× %1: λ > %2"_s.arg(factor, high);
        }
    }
    switch (band) {
    case RopeBand::Kept:
        return u"kept (ramp γ = 0)"_s;
    case RopeBand::Blended:
        return u"blended (0 < γ < 1)"_s;
    case RopeBand::Divided:
        return u"× %1 (γ = 1)"_s.arg(factor);
    }
    return QString();
}

} // namespace

std::unique_ptr<FigureDescriptor> makeRopeFrequenciesFigure()
{
    return std::make_unique<FigureDescriptorOf<RopeFrequenciesModel, RopeFrequenciesFigure>>();
}

RopeFrequenciesFigure::RopeFrequenciesFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
{
    plot->plotLayout()->addElement(1, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"rotary pair i"_s);
    IndexTicker::install(m_rect->axis(QCPAxis::atBottom));
    PlotStyle::setLogAxis(m_rect->axis(QCPAxis::atLeft));
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"wavelength λᵢ = 2π/θᵢ (positions)"_s);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 3);
    // The shades first: drawn behind every line.
    m_blended = PlotItems::shade(m_rect, kBlendedShade);
    m_divided = PlotItems::shade(m_rect, kDividedShade);
    m_original = PlotItems::line(m_rect, RopePlot::kContext, 1.3, Qt::DashLine);
    m_extended = PlotItems::line(m_rect, RopePlot::kContext, 1.3, Qt::DotLine);
    m_critical = PlotItems::line(m_rect, kCritical, 1.3, Qt::DashDotLine);
    m_rampLow = PlotItems::line(m_rect, RopePlot::typeColor(RopeType::Yarn).darker(150), 1.0, Qt::DotLine);
    m_rampHigh = PlotItems::line(m_rect, RopePlot::typeColor(RopeType::Yarn).darker(150), 1.0, Qt::DotLine);
    m_before = PlotItems::line(m_rect, RopePlot::typeColor(RopeType::Default), 1.4, Qt::DashLine);
    m_partial = PlotItems::line(m_rect, RopePlot::typeColor(RopeType::Dynamic), 1.4, Qt::DotLine);
    m_after = PlotItems::line(m_rect, RopePlot::typeColor(RopeType::Default), 2.0);
}

QList<PanelExtent> RopeFrequenciesFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void RopeFrequenciesFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const RopeFrequenciesData>(data);
    const RopeFrequenciesData &d = *m_data;
    const bool scaled = d.type != RopeType::Default;
    const double x0 = -0.5, x1 = std::max(static_cast<double>(d.pairs) - 0.5, 0.5);
    m_rect->axis(QCPAxis::atBottom)->setRange(x0, x1);
    QList<double> values = d.wavelength + d.wavelengthBefore + d.partialWavelength;
    values << static_cast<double>(d.original) << static_cast<double>(d.extended);
    const QCPRange y = PlotItems::logRange(values, 2.0);
    m_rect->axis(QCPAxis::atLeft)->setRange(y);
    // Short entries, three to a row: on a slide they keep the plot its height.
    m_legend->clearItems();
    FigureFit::setLegendWrap(m_legend, m_compact ? 2 : 3);
    const auto add = [this](QCPGraph *graph) { MeasuredText::addToLegend(graph, m_legend); };

    const QColor color = RopePlot::typeColor(d.type);
    m_after->setPen(QPen(color, 2.0));
    m_after->setData(d.pair, d.wavelength, true);
    m_after->setScatterStyle(d.pairs <= 96 ? QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 4)
                                           : QCPScatterStyle(QCPScatterStyle::ssNone));
    const QString exponent = d.type == RopeType::Proportional ? u"2j/head_dim"_s : u"2i/r"_s;
    m_after->setName(scaled ? u"%1 (scaled)"_s.arg(RopeTypes::word(d.type)) : u"2π·θ^(%1)"_s.arg(exponent));
    // Shorter forms where little room would cut an entry (a key at 6 x 4 cm): the y axis names λᵢ.
    ShorterLabels::setEntry(m_after, scaled ? QStringList() : QStringList {u"λᵢ"_s});
    add(m_after);
    m_before->setVisible(scaled);
    m_before->setData(d.pair, d.wavelengthBefore, true);
    m_before->setName(u"unscaled 2π·θ^(%1)"_s.arg(exponent));
    // On little room the curve before scaling by its word: the scaled curve beside it is named by
    // its scaling, the y axis says what both are.
    ShorterLabels::setEntry(m_before, {u"unscaled"_s});
    if (scaled)
        add(m_before);
    m_partial->setVisible(!d.partialPair.isEmpty());
    m_partial->setData(d.partialPair, d.partialWavelength, true);
    m_partial->setName(u"partial rotary, same F"_s);
    if (!d.partialPair.isEmpty())
        add(m_partial);

    PlotItems::horizontal(m_original, x0, x1, static_cast<double>(d.original));
    m_original->setName(d.originalGiven ? u"original L₀ = %1"_s.arg(FigureText::formatCount(d.original))
                                        : u"L₀ = max-len = %1"_s.arg(FigureText::formatCount(d.original)));
    ShorterLabels::setEntry(m_original, {u"L₀ = %1"_s.arg(FigureText::formatCount(d.original)), u"L₀"_s});
    add(m_original);
    const bool extended = d.originalGiven && d.extended != d.original;
    m_extended->setVisible(extended);
    PlotItems::horizontal(m_extended, x0, x1, static_cast<double>(d.extended));
    m_extended->setName(u"max-len %1"_s.arg(FigureText::formatCount(d.extended)));
    // Shorter, its number kept before its words: the key names the length the line is at.
    ShorterLabels::setEntry(m_extended, {u"L = %1"_s.arg(FigureText::formatCount(d.extended)), u"max-len"_s});
    if (extended)
        add(m_extended);

    // The bands a scaling treats alike, behind the curves.
    for (const auto &[band, shade] :
         {std::pair {RopeBand::Blended, m_blended}, std::pair {RopeBand::Divided, m_divided}}) {
        const auto run = d.run(band);
        PlotItems::placeShade(shade, run.has_value(), run ? double(run->first) - 0.5 : 0.0,
                              run ? double(run->second) + 0.5 : 0.0);
    }
    for (const RopeBand band : {RopeBand::Kept, RopeBand::Blended, RopeBand::Divided}) {
        if (!d.run(band))
            continue;
        const QColor swatch = band == RopeBand::Kept ? QColor(Qt::white)
            : band == RopeBand::Blended              ? kBlendedShade
                                                     : kDividedShade;
        SwatchLegend::add(m_legend, {swatch, bandName(d, band)});
    }
    // yarn's ramp: its edges as computed, before rounding, and as used.
    const bool ramp = d.type == RopeType::Yarn && d.rampLow && d.rampHigh;
    m_rampLow->setVisible(ramp);
    m_rampHigh->setVisible(ramp);
    if (ramp) {
        PlotItems::vertical(m_rampLow, *d.rampLow, y.lower, y.upper);
        PlotItems::vertical(m_rampHigh, *d.rampHigh, y.lower, y.upper);
        // Three decimals: gpt-oss's 8.093 and 17.398, which rounding would move to 8 and 18.
        const auto edge = [](double v) { return QString::number(v, 'f', 3); };
        const QString computed = u"%1–%2"_s.arg(edge(*d.rampLow), edge(*d.rampHigh));
        const bool rounded
            = d.rampLowUsed && d.rampHighUsed && (*d.rampLowUsed != *d.rampLow || *d.rampHighUsed != *d.rampHigh);
        m_rampLow->setName(rounded
                               ? u"ramp %1, rounded to %2–%3"_s.arg(computed, NumberText::compact(*d.rampLowUsed, 4),
                                                                    NumberText::compact(*d.rampHighUsed, 4))
                               : u"ramp %1, unrounded"_s.arg(computed));
        add(m_rampLow);
    }
    // The critical dimension: from pair d_c / 2 on, a pair turns less than once within L0. Liu et
    // al.'s d_c = 2 ceil((d/2) log_theta(L0 / 2 pi)) is whole, the ceiling of the real pair index
    // where a pair turns exactly once (transformers' find_correction_dim at one rotation, yarn's
    // unrounded ramp end, drawn with it): the line stands between the last pair that turns and the
    // first that does not, and its name says which pair that is.
    const double criticalPair = static_cast<double>(d.criticalDimension) / 2.0;
    const bool critical = d.criticalDimension > 0 && criticalPair < static_cast<double>(d.pairs);
    m_critical->setVisible(critical);
    if (critical) {
        PlotItems::vertical(m_critical, criticalPair - 0.5, y.lower, y.upper);
        m_critical->setName(u"critical dim %1: from pair %2 on, less than one turn"_s.arg(d.criticalDimension)
                                .arg(d.criticalDimension / 2));
        ShorterLabels::setEntry(m_critical, {u"critical dim %1"_s.arg(d.criticalDimension), u"critical %1"_s.arg(d.criticalDimension), u"critical"_s});
        add(m_critical);
    }

    QString attention = u"attention factor %1"_s.arg(NumberText::compact(d.attentionFactor, 4));
    if (d.logitScale != 1.0)
        attention += u" (q·k × %1)"_s.arg(NumberText::compact(d.logitScale, 4));
    const QString what = m_compact ? u"RoPE wavelengths"_s : u"RoPE wavelength of each pair"_s;
    m_title->setText(u"%1  ·  %2  ·  %3  ·  %4"_s.arg(what, d.scaling, d.model, attention));
    ShorterLabels::setModelParts(m_title, {d.scaling, d.model});
}

std::optional<HoverPoint> RopeFrequenciesFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const RopeFrequenciesData &d = *m_data;
    const auto i = std::llround(m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
    if (i < 0 || i >= d.pair.size())
        return std::nullopt;
    HoverPoint point;
    point.hasPosition = false;
    point.value = d.wavelength[i];
    QString name = u"pair %1: wavelength"_s.arg(i);
    if (d.type != RopeType::Default)
        name += u" (unscaled %1)"_s.arg(NumberText::compact(d.wavelengthBefore[i], 5));
    point.valueName = name;
    return point;
}

} // namespace posenc
