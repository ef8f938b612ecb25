#include "Rope2dSimilarityFigure.h"

#include "render/Colormaps.h"
#include "render/CoverageColorMap.h"
#include "render/FigureDescriptor.h"
#include "render/FigureRoom.h"
#include "render/IndexTicker.h"
#include "render/PlotStyle.h"
#include "render/StampedGraph.h"

#include "core/NumberText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

constexpr int kPanels = 6;

// On a page short of room (FigureRoom::shortOfRoom) a patch may be drawn up to this much wider
// than high, as an author's imshow(aspect='auto') on a small figure: a square grid on a 3:2 page
// of 6 x 4 cm, held to the page's height by its name and tick labels, took 27 % of it.
constexpr double kMostStretch = 1.5;

// A panel's axis rect drawn at the grid's aspect, a patch square (up to kMostStretch wider on a
// page short of room): the rect the layout gives it shrinks to that aspect, centred across and at
// the top (under its title).
class Rope2dGridRect final : public QCPAxisRect
{
public:
    explicit Rope2dGridRect(QCustomPlot *plot)
        : QCPAxisRect(plot)
    { }

    void setAspect(double widthOverHeight) { m_aspect = widthOverHeight; }

    void update(UpdatePhase phase) override
    {
        if (phase == upLayout && m_aspect > 0.0 && mRect.height() > 0 && mRect.width() > 0) {
            const double w = mRect.width(), h = mRect.height();
            const double points = axis(QCPAxis::atBottom)->labelFont().pointSizeF();
            const double widest
                = m_aspect * (points > 0.0 && FigureRoom::shortOfRoom(*mParentPlot, points) ? kMostStretch : 1.0);
            if (w > h * widest) {
                const int width = std::max(1, int(std::lround(h * widest)));
                mRect = QRect(mRect.left() + (mRect.width() - width) / 2, mRect.top(), width, mRect.height());
            } else if (w < h * m_aspect) {
                mRect.setHeight(std::max(1, int(std::lround(w / m_aspect))));
            }
        }
        QCPAxisRect::update(phase);
    }

private:
    double m_aspect = 0.0;
};

// Of two and three panels across, the one whose maps are larger in `room`, for a grid of
// `aspect` (width / height): each panel keeps five lines of text (`line` pixels each) for its
// title, ticks and labels, and the colour scale six lines across.
int bestAcross(const QSize &room, double aspect, double line)
{
    const auto mapArea = [&](int across) {
        const double width = std::max(1.0, (room.width() - 6.0 * line) / across - 4.0 * line);
        const double height
            = std::max(1.0, (room.height() - 2.0 * line) / ((kPanels + across - 1) / across) - 5.0 * line);
        const double w = std::min(width, height * aspect);
        return w * (w / aspect);
    };
    return mapArea(2) > mapArea(3) ? 2 : 3;
}

QString scoreText(double score)
{
    return NumberText::compact(score, 3).replace(u'-', u'−');
}

} // namespace

std::unique_ptr<FigureDescriptor> makeRope2dSimilarityFigure()
{
    return std::make_unique<FigureDescriptorOf<Rope2dSimilarityModel, Rope2dSimilarityFigure>>();
}

Rope2dSimilarityFigure::Rope2dSimilarityFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_grid(new QCPLayoutGrid)
    , m_scale(new QCPColorScale(plot))
{
    plot->plotLayout()->addElement(1, 0, m_grid);
    m_grid->setColumnSpacing(14);
    m_grid->setRowSpacing(4);
    for (int i = 0; i < kPanels; ++i) {
        Panel panel;
        panel.title = PlotStyle::panelTitle(plot, false);
        panel.rect = new Rope2dGridRect(plot);
        PlotStyle::styleAxisRect(panel.rect);
        QCPAxis *x = panel.rect->axis(QCPAxis::atBottom), *y = panel.rect->axis(QCPAxis::atLeft);
        y->setRangeReversed(true);
        IndexTicker::install(x);
        IndexTicker::install(y);
        panel.map = new CoverageColorMap(x, y);
        panel.map->setInterpolate(false);
        panel.map->setTightBoundary(false);
        panel.map->setAntialiased(false);
        panel.map->setColorScale(m_scale);
        panel.patch = new StampedGraph(x, y);
        panel.patch->setLineStyle(QCPGraph::lsNone);
        panel.patch->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::white, 2.0), Qt::NoBrush, 12));
        m_panels.append(panel);
    }
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_scale->setGradient(Colormaps::gradient(Colormap::Viridis));
    m_scale->axis()->setLabel(u"⟨R(p₀)q, R(p)q⟩ / ‖q‖²"_s);
    PlotStyle::styleAxisRect(m_scale->axis()->axisRect());
    // Laid out now, so that the build scales every text's font: three across until a fill
    // finds the view taller than wide.
    placePanels(3);
}

void Rope2dSimilarityFigure::placePanels(int across)
{
    if (m_across != 0) {
        for (const Panel &panel : std::as_const(m_panels)) {
            m_grid->take(panel.title);
            m_grid->take(panel.rect);
        }
        m_grid->take(m_scale);
        m_grid->simplify();
    }
    for (int i = 0; i < kPanels; ++i) {
        const int row = 2 * (i / across), column = i % across;
        m_grid->addElement(row, column, m_panels[i].title);
        m_grid->addElement(row + 1, column, m_panels[i].rect);
    }
    m_grid->addElement(1, across, m_scale);
    QList<double> stretch(across, 1.0);
    stretch.append(0.01);
    m_grid->setColumnStretchFactors(stretch);
    for (int r = 0; r < m_grid->rowCount(); ++r)
        m_grid->setRowStretchFactor(r, r % 2 == 0 ? 0.001 : 1.0);
    m_across = across;
}

