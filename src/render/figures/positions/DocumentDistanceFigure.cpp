#include "DocumentDistanceFigure.h"

#include "render/FigureDescriptor.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"
#include "render/SwatchLegend.h"

#include "core/NumberText.h"
#include "core/positions/BatchParamRows.h"
#include "render/data/FigureText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kDistanceHidden(150, 150, 150);

QString distanceChoiceWord(IdsChoice choice)
{
    return BatchParamRows::choiceWords().value(int(choice));
}

// "26 cross-document pairs, 11 negative (42 %)".
QString crossText(const DocumentDistance::Counts &n, bool terse)
{
    if (n.cross == 0)
        return terse ? u"no cross pairs"_s : u"no cross-document pair attended"_s;
    const double share = 100.0 * double(n.crossNegative) / double(n.cross);
    // The share and its sign on one line (a slide's folded title put "%)" on a line of its own).
    return u"%1 cross%2, %3 negative (%4\u00a0%)"_s.arg(NumberText::count(n.cross))
        .arg(terse ? QString() : u"-document pairs"_s)
        .arg(NumberText::count(n.crossNegative))
        .arg(NumberText::compact(share, 3));
}

} // namespace

std::unique_ptr<FigureDescriptor> makeDocumentDistanceFigure()
{
    return std::make_unique<FigureDescriptorOf<DocumentDistanceModel, DocumentDistanceFigure>>();
}

DocumentDistanceFigure::DocumentDistanceFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_maps(plot, true)
{
    for (QCPAxisRect *rect : m_maps.pictureRects())
        m_boundaries.append(PlotItems::line(rect, Qt::black, 1.0, Qt::DotLine));
}

QList<ViewAxis> DocumentDistanceFigure::viewAxes() const
{
    return m_maps.viewAxes();
}

void DocumentDistanceFigure::showDefaultView(const Params &params, const FigureState &state)
{
    m_maps.showDefaultView(params, state);
}

QList<PanelExtent> DocumentDistanceFigure::panels(double pixelRatio) const
{
    return m_maps.panels(pixelRatio);
}

void DocumentDistanceFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const DocumentDistanceData>(data);
    const DocumentDistanceData &d = *m_data;
    // Distances of one sign (a causal row's, id(q) ≥ id(k)) on a sequential map, else diverging.
    HeatmapStyle style = HeatmapStyle::forRange(std::min(d.reference.minValue, d.compared.minValue),
                                                std::max(d.reference.maxValue, d.compared.maxValue), d.extent);
    style.wholeNumbers = true; // distances of whole ids
    m_maps.setGrids(d.reference, d.compared, style, true);
    QCPColorGradient gradient = m_maps.scale->gradient();
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(kDistanceHidden);
    m_maps.scale->setGradient(gradient);
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    const bool columns = !d.columnsReadBy.isEmpty();
    m_maps.scale->axis()->setLabel(columns ? (terse ? u"q − k"_s : u"column distance q − k"_s)
                                           : (terse ? u"id(q) − id(k)"_s : u"distance id(q) − id(k)"_s));
    // Short of room, the ids' name on a line of its own above the counts: a step that keeps one
    // line keeps the name whole (FigureRoom), not the name and the count cut.
    const QString named = terse ? u"%1\n%2"_s : u"%1: %2"_s;
    // No distances drawn, no counts claimed: each panel only names its ids.
    const bool drawn = d.problem.isEmpty();
    m_maps.causalTitle->setText(drawn ? named.arg(u"reference"_s, crossText(d.referenceCounts, terse))
                                      : u"reference"_s);
    m_maps.otherTitle->setText(drawn ? named.arg(distanceChoiceWord(d.compare), crossText(d.comparedCounts, terse))
                                     : distanceChoiceWord(d.compare));
    // The documents' boundaries across both axes of each panel.
    QList<double> x, y;
    const double end = double(d.cols) - 0.5;
    for (const double s : d.documentStarts) {
        if (s <= 0.0)
            continue;
        x << s - 0.5 << s - 0.5 << std::nan("") << -0.5 << end << std::nan("");
        y << -0.5 << end << std::nan("") << s - 0.5 << s - 0.5 << std::nan("");
    }
    for (QCPGraph *g : m_boundaries) {
        g->setData(x, y, true);
        g->setName(u"a document's start"_s);
    }
    const QString hidden = d.bothWays ? u"masked: padding or another document"_s
                                      : u"masked: padding, the key after the query, or another document"_s;
    QList<Swatch> swatches {{kDistanceHidden, terse ? u"masked"_s : hidden}};
    SwatchLegend::set(m_maps.legend, swatches);
    QString caption;
    if (!d.problem.isEmpty())
        caption = u"No distances: %1."_s.arg(d.problem);
    else if (!terse && d.bothWays)
        caption = u"The model attends both ways: a query sees the keys after it too, at negative distances. "
                  "The blocks off the diagonal between the dotted lines are cross-document pairs."_s;
    else if (!terse && std::min(d.reference.minValue, d.compared.minValue) < 0.0)
        caption = u"Blue: a key whose id is above the query's, a negative distance causal training never shows. "
                  "The blocks off the diagonal between the dotted lines are cross-document pairs."_s;
    else if (!terse) // one sign, a sequential map: no blue to explain (BLOOM's columns, ids run on)
        caption = u"No distance drawn is negative. The blocks off the diagonal between the dotted lines are "
                  "cross-document pairs."_s;
    if (!d.reference.isCellByCell() && d.problem.isEmpty())
        caption += u" A pixel: the exact mean of its attended pairs (%1 cells)."_s.arg(
            FigureText::averagedCellsText(d.reference.block, d.reference.rows, d.reference.cols));
    PlotStyle::setCollapsibleText(m_maps.caption, caption);
    // Which pairs the model attends is what the counts are of: a causal mask's, or both ways.
    // A family whose score reads no ids: the title says the distances are the columns', its score's.
    const QString what = columns
        ? (terse ? u"Column distances (%1 reads no ids)"_s.arg(d.columnsReadBy)
                 : u"Query − key column distances, what the %1 reads (no ids)"_s.arg(d.columnsReadBy))
        : (terse ? u"Distances"_s : u"Query − key distances"_s);
    m_title->setText(
        u"%1  ·  row %2 of %3 columns%4  ·  %5"_s.arg(what)
            .arg(d.row)
            .arg(NumberText::count(d.cols))
            .arg(d.documents ? u", %1 documents"_s.arg(NumberText::count(d.documentStarts.size())) : QString())
            .arg(d.bothWays ? u"both ways"_s : u"causal"_s));
}

std::optional<HoverPoint> DocumentDistanceFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data || !m_data->problem.isEmpty())
        return std::nullopt;
    const auto hit = m_maps.cellAt(pixel, {m_data->cols, m_data->cols});
    if (!hit)
        return std::nullopt;
    Params p = engine.params();
    p.batch.ids = hit->panel == 0 ? IdsChoice::Reference : m_data->compare;
    const BatchLayout layout(p);
    HoverPoint point;
    point.position = hit->query;
    const bool seen = DocumentDistance::attended(layout, p.batch.ids, m_data->row, hit->query, hit->key);
    if (seen)
        point.value
            = double(layout.id(p.batch.ids, m_data->row, hit->query) - layout.id(p.batch.ids, m_data->row, hit->key));
    point.valueName = u"key %1, %2: %3"_s.arg(hit->key)
                          .arg(hit->panel == 0 ? u"reference"_s : distanceChoiceWord(m_data->compare))
                          .arg(seen ? u"distance"_s : u"masked"_s);
    return point;
}

QList<QCPAxisRect *> DocumentDistanceFigure::pictureRects() const
{
    return m_maps.pictureRects();
}

} // namespace posenc
