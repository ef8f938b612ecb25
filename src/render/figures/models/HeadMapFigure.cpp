#include "HeadMapFigure.h"

#include "ModelPlot.h"

#include "render/Colormaps.h"
#include "render/CoverageColorMap.h"
#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/SwatchLegend.h"

#include "core/NumberText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kPasses(205, 205, 205);
const QColor kStill(250, 236, 190);

} // namespace

std::unique_ptr<FigureDescriptor> makeHeadMapFigure()
{
    return std::make_unique<FigureDescriptorOf<HeadMapModel, HeadMapFigure>>();
}

HeadMapFigure::HeadMapFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
{
    auto *row = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, row);
    row->addElement(0, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    QCPAxis *x = m_rect->axis(QCPAxis::atBottom);
    QCPAxis *y = m_rect->axis(QCPAxis::atLeft);
    x->setLabel(u"column of the head"_s);
    // Along its tick labels on little room (FigureRoom), where the whole is too long.
    ShorterLabels::set(x, {u"column"_s});
    y->setRangeReversed(true);
    y->grid()->setVisible(false);
    m_kinds = new CoverageColorMap(x, y);
    m_kinds->setInterpolate(false);
    m_kinds->setGradient(ModelPlot::categories({kPasses, kStill}));
    m_kinds->setDataRange(QCPRange(0, 1));
    m_wavelengths = new CoverageColorMap(x, y);
    m_wavelengths->setInterpolate(false);
    m_scale = new QCPColorScale(plot);
    row->addElement(0, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_scale->setDataScaleType(QCPAxis::stLogarithmic);
    PlotStyle::setLogAxis(m_scale->axis());
    m_scale->axis()->setLabel(u"wavelength 2π/θᵢ (positions)"_s);
    QCPColorGradient gradient = Colormaps::gradient(Colormap::Viridis);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    // The map takes its colour scale's gradient: NaN there, the columns that do not turn, clear.
    m_wavelengths->setColorScale(m_scale);
    m_scale->setGradient(gradient);
    m_wavelengths->setGradient(gradient);
    auto *group = new QCPMarginGroup(plot);
    m_rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 2);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(3, 0, below);
    plot->plotLayout()->setRowStretchFactor(3, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
}

QList<PanelExtent> HeadMapFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void HeadMapFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const HeadMapData>(data);
    const HeadMapData &d = *m_data;
    const auto rows = int(std::max<qsizetype>(d.rows.size(), 1));
    const auto columns = int(std::max<std::int64_t>(d.widest, 1));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // At least two cells each way, the extra one out of view: QCustomPlot draws no map whose range
    // is a single value.
    for (QCPColorMap *map : {m_kinds, m_wavelengths}) {
        map->data()->setSize(std::max(columns, 2), std::max(rows, 2));
        map->data()->setRange(QCPRange(0, std::max(columns, 2) - 1), QCPRange(0, std::max(rows, 2) - 1));
        map->data()->fill(nan);
    }
    bool passes = false;
    bool still = false;
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    auto ticks = QSharedPointer<QCPAxisTickerText>::create();
    QStringList lines;
    for (int r = 0; r < d.rows.size(); ++r) {
        const HeadMapData::Row &row = d.rows[r];
        for (std::size_t j = 0; j < row.wavelengths.size(); ++j) {
            const double w = row.wavelengths[j];
            if (std::isnan(w)) {
                m_kinds->data()->setCell(int(j), r, 0);
                passes = true;
            } else if (std::isinf(w)) {
                m_kinds->data()->setCell(int(j), r, 1);
                still = true;
            } else {
                m_wavelengths->data()->setCell(int(j), r, w);
            }
        }
        ticks->addTick(r, row.tick);
        lines.append(terse ? row.terse : row.label);
    }
    m_rect->axis(QCPAxis::atLeft)->setTicker(ticks);
    m_rect->axis(QCPAxis::atLeft)->setRange(-0.5, rows - 0.5);
    m_rect->axis(QCPAxis::atBottom)->setRange(-0.5, columns - 0.5);
    const double low = d.shortest > 0.0 ? d.shortest : 1.0;
    m_wavelengths->setDataRange(QCPRange(low, std::max(d.longest, low * 10.0)));
    // Each with the shorter forms that still tell the two apart, whole, where little room would cut
    // them ("passes unr…", "turns at fre…" at 6 x 4 cm): the caption's lines and the hover say them in full.
    QList<Swatch> swatches;
    QList<QStringList> forms;
    if (passes) {
        swatches.append({kPasses, u"passes unrotated (partial rotary's rest, MLA's nope part)"_s});
        forms.append({u"passes unrotated"_s, u"unrotated"_s});
    }
    if (still) {
        swatches.append({kStill, u"turns at frequency 0 (proportional's tail)"_s});
        forms.append({u"turns at frequency 0"_s, u"θᵢ = 0"_s});
    }
    SwatchLegend::set(m_legend, swatches);
    for (int i = 0; i < m_legend->itemCount() && i < forms.size(); ++i)
        ShorterLabels::setEntry(m_legend->item(i), forms[i]);
    PlotStyle::setCollapsibleText(m_caption, lines.join(u'\n'));
    m_title->setText(d.source.isEmpty() ? u"Head map  ·  which columns of a head turn, and how fast"_s
                                        : u"Head map  ·  %1"_s.arg(d.source));
}

std::optional<HoverPoint> HeadMapFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const auto r = std::llround(m_rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y()));
    const auto j = std::llround(m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
    if (r < 0 || r >= m_data->rows.size())
        return std::nullopt;
    const HeadMapData::Row &row = m_data->rows[r];
    if (j < 0 || j >= std::int64_t(row.wavelengths.size()))
        return std::nullopt;
    const double w = row.wavelengths[std::size_t(j)];
    HoverPoint point;
    point.hasPosition = false;
    point.valueName = u"%1, column %2: %3"_s.arg(row.label.section(u": "_s, 0, 0))
                          .arg(j)
                          .arg(std::isnan(w)       ? u"passes unrotated"_s
                                   : std::isinf(w) ? u"turns at frequency 0"_s
                                                   : u"wavelength %1 positions"_s.arg(NumberText::compact(w, 4)));
    return point;
}

} // namespace posenc
