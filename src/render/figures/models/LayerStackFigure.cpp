#include "LayerStackFigure.h"

#include "ModelPlot.h"

#include "render/CellNumbers.h"
#include "render/CoverageColorMap.h"
#include "render/Colormaps.h"
#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"
#include "render/SwatchLegend.h"
#include "render/data/ViewOptions.h"

#include "check/CheckReport.h"

#include <QMap>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The side column's stretch beside the lanes' 1: the plot at least half the figure's width, the
// key and the words beside it the rest.
constexpr double kSideStretch = 0.6;

// The colour of each distinct key, in the order of their first group; RoPE's shaded by theta.
struct Palette
{
    QStringList keys;
    QList<QColor> colors;
    int index(const QString &key) const { return int(keys.indexOf(key)); }
};

Palette positionPalette(const LayerStackData &d)
{
    QList<double> thetas;
    for (const auto &g : d.groups) {
        if (g.positionKey.startsWith(u"rope"_s) && !thetas.contains(g.theta))
            thetas.append(g.theta);
    }
    std::sort(thetas.begin(), thetas.end());
    Palette p;
    for (const auto &g : d.groups) {
        if (p.keys.contains(g.positionKey))
            continue;
        p.keys.append(g.positionKey);
        p.colors.append(ModelPlot::positionColor(g.positionKey, int(thetas.indexOf(g.theta)), int(thetas.size())));
    }
    return p;
}

Palette spanPalette(const LayerStackData &d, const Palette &positions)
{
    Palette p;
    for (const auto &g : d.groups) {
        if (p.keys.contains(g.spanKey))
            continue;
        p.keys.append(g.spanKey);
        // A mixer's span lane takes its position lane's colour: it has no span of attention.
        const bool mixer = g.spanKey == g.positionKey;
        p.colors.append(mixer ? positions.colors[positions.index(g.positionKey)] : ModelPlot::spanColor(g.spanKey));
    }
    return p;
}

// The position scheme of a group in a few words, its span left to the span lane: "RoPE 1.5e5"
// of ModelText::terse's "RoPE 1.5e5 · win 128".
QString schemeWords(const LayerStackData::Group &g)
{
    return g.terse.section(u" · "_s, 0, 0);
}

// What a position colour's cells say: the one layer type of that colour, or, where several types
// share it, the scheme they share (each cell is one layer of one type).
QString positionWords(const LayerStackData &d, const QString &key)
{
    QStringList types;
    const LayerStackData::Group *first = nullptr;
    for (const auto &g : d.groups) {
        if (g.positionKey != key)
            continue;
        first = first ? first : &g;
        if (!types.contains(g.layerType))
            types.append(g.layerType);
    }
    return types.size() == 1 || !first ? types.value(0) : schemeWords(*first);
}

// "12 sliding_attention layers", "12 sliding_attention and 12 full_attention layers" of the
// counts "12 sliding_attention", "12 full_attention".
QString layerCounts(const QStringList &counts)
{
    const QString last = counts.value(counts.size() - 1);
    const QString most = counts.mid(0, counts.size() - 1).join(u", "_s);
    return (most.isEmpty() ? last : u"%1 and %2"_s.arg(most, last))
        + (counts.size() == 1 && last.startsWith(u"1 "_s) ? u" layer"_s : u" layers"_s);
}

} // namespace

std::unique_ptr<FigureDescriptor> makeLayerStackFigure()
{
    return std::make_unique<FigureDescriptorOf<LayerStackModel, LayerStackFigure>>();
}

LayerStackFigure::LayerStackFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_row(new QCPLayoutGrid)
    , m_side(new QCPLayoutGrid)
    , m_rect(new QCPAxisRect(plot))
{
    QCPLayoutGrid *row = m_row;
    plot->plotLayout()->addElement(1, 0, row);
    row->addElement(0, 0, m_rect);
    PlotStyle::styleAxisRect(m_rect);
    // The legend at the top of a column beside the lanes, the column's rest empty.
    QCPLayoutGrid *side = m_side;
    row->addElement(0, 1, side);
    m_legend = SwatchLegend::create(plot, side, 0, 0);
    // Each layer type in words under the legend, the column's rest empty.
    m_caption = PlotStyle::smallText(plot, side, 1, 0);
    m_caption->setTextFlags(Qt::AlignLeft | Qt::AlignTop);
    addFiller();
    row->setColumnStretchFactor(0, 1.0);
    row->setColumnStretchFactor(1, kSideStretch);
    QCPAxis *x = m_rect->axis(QCPAxis::atBottom);
    auto lanes = QSharedPointer<QCPAxisTickerText>::create();
    lanes->addTick(0, u"position"_s);
    lanes->addTick(1, u"span"_s);
    x->setTicker(lanes);
    x->grid()->setVisible(false);
    x->setRange(-0.5, 1.5);
    m_rect->axis(QCPAxis::atLeft)->setLabel(u"layer"_s);
    m_map = new CoverageColorMap(x, m_rect->axis(QCPAxis::atLeft));
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false); // each cell a whole lane and a whole layer
}