QList<PanelExtent> Rope2dSimilarityFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> out;
    for (const Panel &panel : m_panels) {
        const QCPRange x = panel.rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = panel.rect->axis(QCPAxis::atLeft)->range();
        out.append({panel.rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return out;
}

QList<QCPAxisRect *> Rope2dSimilarityFigure::pictureRects() const
{
    QList<QCPAxisRect *> rects;
    for (const Panel &panel : m_panels)
        rects.append(panel.rect);
    return rects;
}

void Rope2dSimilarityFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const Rope2dSimilarityData>(data);
    const Rope2dSimilarityData &d = *m_data;
    QCustomPlot *plot = m_title->parentPlot();
    // Three across and two down, or two across and three down: whichever draws the grid larger in
    // the view's room (a wide grid in a wide view takes two across).
    const QSize room = plot->viewport().size();
    const int across = bestAcross(room, double(d.width) / double(d.height), QFontMetricsF(m_title->font()).height());
    if (across != m_across)
        placePanels(across);
    // A small view keeps its room for the maps: each panel named by its split alone.
    const bool terse = m_compact || PlotStyle::textLines(*plot) < 30 || room.width() < 900;
    m_scale->setDataRange({std::min(d.least, 0.99), 1.0});
    // The grid's axes named once where there is room: rows down the left panels, columns under
    // the bottom ones.
    for (int i = 0; i < kPanels; ++i) {
        const bool left = i % across == 0, bottom = i / across == (kPanels - 1) / across;
        m_panels[i].rect->axis(QCPAxis::atLeft)->setLabel(!terse && left ? u"row"_s : QString());
        m_panels[i].rect->axis(QCPAxis::atBottom)->setLabel(!terse && bottom ? u"column"_s : QString());
    }
    // The formula where the bar has the height for it; else the word.
    m_scale->axis()->setLabel(terse ? u"score"_s : u"⟨R(p₀)q, R(p)q⟩ / ‖q‖²"_s);
    for (qsizetype i = 0; i < d.panels.size() && i < m_panels.size(); ++i) {
        const Rope2dSimilarityData::Panel &source = d.panels[i];
        const Panel &panel = m_panels[i];
        QCPColorMapData *cells = panel.map->data();
        cells->setSize(int(source.columns.size()), int(source.rows.size()));
        cells->setRange({double(source.columns.front()), double(source.columns.back())},
                        {double(source.rows.front()), double(source.rows.back())});
        for (qsizetype r = 0; r < source.rows.size(); ++r)
            for (qsizetype c = 0; c < source.columns.size(); ++c)
                cells->setCell(int(c), int(r), source.score[r * source.columns.size() + c]);
        static_cast<Rope2dGridRect *>(panel.rect)->setAspect(double(d.width) / double(d.height));
        panel.rect->axis(QCPAxis::atBottom)->setRange(-0.5, double(d.width) - 0.5);
        panel.rect->axis(QCPAxis::atLeft)->setRange(-0.5, double(d.height) - 0.5);
        panel.patch->setData({double(d.patchColumn)}, {double(d.patchRow)}, true);
        QString title = terse ? source.title.section(u"  ·  "_s, 0, 0) : source.title;
        if (!terse)
            title += u"\n%1 across %2  ·  %1 down %3"_s.arg(d.quarter).arg(scoreText(source.along),
                                                                           scoreText(source.across));
        QFont font = panel.title->font();
        font.setBold(source.chosen);
        panel.title->setFont(font);
        panel.title->setText(title);
        // On little room the parameters' own style stays: the others go.
        FigureRoom::setDispensable(panel.title, source.chosen ? 0 : 1);
        FigureRoom::setDispensable(panel.rect, source.chosen ? 0 : 1);
    }
    m_title->setText(u"%1  ·  grid %2 × %3, patch (%4, %5), q all ones"_s
                         .arg(terse ? u"2-D RoPE score"_s
                                    : u"2-D RoPE: how each split of the pairs sees one patch against the grid"_s)
                         .arg(d.height)
                         .arg(d.width)
                         .arg(d.patchRow)
                         .arg(d.patchColumn));
}

std::optional<HoverPoint> Rope2dSimilarityFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data)
        return std::nullopt;
    for (qsizetype i = 0; i < m_panels.size() && i < m_data->panels.size(); ++i) {
        const Panel &panel = m_panels[i];
        if (!panel.rect->rect().contains(pixel.toPoint()))
            continue;
        double value = 0.0;
        const double column = panel.rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        const double row = panel.rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
        int keyIndex = 0, valueIndex = 0;
        panel.map->data()->coordToCell(column, row, &keyIndex, &valueIndex);
        value = panel.map->data()->cell(keyIndex, valueIndex);
        HoverPoint point;
        point.hasPosition = false;
        point.value = value;
        point.valueName = u"%1: patch (%2, %3) scores %4"_s.arg(m_data->panels[i].title.section(u"  ·"_s, 0, 0))
                              .arg(std::llround(row))
                              .arg(std::llround(column))
                              .arg(scoreText(value));
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
