#include "CurvesFigure.h"

#include "render/PlotStyle.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Distinguishable on white and for common colour blindness (Okabe-Ito).
const QColor kPalette[] = {QColor(0, 114, 178), QColor(213, 94, 0),   QColor(0, 158, 115), QColor(204, 121, 167),
                           QColor(230, 159, 0), QColor(86, 180, 233), QColor(0, 0, 0),     QColor(240, 228, 66)};

} // namespace

CurvesFigure::CurvesFigure(QCustomPlot *plot)
    : m_plot(plot)
    , m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
    , m_legend(new QCPLegend)
{
    plot->plotLayout()->addElement(1, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"position p"_s);
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
    font.setPointSizeF(8.0);
    m_legend->setFont(font);
    m_legend->setIconSize(18, 8);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_title->setText(u"PE[:, j] against position"_s);
}

void CurvesFigure::setData(const CurvesData &data)
{
    m_legend->clearItems();
    m_legend->setWrap(m_compact ? 3 : 2);
    m_plot->clearPlottables();
    // The sine and cosine of one pair share a hue, the cosine lighter (dashes would cost
    // tens of milliseconds of stroking per replot).
    QList<std::int64_t> pairs;
    for (const Curve &curve : data.curves) {
        if (!pairs.contains(curve.pair))
            pairs.append(curve.pair);
        const QColor color = kPalette[pairs.indexOf(curve.pair) % std::size(kPalette)];
        auto *line = new QCPGraph(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
        line->setData(curve.denseX, curve.denseY, true);
        line->setPen(QPen(curve.isCos ? color.lighter(150) : color, 1.4));
        line->setName(m_compact ? CurvesCompute::shortLegendText(curve) : CurvesCompute::legendText(curve));
        line->addToLegend(m_legend);
        if (!curve.pointX.isEmpty()) {
            auto *dots = new QCPGraph(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
            dots->setData(curve.pointX, curve.pointY, true);
            dots->setLineStyle(QCPGraph::lsNone);
            dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, Qt::white, m_compact ? 3 : 5));
        }
    }
    const bool marked = !data.curves.isEmpty() && !data.curves.front().pointX.isEmpty();
    m_title->setText(marked ? u"PE[:, j] against position  ·  dots: the table at integer positions"_s
                            : u"PE[:, j] against position  ·  zoom in to see the integer positions"_s);
}

void CurvesFigure::setPositionRange(double first, double last)
{
    m_rect->axis(QCPAxis::atBottom)->setRange(first, last);
}

} // namespace posenc
