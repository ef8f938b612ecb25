// NoPE's panel of the families figure (FamilyPanel.h): the term a layer without positions gives
// the keys of one query, none at all, beside the model's mask: a decoder's causal mask hides the
// keys after it, the only way order reaches such a layer; an encoder's hides none, and order reaches
// it not at all (the nope-order lesson and figure show what it makes of that).
#include "render/data/FamilyPanel.h"

#include "core/NumberText.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A line at 0 over the keys the query sees. A causal model's (params.batch.attention, the model's
// mask as FamiliesModel::panelParams sets it) are the keys 0 .. q, the keys after it masked: the
// mask is the only way order reaches such a layer. A model that attends both ways sees every key,
// none masked, and without positions its attention is permutation-equivariant: it cannot know
// order at all (the nope-order lesson).
std::optional<FamilyPanelData> nopePanelData(const Params &params, std::int64_t query, const OffsetPixels &offsets,
                                             std::int64_t, const std::atomic<bool> *)
{
    FamilyPanelData data;
    const bool bothWays = params.batch.attention == Attention::BothWays;
    data.maskedAfterQuery = !bothWays;
    // A term of none: the axis runs -1 .. 1 around it, as a line alone would give no range.
    data.least = -1.0;
    data.most = 1.0;
    data.maskName = u"NoPE causal: keys after q masked"_s;
    data.terseMaskName = u"NoPE: masked"_s;
    if (bothWays)
        data.note = u"NoPE both ways: no term, no mask; reordering the keys changes nothing q gets: no order at all"_s;
    else
        data.note = query == 0
            ? u"NoPE: no term; the one key q sees takes all its weight"_s
            : u"NoPE: no term; before training the %1 keys q sees weigh 1/%1 each"_s.arg(NumberText::count(query + 1));
    if (offsets.count() == 0)
        return data;
    const std::int64_t first = std::max<std::int64_t>(offsets.first, -query);
    const std::int64_t last = std::min<std::int64_t>(offsets.last, bothWays ? params.maxLen - 1 - query : 0);
    FamilyPanelLine line;
    if (first <= last) {
        line.curve.offset = {double(first), double(last)};
        line.curve.lo = {0.0, 0.0};
        line.curve.hi = line.curve.lo;
    }
    line.emphasised = true; // unnamed: the panel's label says whose line it is
    data.lines.append(std::move(line));
    return data;
}

std::optional<FamilyPanelPoint> nopePanelValue(const Params &params, std::int64_t query, std::int64_t key)
{
    FamilyPanelPoint point;
    const bool masked = key > query && params.batch.attention != Attention::BothWays;
    if (!masked && key >= 0 && key < params.maxLen)
        point.value = 0.0;
    point.name = masked ? u"k = %1: masked (after the query)"_s.arg(key - query)
                        : u"k = %1: no position term"_s.arg(key - query);
    return point;
}

} // namespace

FamilyPanel makeNonePanel()
{
    FamilyPanel panel;
    panel.style = FamilyPanelStyle::Lines;
    panel.label = u"NoPE term"_s;
    panel.terseLabel = u"NoPE"_s;
    panel.summaryOwner = u"NoPE's"_s;
    panel.summaryNoun = u"term (none) and the model's mask"_s;
    panel.inputs = {};
    panel.compute = nopePanelData;
    panel.valueAt = nopePanelValue;
    return panel;
}

} // namespace posenc
