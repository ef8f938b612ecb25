#include "MropePositionsFigure.h"

#include "render/FigureDescriptor.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/StampedGraph.h"
#include "render/SwatchLegend.h"

#include "core/NumberText.h"
#include "core/mrope/MropePrompt.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kIdColours[3] = {QColor(0, 0, 0), QColor(0, 114, 178), QColor(213, 94, 0)};
const QColor kImageShade(230, 159, 0, 60);
const QColor kVideoShade(86, 180, 233, 70);

QCPGraph *idGraph(QCPAxisRect *rect, const QColor &colour, QCPScatterStyle::ScatterShape shape, double size)
{
    auto *graph = new StampedGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(QCPScatterStyle(shape, colour, colour, size));
    return graph;
}

} // namespace

std::unique_ptr<FigureDescriptor> makeMropePositionsFigure()
{
    return std::make_unique<FigureDescriptorOf<MropePositionsModel, MropePositionsFigure>>();
}

MropePositionsFigure::MropePositionsFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
{
    plot->plotLayout()->addElement(1, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    m_rect->axis(QCPAxis::atBottom)->setLabel(u"token of the prompt"_s);
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"position id"_s);
    IndexTicker::install(m_rect->axis(QCPAxis::atBottom));
    IndexTicker::install(m_rect->axis(QCPAxis::atLeft));
    m_rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    m_rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 3, 4);
    // Room in each key for the ring of a text's start, whole.
    m_legend->setIconSize(18, 17);
    const QCPScatterStyle::ScatterShape shapes[3]
        = {QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare, QCPScatterStyle::ssCross};
    const QString names[3] = {u"t"_s, u"h"_s, u"w"_s};
    for (int a = 0; a < 3; ++a) {
        m_ids[std::size_t(a)] = idGraph(m_rect, kIdColours[a], shapes[a], a == 0 ? 7 : 6);
        m_ids[std::size_t(a)]->setName(names[a]);
    }
    m_starts = idGraph(m_rect, Qt::black, QCPScatterStyle::ssCircle, 14);
    m_starts->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.6), Qt::NoBrush, 14));
    m_starts->setName(u"next text starts"_s);
    m_next = idGraph(m_rect, QColor(0, 158, 115), QCPScatterStyle::ssStar, 14);
    m_next->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(QColor(0, 158, 115), 2.0), Qt::NoBrush, 14));
    m_next->setName(u"first generated token"_s);
}

QList<ViewAxis> MropePositionsFigure::viewAxes() const
{
    return {{u"tokens"_s, m_rect->axis(QCPAxis::atBottom)}, {u"ids"_s, m_rect->axis(QCPAxis::atLeft)}};
}

void MropePositionsFigure::showDefaultView(const Params &params, const FigureState &)
{
    const auto layout = MropeLayout::build(params.mrope);
    const auto *built = std::get_if<MropeLayout>(&layout);
    const double tokens = built ? double(built->tokens()) : 1.0;
    const double most = built ? double(built->maxId() + 1) : 1.0;
    // The first generated token's star stands at x = tokens, past the prompt: matplotlib's margin
    // of 5 % (axes.xmargin) beyond it keeps the star, 14 units wide, whole in a column's plot (it
    // was cut in half at --size column with 0.5 of a token beyond it).
    m_rect->axis(QCPAxis::atBottom)->setRange(-0.5, tokens + std::max(0.5, 0.05 * (tokens + 1.0)));
    m_rect->axis(QCPAxis::atLeft)->setRange(-0.5 - 0.04 * most, most + 0.5 + 0.04 * most);
}

