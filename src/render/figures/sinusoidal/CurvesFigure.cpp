#include "CurvesFigure.h"

#include "render/FigureDescriptor.h"
#include "render/FigureFit.h"
#include "render/GivenLabel.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/StampedGraph.h"

#include "render/data/FigureText.h"
#include "render/data/ViewOptions.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Distinguishable on white and for common colour blindness (Okabe-Ito).
const QColor kPalette[] = {QColor(0, 114, 178), QColor(213, 94, 0),   QColor(0, 158, 115), QColor(204, 121, 167),
                           QColor(230, 159, 0), QColor(86, 180, 233), QColor(0, 0, 0),     QColor(240, 228, 66)};

} // namespace

std::unique_ptr<FigureDescriptor> makeCurvesFigure()
{
    return std::make_unique<FigureDescriptorOf<CurvesModel, CurvesFigure>>();
}

CurvesFigure::CurvesFigure(QCustomPlot *plot)
    : m_plot(plot)
    , m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
    , m_legend(new QCPLegend)
{
    plot->plotLayout()->addElement(1, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"position p"_s);
    IndexTicker::install(m_rect->axis(QCPAxis::atBottom));
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"PE[p, j]"_s);
    m_rect->axis(QCPAxis::atLeft)->setRange(-1.15, 1.15);
    m_rect->setRangeDrag(Qt::Horizontal);
    m_rect->setRangeZoom(Qt::Horizontal);
    // The legend sits below the axes, so it never hides a curve.
    plot->plotLayout()->addElement(2, 0, m_legend);
    m_legend->setLayer(u"legend"_s);
    m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_legend->setWrap(2);
    m_legend->setBorderPen(Qt::NoPen);
    QFont font = plot->font();
    m_legend->setFont(font);
    m_legend->setIconSize(18, 8);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_title->setText(u"PE[:, j] against position"_s);
}

void CurvesFigure::setData(const CurvesData &data)
{
    m_legend->clearItems();
    const int wrap = m_compact ? 3 : 2;
    FigureFit::setLegendWrap(m_legend, wrap);
    m_plot->clearPlottables();
    int entries = 0;
    // The sine and cosine of one pair share a hue, the cosine lighter (dashes would cost
    // tens of milliseconds of stroking per replot).
    QList<std::int64_t> pairs;
    for (const Curve &curve : data.curves) {
        if (!pairs.contains(curve.pair))
            pairs.append(curve.pair);
        const QColor color = kPalette[pairs.indexOf(curve.pair) % std::size(kPalette)];
        const QColor hue = curve.isCos ? color.lighter(150) : color;
        auto *line = new StampedGraph(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
        line->setPen(QPen(hue, 1.4));
        if (curve.band)
            addBand(curve, hue, line);
        else
            line->setData(curve.denseX, curve.denseY, true);
        line->setName(m_compact ? CurvesCompute::shortLegendText(curve) : CurvesCompute::legendText(curve));
        // Placed at its cell: QCPLegend::addItem looks for the first free cell, which is quadratic
        // in the number of curves.
        m_legend->addElement(entries / wrap, entries % wrap, new MeasuredLegendItem(m_legend, line));
        ++entries;
        if (!curve.pointX.isEmpty()) {
            auto *dots = new StampedGraph(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
            dots->setData(curve.pointX, curve.pointY, true);
            dots->setLineStyle(QCPGraph::lsNone);
            dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, Qt::white, m_compact ? 3 : 5));
        }
    }
    const bool marked = !data.curves.isEmpty() && !data.curves.front().pointX.isEmpty();
    // In concat the PE sits in X's last k columns, and the curves number them as X does.
    const bool offset = data.firstColumn > 0;
    const TitleText::RowIndex &index = data.index;
    GivenLabel::give(m_rect->axis(QCPAxis::atBottom), index.axis());
    GivenLabel::give(m_rect->axis(QCPAxis::atLeft),
                     index.named(offset ? u"X[p, j] = PE[p, j − %1]"_s.arg(data.firstColumn) : u"PE[p, j]"_s));
    const QString what
        = index.named(offset ? u"PE columns j of X = [s·E | PE] against position"_s : u"PE[:, j] against position"_s);
    // Fewer positions than the table's in view (the default view of a long table): say which.
    const QString part = data.position0 > 0.5 || data.position1 < double(data.maxLen - 1) - 0.5
        ? u"  ·  %1 %2–%3 of %4"_s.arg(index.nouns(), FigureText::formatCount(std::int64_t(std::ceil(data.position0))),
                                       FigureText::formatCount(std::int64_t(std::floor(data.position1))),
                                       FigureText::formatCount(data.maxLen))
        : QString();
    m_title->setText(u"%1  ·  %2%3  ·  %4"_s.arg(
        what, data.parameters, part,
        index.named(marked ? u"dots: the table at integer positions"_s : u"zoom in to see the integer positions"_s)));
}

