#include "RopePrecisionFigure.h"

#include "render/PlotItems.h"

#include "render/FigureDescriptor.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/SwatchLegend.h"

#include "core/rope/RopeText.h"
#include "render/data/FigureText.h"

#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// float32, bf16, fp16.
const QColor kFormat[] = {QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115)};
const QColor kMergingWash(204, 121, 167, 40);

} // namespace

std::unique_ptr<FigureDescriptor> makeRopePrecisionFigure()
{
    return std::make_unique<FigureDescriptorOf<RopePrecisionModel, RopePrecisionFigure>>();
}

RopePrecisionFigure::RopePrecisionFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
{
    plot->plotLayout()->addElement(1, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    PlotItems::setLog2Axis(m_rect->axis(QCPAxis::atBottom), false, 6);
    PlotItems::setLog2Axis(m_rect->axis(QCPAxis::atLeft), true, 6);
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"position p"_s);
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"gap to the next value at p"_s);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 2);
    m_merging = new QCPItemRect(plot);
    m_merging->setClipAxisRect(m_rect);
    for (QCPItemPosition *corner : {m_merging->topLeft, m_merging->bottomRight}) {
        corner->setAxes(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
        corner->setAxisRect(m_rect);
        corner->setTypeX(QCPItemPosition::ptAxisRectRatio);
        corner->setTypeY(QCPItemPosition::ptPlotCoords);
    }
    m_merging->setPen(Qt::NoPen);
    m_merging->setBrush(kMergingWash);
    m_one = PlotItems::line(m_rect, QColor(60, 60, 60), 1.3, Qt::DashLine);
    for (const QColor &color : kFormat) {
        m_merges.append(PlotItems::line(m_rect, color, 1.0, Qt::DotLine));
        QCPGraph *steps = PlotItems::line(m_rect, color, 2.0);
        steps->setLineStyle(QCPGraph::lsStepLeft);
        m_steps.append(steps);
    }
    m_overflow = PlotItems::line(m_rect, kFormat[2], 1.6, Qt::DashDotLine);
}

QList<PanelExtent> RopePrecisionFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void RopePrecisionFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const RopePrecisionData>(data);
    const RopePrecisionData &d = *m_data;
    const double last = std::max(static_cast<double>(d.last), 2.0);
    m_rect->axis(QCPAxis::atBottom)->setRange(1.0, last);
    QList<double> gaps {1.0};
    for (const RopePrecisionFormat &format : d.formats)
        gaps += format.gap;
    const QCPRange y = PlotItems::logRange(gaps, 4.0);
    m_rect->axis(QCPAxis::atLeft)->setRange(y);
    m_merging->topLeft->setCoords(0.0, y.upper);
    m_merging->bottomRight->setCoords(1.0, 1.0);
    m_legend->clearItems();
    m_legend->setWrap(2);

    PlotItems::horizontal(m_one, 1.0, last, 1.0);
    m_one->setName(m_compact ? u"gap 1"_s : u"gap 1: above it, neighbouring positions merge"_s);
    for (qsizetype f = 0; f < d.formats.size() && f < m_steps.size(); ++f) {
        const RopePrecisionFormat &format = d.formats[f];
        QCPGraph *steps = m_steps[f];
        steps->setData(format.position, format.gap, true);
        const bool merges = format.firstMerge <= d.last;
        QString name = u"%1 (%2 mantissa bits)"_s.arg(format.name).arg(format.mantissaBits);
        if (m_compact)
            name = format.name;
        name += merges ? u": merges from %1"_s.arg(FigureText::formatCount(format.firstMerge))
                       : u": exact to %1"_s.arg(FigureText::formatCount(format.firstMerge));
        steps->setName(name);
        MeasuredText::addToLegend(steps, m_legend);
        m_merges[f]->setVisible(merges);
        PlotItems::vertical(m_merges[f], static_cast<double>(format.firstMerge), y.lower, y.upper);
    }
    MeasuredText::addToLegend(m_one, m_legend);
    const RopePrecisionFormat &fp16 = d.formats.back();
    m_overflow->setVisible(fp16.overflow.has_value());
    if (fp16.overflow) {
        PlotItems::vertical(m_overflow, static_cast<double>(*fp16.overflow), y.lower, y.upper);
        m_overflow->setName(u"fp16 overflows: p ≥ %1 is inf"_s.arg(FigureText::formatCount(*fp16.overflow)));
        MeasuredText::addToLegend(m_overflow, m_legend);
    }
    SwatchLegend::add(m_legend, {kMergingWash, m_compact ? u"merging"_s : u"positions merge (and their angles)"_s});

    QString atLast
        = u"at p = %1: bf16 gap %2"_s.arg(FigureText::formatCount(d.last), RopeText::number(d.bf16StepAtLast));
    atLast += d.fp16StepAtLast ? u", fp16 gap %1"_s.arg(RopeText::number(*d.fp16StepAtLast)) : u", fp16 overflows"_s;
    m_title->setText(u"%1  ·  p < max-len = %2  ·  %3"_s.arg(
        m_compact ? u"Positions in float32, bf16, fp16"_s
                  : u"Positions in float32, bf16 and fp16: the gap to the next value"_s,
        FigureText::formatCount(d.last + 1), atLast));
}

QList<PositionAxis> RopePrecisionFigure::positionAxes() const
{
    return {{m_rect, false}};
}

std::optional<HoverPoint> RopePrecisionFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const auto p = std::llround(m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
    if (p < 0 || p >= engine.params().maxLen)
        return std::nullopt;
    HoverPoint point;
    point.position = p;
    const double x = static_cast<double>(p);
    QString fp16 = p >= RopePrecisionModel::kFp16Overflow
        ? u"inf"_s
        : NumberText::compact(RopeFrequencies::positionStep(x, 10), 4);
    point.valueName
        = u"gap float32 %1, bf16 %2, fp16 %3"_s.arg(NumberText::compact(RopeFrequencies::positionStep(x, 23), 4),
                                                    NumberText::compact(RopeFrequencies::positionStep(x, 7), 4), fp16);
    return point;
}

} // namespace posenc
