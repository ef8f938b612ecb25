#include "PositionEffectFigure.h"

#include "render/FigureBuild.h"
#include "render/FigureDescriptor.h"
#include "render/FigureRoom.h"
#include "render/IndexTicker.h"
#include "render/MeasuredText.h"
#include "render/PlotItems.h"
#include "render/PlotStyle.h"
#include "render/ShorterLabels.h"
#include "render/StampedGraph.h"
#include "render/SwatchLegend.h"

#include "core/NumberText.h"
#include "core/positions/BatchParamRows.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kEffectReference(0, 0, 0);
const QColor kEffectChosen(213, 94, 0);
const QColor kEffectExact(0, 114, 178);
const QColor kEffectFloat32(204, 121, 167);
const QColor kEffectTemperature(0, 158, 115);
const QColor kEffectChunk(86, 180, 233);
const QColor kEffectPaddingShade(150, 150, 150, 70);
// The share of the difference panel's height its float32 band takes on little room, the rest its key's.
constexpr double kBandShare = 0.6;

// The least of the bands' lower ends and `least`, the most of their upper ends and `most`.
std::pair<double, double> bandsExtent(const QList<const PositionEffectData::Band *> &bands, double least, double most)
{
    for (const auto *band : bands) {
        for (const double v : band->lo)
            if (std::isfinite(v))
                least = std::min(least, v);
        for (const double v : band->hi)
            if (std::isfinite(v))
                most = std::max(most, v);
    }
    return {least, most};
}

// [least, most] of the bands, 8 % wider. Where they span no more than a rounding of `scale` (the
// size of the quantities they are differences of, or their own), the axis spans `scale` about them
// instead: a difference that is 0, exactly or to float64's rounding, read ±5e-14 on T5's axis, a
// scale chosen from nothing.
QCPRange effectRange(const QList<const PositionEffectData::Band *> &bands, double least, double most,
                     double scale = 0.0)
{
    const auto [a, b] = bandsExtent(bands, least, most);
    // Far above float64's rounding of a sum of a head's products, far below float32's (2^-24).
    constexpr double kRounding = 1e-9;
    const double size = std::max({scale, std::abs(a), std::abs(b)});
    if (b - a <= kRounding * size || !(size > 0.0)) {
        const double half = 0.5 * (size > 0.0 ? std::max(scale, size) : 1.0);
        return {0.5 * (a + b) - half, 0.5 * (a + b) + half};
    }
    const double pad = 0.08 * (b - a);
    return {a - pad, b + pad};
}

// Whole numbers (chunks), half a step beyond the first and the last: each step's line stands mid-way
// in its band, off the 8 % margin at which effectRange puts the least and the most of the left
// axis's lines (left-padding's chunk 0 on its temperature 1 over most of the row).
QCPRange wholeRange(const QList<const PositionEffectData::Band *> &bands)
{
    const auto [a, b] = bandsExtent(bands, 0.0, 1.0);
    return {std::floor(a) - 0.5, std::ceil(b) + 0.5};
}

QString effectLargestText(double v)
{
    return v == 0.0 ? u"0"_s : NumberText::compact(v, 3);
}

} // namespace

std::unique_ptr<FigureDescriptor> makePositionEffectFigure()
{
    return std::make_unique<FigureDescriptorOf<PositionEffectModel, PositionEffectFigure>>();
}

namespace {

// The longest word of the panel's y labels: a label of one word ("temperature") cannot wrap, and
// one longer than its axis reaches past the panel (FigureRoom::labelsWithin), so that no step
// would make the figure fit and every step, title and keys too, would be given up for nothing.
int longestWord(const QCPAxisRect *rect)
{
    double longest = 0.0;
    for (const QCPAxis::AxisType side : {QCPAxis::atLeft, QCPAxis::atRight}) {
        const QCPAxis *axis = rect->axis(side);
        if (!axis->visible())
            continue;
        for (const QString &word : axis->label().split(u' ', Qt::SkipEmptyParts))
            longest = std::max(longest, MeasuredText::advance(axis->labelFont(), word));
    }
    return int(std::ceil(longest));
}

} // namespace

