#include "LearnedFigure.h"

#include "render/FigureDescriptor.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kLearned(0, 114, 178);
const QColor kSinusoidal(213, 94, 0);

QCPTextElement *panelTitle(QCustomPlot *plot, const QString &text)
{
    QCPTextElement *title = PlotStyle::panelTitle(plot, false);
    title->setText(text);
    title->setMargins(QMargins(0, 2, 0, 0));
    return title;
}

// Symmetric around zero, so that zero stays white in the diverging map; data of one sign (a
// similarity of few positions) on a sequential map from zero.
// The colorbars go unlabelled: each panel's title already names what it shows, and four
// labels would take the width a single-column figure does not have.
HeatmapStyle signedStyle(const HeatmapGrid &grid)
{
    const double extent = std::max({std::abs(grid.minValue), std::abs(grid.maxValue), 1e-12});
    return HeatmapStyle::forRange(grid.minValue, grid.maxValue, extent);
}

} // namespace

std::unique_ptr<FigureDescriptor> makeLearnedFigure()
{
    return std::make_unique<FigureDescriptorOf<LearnedModel, LearnedFigure>>();
}

LearnedFigure::LearnedFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_norms(new QCPAxisRect(plot))
{
    auto *grid = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, grid);
    grid->setRowSpacing(0);
    grid->setColumnSpacing(8);
    const QStringList titles
        = {u"learned table P"_s, u"sinusoidal PE"_s, u"learned similarity P·Pᵀ"_s, u"sinusoidal similarity PE·PEᵀ"_s};
    for (int i = 0; i < 4; ++i) {
        m_panelTitles << panelTitle(plot, titles[i]);
        grid->addElement(2 * (i / 2), i % 2, m_panelTitles.back());
    }
    m_learned = std::make_unique<HeatmapPanel>(plot, grid, 1, 0);
    m_sinusoidal = std::make_unique<HeatmapPanel>(plot, grid, 1, 1);
    // Beside the learned table, whose means carry no such mark, the PE shows its means alone.
    m_sinusoidal->setShowSpread(false);
    // Last, on the least room, the learned table alone.
    FigureRoom::setDispensable(m_panelTitles[1], 3);
    FigureRoom::setDispensable(m_sinusoidal->axisRect()->layout(), 3);
    m_learnedSimilarity = std::make_unique<HeatmapPanel>(plot, grid, 3, 0);
    m_sinusoidalSimilarity = std::make_unique<HeatmapPanel>(plot, grid, 3, 1);
    for (HeatmapPanel *panel : {m_learnedSimilarity.get(), m_sinusoidalSimilarity.get()}) {
        panel->axisRect()->axis(QCPAxis::atBottom)->setLabel(u"position q"_s);
        panel->axisRect()->axis(QCPAxis::atLeft)->setLabel(u"position p"_s);
    }
    for (int row : {0, 2})
        grid->setRowStretchFactor(row, 0.001);
    // On little room the two tables stay: their similarities go first, then the norms.
    for (const int i : {2, 3})
        FigureRoom::setDispensable(m_panelTitles[i], 1);
    for (HeatmapPanel *panel : {m_learnedSimilarity.get(), m_sinusoidalSimilarity.get()})
        FigureRoom::setDispensable(panel->axisRect()->layout(), 1);
    // Four short panels side by side: a few round ticks per axis keep their labels apart.
    for (HeatmapPanel *panel :
         {m_learned.get(), m_sinusoidal.get(), m_learnedSimilarity.get(), m_sinusoidalSimilarity.get()}) {
        for (QCPAxis *axis : {panel->axisRect()->axis(QCPAxis::atBottom), panel->axisRect()->axis(QCPAxis::atLeft)})
            axis->ticker()->setTickCount(4);
        panel->colorScale()->axis()->ticker()->setTickCount(3);
    }

    plot->plotLayout()->addElement(2, 0, m_norms);
    FigureRoom::setDispensable(m_norms, 2);
    plot->plotLayout()->setRowStretchFactor(1, 3.0);
    plot->plotLayout()->setRowStretchFactor(2, 1.25);
    PlotStyle::styleAxisRect(m_norms);
    m_norms->axis(QCPAxis::atBottom)->setLabel(u"position p"_s);
    IndexTicker::install(m_norms->axis(QCPAxis::atBottom));
    m_norms->axis(QCPAxis::atLeft)->setLabel(u"‖row p‖"_s);
    m_norms->axis(QCPAxis::atLeft)->ticker()->setTickCount(2); // a short axis
    m_learnedNorm = plot->addGraph(m_norms->axis(QCPAxis::atBottom), m_norms->axis(QCPAxis::atLeft));
    m_sinusoidalNorm = plot->addGraph(m_norms->axis(QCPAxis::atBottom), m_norms->axis(QCPAxis::atLeft));
    m_expectedNorm = plot->addGraph(m_norms->axis(QCPAxis::atBottom), m_norms->axis(QCPAxis::atLeft));
    m_learnedNorm->setPen(QPen(kLearned, 1.5));
    m_sinusoidalNorm->setPen(QPen(kSinusoidal, 1.5));
    m_expectedNorm->setPen(QPen(kSinusoidal, 1.0, Qt::DashLine));
    m_learnedNorm->setName(u"‖P[p]‖ learned"_s);
    m_sinusoidalNorm->setName(u"‖PE[p]‖ sinusoidal"_s);
    // The legend in a row of its own under the norms: the flat norm curves fill their short
    // axes, and an inset legend would hide them.
    auto *legend = new QCPLegend;
    plot->plotLayout()->addElement(3, 0, legend);
    plot->plotLayout()->setRowStretchFactor(3, 0.001);
    legend->setLayer(u"legend"_s);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(3);
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setMargins(QMargins(4, 0, 4, 2));
    QFont font = plot->font();
    legend->setFont(font);
    legend->setIconSize(18, 8);
    for (QCPGraph *graph : {m_learnedNorm, m_sinusoidalNorm, m_expectedNorm})
        MeasuredText::addToLegend(graph, legend);

    // The padding rows, hatched grey over the table's rows and the norms' positions before 0.
    for (QCPItemRect **mark : {&m_paddingRows, &m_paddingNorms}) {
        QCPAxisRect *rect = mark == &m_paddingRows ? m_learned->axisRect() : m_norms;
        *mark = new QCPItemRect(plot);
        (*mark)->setClipAxisRect(rect);
        const bool table = mark == &m_paddingRows;
        for (QCPItemPosition *corner : {(*mark)->topLeft, (*mark)->bottomRight}) {
            corner->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            corner->setAxisRect(rect);
            // Across the whole panel the other way: columns of the table, values of the norms.
            if (table)
                corner->setTypeX(QCPItemPosition::ptAxisRectRatio);
            else
                corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        (*mark)->setPen(QPen(QColor(90, 90, 90), 1.0));
        (*mark)->setBrush(QBrush(QColor(90, 90, 90, 150), Qt::BDiagPattern));
        (*mark)->setVisible(false);
    }
}

