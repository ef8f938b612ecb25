// Sandwich (docs/ARCHITECTURE.md, Encoding families): no term added to X; head h adds the
// sinusoid's PE_i . PE_j, shifted by -d/2 and divided by 8h/H, to its attention scores (Chi et al.
// 2023), as NVIDIA NeMo's SandwichRelativePositionEmbedding computes it.
#include "check/sandwich/SandwichTableCheck.h"
#include "core/FamilySpec.h"

#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/sandwich/SandwichBias.h"
#include "core/sandwich/SandwichParamRows.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

Description::Entries sandwichEntries(const Params &params)
{
    const SandwichBias::Description d = SandwichBias::describe(params);
    return {
        {u"heads"_s, params.sandwich.heads},
        {u"head"_s, params.sandwich.head},
        {u"head_dim"_s, params.sandwich.headDim},
        {u"mask"_s, ParamText::get(params, u"sandwich-mask"_s)},
        {u"terms"_s, d.terms},
        {u"inv_freq_first"_s, d.firstFrequency},
        {u"inv_freq_last"_s, d.lastFrequency},
        {u"scale"_s, d.scale},
        {u"bias_distance_1"_s, d.nearBias},
        {u"farthest_bias"_s, d.farthestBias},
        {u"far_mean"_s, d.farMean},
        {u"after_query"_s, d.afterQuery},
    };
}

// Why the family's settings give no bias (its rows are checked only while it is chosen).
std::optional<QString> problem(const SandwichParams &p)
{
    if (p.heads < 1 || p.heads > SandwichParams::kMaxHeads)
        return u"heads out of range"_s;
    if (p.head < 1 || p.head > p.heads)
        return u"head K not within 1..H"_s;
    if (p.headDim < 1 || p.headDim > SandwichParams::kMaxHeadDim)
        return u"head dim out of range"_s;
    return std::nullopt;
}

// The offsets of `offsets` at or before the query: the pixels that start at most at 0.
OffsetPixels atOrBefore(const OffsetPixels &offsets)
{
    OffsetPixels before = offsets;
    before.last = std::min<std::int64_t>(offsets.last, 0);
    std::erase_if(before.starts, [&before](std::int64_t start) { return start > before.last; });
    return before;
}

// The families figure's panel: head K's bias against the offset, each pixel the least and the most
// of its offsets; under the causal mask the keys after the query hold the bias of distance 0.
std::optional<FamilyPanelData> sandwichPanelData(const Params &params, std::int64_t, const OffsetPixels &offsets,
                                                 std::int64_t budget, const std::atomic<bool> *cancel)
{
    FamilyPanelData data;
    const SandwichParams &p = params.sandwich;
    data.problem = problem(p);
    if (data.problem) {
        data.note = u"Sandwich: %1"_s.arg(*data.problem);
        return data;
    }
    const bool causal = p.mask == SandwichMask::Causal;
    data.maskedAfterQuery = causal;
    data.maskName = u"Sandwich causal: keys after q at distance 0 (tril), the attention mask hides them"_s;
    data.terseMaskName = u"Sandwich: distance 0, masked"_s;
    data.note = u"Sandwich: head %1 of %2, (Σₖ cos(r·wₖ) − d/2)/(8K/H), d = %3, %4"_s.arg(p.head)
                    .arg(p.heads)
                    .arg(p.headDim)
                    .arg(causal ? u"causal"_s : u"bidirectional"_s);
    const double scale = SandwichBias::scale(p.heads, p.head);
    const double shift = -0.5 * static_cast<double>(p.headDim) / scale;
    const std::vector<double> w = SandwichBias::frequencies(p.headDim);
    auto curve = FamilyCurves::cosineSum(causal ? atOrBefore(offsets) : offsets, w, 1.0 / scale, shift, {}, budget,
                                         &data.sampled, cancel);
    if (!curve)
        return std::nullopt;
    data.curve = std::move(*curve);
    if (causal && offsets.last > 0) {
        const double after = SandwichBias::afterQuery(p.headDim, scale);
        for (const std::int64_t k : {std::max<std::int64_t>(offsets.first, 1), offsets.last}) {
            data.curve.offset.append(static_cast<double>(k));
            data.curve.lo.append(after);
            data.curve.hi.append(after);
        }
    }
    return data;
}

