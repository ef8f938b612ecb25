#include "MropeAxesFigure.h"

#include "render/FigureDescriptor.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/StampedGraph.h"

#include "core/NumberText.h"

#include <array>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Okabe-Ito: t in black, h in blue, w in vermilion.
const QColor kAxisColours[3] = {QColor(0, 0, 0), QColor(0, 114, 178), QColor(213, 94, 0)};
const QCPScatterStyle::ScatterShape kAxisShapes[3]
    = {QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare, QCPScatterStyle::ssDiamond};
const char *const kAxisNames[3] = {"t (time)", "h (height)", "w (width)"};

constexpr double kChunkedRow = 1.0;
constexpr double kInterleavedRow = 0.0;
// Each axis a little above or below its row's line: interleaved, neighbouring pairs belong to other
// axes, and in a narrow view (a quarter of a 1366 x 768 window: 64 pairs in 400 pixels) their
// markers covered one another; apart, each axis's marks are a third as dense.
constexpr double kAxisOffset[3] = {0.16, 0.0, -0.16};

QString turnText(std::int64_t pair, double turn)
{
    if (pair < 0)
        return u"no w pair"_s;
    // As the lesson writes the turn (7.94·10⁻⁴, not 0.000794): one number, one way.
    return u"%1 rad (pair %2)"_s.arg(NumberText::prose(turn, 3)).arg(pair);
}

// A row's name as a text ticker's label takes at most this share of the page's width: past it the
// layout cuts each of its lines (FigureRoom::Steps::elideTickLabels), and a cut "interle…" lost the
// mark of these parameters' rule at 6 x 4 cm.
constexpr double kMostRowName = 0.25;

// A label in lines is as wide as its widest line, as the layout measures it.
double widestLine(const QFontMetricsF &metrics, const QString &label)
{
    double widest = 0.0;
    for (const QString &line : label.split(u'\n'))
        widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

// The two rows' names, chunked's then interleaved's, in the longest of their forms, longest first,
// that holds both in `most` as the layout measures them: the rule, whose rule it is and, on the row
// of these parameters, their mark; on a column the rule and the mark alone (`whole` false: the
// caption then says whose rules they are), on less room the mark under the rule, then the rule
// hyphenated over two lines as a narrow column sets a word ("inter-\nleaved", not "interle…");
// else those, which the layout cuts line by line.
std::array<QString, 2> rowNames(bool interleavedChosen, bool terse, const QFont &font, double most, bool &whole)
{
    struct Rule {
        QString name, hyphenated, model;
    };
    const auto form = [&](int level, const Rule &rule, bool chosen) {
        const QString mark = chosen ? (terse ? u"\n◀ these parameters"_s : u" ◀ these parameters"_s) : QString();
        if (level == 0)
            return u"%1\n(%2%3)%4"_s.arg(rule.name, rule.model, terse ? QString() : u"'s rule"_s, mark);
        const QString arrow = chosen ? (level >= 3 ? u"\n◀"_s : u" ◀"_s) : QString();
        if (level == 1)
            return u"%1\n(%2)%3"_s.arg(rule.name, rule.model, arrow);
        return (level == 4 ? rule.hyphenated : rule.name) + arrow;
    };
    const Rule chunked {u"chunked"_s, u"chunked"_s, u"Qwen2-VL, 2.5-VL"_s};
    const Rule interleaved {u"interleaved"_s, u"inter-\nleaved"_s, u"Qwen3-VL"_s};
    const QFontMetricsF metrics(font);
    std::array<QString, 2> names;
    for (int level = 0; level < 5; ++level) {
        names = {form(level, chunked, !interleavedChosen), form(level, interleaved, interleavedChosen)};
        whole = level < 2;
        if (widestLine(metrics, names[0]) <= most && widestLine(metrics, names[1]) <= most)
            break;
    }
    return names;
}

} // namespace

std::unique_ptr<FigureDescriptor> makeMropeAxesFigure()
{
    return std::make_unique<FigureDescriptorOf<MropeAxesModel, MropeAxesFigure>>();
}

MropeAxesFigure::MropeAxesFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_rect(new QCPAxisRect(plot))
{
    plot->plotLayout()->addElement(1, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    QCPAxis *x = m_rect->axis(QCPAxis::atBottom);
    PlotStyle::setLogAxis(x);
    x->setLabel(u"wavelength 2π/θᵢ of each rotary pair, in positions (log scale)"_s);
    m_rect->axis(QCPAxis::atLeft)->setRange(-0.5, 1.5);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 3, 3);
    m_legend->setIconSize(18, 14); // each axis's marker whole
    for (int a = 0; a < 3; ++a) {
        auto *graph = new StampedGraph(x, m_rect->axis(QCPAxis::atLeft));
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(kAxisShapes[a], kAxisColours[a], kAxisColours[a], a == 2 ? 10 : 8));
        graph->setName(QString::fromLatin1(kAxisNames[a]));
        MeasuredText::addToLegend(graph, m_legend);
        m_axes[std::size_t(a)] = graph;
    }
}

