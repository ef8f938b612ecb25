#include "FamiliesFigure.h"

#include "render/FigureBuild.h"
#include "render/FigureDescriptor.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotStyle.h"
#include "render/SwatchLegend.h"
#include "render/figures/alibi/AlibiPlot.h"
#include "render/figures/rope/RopePlot.h"

#include "core/alibi/AlibiSlopes.h"
#include "core/sinusoidal/Frequencies.h"
#include "render/data/FigureText.h"
#include "render/data/alibi/AlibiText.h"
#include "render/data/buckets/BucketsModel.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kFamiliesSinusoid(213, 94, 0);
const QColor kFamiliesRope(0, 114, 178);
const QColor kFamiliesT5(0, 158, 115);
const QColor kFamiliesDeberta(204, 121, 167);
const QColor kFamiliesChosenTint(255, 243, 205);
const QColor kFamiliesMaskedShade(150, 150, 150, 90);

QCPRange familiesPadded(const QList<double> &lo, const QList<double> &hi, double least, double most)
{
    double a = least, b = most;
    for (const double v : lo)
        if (std::isfinite(v))
            a = std::min(a, v);
    for (const double v : hi)
        if (std::isfinite(v))
            b = std::max(b, v);
    const double pad = 0.08 * std::max(b - a, 1e-9);
    return {a - pad, b + pad};
}

// The five panels' grid: the last panel's outer rect holds the offset axis too, so its row is
// stretched by that much more at each layout, from the margins just worked out, and the five
// plots are as high as each other (the last was the lowest, its axis's label spilling into the
// panel above, its ticks thinned to one).
class EqualPlotsGrid final : public QCPLayoutGrid
{
public:
    void updateLayout() override
    {
        const int rows = rowCount();
        const auto around = [this](int row) {
            const QCPLayoutElement *e = element(row, 0);
            return e ? double(e->margins().top() + e->margins().bottom()) : 0.0;
        };
        if (rows > 1) {
            const double first = around(0), last = around(rows - 1);
            const double plot = (rect().height() - rowSpacing() * (rows - 1) - (rows - 1) * first - last) / rows;
            setRowStretchFactor(rows - 1, plot > 0.0 && last > first ? (plot + last) / (plot + first) : 1.0);
        }
        QCPLayoutGrid::updateLayout();
    }
};

} // namespace

std::unique_ptr<FigureDescriptor> makeFamiliesFigure()
{
    return std::make_unique<FigureDescriptorOf<FamiliesModel, FamiliesFigure>>();
}

FamiliesFigure::Band FamiliesFigure::band(QCPAxisRect *rect, const QColor &color)
{
    Band b;
    b.lo = RopePlot::line(rect, color, 1.3);
    b.hi = RopePlot::line(rect, color, 1.3);
    QColor fill = color;
    fill.setAlpha(90);
    b.hi->setBrush(fill);
    b.hi->setChannelFillGraph(b.lo);
    return b;
}

void FamiliesFigure::setBand(const Band &band, const FamilyCurve &curve)
{
    band.lo->setData(curve.offset, curve.lo, true);
    band.hi->setData(curve.offset, curve.hi, true);
}

FamiliesFigure::FamiliesFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
{
    auto *stack = new EqualPlotsGrid;
    plot->plotLayout()->addElement(1, 0, stack);
    stack->setRowSpacing(0);
    auto *margins = new QCPMarginGroup(plot);
    const QStringList labels = {u"PE·PE"_s, u"RoPE score"_s, u"ALiBi bias"_s, u"T5 bucket"_s, u"DeBERTa bucket"_s};
    QList<double> stretch;
    for (int n = 0; n < PanelCount; ++n) {
        auto *rect = new QCPAxisRect(plot);
        stack->addElement(n, 0, rect);
        // Five panels share the height: each may be as low as an export allows (QCustomPlot's
        // own least, 50, would overflow a view of the dashboard).
        rect->setMinimumSize(FigureBuild::kMinAxisSide, FigureBuild::kMinAxisSide);
        PlotStyle::styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        rect->axis(QCPAxis::atLeft)->setLabel(labels[n]);
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
        IndexTicker::install(rect->axis(QCPAxis::atBottom));
        if (n + 1 < PanelCount)
            rect->axis(QCPAxis::atBottom)->setTickLabels(false);
        // The note over the panel is its top axis's label: an axis without ticks or line.
        QCPAxis *top = rect->axis(QCPAxis::atTop);
        top->setVisible(true);
        top->setBasePen(Qt::NoPen);
        top->setTicks(false);
        top->setTickLabels(false);
        top->setLabelPadding(2);
        QFont font = top->labelFont();
        font.setPointSizeF(8.5);
        top->setLabelFont(font);
        m_rects.append(rect);
        stretch << 1.0;
    }
    stack->setRowStretchFactors(stretch); // the last one's set at each layout
    m_rects.back()->axis(QCPAxis::atBottom)->setLabel(u"offset k = j − q of the key from the query"_s);
    // One offset axis: zooming a panel zooms them all.
    for (QCPAxisRect *a : m_rects)
        for (QCPAxisRect *b : m_rects)
            if (a != b)
                QObject::connect(a->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
                                 b->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    m_legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 4);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(3, 0, below);
    plot->plotLayout()->setRowStretchFactor(3, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);

    m_masked = RopePlot::shade(m_rects[Alibi], kFamiliesMaskedShade);
    for (QCPAxisRect *rect : m_rects)
        m_zeros.append(RopePlot::line(rect, QColor(90, 90, 90), 1.0, Qt::DotLine));
    m_sinusoid = band(m_rects[Sinusoid], kFamiliesSinusoid);
    m_rope = band(m_rects[Rope], kFamiliesRope);
    m_t5 = RopePlot::line(m_rects[T5], kFamiliesT5, 1.8);
    m_t5->setLineStyle(QCPGraph::lsStepLeft);
    m_deberta = RopePlot::line(m_rects[Deberta], kFamiliesDeberta, 1.8);
    m_deberta->setLineStyle(QCPGraph::lsStepLeft);
    // Its buckets run both ways from 0: ticks on both sides, however low the panel.
    m_rects[Deberta]->axis(QCPAxis::atLeft)->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
}