// A band is filled between its least and its most: the same picture as stroking each sample's
// span, at a fraction of the cost (a wide pen's stroke of thousands of overlapping segments takes
// milliseconds a replot). `line` stays empty and names the curve in the legend.
void CurvesFigure::addBand(const Curve &curve, const QColor &hue, QCPGraph *line)
{
    const qsizetype n = curve.denseX.size() / 2;
    QList<double> x(n), least(n), most(n);
    for (qsizetype s = 0; s < n; ++s) {
        x[s] = curve.denseX[2 * s];
        least[s] = std::min(curve.denseY[2 * s], curve.denseY[2 * s + 1]);
        most[s] = std::max(curve.denseY[2 * s], curve.denseY[2 * s + 1]);
    }
    auto *lower = new StampedGraph(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
    lower->setData(x, least, true);
    lower->setPen(Qt::NoPen);
    auto *upper = new StampedGraph(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
    upper->setData(x, most, true);
    upper->setPen(Qt::NoPen);
    upper->setBrush(hue);
    upper->setChannelFillGraph(lower);
    line->setBrush(hue); // its legend icon: the line over the band's fill
}

void CurvesFigure::setPositionRange(double first, double last)
{
    m_rect->axis(QCPAxis::atBottom)->setRange(first, last);
}

QList<ViewAxis> CurvesFigure::viewAxes() const
{
    return {{QString::fromUtf16(CurvesModel::kPositionsAxis), m_rect->axis(QCPAxis::atBottom)}};
}

void CurvesFigure::showDefaultView(const Params &params, const FigureState &state)
{
    // The first positions, few enough that the integer ones are marked on the curves.
    if (const auto range = ViewOptions::positionRange(state))
        setPositionRange(static_cast<double>(range->first), static_cast<double>(range->second - 1));
    else
        setPositionRange(
            0.0, static_cast<double>(CurvesCompute::defaultLastPosition(params, CurvesModel::columns(params, state))));
}

QList<PanelExtent> CurvesFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void CurvesFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const CurvesData>(data);
    setData(*m_data);
}

QList<PositionAxis> CurvesFigure::positionAxes() const
{
    return {{m_rect, false}};
}

std::optional<HoverPoint> CurvesFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_rect->rect().contains(pixel.toPoint()) || !m_data || m_data->curves.isEmpty())
        return std::nullopt;
    const auto p = static_cast<std::int64_t>(std::llround(m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
    if (p < 0 || p >= engine.params().maxLen)
        return std::nullopt;
    // The curve nearest the mouse at that position.
    const double y = m_rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
    const Curve *nearest = nullptr;
    double best = INFINITY, bestValue = 0.0;
    for (const Curve &curve : m_data->curves) {
        const double angle = static_cast<double>(p) * curve.frequency;
        const double value = curve.isCos ? std::cos(angle) : std::sin(angle);
        if (std::abs(value - y) < best) {
            best = std::abs(value - y);
            bestValue = value;
            nearest = &curve;
        }
    }
    HoverPoint point;
    point.position = p;
    point.column = nearest->column; // numbered as in X
    point.columnIsPe = false;
    point.value = bestValue;
    point.valueName = u"PE"_s;
    point.quantity = Quantity::Pe;
    return point;
}

} // namespace posenc
