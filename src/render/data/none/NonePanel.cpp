// NoPE's panel of the families figure (FamilyPanel.h): the term a layer without positions gives
// the keys of one query, none at all, beside the causal mask that hides the keys after it: the only
// way order reaches such a layer (the nope-order lesson and figure show what it makes of that).
#include "render/data/FamilyPanel.h"

#include "core/NumberText.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A line at 0 over the keys the query sees (offsets up to 0: the keys 0 .. q), the keys after it
// masked as a causal layer masks them.
std::optional<FamilyPanelData> nopePanelData(const Params &, std::int64_t query, const OffsetPixels &offsets,
                                             std::int64_t, const std::atomic<bool> *)
{
    FamilyPanelData data;
    data.maskedAfterQuery = true;
    // A term of none: the axis runs -1 .. 1 around it, as a line alone would give no range.
    data.least = -1.0;
    data.most = 1.0;
    data.maskName = u"NoPE causal: keys after q masked"_s;
    data.terseMaskName = u"NoPE: masked"_s;
    const QString keys = NumberText::count(query + 1);
    data.note = query == 0 ? u"NoPE: no term; the one key q sees takes all its weight"_s
                           : u"NoPE: no term; before training the %1 keys q sees weigh 1/%1 each"_s.arg(keys);
    if (offsets.count() == 0)
        return data;
    const std::int64_t first = std::max<std::int64_t>(offsets.first, -query);
    const std::int64_t last = std::min<std::int64_t>(offsets.last, 0);
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

std::optional<FamilyPanelPoint> nopePanelValue(const Params &, std::int64_t query, std::int64_t key)
{
    FamilyPanelPoint point;
    if (key <= query && key >= 0)
        point.value = 0.0;
    point.name = key > query ? u"k = %1: masked (after the query)"_s.arg(key - query)
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
    panel.summaryNoun = u"term (none) and causal mask"_s;
    panel.inputs = {};
    panel.compute = nopePanelData;
    panel.valueAt = nopePanelValue;
    return panel;
}

} // namespace posenc
