// Sandwich's panel of the families figure (FamilyPanel.h): head K's bias against the offset.
#include "render/data/HeadBiasPanel.h"

#include "core/sandwich/SandwichBias.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Why the family's settings give no bias (its rows are checked only while it is chosen).
std::optional<QString> sandwichProblem(const SandwichParams &p)
{
    if (auto problem = HeadBiasPanel::headsProblem(p.heads, SandwichParams::kMaxHeads, p.head))
        return problem;
    if (p.headDim < 1 || p.headDim > SandwichParams::kMaxHeadDim)
        return u"head dim out of range"_s;
    return std::nullopt;
}

// The offsets of `offsets` at or before the query: the pixels that start at most at 0.
OffsetPixels offsetsAtOrBefore(const OffsetPixels &offsets)
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
    data.problem = sandwichProblem(p);
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
    auto curve = FamilyCurves::cosineSum(causal ? offsetsAtOrBefore(offsets) : offsets, w, 1.0 / scale, shift, {},
                                         budget, &data.sampled, cancel);
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
    if (sandwichProblem(params.sandwich))
        return std::nullopt;
    const std::int64_t r = SandwichBias::distance(query, key, params.sandwich.mask);
    return HeadBiasPanel::point(SandwichBias::bias(params.sandwich, query, key), key - query, params.sandwich.head, r);
}

} // namespace

FamilyPanel makeSandwichPanel()
{
    FamilyPanel panel = HeadBiasPanel::named(u"Sandwich"_s, u"bias of head K"_s, FamilyPanelStyle::Band);
    panel.colour = 0xE69F00;
    panel.bandValueName = u"Sandwich bias of head K"_s;
    panel.inputs = {Quantity::SandwichBias};
    panel.evaluationsPerOffset
        = [](const Params &params) { return std::max<std::int64_t>(SandwichBias::terms(params.sandwich.headDim), 1); };
    panel.compute = sandwichPanelData;
    panel.valueAt = sandwichPanelValue;
    // Drawn with the model's mask (FamiliesModel::panelParams).
    panel.followMask = [](Params &p, bool bothWays) {
        p.sandwich.mask = bothWays ? SandwichMask::Bidirectional : SandwichMask::Causal;
    };
    return panel;
}

} // namespace posenc