QList<PanelExtent> MropeAxesFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void MropeAxesFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const MropeAxesData>(data);
    const MropeAxesData &d = *m_data;
    std::array<QList<double>, 3> xs, ys;
    QList<double> finite;
    for (qsizetype j = 0; j < d.wavelengths.size(); ++j) {
        const double wavelength = d.wavelengths[j];
        if (!std::isfinite(wavelength))
            continue;
        finite.append(wavelength);
        if (!d.chunked.isEmpty()) {
            xs[std::size_t(d.chunked[j])].append(wavelength);
            ys[std::size_t(d.chunked[j])].append(kChunkedRow + kAxisOffset[d.chunked[j]]);
        }
        xs[std::size_t(d.interleaved[j])].append(wavelength);
        ys[std::size_t(d.interleaved[j])].append(kInterleavedRow + kAxisOffset[d.interleaved[j]]);
    }
    for (std::size_t a = 0; a < 3; ++a)
        m_axes[a]->setData(xs[a], ys[a]);
    if (!finite.isEmpty()) {
        const auto [lo, hi] = std::minmax_element(finite.begin(), finite.end());
        m_rect->axis(QCPAxis::atBottom)->setRange(*lo / 1.6, *hi * 1.6);
    }
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    QSharedPointer<QCPAxisTickerText> rows(new QCPAxisTickerText);
    bool whole = true;
    const auto names = rowNames(d.interleavedChosen, terse, m_rect->axis(QCPAxis::atLeft)->tickLabelFont(),
                                kMostRowName * m_title->parentPlot()->viewport().width(), whole);
    rows->addTick(kChunkedRow, names[0]);
    rows->addTick(kInterleavedRow, names[1]);
    m_rect->axis(QCPAxis::atLeft)->setTicker(rows);
    m_title->setText(u"%1  ·  mrope_section %2  ·  θ = %3, head_dim = %4"_s
                         .arg(terse ? u"M-RoPE: each pair's axis"_s : u"M-RoPE: which axis turns each pair"_s,
                              d.section, NumberText::compact(d.theta, 4))
                         .arg(d.headDim));
    QString caption = u"A %1-patch width offset turns the fastest w pair by "_s.arg(MropeAxesData::kOffset);
    if (!d.chunked.isEmpty())
        caption += u"%1 chunked and "_s.arg(turnText(d.chunkedFastestW, d.chunkedTurn));
    caption += u"%1 interleaved."_s.arg(turnText(d.interleavedFastestW, d.interleavedTurn));
    if (d.chunked.isEmpty())
        caption += u" Chunked needs a section summing to the pairs: %1 does not."_s.arg(d.section);
    else if (!terse)
        caption += u" Chunked, width owns only the slowest pairs: it is nearly blind."_s;
    if (!whole)
        caption
            += u" Chunked is Qwen2-VL's and Qwen2.5-VL's rule, interleaved Qwen3-VL's; ◀ marks these parameters' rule."_s;
    PlotStyle::setCollapsibleText(m_caption, caption);
}

std::optional<HoverPoint> MropeAxesFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const MropeAxesData &d = *m_data;
    const double wavelength = m_rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const bool chunked = m_rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y()) > 0.5;
    if (chunked && d.chunked.isEmpty())
        return std::nullopt;
    // The pair whose wavelength is nearest on the log axis.
    qsizetype best = -1;
    for (qsizetype j = 0; j < d.wavelengths.size(); ++j) {
        if (std::isfinite(d.wavelengths[j])
            && (best < 0
                || std::abs(std::log(d.wavelengths[j] / wavelength))
                    < std::abs(std::log(d.wavelengths[best] / wavelength))))
            best = j;
    }
    if (best < 0)
        return std::nullopt;
    const int axis = (chunked ? d.chunked : d.interleaved)[best];
    HoverPoint point;
    point.hasPosition = false;
    point.value = d.wavelengths[best];
    point.valueName = u"pair %1, %2: wavelength %3 positions (%4)"_s.arg(best).arg(
        QString::fromLatin1(kAxisNames[axis]), NumberText::compact(d.wavelengths[best], 4),
        chunked ? u"chunked"_s : u"interleaved"_s);
    return point;
}

} // namespace posenc