void LearnedFigure::setData(const LearnedData &data)
{
    m_title->setText(
        u"Learned vs sinusoidal  ·  %1 × %2"_s.arg(FigureText::countText(data.rows, u"position"_s, u"positions"_s),
                                                   FigureText::countText(data.cols, u"column"_s, u"columns"_s)));
    m_learned->setGrid(data.learned, signedStyle(data.learned));
    m_sinusoidal->setGrid(data.sinusoidal, HeatmapStyle {});
    // Each similarity on its own symmetric scale: a learned table's norms are not the PE's.
    m_learnedSimilarity->setGrid(data.learnedSimilarity, signedStyle(data.learnedSimilarity));
    m_sinusoidalSimilarity->setGrid(data.sinusoidalSimilarity, signedStyle(data.sinusoidalSimilarity));
    m_learned->showBlock({-data.paddingRows, data.paddingRows + data.rows, 0, data.cols});
    m_sinusoidal->fitAxes({data.rows, data.cols});
    // The padding rows before the offset: shown, marked, and used nowhere.
    const bool padded = data.paddingRows > 0;
    const double before = -static_cast<double>(data.paddingRows) - 0.5; // the first padding row's edge
    m_paddingRows->setVisible(padded);
    m_paddingRows->topLeft->setCoords(0.0, before); // x as a share of the panel: all of it
    m_paddingRows->bottomRight->setCoords(1.0, -0.5);
    m_paddingNorms->setVisible(padded);
    m_paddingNorms->topLeft->setCoords(before, 0.0); // y as a share of the panel: all of it
    m_paddingNorms->bottomRight->setCoords(-0.5, 1.0);
    m_panelTitles[0]->setText(padded ? u"learned table P (rows 0–%1: padding, never used)"_s.arg(data.paddingRows - 1)
                                     : u"learned table P"_s);
    for (HeatmapPanel *panel : {m_learnedSimilarity.get(), m_sinusoidalSimilarity.get()})
        panel->fitAxes({data.rows, data.rows});

    m_learnedNorm->setData(data.learnedPositions, data.learnedNorm, true);
    m_sinusoidalNorm->setData(data.positions, data.sinusoidalNorm, true);
    const double last = std::max<double>(static_cast<double>(data.rows) - 1.0, 1.0);
    m_expectedNorm->setData({0.0, last}, {data.expectedPeNorm, data.expectedPeNorm}, true);
    m_expectedNorm->setName(u"√(d/2) = %1"_s.arg(NumberText::compact(data.expectedPeNorm)));
    m_norms->axis(QCPAxis::atBottom)->setRange(padded ? -static_cast<double>(data.paddingRows) - 0.5 : 0.0, last);
    double hi = data.expectedPeNorm;
    for (double v : data.learnedNorm)
        hi = std::max(hi, v);
    m_norms->axis(QCPAxis::atLeft)->setRange(0.0, hi * 1.25 + 1e-12);
}

QList<PanelExtent> LearnedFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const HeatmapPanel *panel :
         {m_learned.get(), m_sinusoidal.get(), m_learnedSimilarity.get(), m_sinusoidalSimilarity.get()})
        list.append(panel->extent(pixelRatio));
    return list;
}

void LearnedFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const LearnedData>(data);
    setData(*m_data);
}

QList<PositionAxis> LearnedFigure::positionAxes() const
{
    return {{m_norms, false}};
}

std::optional<HoverPoint> LearnedFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || !m_norms->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const auto p = static_cast<std::int64_t>(std::llround(m_norms->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
    if (p < -m_data->paddingRows || p >= m_data->rows)
        return std::nullopt;
    HoverPoint point;
    point.value = m_data->learnedNorm[p + m_data->paddingRows];
    if (p < 0) {
        point.hasPosition = false;
        point.valueName = u"‖P[row %1]‖, a padding row (never used)"_s.arg(p + m_data->paddingRows);
        return point;
    }
    point.position = p;
    point.valueName = u"‖PE[p]‖ = %1, ‖P[p]‖ learned"_s.arg(m_data->sinusoidalNorm[p], 0, 'g', 5);
    return point;
}

QList<QCPAxisRect *> LearnedFigure::pictureRects() const
{
    return {m_learned->axisRect(), m_sinusoidal->axisRect(), m_learnedSimilarity->axisRect(),
            m_sinusoidalSimilarity->axisRect()};
}

} // namespace posenc