PositionEffectFigure::Series PositionEffectFigure::series(QCPAxisRect *rect, const QColor &colour, Qt::PenStyle style,
                                                          bool rightAxis)
{
    Series s;
    // Stamped: on screen each line and band is drawn from the vertices a tenth of a pixel does not
    // explain, where a batch's columns put a vertex on every pixel (a file draws them all).
    for (QCPGraph **g : {&s.lo, &s.hi}) {
        *g = new StampedGraph(rect->axis(QCPAxis::atBottom),
                              rect->axis(rightAxis ? QCPAxis::atRight : QCPAxis::atLeft));
        (*g)->setPen(QPen(colour, 1.2, style));
        (*g)->setAntialiasedFill(false);
    }
    s.fill = colour;
    s.fill.setAlpha(70);
    s.hi->setBrush(s.fill);
    s.hi->setChannelFillGraph(s.lo);
    s.lo->removeFromLegend();
    return s;
}

PositionEffectFigure::PositionEffectFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_stack(new QCPLayoutGrid)
{
    QCPLayoutGrid *stack = m_stack;
    plot->plotLayout()->addElement(1, 0, stack);
    stack->setRowSpacing(2);
    auto *margins = new QCPMarginGroup(plot);
    for (std::size_t i = 0; i < m_rects.size(); ++i) {
        m_panelTitles[i] = PlotStyle::panelTitle(plot, false);
        stack->addElement(int(3 * i), 0, m_panelTitles[i]);
        auto *rect = new QCPAxisRect(plot);
        rect->setMinimumSize(FigureBuild::kMinAxisSide, FigureBuild::kMinAxisSide);
        PlotStyle::styleAxisRect(rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(4);
        IndexTicker::install(rect->axis(QCPAxis::atBottom));
        stack->addElement(int(3 * i + 1), 0, rect);
        stack->setRowStretchFactor(int(3 * i), 0.001);
        m_rects[i] = rect;
        // Each panel keys its own lines, under it: on little room a key goes into its panel's free
        // corner, over the padding no line crosses, where one key of every line had no place and
        // took the title's room (left-padding's half of a 14-pt slide gave up its title and key).
        m_keys[i] = PlotStyle::legendRow(plot, stack, int(3 * i + 2), 4);
        m_keyRows[i] = stack->element(int(3 * i + 2), 0);
        stack->setRowStretchFactor(int(3 * i + 2), 0.001);
    }
    for (QCPAxisRect *a : m_rects)
        for (QCPAxisRect *b : m_rects)
            if (a != b)
                QObject::connect(a->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
                                 b->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    m_rects[2]->axis(QCPAxis::atRight)->setVisible(true);
    IndexTicker::install(m_rects[2]->axis(QCPAxis::atRight)); // whole chunks, each once
    // On little room the scores and their difference stay; the absolute parts, which say where
    // the difference comes from, go (their name with them).
    FigureRoom::setDispensable(m_rects[2], 1);
    for (std::size_t i = 0; i < m_rects.size(); ++i)
        m_shades.append(PlotItems::shade(m_rects[i], kEffectPaddingShade));
    m_reference = series(m_rects[0], kEffectReference, Qt::SolidLine);
    m_chosen = series(m_rects[0], kEffectChosen, Qt::DashLine); // the reference's line shows where they agree
    m_difference = series(m_rects[1], kEffectExact, Qt::SolidLine);
    m_float32 = series(m_rects[1], kEffectFloat32, Qt::SolidLine);
    m_term = series(m_rects[2], kEffectChosen, Qt::SolidLine);
    m_temperatureIds = series(m_rects[2], kEffectTemperature, Qt::SolidLine);
    m_temperatureCache = series(m_rects[2], kEffectTemperature, Qt::DashLine);
    m_chunkIds = series(m_rects[2], kEffectChunk, Qt::SolidLine, true);
    m_chunkCache = series(m_rects[2], kEffectChunk, Qt::DashLine, true);
    // The dotted line last, over the others: its gaps let a line under it show, where a dashed one
    // over it hid it (left-padding's temperature at the reference's id under the chunk at the
    // column less the padding over most of its row, seen only where it stepped up).
    m_temperatureReference = series(m_rects[2], kEffectReference, Qt::DotLine);
    auto *below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, below);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_caption = PlotStyle::smallText(plot, below, 0, 0);
    labelColumns();
}

void PositionEffectFigure::labelColumns()
{
    // The panels share their columns: the lowest numbers and names them, so that the panels keep
    // their room in a small view. The absolute parts' panel may be given up on little room (below),
    // so the difference's panel above it numbers them too; where room is short it gives them to the
    // absolute panel (FigureRoom's shared axes) and takes them back when that panel goes.
    for (QCPAxisRect *rect : m_rects) {
        const bool numbered = rect == m_rects[1] || (m_absoluteShown && rect == m_rects[2]);
        rect->axis(QCPAxis::atBottom)->setTickLabels(numbered);
        rect->axis(QCPAxis::atBottom)->setLabel(numbered ? u"column"_s : QString());
    }
}

QList<ViewAxis> PositionEffectFigure::viewAxes() const
{
    return {{u"columns"_s, m_rects[0]->axis(QCPAxis::atBottom)}};
}

void PositionEffectFigure::showDefaultView(const Params &params, const FigureState &)
{
    m_rects[0]->axis(QCPAxis::atBottom)->setRange(-0.5, double(params.maxLen) - 0.5);
}

QList<PanelExtent> PositionEffectFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rects[0]->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rects[0]->axis(QCPAxis::atLeft)->range();
    return {{m_rects[0]->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void PositionEffectFigure::show(Series &s, const PositionEffectData::Band &band, bool visible)
{
    const QList<double> none;
    // A band as thin as a line (every pixel's tokens alike, a difference of 0) is drawn as its line.
    const bool flat = std::equal(band.lo.begin(), band.lo.end(), band.hi.begin(), band.hi.end(),
                                 [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); });
    s.lo->setData(visible && !flat ? m_data->x : none, visible && !flat ? band.lo : none, true);
    s.hi->setData(visible ? m_data->x : none, visible ? band.hi : none, true);
    s.lo->setVisible(visible && !flat);
    s.hi->setVisible(visible);
    s.hi->setBrush(flat ? QBrush(Qt::NoBrush) : QBrush(s.fill));
}

void PositionEffectFigure::showAbsolutePanel(bool shown)
{
    if (shown == m_absoluteShown)
        return;
    m_absoluteShown = shown;
    QCPLayoutElement *key = m_keyRows[2];
    if (shown) {
        m_stack->addElement(6, 0, m_panelTitles[2]);
        m_stack->addElement(7, 0, m_rects[2]);
        m_stack->addElement(8, 0, key);
        m_stack->setRowStretchFactor(6, 0.001);
        m_stack->setRowStretchFactor(8, 0.001);
    } else {
        m_stack->take(m_panelTitles[2]);
        m_stack->take(m_rects[2]);
        m_stack->take(key);
        m_stack->simplify();
    }
    m_rects[2]->setVisible(shown);
    m_panelTitles[2]->setVisible(shown);
    key->setVisible(shown);
    labelColumns();
}

// The curves' names in the keys; `terse` on little room.
void PositionEffectFigure::nameSeries(bool terse, bool chosenIsColumn, const QString &choice)
{
    m_reference.hi->setName(u"reference ids"_s);
    m_chosen.hi->setName(choice);
    // Beside "reference ids", on little room: "arange-with…" named no choice (a 14-pt slide).
    ShorterLabels::setEntry(m_chosen.hi, {u"chosen ids"_s});
    m_difference.hi->setName(u"difference"_s);
    m_float32.hi->setName(terse ? u"float32"_s : u"difference, float32 angles"_s);
    m_term.hi->setName(u"‖PE[chosen] − PE[reference]‖"_s);
    // Which ids each line reads, as the scores' key names them: "chunk (ids)" read as the reference's.
    m_temperatureIds.hi->setName(terse ? u"temperature (chosen ids)"_s : u"temperature at %1's id"_s.arg(choice));
    ShorterLabels::setEntry(m_temperatureIds.hi, {u"temperature (chosen)"_s});
    m_temperatureCache.hi->setName(
        chosenIsColumn
            ? (terse ? u"temperature (column)"_s : u"temperature at cache_position, and at %1's id"_s.arg(choice))
            : (terse ? u"temperature (column)"_s : u"temperature at cache_position"_s));
    m_temperatureReference.hi->setName(terse ? u"temperature (reference ids)"_s
                                             : u"temperature at the reference's id"_s);
    ShorterLabels::setEntry(m_temperatureReference.hi, {u"temperature (reference)"_s, u"temperature (ref.)"_s});
    m_chunkIds.hi->setName(terse ? u"chunk (chosen ids)"_s : u"chunk at %1's id"_s.arg(choice));
    ShorterLabels::setEntry(m_chunkIds.hi, {u"chunk (chosen)"_s});
    m_chunkCache.hi->setName(terse ? u"chunk (column − padding)"_s
                                   : u"chunk at the column less the padding, as chunked_overlay counts"_s);
    ShorterLabels::setEntry(m_chunkCache.hi, {u"chunk (column − pad)"_s, u"chunk (col − pad)"_s});
}

void PositionEffectFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &)
{
    m_data = std::static_pointer_cast<const PositionEffectData>(data);
    const PositionEffectData &d = *m_data;
    const bool terse = m_compact || PlotStyle::textLines(*m_title->parentPlot()) < 30;
    const bool rotary = d.kind == PositionEffect::ScoreKind::Rotary;
    const QString choice = BatchParamRows::choiceWords().value(int(d.choice));
    show(m_reference, d.scoreReference, true);
    show(m_chosen, d.scoreChosen, true);
    show(m_difference, d.difference, true);
    show(m_float32, d.float32, rotary);
    show(m_term, d.termDifference, d.term);
    // One line where two temperatures agree at every pixel: arange's ids are the columns, and a
    // choice that keeps the reference's ids gives its own temperature.
    const auto same = [](const PositionEffectData::Band &a, const PositionEffectData::Band &b) {
        return a.lo == b.lo && a.hi == b.hi;
    };
    const bool chosenIsColumn = same(d.temperatureIds, d.temperatureCache);
    const bool referenceIsChosen = same(d.temperatureReference, d.temperatureIds);
    show(m_temperatureIds, d.temperatureIds, d.temperature && !chosenIsColumn);
    show(m_temperatureCache, d.temperatureCache, d.temperature);
    show(m_temperatureReference, d.temperatureReference, d.temperature && !referenceIsChosen);
    show(m_chunkIds, d.chunkIds, d.chunk);
    show(m_chunkCache, d.chunkCache, d.chunk);
    nameSeries(terse, chosenIsColumn, choice);
    // A family's own quantity keeps its name on little room ("DeBERTa bucket", "ALiBi bias", as
    // its axis in the window): "score" called DeBERTa's bucket index a score on a 14-pt slide.
    const bool named = d.kind == PositionEffect::ScoreKind::Panel || d.kind == PositionEffect::ScoreKind::TermProduct;
    const QString score = named ? d.scoreWords : u"score"_s;
    m_rects[0]->axis(QCPAxis::atLeft)->setLabel(terse ? score : d.scoreWords);
    const QCPRange scores = effectRange({&d.scoreReference, &d.scoreChosen}, 0.0, 0.0);
    m_rects[0]->axis(QCPAxis::atLeft)->setRange(scores);
    // The difference of what the first panel draws, named as it is there ("Δ ALiBi bias"), on the
    // scores' scale where it is 0 to rounding.
    m_rects[1]->axis(QCPAxis::atLeft)->setLabel(terse ? u"Δ %1"_s.arg(score) : u"chosen − reference"_s);
    // On a column, the quantity's own word without its family's name ("bias" of "Sandwich bias",
    // the panel's title names the family), not the family's name cut ("Sandwich …", "Δ …"); on
    // less, the difference's "Δ" alone under its panel's title, "the difference".
    const QString word = score.section(u' ', -1);
    ShorterLabels::set(m_rects[0]->axis(QCPAxis::atLeft), word != score ? QStringList {word} : QStringList {});
    QStringList differences;
    if (terse)
        differences = word != score ? QStringList {u"Δ %1"_s.arg(word), u"Δ"_s} : QStringList {u"Δ"_s};
    ShorterLabels::set(m_rects[1]->axis(QCPAxis::atLeft), differences);
    QCPRange differenceRange
        = effectRange({&d.difference, rotary ? &d.float32 : &d.difference}, 0.0, 0.0, scores.size());
    const bool absolute = d.term || d.temperature;
    // Terse, the float32 band fills the panel's width: room above it for the panel's key, in a
    // corner no data crosses, wherever the panel stands (left-padding's slide for Llama 3.1 keyed
    // "difference" and "float32" over the band, and Llama 4 Scout's, the absolute parts' panel
    // under it, labelled "difference" on the float32 band and "float32" cut at the panel's edge).
    if (terse && rotary)
        differenceRange.upper = differenceRange.lower + differenceRange.size() / kBandShare;
    m_rects[1]->axis(QCPAxis::atLeft)->setRange(differenceRange);
    showAbsolutePanel(absolute || d.chunk);
    m_rects[2]->axis(QCPAxis::atLeft)->setLabel(d.term ? u"‖ΔPE‖"_s : d.temperature ? u"temperature"_s : QString());
    QList<const PositionEffectData::Band *> left;
    if (d.term)
        left.append(&d.termDifference);
    if (d.temperature)
        left << &d.temperatureIds << &d.temperatureCache << &d.temperatureReference;
    m_rects[2]
        ->axis(QCPAxis::atLeft)
        ->setRange(absolute ? effectRange(left, d.temperature ? 1.0 : 0.0, 0.0) : QCPRange(-1.0, 1.0));
    m_rects[2]->axis(QCPAxis::atRight)->setLabel(d.chunk ? u"chunk"_s : QString());
    m_rects[2]
        ->axis(QCPAxis::atRight)
        ->setRange(d.chunk ? wholeRange({&d.chunkIds, &d.chunkCache}) : QCPRange(0.0, 1.0));
    m_rects[2]->axis(QCPAxis::atRight)->setTickLabels(d.chunk);
    // The chunks are whole numbers, each a tick label: the panel is tall enough for them all to
    // stand apart (on too little room FigureRoom gives the panel up rather than squeeze it).
    const QCPRange chunks = m_rects[2]->axis(QCPAxis::atRight)->range();
    const int labels = d.chunk ? std::clamp(int(std::floor(chunks.upper) - std::ceil(chunks.lower)) + 1, 1, 6) : 0;
    const int line = QFontMetrics(m_rects[2]->axis(QCPAxis::atRight)->tickLabelFont()).height();
    m_rects[2]->setMinimumSize(FigureBuild::kMinAxisSide,
                               std::max({FigureBuild::kMinAxisSide, int(std::ceil(1.3 * line * labels)),
                                         longestWord(m_rects[2])}));
    m_panelTitles[0]->setText(terse ? u"%1 vs the document's first token"_s.arg(score)
                                    : u"%1's score of each token against its document's first: the reference's ids "
                                      "and %2's"_s.arg(d.family, choice));
    // A preview's largest differences are its sampled tokens'.
    const QString largest = d.preview ? u"largest sampled"_s : u"largest"_s;
    m_panelTitles[1]->setText(
        u"the difference: %1 %2%3"_s.arg(largest, effectLargestText(d.largestDifference))
            .arg(rotary ? u", float32 angles %1"_s.arg(effectLargestText(d.largestFloat32)) : QString()));
    m_panelTitles[2]->setText(
        absolute || d.chunk ? u"what reads the absolute position%1"_s.arg(
            d.term ? u": ‖ΔPE‖ %1 %2"_s.arg(largest, effectLargestText(d.largestTerm)) : QString())
                            : u"nothing here reads the absolute position (no term, temperature or chunk)"_s);
    // Shorter, its number kept: a lesson quotes it (left-padding's ‖ΔPE‖ = 36.6 for Whisper), where
    // dropping the clause would leave the panel's name alone.
    const QString term = u"‖ΔPE‖ %1 %2"_s.arg(largest, effectLargestText(d.largestTerm));
    ShorterLabels::setText(m_panelTitles[2],
                           d.term ? QStringList {u"absolute position: %1"_s.arg(term), term} : QStringList());
    // A row mostly padding (left-padding's 1,000 tokens after 31,768 pads) drew its tokens in the
    // axis's last 3 %: the default view shows its real tokens, a tenth of their span of padding
    // before and after them for context. A view zoomed or panned keeps its own columns.
    QCPAxis *columns = m_rects[0]->axis(QCPAxis::atBottom);
    if (!d.padding.isEmpty() && d.cols > 0 && std::abs(columns->range().lower + 0.5) < 1e-9
        && std::abs(columns->range().upper - (double(d.cols) - 0.5)) < 1e-9) {
        double first = 0.0, end = double(d.cols);
        if (d.padding.front().first == 0)
            first = double(d.padding.front().second);
        if (d.padding.back().second == d.cols)
            end = std::max(first, double(d.padding.back().first));
        const double context = 0.1 * std::max(end - first, 1.0);
        if (end - first < 0.5 * double(d.cols))
            columns->setRange(std::max(first - context, 0.0) - 0.5, std::min(end + context, double(d.cols)) - 0.5);
    }
    // The padding, shaded in every panel (the first run; the figure's caption says how many).
    for (std::size_t i = 0; i < m_rects.size(); ++i) {
        const bool any = !d.padding.isEmpty();
        PlotItems::placeShade(m_shades[qsizetype(i)], any, any ? double(d.padding.front().first) - 0.5 : 0.0,
                              any ? double(d.padding.front().second) - 0.5 : 0.0);
    }
    const std::array<QList<const Series *>, 3> keyed {
        QList<const Series *> {&m_reference, &m_chosen},
        {&m_difference, &m_float32},
        {&m_term, &m_temperatureIds, &m_temperatureCache, &m_temperatureReference, &m_chunkIds, &m_chunkCache}};
    for (std::size_t i = 0; i < m_keys.size(); ++i) {
        m_keys[i]->clearItems();
        for (const Series *s : keyed[i])
            if (s->hi->visible())
                MeasuredText::addToLegend(s->hi, m_keys[i]);
    }
    // The padding is shaded in every panel; the first names it.
    if (!d.padding.isEmpty())
        SwatchLegend::add(m_keys[0], {QColor(150, 150, 150), u"padding"_s});
    m_title->setText(u"%1  ·  row %2: %3 of %4 real tokens get other ids under %5%6"_s
                         .arg(terse ? u"Position effect"_s : u"Position effect, %1"_s.arg(d.family))
                         .arg(d.row)
                         .arg(NumberText::count(d.changedIds), NumberText::count(d.realTokens))
                         .arg(choice, d.preview ? u"  ·  preview"_s : QString()));
    setScreenNote({}, d.preview ? u"preview: a few tokens of each pixel"_s : QString());
    QString caption;
    if (!d.problem.isEmpty())
        caption = u"No ids: %1."_s.arg(d.problem);
    else if (!terse && d.frequenciesMove)
        caption = u"Each pixel: a band from the least to the most of its real tokens. Here the rotary frequencies "
                  "move: they are computed at the batch's length, torch.max(position_ids) + 1, %1 under the "
                  "reference's ids and %2 under %3's, so even a relative score changes."_s.arg(d.referenceLength)
                      .arg(d.chosenLength)
                      .arg(choice);
    else if (!terse)
        caption = u"Each pixel: a band from the least to the most of its real tokens. A relative score under a common "
                  "shift of the ids stays the same to rounding; what reads the absolute position does not%1."_s.arg(
                      absolute || d.chunk ? QString() : u" (nothing here does: no term, temperature or chunk)"_s);
    PlotStyle::setCollapsibleText(m_caption, caption);
}

std::optional<HoverPoint> PositionEffectFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data || !m_data->problem.isEmpty())
        return std::nullopt;
    for (std::size_t i = 0; i < m_rects.size(); ++i) {
        if (!m_rects[i]->visible() || !m_rects[i]->rect().contains(pixel.toPoint()))
            continue;
        const std::int64_t c = std::clamp<std::int64_t>(
            std::llround(m_rects[i]->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())), 0, m_data->cols - 1);
        RowMatrixXf v(1, PositionEffect::Columns);
        engine.computeBlock(Quantity::PositionEffect, {m_data->row * m_data->cols + c, 1, 0, PositionEffect::Columns},
                            v);
        using Column = PositionEffect::Column;
        const int k = i == 0 ? Column::ScoreChosen : i == 1 ? Column::ScoreDifference : Column::TermDifference;
        HoverPoint point;
        point.hasPosition = false;
        point.value = v(0, k);
        point.valueName = u"column %1: ids %2 → %3, score %4 → %5"_s.arg(c)
                              .arg(v(0, Column::ReferenceId))
                              .arg(v(0, Column::ChosenId))
                              .arg(NumberText::compact(v(0, Column::ScoreReference), 6),
                                   NumberText::compact(v(0, Column::ScoreChosen), 6));
        if (i == 2 && m_data->temperature) {
            point.value = v(0, Column::TemperatureCache);
            point.valueName += u"; temperature %1 at the reference's id, %2 at the chosen id, %3 at the column"_s.arg(
                NumberText::compact(v(0, Column::TemperatureReference), 5),
                NumberText::compact(v(0, Column::TemperatureIds), 5),
                NumberText::compact(v(0, Column::TemperatureCache), 5));
        }
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