QList<ViewAxis> FamiliesFigure::viewAxes() const
{
    return {{QString::fromUtf16(FamiliesModel::kOffsetsAxis), m_rects[Sinusoid]->axis(QCPAxis::atBottom)}};
}

void FamiliesFigure::showDefaultView(const Params &params, const FigureState &state)
{
    const std::int64_t query = FamiliesModel::query(params, state);
    m_rects[Sinusoid]
        ->axis(QCPAxis::atBottom)
        ->setRange(-static_cast<double>(query) - 0.5, static_cast<double>(params.maxLen - 1 - query) + 0.5);
}

QList<PanelExtent> FamiliesFigure::panels(double pixelRatio) const
{
    QList<PanelExtent> list;
    for (const QCPAxisRect *rect : m_rects) {
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
        const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
        list.append({rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}});
    }
    return list;
}

void FamiliesFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const FamiliesData>(data);
    const FamiliesData &d = *m_data;
    const QCPRange view = m_rects[Sinusoid]->axis(QCPAxis::atBottom)->range();
    // On a slide or a view of the dashboard the panels keep their room: no notes over them, short
    // legends. The five notes take five lines: a figure shows them from 36 lines of text up.
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 36;
    m_legend->clearItems();

    setBand(m_sinusoid, d.sinusoid);
    m_rects[Sinusoid]->axis(QCPAxis::atLeft)->setRange(familiesPadded(d.sinusoid.lo, d.sinusoid.hi, 0.0, 0.0));
    setBand(m_rope, d.rope);
    m_rope.lo->setVisible(!d.ropeProblem);
    m_rope.hi->setVisible(!d.ropeProblem);
    m_rects[Rope]->axis(QCPAxis::atLeft)->setRange(familiesPadded(d.rope.lo, d.rope.hi, 0.0, 1.0));

    // ALiBi: a line per head, made as the heads drawn change.
    while (m_heads.size() < d.alibi.size())
        m_heads.append(RopePlot::line(m_rects[Alibi], Qt::black, 1.3));
    double lowest = 0.0;
    const double steepest
        = d.alibiSlopes.isEmpty() ? 1.0 : *std::max_element(d.alibiSlopes.cbegin(), d.alibiSlopes.cend());
    const double gentlest
        = d.alibiSlopes.isEmpty() ? 1.0 : *std::min_element(d.alibiSlopes.cbegin(), d.alibiSlopes.cend());
    for (qsizetype n = 0; n < m_heads.size(); ++n) {
        const bool shown = n < d.alibi.size();
        m_heads[n]->setVisible(shown);
        if (!shown)
            continue;
        const std::int64_t head = d.alibiHeads[n];
        m_heads[n]->setPen(AlibiPlot::headPen(d.alibiSlopes[n], steepest, gentlest, head == d.head));
        m_heads[n]->setData(d.alibi[n].offset, d.alibi[n].lo, true);
        for (const double v : d.alibi[n].lo)
            lowest = std::min(lowest, v);
        // The steepest, the gentlest and head K: the colours run between the first two.
        const bool named = d.alibiSlopes[n] == steepest || d.alibiSlopes[n] == gentlest || head == d.head;
        if (named && d.alibi.size() > 1) {
            m_heads[n]->setName(
                terse ? u"ALiBi head %1"_s.arg(head)
                      : u"ALiBi head %1 (m = %2)"_s.arg(head).arg(NumberText::compact(d.alibiSlopes[n], 3)));
            MeasuredText::addToLegend(m_heads[n], m_legend);
        }
    }
    m_rects[Alibi]->axis(QCPAxis::atLeft)->setRange(lowest * 1.08 - 1e-9, -0.08 * lowest + 1e-9);
    const bool masked = d.mask == AlibiMask::Causal && view.upper > 0.0;
    RopePlot::placeShade(m_masked, masked, 0.5, std::max(view.upper, 0.5) + 1e9);
    if (masked)
        SwatchLegend::add(m_legend,
                          {kFamiliesMaskedShade, terse ? u"ALiBi: masked"_s : u"ALiBi causal: keys after q masked"_s});

    m_t5->setData(d.t5.offset, d.t5.lo, true);
    m_t5->setVisible(!d.t5Problem);
    const double t5Top = static_cast<double>(std::max<std::int64_t>(d.t5Buckets - 1, 1));
    m_rects[T5]->axis(QCPAxis::atLeft)->setRange(-0.08 * t5Top, 1.08 * t5Top);
    m_deberta->setData(d.deberta.offset, d.deberta.lo, true);
    m_deberta->setVisible(!d.debertaProblem);
    m_rects[Deberta]->axis(QCPAxis::atLeft)->setRange(familiesPadded(d.deberta.lo, d.deberta.hi, -1.0, 1.0));

    for (int n = 0; n < PanelCount; ++n) {
        const QCPRange y = m_rects[n]->axis(QCPAxis::atLeft)->range();
        RopePlot::vertical(m_zeros[n], 0.0, y.lower, y.upper);
    }

    // What each panel shows, and the chosen family's tinted.
    const QString sinusoidNote = u"sinusoid: PE[q]·PE[q+k] = Σᵢ cos(k·wᵢ), d = %1, b = %2"_s.arg(d.peColumns)
                                     .arg(NumberText::compact(d.base, 6));
    const QString ropeNote = d.ropeProblem
        ? u"RoPE: %1"_s.arg(*d.ropeProblem)
        : u"RoPE: ⟨q, R(k)q⟩/‖q‖², q all ones  ·  %1, %2"_s.arg(d.ropeScaling, d.ropeModel);
    const QString alibiNote = u"ALiBi: −m·|k| for each of %1 heads, %2"_s.arg(d.heads).arg(AlibiText::maskText(d.mask));
    const QString t5Note = d.t5Problem ? u"T5: %1"_s.arg(*d.t5Problem)
                                       : u"T5: bucket of k, %1 buckets, max_distance %2, %3"_s.arg(d.t5Buckets)
                                             .arg(FigureText::formatCount(d.t5MaxDistance))
                                             .arg(d.t5Causal ? u"causal"_s : u"bidirectional"_s);
    const QString debertaNote = d.debertaProblem
        ? u"DeBERTa: %1"_s.arg(*d.debertaProblem)
        : u"DeBERTa: bucket of q − j = −k, %1 buckets, max_position %2"_s.arg(d.debertaBuckets)
              .arg(FigureText::formatCount(d.debertaMaxPosition));
    const QStringList notes = {sinusoidNote, ropeNote, alibiNote, t5Note, debertaNote};
    const QList<Encoding> families
        = {Encoding::Sinusoidal, Encoding::Rope, Encoding::Alibi, Encoding::T5, Encoding::Deberta};
    for (int n = 0; n < PanelCount; ++n) {
        QCPAxis *top = m_rects[n]->axis(QCPAxis::atTop);
        top->setLabel(terse ? QString() : notes[n]);
        QFont font = top->labelFont();
        font.setBold(families[n] == d.chosen);
        top->setLabelFont(font);
        m_rects[n]->setBackground(families[n] == d.chosen ? QBrush(kFamiliesChosenTint) : QBrush(Qt::NoBrush));
    }
    m_legend->setWrap(4);
    // Without the notes, the chosen family is named in its axis label; a label FigureFit broke
    // into lines is left as it is while the texts do not change.
    if (terse != m_terse || d.chosen != m_chosen) {
        m_terse = terse;
        m_chosen = d.chosen;
        const QStringList labels = terse
            ? QStringList {u"PE·PE"_s, u"RoPE"_s, u"ALiBi"_s, u"T5"_s, u"DeBERTa"_s}
            : QStringList {u"PE·PE"_s, u"RoPE score"_s, u"ALiBi bias"_s, u"T5 bucket"_s, u"DeBERTa bucket"_s};
        for (int n = 0; n < PanelCount; ++n) {
            QCPAxis *axis = m_rects[n]->axis(QCPAxis::atLeft);
            QFont font = axis->labelFont();
            font.setBold(terse && families[n] == d.chosen);
            axis->setLabelFont(font);
            axis->setLabel(labels[n]);
        }
    }

    // DeBERTa's term is no bias: the bucket picks rows of a learned relative embedding, which meet
    // the query's and key's contents (c2p and p2c, HF's disentangled_attention_bias).
    QStringList caption;
    caption.append(terse
                       ? u"T5: a learned bias per bucket; DeBERTa: c2p + p2c over its bucket's embedding row. The "
                         "bucket index stands for both"_s
                       : u"T5 learns a bias per bucket; DeBERTa's bucket picks a row of a learned relative embedding, "
                         "whose c2p and p2c terms meet the query's and key's contents. Neither has fixed values: the "
                         "bucket index stands for them"_s);
    if (d.preview)
        caption.append(u"preview: PE·PE and RoPE at %1 offsets a pixel"_s.arg(d.sampled));
    else if (d.sampled > 0)
        caption.append(
            u"PE·PE and RoPE: %1 offsets sampled a pixel, each band their least to their most"_s.arg(d.sampled));
    else if (!terse && d.sinusoid.offset.size() > 0 && d.sinusoid.offset.size() < view.upper - view.lower - 1.0)
        caption.append(u"PE·PE and RoPE: a band, the least to the most of a pixel's offsets"_s);
    PlotStyle::setCollapsibleText(m_caption, caption.join(u"\n"_s));
    QString title = terse ? u"One query, five families"_s : u"Absolute, rotary, bias: one query, five families"_s;
    title += u"  ·  query q = %1 of %2 positions"_s.arg(FigureText::formatCount(d.query),
                                                        FigureText::formatCount(d.maxLen));
    m_title->setText(title);
}

