#include "FamiliesModel.h"

#include "core/ParamInputs.h"
#include "render/data/FigureText.h"
#include "core/positions/BatchLayout.h"

#include <QMutex>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The panels' summaries of the families figure's --help line: "RoPE's score", and neighbours with
// the same noun as one, "T5's and DeBERTa's bucket".
QString panelsSummary()
{
    QStringList parts;
    QString owners, noun;
    for (const FamilySpec *family : FamiliesModel::panelFamilies()) {
        const FamilyPanel &panel = *FamilyPanels::of(family->encoding);
        if (!owners.isEmpty() && panel.summaryNoun == noun) {
            owners += u" and "_s + panel.summaryOwner;
            continue;
        }
        if (!owners.isEmpty())
            parts.append(owners + u' ' + noun);
        owners = panel.summaryOwner;
        noun = panel.summaryNoun;
    }
    if (!owners.isEmpty())
        parts.append(owners + u' ' + noun);
    return parts.join(u", "_s);
}

// A panel's data as last computed for a budget: a change of another family's settings leaves it as
// it is (its inputs, as the figure's own recompute reads them), and the sinusoid's and RoPE's sums
// were most of the figure's time. The latest of each family and budget alone, so that what is
// reused is what nothing it reads has changed since, not a value the settings held before.
struct KeptPanel
{
    Encoding family = {};
    std::int64_t budget = 0, query = 0;
    OffsetPixels offsets;
    Params params;
    FamilyPanelData data;
};

QMutex g_keptMutex;
std::vector<KeptPanel> g_kept;
std::atomic<quint64> g_panelsComputed {0};

std::optional<FamilyPanelData> keptPanel(const FamilyPanel &panel, Encoding family, const Params &params,
                                         std::int64_t query, const OffsetPixels &offsets, std::int64_t budget)
{
    const QMutexLocker lock(&g_keptMutex);
    for (const KeptPanel &kept : g_kept) {
        // The model's mask too, which the panels of the families without one of their own read.
        if (kept.family == family && kept.budget == budget && kept.query == query && kept.offsets == offsets
            && kept.params.batch.attention == params.batch.attention
            && !ParamInputs::differ(kept.params, params, panel.inputs))
            return kept.data;
    }
    return std::nullopt;
}

void keepPanel(Encoding family, const Params &params, std::int64_t query, const OffsetPixels &offsets,
               std::int64_t budget, const FamilyPanelData &data)
{
    const QMutexLocker lock(&g_keptMutex);
    KeptPanel kept {family, budget, query, offsets, params, data};
    kept.params.embeddings.reset(); // no panel reads a loaded matrix: it is not held here
    for (KeptPanel &k : g_kept) {
        if (k.family == family && k.budget == budget) {
            k = std::move(kept);
            return;
        }
    }
    g_kept.push_back(std::move(kept));
}

} // namespace

quint64 FamiliesModel::panelsComputed()
{
    return g_panelsComputed.load(std::memory_order_relaxed);
}

const FamilyPanelData *FamiliesData::panel(Encoding family) const
{
    for (const FamilyPanelData &p : panels) {
        if (p.family == family)
            return &p;
    }
    return nullptr;
}

QList<const FamilySpec *> FamiliesModel::panelFamilies()
{
    QList<const FamilySpec *> list;
    for (const FamilySpec &family : Families::all()) {
        if (FamilyPanels::of(family.encoding))
            list.append(&family);
    }
    return list;
}

QString FamiliesModel::countWord(qsizetype n)
{
    static const QStringList words = {u"no"_s,    u"one"_s,   u"two"_s,  u"three"_s, u"four"_s,   u"five"_s,  u"six"_s,
                                      u"seven"_s, u"eight"_s, u"nine"_s, u"ten"_s,   u"eleven"_s, u"twelve"_s};
    return n >= 0 && n < words.size() ? words[n] : QString::number(n);
}

QString FamiliesModel::panelCount()
{
    return countWord(panelFamilies().size());
}

