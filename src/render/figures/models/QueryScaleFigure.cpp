#include "QueryScaleFigure.h"

#include "render/FigureDescriptor.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"

#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Okabe–Ito, told apart in every common colour vision.
const QList<QColor> kQueryColors
    = {QColor(0, 114, 178), QColor(213, 94, 0),   QColor(0, 158, 115), QColor(204, 121, 167),
       QColor(230, 159, 0), QColor(86, 180, 233), QColor(0, 0, 0)};

} // namespace

std::unique_ptr<FigureDescriptor> makeQueryScaleFigure()
{
    return std::make_unique<FigureDescriptorOf<QueryScaleModel, QueryScaleFigure>>();
}

QueryScaleFigure::QueryScaleFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
{
    plot->plotLayout()->addElement(1, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    QCPAxis *x = m_rect->axis(QCPAxis::atBottom);
    PlotStyle::setLogAxis(x);
    x->setLabel(u"position p (log scale)"_s);
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"logits q·k multiplied by"_s);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 1);
    m_marks = new QCPGraph(x, m_rect->axis(QCPAxis::atLeft));
    m_marks->setLineStyle(QCPGraph::lsNone);
    m_marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), Qt::white, 9));
}

QList<PanelExtent> QueryScaleFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void QueryScaleFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const QueryScaleData>(data);
    const QueryScaleData &d = *m_data;
    QCustomPlot *plot = m_title->parentPlot();
    for (QCPGraph *g : m_curves)
        plot->removeGraph(g);
    m_curves.clear();
    for (QCPItemText *t : m_labels)
        plot->removeItem(t);
    m_labels.clear();
    m_legend->clearItems();
    const bool terse = m_compact || PlotStyle::textLines(*plot) < 30;
    double top = 1.0;
    for (qsizetype i = 0; i < d.curves.size(); ++i) {
        const QueryScaleData::Curve &c = d.curves[i];
        auto *g = new QCPGraph(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
        const QColor color = kQueryColors[i % kQueryColors.size()];
        // The first curve wider, under the others: a curve that lies on it (Devstral's on Llama 4's,
        // one position apart) leaves it showing at its edges.
        g->setPen(QPen(color, i == 0 ? 5.0 : 2.0, c.constant ? Qt::DashLine : Qt::SolidLine));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setData(c.positions, c.values, true);
        // On a slide the formula stays in the model's words only where the figure has room.
        g->setName(terse ? c.terse : c.label);
        MeasuredText::addToLegend(g, m_legend);
        m_curves.append(g);
        top = std::max(top, *std::max_element(c.values.cbegin(), c.values.cend()));
    }
    QList<double> markX, markY;
    for (qsizetype i = 0; i < d.marks.size(); ++i) {
        const QueryScaleData::Mark &m = d.marks[i];
        markX.append(m.position);
        markY.append(m.value);
        auto *label = new QCPItemText(plot);
        label->setClipToAxisRect(true);
        label->setClipAxisRect(m_rect);
        label->position->setAxes(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
        label->position->setCoords(m.position, m.value);
        // Above left of the first mark, below right of the others: clear of the steps rising right.
        label->setPositionAlignment(i == 0 ? Qt::AlignRight | Qt::AlignBottom : Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(i == 0 ? QMargins(0, 0, 8, 4) : QMargins(8, 4, 0, 0));
        label->setFont(m_legend->font());
        label->setText(m.label);
        m_labels.append(label);
    }
    m_marks->setData(markX, markY, true);
    m_marks->setVisible(!markX.isEmpty());
    m_rect->axis(QCPAxis::atBottom)->setRange(1.0, d.lastPosition);
    m_rect->axis(QCPAxis::atLeft)->setRange(0.95, top + 0.08 * (top - 0.95) + 0.02);
    m_title->setText(d.source.isEmpty() ? u"Query scale  ·  what multiplies the logits, by position"_s
                                        : u"Query scale  ·  %1"_s.arg(d.source));
}

std::optional<HoverPoint> QueryScaleFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double p = std::floor(m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
    QStringList values;
    for (const QueryScaleData::Curve &c : m_data->curves) {
        double v = c.values.first();
        for (qsizetype i = 0; i < c.positions.size(); ++i) {
            if (c.positions[i] <= p)
                v = c.values[i];
        }
        values.append(u"%1 %2"_s.arg(c.label.section(u": "_s, 0, 0), NumberText::compact(v, 5)));
    }
    HoverPoint point;
    point.position = std::int64_t(p);
    point.valueName = values.join(u"; "_s);
    return point;
}

} // namespace posenc