std::optional<HoverPoint> FamiliesFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const FamiliesData &d = *m_data;
    const Params &params = engine.params();
    for (int n = 0; n < PanelCount; ++n) {
        QCPAxisRect *rect = m_rects[n];
        if (!rect->rect().contains(pixel.toPoint()))
            continue;
        const auto k = std::llround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
        const std::int64_t key = d.query + k;
        if (key < 0 || key >= params.maxLen)
            return std::nullopt;
        HoverPoint point;
        point.position = key;
        switch (n) {
        case Sinusoid: {
            // PE[q] · PE[j] over the table's columns, in double.
            double sum = 0.0;
            const auto w = Frequencies::schedule(d.peColumns, d.base).w;
            for (std::size_t i = 0; i < w.size(); ++i) {
                const double a = static_cast<double>(d.query) * w[i], b = static_cast<double>(key) * w[i];
                sum += std::sin(a) * std::sin(b);
                if (static_cast<std::int64_t>(2 * i + 1) < d.peColumns)
                    sum += std::cos(a) * std::cos(b);
            }
            point.value = sum;
            point.valueName = u"k = %1: PE[q]·PE[j]"_s.arg(k);
            break;
        }
        case Alibi: {
            const double bias = AlibiSlopes::bias(AlibiSlopes::of(params.alibi.heads, params.alibi.head), d.query, key,
                                                  params.alibi.mask);
            if (std::isfinite(bias))
                point.value = bias;
            point.valueName = u"k = %1: head %2's bias%3"_s.arg(k)
                                  .arg(params.alibi.head)
                                  .arg(std::isfinite(bias) ? QString() : u" −inf (masked)"_s);
            break;
        }
        case T5:
        case Deberta: {
            const Encoding family = n == T5 ? Encoding::T5 : Encoding::Deberta;
            if (BucketsModel::problem(params, family))
                return std::nullopt;
            point.value = static_cast<double>(BucketsModel::mapBucket(params, family, k));
            point.valueName = u"k = %1: %2 bucket"_s.arg(k).arg(n == T5 ? u"T5"_s : u"DeBERTa"_s);
            break;
        }
        default: {
            // RoPE: the drawn band at k's pixel.
            const FamilyCurve &curve = d.rope;
            const auto at = std::lower_bound(curve.offset.cbegin(), curve.offset.cend(), static_cast<double>(k) - 0.5);
            if (d.ropeProblem || at == curve.offset.cend())
                return std::nullopt;
            const qsizetype i = at - curve.offset.cbegin();
            point.value = curve.lo[i];
            point.valueName = u"k ≈ %1: RoPE score of q = k all ones%2"_s.arg(
                NumberText::compact(curve.offset[i], 6),
                curve.lo[i] == curve.hi[i] ? QString()
                                           : u" (to %1 in this pixel)"_s.arg(NumberText::compact(curve.hi[i], 4)));
            break;
        }
        }
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