FamiliesModel::KeepWords FamiliesModel::keepWords(const FigureState &state)
{
    KeepWords words;
    for (const QString &word : state.option(QString::fromUtf16(kKeep)).split(u',', Qt::SkipEmptyParts)) {
        const std::optional<Encoding> family = Families::fromWord(word.trimmed());
        if (family && FamilyPanels::of(*family))
            words.families.append(*family);
        else if (words.refused.isEmpty())
            words.refused = word.trimmed();
    }
    return words;
}

std::int64_t FamiliesModel::defaultQuery(const Params &params)
{
    return familiesDefaultQuery(params);
}

std::int64_t FamiliesModel::query(const Params &params, const FigureState &state)
{
    bool ok = false;
    const std::int64_t given = state.option(QString::fromUtf16(kQuery)).trimmed().toLongLong(&ok);
    return ok ? given : defaultQuery(params);
}

Params FamiliesModel::panelParams(const Params &params)
{
    Params drawn = params;
    const bool bothWays = BatchLayout::attendsBothWays(params);
    drawn.batch.attention = bothWays ? Attention::BothWays : Attention::Causal;
    for (const FamilySpec *family : panelFamilies()) {
        if (const FamilyPanel &panel = *FamilyPanels::of(family->encoding); panel.followMask)
            panel.followMask(drawn, bothWays);
    }
    return drawn;
}

std::optional<FamiliesData> FamiliesModel::compute(const Params &given, std::int64_t query, double lower, double upper,
                                                   int pixels, const std::atomic<bool> *cancel, std::int64_t budget)
{
    const Params params = panelParams(given);
    FamiliesData data;
    data.query = query;
    data.maxLen = params.maxLen;
    data.chosen = params.encoding;
    const OffsetPixels offsets = OffsetPixels::of(query, params.maxLen, lower, upper, pixels);
    const bool causal = params.batch.attention == Attention::Causal;
    // A sliding window (Mistral 7B's sliding_window 4096) masks the keys W or more before the
    // query, masking_utils' sliding_window_overlay (kv_idx > q_idx - sliding_window) over the
    // causal mask; posenc draws it where the model attends causally.
    if (causal && params.batch.window && *params.batch.window <= query)
        data.window = params.batch.window;
    for (const FamilySpec *family : panelFamilies()) {
        const FamilyPanel &of = *FamilyPanels::of(family->encoding);
        auto panel = keptPanel(of, family->encoding, params, query, offsets, budget);
        if (!panel) {
            panel = of.compute(params, query, offsets, budget, cancel);
            if (!panel)
                return std::nullopt;
            panel->family = family->encoding;
            g_panelsComputed.fetch_add(1, std::memory_order_relaxed);
            keepPanel(family->encoding, params, query, offsets, budget, *panel);
        }
        data.sampled = std::max(data.sampled, panel->sampled);
        // The keys the model masks are masked in every panel: a causal model's queries see no key
        // after them, whatever family places its positions (Mistral 7B's RoPE panel drew every
        // offset to +16,384, which its causal mask never scores). A model that attends both ways (an
        // encoder: MAE's ViT, ModernBERT) masks none: each family is drawn as it would run there,
        // its own mask set both ways (panelParams: ALiBi symmetric, Sandwich bidirectional, KERPLE
        // and NoPE on |k|). An encoder's family, one that attends both ways with these parameters
        // (T5's bidirectional buckets, DeBERTa's relative distances: T5Attention,
        // DisentangledSelfAttention), is drawn as its encoder computes it, keys after q included,
        // unmasked as its panel's title says.
        const bool encoder = family->bothWays(params);
        if (causal && !encoder) {
            panel->maskedAfterQuery = true;
            const QString window = data.window ? FigureText::formatCount(*data.window) : QString();
            panel->maskName = data.window
                ? u"causal mask, sliding window %1: keys after q and %1 or more before it masked"_s.arg(window)
                : u"causal mask: keys after q masked"_s;
            panel->terseMaskName = data.window ? u"masked (window %1)"_s.arg(window) : u"masked"_s;
        }
        data.panels.append(std::move(*panel));
    }
    return data;
}

QString FamiliesModel::name() const
{
    return u"families"_s;
}