void LayerStackFigure::placeSide(bool beside)
{
    if (beside == m_beside)
        return;
    QCPLayoutGrid *layout = m_title->parentPlot()->plotLayout();
    if (beside) {
        layout->take(m_side);
        layout->simplify();
        m_row->addElement(0, 1, m_side);
        // The column made again takes QCustomPlot's stretch of 1: a view made narrow and then wide
        // again gave the words as much as the lanes, and gave up its title for room (tst_viewroom).
        m_row->setColumnStretchFactor(1, kSideStretch);
        addFiller();
    } else {
        m_row->take(m_side);
        m_row->simplify();
        layout->addElement(2, 0, m_side);
        layout->setRowStretchFactor(2, 0.001);
        // Under the lanes the column's rest is none: its row and the spacing before it would be
        // taken from the plot (4 units of a 6 x 4 cm page's 151, 2.5 % of it).
        if (QCPLayoutElement *filler = m_side->rowCount() > 2 ? m_side->element(2, 0) : nullptr) {
            m_side->remove(filler);
            m_side->simplify();
        }
    }
    m_beside = beside;
}

void LayerStackFigure::addFiller()
{
    if (m_side->rowCount() > 2 && m_side->element(2, 0))
        return;
    m_side->addElement(2, 0, new QCPLayoutElement(m_title->parentPlot()));
    m_side->setRowStretchFactor(0, 0.001);
    m_side->setRowStretchFactor(1, 0.001);
    m_side->setRowStretchFactor(2, 1.0);
}

QList<PanelExtent> LayerStackFigure::panels(double pixelRatio) const
{
    const QCPRange x = m_rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = m_rect->axis(QCPAxis::atLeft)->range();
    return {{m_rect->rect().size(), pixelRatio, {x.lower, x.upper}, {y.lower, y.upper}}};
}

void LayerStackFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &state)
{
    m_data = std::static_pointer_cast<const LayerStackData>(data);
    const LayerStackData &d = *m_data;
    Palette positions = positionPalette(d);
    Palette spans = spanPalette(d, positions);
    const auto n = int(std::max<std::int64_t>(d.layerCount, 1));
    // A map chosen (--colormap) gives the categories colours evenly spaced along it, the cells and
    // the legend alike: the positions' first, then the spans'.
    const std::optional<Colormap> chosen
        = Colormaps::fromName(state.option(QString::fromUtf16(ViewOptions::kColormap)));
    const QCPRange categoryRange(0, double(std::max<qsizetype>(positions.keys.size() + spans.keys.size() - 1, 1)));
    if (chosen) {
        for (qsizetype i = 0; i < positions.colors.size(); ++i)
            positions.colors[i] = Colormaps::colorAt(*chosen, double(i) / categoryRange.upper);
        for (qsizetype i = 0; i < spans.colors.size(); ++i)
            spans.colors[i] = Colormaps::colorAt(*chosen, double(positions.keys.size() + i) / categoryRange.upper);
    }
    // One colour map over both lanes: the positions' colours first, then the spans'.
    QList<QColor> colors = positions.colors + spans.colors;
    QCPColorMapData *cells = m_map->data();
    // Two rows at least, the extra one out of view: QCustomPlot draws no map of a single row.
    cells->setSize(2, std::max(n, 2));
    cells->setRange(QCPRange(0, 1), QCPRange(0, std::max(n, 2) - 1));
    cells->fill(std::numeric_limits<double>::quiet_NaN());
    for (const auto &g : d.groups) {
        for (const std::int64_t l : g.layers) {
            cells->setCell(0, int(l), positions.index(g.positionKey));
            cells->setCell(1, int(l), int(positions.keys.size()) + spans.index(g.spanKey));
        }
    }
    // A cell that shows its value shows its key's words, as the legend says them: the layer type
    // of a position colour, the span of a span colour (the values are indices into the colours).
    // Where layer types share a colour (gpt-oss's sliding and full layers turn alike), each cell is
    // one layer of one type: it names the scheme they share, and the span lane tells them apart.
    QStringList labels;
    for (const QString &key : positions.keys)
        labels.append(positionWords(d, key));
    for (const QString &key : spans.keys)
        labels.append(key == u"full"_s         ? u"whole context"_s
                          : key == u"window"_s ? u"sliding window"_s
                                               : key); // "chunk", or a mixer's word
    CellNumbers::of(m_map)->setLabels(labels);
    QCPColorGradient gradient = ModelPlot::categories(colors);
    if (chosen) {
        // The chosen map itself, with the figure's colour for a row out of view.
        QCPColorGradient along = Colormaps::gradient(*chosen);
        along.setNanHandling(gradient.nanHandling());
        along.setNanColor(gradient.nanColor());
        gradient = along;
    }
    m_map->setGradient(gradient);
    m_map->setDataRange(categoryRange);
    m_rect->axis(QCPAxis::atLeft)->setRange(-0.5, n - 0.5);

    // On a slide or a small view the plot keeps its room: a word or two a layer type.
    // On a slide, a small view or a view narrower than the words the plot keeps its room: a
    // word or two a layer type.
    const QCustomPlot &plot = *m_title->parentPlot();
    const bool terse = m_compact || PlotStyle::textLines(plot) < 30 || plot.viewport().width() < 900;
    // A figure narrower than lanes and words side by side stacks them.
    placeSide(plot.viewport().width() >= 700);
    QList<Swatch> swatches;
    QStringList lines;
    for (const auto &g : d.groups) {
        const QString runs = CheckReport::layerRuns(g.layers);
        // The position scheme first in the cells' words, terse or not (its whole words in the lines
        // under the key): a key short of room keeps an entry's first part (FigureRoom's
        // shortenEntries), and the scheme is what the lanes' colours say (Llama 4's
        // slide kept "chunked_attention ×36", gpt-oss's window "sliding_attention ×12" for the one
        // RoPE its full_attention layers share). One entry a colour: the layer types that share it
        // counted after the scheme, "12 sliding_attention and 12 full_attention layers" ("×" is a
        // scaling's factor, "yarn ×32").
        const auto first = std::find_if(d.groups.cbegin(), d.groups.cend(),
                                        [&](const auto &other) { return other.positionKey == g.positionKey; });
        if (&*first == &g) {
            QStringList counts;
            for (const auto &other : d.groups)
                if (other.positionKey == g.positionKey)
                    counts.append(u"%1 %2"_s.arg(other.layers.size()).arg(other.layerType));
            const QString count = layerCounts(counts);
            const QString span = counts.size() > 1 || g.span.isEmpty() ? QString() : u"; "_s + g.span;
            swatches.append({positions.colors[positions.index(g.positionKey)],
                             terse ? u"%1: %2"_s.arg(counts.size() > 1 ? schemeWords(g) : g.terse, count)
                                   : u"%1: %2%3"_s.arg(schemeWords(g), count, span)});
        }
        if (!terse)
            lines.append(u"%1: layers %2; %3%4"_s.arg(g.layerType, runs, g.position,
                                                      g.query.isEmpty() ? QString() : u"; "_s + g.query));
        else if (!g.query.isEmpty())
            lines.append(u"%1: %2"_s.arg(g.layerType, g.query));
    }
    for (qsizetype i = 0; i < spans.keys.size(); ++i) {
        const QString key = spans.keys[i];
        if (key != u"full"_s && key != u"window"_s && key != u"chunk"_s)
            continue;
        // The span's key says how far it reaches, the model's parameter (ModernBERT's local window
        // ±64): a terse position entry cut to its scheme ("RoPE 1e4") kept it nowhere else.
        QStringList reaches;
        for (const auto &g : d.groups)
            if (g.spanKey == key && !g.spanReach.isEmpty() && !reaches.contains(g.spanReach))
                reaches.append(g.spanReach);
        const QString reach = reaches.isEmpty() ? QString() : u" "_s + reaches.join(u", "_s);
        swatches.append({spans.colors[i],
                         key == u"full"_s         ? u"span: whole context"_s
                             : key == u"window"_s ? u"span: sliding window"_s + reach
                                                  : u"span: chunk"_s + reach});
    }
    SwatchLegend::set(m_legend, swatches);
    if (!d.notes.isEmpty())
        lines.append(d.notes);
    PlotStyle::setCollapsibleText(m_caption, lines.join(u'\n'));
    const QString read = d.basis == u"guess"_s ? u" · a guess (unknown model_type)"_s : QString();
    // The model's name its own statement, what the parentheses add (the text part, the model_type)
    // after the layer count: a title short of room drops statements from its end, and on a slide
    // beside the query scale "Layer stack · meta-llama/Llama-4-Scout-17B-16E (text part)
    // (llama4_text) · 48 layers" kept "Layer stack" alone.
    const qsizetype notesAt = d.model.indexOf(u" ("_s); // d.model is "name (notes) (model_type)"
    const QString name = notesAt > 0 ? d.model.left(notesAt) : d.model;
    const QString type = notesAt > 0 ? d.model.mid(notesAt) : QString();
    m_title->setText(d.groups.isEmpty()
                         ? u"Layer stack: no config"_s
                         : u"Layer stack  ·  %1  ·  %2 layers%3%4"_s.arg(name).arg(d.layerCount).arg(type, read));
}

std::optional<HoverPoint> LayerStackFigure::hoverAt(const QPointF &pixel, const Engine &) const
{
    if (!m_data || !m_rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const auto layer = std::llround(m_rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y()));
    for (const auto &g : m_data->groups) {
        if (std::find(g.layers.cbegin(), g.layers.cend(), layer) == g.layers.cend())
            continue;
        HoverPoint point;
        point.hasPosition = false;
        point.value = double(layer);
        point.valueName = u"layer %1 (%2): %3%4%5"_s.arg(layer).arg(g.layerType, g.position,
                                                                    g.span.isEmpty() ? QString() : u"; "_s + g.span,
                                                                    g.query.isEmpty() ? QString() : u"; "_s + g.query);
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