std::optional<FamilyPanelPoint> sandwichPanelValue(const Params &params, std::int64_t query, std::int64_t key)
{
    if (problem(params.sandwich))
        return std::nullopt;
    const std::int64_t r = SandwichBias::distance(query, key, params.sandwich.mask);
    return FamilyPanelPoint {
        SandwichBias::bias(params.sandwich, query, key),
        u"k = %1: head %2's bias, distance %3"_s.arg(key - query).arg(params.sandwich.head).arg(r)};
}

FamilyPanel sandwichPanel()
{
    FamilyPanel panel;
    panel.style = FamilyPanelStyle::Band;
    panel.label = u"Sandwich bias"_s;
    panel.terseLabel = u"Sandwich"_s;
    panel.summaryOwner = u"Sandwich's"_s;
    panel.summaryNoun = u"bias of head K"_s;
    panel.colour = 0xE69F00;
    panel.bandValueName = u"Sandwich bias of head K"_s;
    panel.inputs = {Quantity::SandwichBias};
    panel.evaluationsPerOffset
        = [](const Params &params) { return std::max<std::int64_t>(SandwichBias::terms(params.sandwich.headDim), 1); };
    panel.compute = sandwichPanelData;
    panel.valueAt = sandwichPanelValue;
    return panel;
}

} // namespace

FamilySpec makeSandwichFamily()
{
    FamilySpec family;
    family.word = u"sandwich"_s;
    family.kind = FamilyKind::ScoreBias;
    family.help = u"sandwich (the sinusoid's PE·PE per head)"_s;
    family.formula = u"no term added; head h adds (Σ<sub>k</sub> cos(r/10000<sup>2k/d</sup>) − d/2)/(8h/H) at "
                     "distance r = |i − j| (Chi et al. 2023; NVIDIA NeMo's Sandwich)"_s;
    family.heading = u"Sandwich"_s;
    family.rows = SandwichParamRows::rows;
    family.describe = sandwichEntries;
    family.describeSource = u"SandwichRelativePositionEmbedding.forward of NVIDIA NeMo"_s;
    family.describeKeys = {
        {u"heads, head, head_dim"_s, u"H, the head K (1..H) and the per-head dim d"_s},
        {u"mask"_s, u"causal (tril: distance 0 after the query) or bidirectional"_s},
        {u"terms"_s, u"ceil(d/2): the k of torch.arange(1, d/2 + 1), one more than d/2 for an odd d"_s},
        {u"inv_freq_first, inv_freq_last"_s, u"1/10000^(2k/d) for k = 1 and k = terms"_s},
        {u"scale"_s, u"8K/H, the divisor of head K's bias"_s},
        {u"bias_distance_1"_s, u"head K's bias of a key 1 position away"_s},
        {u"farthest_bias"_s, u"head K's bias at distance max-len - 1"_s},
        {u"far_mean"_s, u"-d/2 / scale: the mean the bias tends to over distances far past 1/inv_freq_last"_s},
        {u"after_query"_s, u"(terms - d/2) / scale: what a causal table holds after the query (0 for an even d)"_s},
    };
    // X is s·E alone: the bias of head K, the heads against the distance, and the families.
    family.defaultFigures
        = {{u"sandwich-bias"_s, {}}, {u"sandwich-distance"_s, {}}, {u"families"_s, {}}, {u"magnitudes"_s, {}}};
    family.panel = sandwichPanel();
    family.tableHypothesis = SandwichTableCheck::hypothesis();
    family.layerWords = [](const Params &p) {
        return u"Sandwich, %1 heads, head dim %2"_s.arg(p.sandwich.heads).arg(p.sandwich.headDim);
    };
    return family;
}

} // namespace posenc