QString FamiliesModel::title() const
{
    return u"One query, %1 families"_s.arg(panelCount());
}

QString FamiliesModel::summary() const
{
    return u"for one query (--query) and the current settings, each family's positional term against the key's "
           "offset: "_s
        + panelsSummary();
}

QList<FigureOption> FamiliesModel::ownOptions() const
{
    FigureOption query;
    query.key = QString::fromUtf16(kQuery);
    query.kind = FigureOption::Kind::Text;
    query.valueName = u"I"_s;
    query.help = u"the query position, 0 .. max-len - 1; empty: for alibi-attention under alibi's causal mask the "
                 "last one, else (and always for families) the middle one, (max-len - 1)/2"_s;
    FigureOption keep;
    keep.key = QString::fromUtf16(kKeep);
    keep.kind = FigureOption::Kind::Text;
    keep.valueName = u"LIST"_s;
    keep.inWindow = false;
    keep.redrawsOnly = true;
    keep.help = u"families whose panels a page short of room keeps beside the chosen one's, encoding words joined by "
                "commas (sandwich,none); the rest go one of each kind before a second"_s;
    return {query, keep};
}

QString FamiliesModel::defaultText(const QString &key, const Params &params) const
{
    if (key == QString::fromUtf16(kQuery))
        return QString::number(defaultQuery(params));
    return FigureModel::defaultText(key, params);
}

QList<Quantity> FamiliesModel::inputs(const FigureState &) const
{
    // Every family's settings: the quantities each panel reads.
    QList<Quantity> list;
    for (const FamilySpec *family : panelFamilies())
        list += FamilyPanels::of(family->encoding)->inputs;
    return list;
}

QStringList FamiliesModel::reads(const FigureState &state) const
{
    QStringList keys = FigureModel::reads(state);
    for (const QString &key : {u"attention"_s, u"sliding-window"_s})
        if (!keys.contains(key))
            keys.append(key);
    return keys;
}

bool FamiliesModel::hasPreview(const FigureRequest &request) const
{
    // The offsets in view times the frequencies of the largest of the sums.
    const PanelExtent panel = request.panels.value(0);
    const auto offsets = static_cast<std::int64_t>(std::max(0.0, panel.x.upper - panel.x.lower));
    std::int64_t perOffset = 0;
    for (const FamilySpec *family : panelFamilies()) {
        if (FamilyPanels::of(family->encoding)->evaluationsPerOffset)
            perOffset = std::max(perOffset,
                                 FamilyPanels::of(family->encoding)->evaluationsPerOffset(request.engine->params()));
    }
    return offsets * perOffset > FamilyCurves::kPreviewEvaluations;
}

QList<ParamError> FamiliesModel::checkOptions(const Params &params, const FigureState &state) const
{
    if (const QString refused = keepWords(state).refused; !refused.isEmpty())
        return {{QString::fromUtf16(kKeep),
                 u"encoding words of families with a panel in the %1 figure, joined by commas"_s.arg(name()), QString(),
                 ParamError::quoted(refused)}};
    const QString text = state.option(QString::fromUtf16(kQuery)).trimmed();
    if (text.isEmpty())
        return {};
    bool ok = false;
    const std::int64_t value = text.toLongLong(&ok);
    if (ok && value >= 0 && value < params.maxLen)
        return {};
    return {{QString::fromUtf16(kQuery),
             u"an integer in [0, %1]: a query position of the %2 figure"_s.arg(params.maxLen - 1).arg(name()),
             QString(), ParamError::quoted(text)}};
}

FigureResult FamiliesModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Params &params = request.engine->params();
    const PanelExtent panel = request.panels.value(0);
    const std::int64_t budget
        = request.detail == Detail::Preview ? FamilyCurves::kPreviewEvaluations : FamilyCurves::kMaxEvaluations;
    auto data = compute(params, query(params, request.state), panel.x.lower, panel.x.upper, panel.pixels().width(),
                        &cancel, budget);
    if (data)
        data->preview = request.detail == Detail::Preview && data->sampled > 0;
    if (!data)
        return {};
    return {std::make_shared<const FamiliesData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
