// KERPLE's panel of the families figure (FamilyPanel.h): the bias of each head against the offset.
#include "render/data/HeadBiasPanel.h"

#include "core/NumberText.h"
#include "core/kerple/KerpleBias.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Why the family's settings give no bias (its rows are checked only while it is chosen).
std::optional<QString> kerpleProblem(const Params &params)
{
    const KerpleParams &p = params.kerple;
    if (auto problem = HeadBiasPanel::headsProblem(p.heads, KerpleParams::kMaxHeads, p.head))
        return problem;
    for (const std::vector<double> *list : {&p.r1, &p.r2}) {
        if (list->empty() || (list->size() != 1 && std::int64_t(list->size()) != p.heads))
            return u"r1 and r2 need one value or H"_s;
    }
    return std::nullopt;
}

// Head `head`'s bias over the pixels, each pixel the least and the most of its offsets: the bias
// falls with the distance, so they lie at its ends.
FamilyCurve headCurve(const KerpleParams &p, std::int64_t head, const OffsetPixels &offsets)
{
    KerpleParams one = p;
    one.head = head;
    FamilyCurve curve;
    for (std::size_t k = 0; k < offsets.starts.size(); ++k) {
        const double a = KerpleBias::bias(one, offsets.starts[k]), b = KerpleBias::bias(one, offsets.end(k));
        curve.offset.append(static_cast<double>(offsets.starts[k]));
        curve.lo.append(std::min(a, b));
        curve.hi.append(std::max(a, b));
    }
    return curve;
}

// The families figure's panel: a line per drawn head, its shade by its r2 (how soon the bias turns
// logarithmic); the keys after the query hold distance 0's bias, 0 (tril).
std::optional<FamilyPanelData> kerplePanelData(const Params &params, std::int64_t, const OffsetPixels &offsets,
                                               std::int64_t, const std::atomic<bool> *)
{
    FamilyPanelData data;
    data.problem = kerpleProblem(params);
    if (data.problem) {
        data.note = u"KERPLE: %1"_s.arg(*data.problem);
        return data;
    }
    const KerpleParams &p = params.kerple;
    data.maskedAfterQuery = true;
    data.maskName = u"KERPLE causal: keys after q at distance 0 (tril, bias 0), the attention mask hides them"_s;
    data.terseMaskName = u"KERPLE: distance 0, masked"_s;
    data.note
        = u"KERPLE: −r1·log(1 + r2·|k|) for each of %1 heads, %2"_s.arg(p.heads).arg(KerpleBias::dtypeWord(p.dtype));
    const QList<std::int64_t> heads = KerpleBias::drawnHeads(p.heads, p.head);
    double least = 0.0, most = 0.0;
    for (const std::int64_t h : heads) {
        const double r = std::log(KerpleBias::r2(p, h));
        least = h == heads.front() ? r : std::min(least, r);
        most = h == heads.front() ? r : std::max(most, r);
    }
    for (const std::int64_t h : heads) {
        FamilyPanelLine line;
        line.curve = headCurve(p, h, offsets);
        const double r = std::log(KerpleBias::r2(p, h));
        line.shade = most > least ? 0.8 * (most - r) / (most - least) : 0.0;
        line.emphasised = h == p.head;
        if (h == p.head || h == heads.front() || h == heads.back()) {
            line.name = u"KERPLE head %1 (r1 = %2, r2 = %3)"_s.arg(h).arg(NumberText::compact(KerpleBias::r1(p, h), 3),
                                                                          NumberText::compact(KerpleBias::r2(p, h), 3));
            line.terseName = u"KERPLE head %1"_s.arg(h);
        }
        data.lines.append(std::move(line));
    }
    return data;
}

std::optional<FamilyPanelPoint> kerplePanelValue(const Params &params, std::int64_t query, std::int64_t key)
{
    if (kerpleProblem(params))
        return std::nullopt;
    const std::int64_t r = KerpleBias::distance(key - query);
    return HeadBiasPanel::point(KerpleBias::bias(params.kerple, key - query), key - query, params.kerple.head, r);
}

} // namespace

FamilyPanel makeKerplePanel()
{
    FamilyPanel panel = HeadBiasPanel::named(u"KERPLE"_s, u"bias per head"_s, FamilyPanelStyle::Lines);
    panel.inputs = {Quantity::KerpleBias};
    panel.compute = kerplePanelData;
    panel.valueAt = kerplePanelValue;
    return panel;
}

} // namespace posenc