QList<PanelExtent> MropePositionsFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void MropePositionsFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const MropePositionsData>(data);
    const MropePositionsData &d = *m_data;
    const QList<double> *ids[3] = {&d.t, &d.h, &d.w};
    // Markers while the tokens have room for them; small ones past that.
    const double size = d.rows.size() <= 64 ? 1.0 : d.rows.size() <= 1024 ? 0.6 : 0.35;
    // Where tokens have room, t, h and w stand a little apart, so that equal ids stay visible.
    const double apart = d.rows.size() <= 64 ? 0.22 : 0.0;
    for (std::size_t a = 0; a < 3; ++a) {
        QCPScatterStyle style = m_ids[a]->scatterStyle();
        style.setSize(std::max(2.0, (a == 0 ? 7.0 : 6.0) * size));
        m_ids[a]->setScatterStyle(style);
        QList<double> x = d.rows;
        for (double &row : x)
            row += (double(a) - 1.0) * apart;
        m_ids[a]->setData(x, *ids[a], true);
    }
    m_starts->setData(d.startRows, d.startIds, true);
    m_next->setData({double(d.tokens)}, {double(d.maxId + 1)}, true);
    QCustomPlot *plot = m_title->parentPlot();
    while (m_shades.size() > d.spans.size())
        plot->removeItem(m_shades.takeLast());
    while (m_shades.size() < d.spans.size()) {
        auto *shade = new QCPItemRect(plot);
        shade->setClipAxisRect(m_rect);
        shade->setLayer(u"background"_s);
        shade->setPen(Qt::NoPen);
        shade->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
        shade->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        shade->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
        shade->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        shade->topLeft->setAxes(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
        shade->bottomRight->setAxes(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
        shade->topLeft->setAxisRect(m_rect);
        shade->bottomRight->setAxisRect(m_rect);
        m_shades.append(shade);
    }
    bool images = false, videos = false;
    for (qsizetype i = 0; i < d.spans.size(); ++i) {
        const MropePositionsData::Span &span = d.spans[i];
        m_shades[i]->setBrush(span.video ? kVideoShade : kImageShade);
        m_shades[i]->topLeft->setCoords(double(span.first) - 0.5, 0.0);
        m_shades[i]->bottomRight->setCoords(double(span.end) - 0.5, 1.0);
        (span.video ? videos : images) = true;
    }
    // A small figure (a paper's column, a quarter of the window) keeps its keys short, so that they
    // fit in two rows and leave the plot its height.
    const bool terse = m_compact || PlotStyle::textLines(*plot) < 30;
    m_starts->setName(terse ? u"text starts"_s : u"next text starts"_s);
    m_next->setName(terse ? u"generated"_s : u"first generated token"_s);
    m_legend->clearItems();
    for (QCPGraph *graph : m_ids)
        MeasuredText::addToLegend(graph, m_legend);
    // The shades' keys: swatches of their colour over white, as the plot shows them.
    if (images)
        SwatchLegend::add(m_legend, {kImageShade, terse ? u"image"_s : u"image span"_s});
    if (videos)
        SwatchLegend::add(m_legend, {kVideoShade, terse ? u"video"_s : u"video span"_s});
    if (!d.startRows.isEmpty())
        MeasuredText::addToLegend(m_starts, m_legend);
    MeasuredText::addToLegend(m_next, m_legend);
    m_title->setText(u"%1  ·  %2  ·  %3 tokens, rope_deltas = %4"_s
                         .arg(terse ? u"M-RoPE ids"_s : u"M-RoPE: the (t, h, w) id of each token"_s, d.rule)
                         .arg(d.tokens)
                         .arg(QString::number(d.ropeDelta).replace(u'-', u'−')));
    QString caption
        = u"A grid of h × w merged patches costs max(h, w) positions, not h·w; the first generated token "
          "sits at max id + 1 = %1 on all three axes (its cache position %2 + rope_deltas)."_s.arg(d.maxId + 1)
              .arg(d.tokens);
    if (d.sampled)
        caption += u" %1 of the %2 tokens drawn, evenly."_s.arg(d.rows.size()).arg(d.tokens);
    if (d.allSpans > d.spans.size())
        caption += u" The first %1 of %2 spans shaded."_s.arg(d.spans.size()).arg(d.allSpans);
    PlotStyle::setCollapsibleText(m_caption, terse ? QString() : caption);
}

std::optional<HoverPoint> MropePositionsFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || m_data->rows.isEmpty() || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const MropePositionsData &d = *m_data;
    const double x = m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const auto nearest = std::lower_bound(d.rows.begin(), d.rows.end(), x);
    qsizetype i = std::min<qsizetype>(nearest - d.rows.begin(), d.rows.size() - 1);
    if (i > 0 && std::abs(d.rows[i - 1] - x) < std::abs(d.rows[i] - x))
        --i;
    HoverPoint point;
    point.hasPosition = false;
    point.value = d.t[i];
    point.valueName = u"token %1: t %2, h %3, w %4"_s.arg(qint64(d.rows[i]))
                          .arg(qint64(d.t[i]))
                          .arg(qint64(d.h[i]))
                          .arg(qint64(d.w[i]));
    return point;
}

} // namespace posenc
