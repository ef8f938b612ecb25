// KERPLE's panel of the families figure (FamilyPanel.h): the bias of each head against the offset.
#include "render/data/HeadBiasPanel.h"

#include "core/NumberText.h"
#include "core/kerple/KerpleBias.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

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

// The bias at offset k: causal, KERPLE's tril (KerpleBias::distance: 0 after the query); both
// ways, on the distance |k| on either side, as a model that attends both ways would run it.
double biasAt(const KerpleParams &p, std::int64_t offset, bool bothWays)
{
    return KerpleBias::bias(p, bothWays ? -std::abs(offset) : offset);
}

// Head `head`'s bias over the pixels, each pixel the least and the most of its offsets: the bias
// falls with the distance, so they lie at its ends (and at 0 where a pixel holds the query both ways).
FamilyCurve headCurve(const KerpleParams &p, std::int64_t head, const OffsetPixels &offsets, bool bothWays)
{
    KerpleParams one = p;
    one.head = head;
    FamilyCurve curve;
    for (std::size_t k = 0; k < offsets.starts.size(); ++k) {
        const std::int64_t first = offsets.starts[k], last = offsets.end(k);
        const double a = biasAt(one, first, bothWays), b = biasAt(one, last, bothWays);
        const double top = first <= 0 && last >= 0 ? biasAt(one, 0, bothWays) : std::max(a, b);
        curve.offset.append(static_cast<double>(first));
        curve.lo.append(std::min(a, b));
        curve.hi.append(std::max(top, std::max(a, b)));
    }
    return curve;
}

// The families figure's panel: a line per drawn head, its shade by its r2 (how soon the bias turns
// logarithmic); under a causal model's mask the keys after the query hold distance 0's bias, 0
// (tril); a model that attends both ways (params.batch.attention, FamiliesModel::panelParams)
// biases them by their distance |k| as those before it.
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
    const bool bothWays = params.batch.attention == Attention::BothWays;
    data.maskedAfterQuery = !bothWays;
    data.maskName = u"KERPLE causal: keys after q at distance 0 (tril, bias 0), the attention mask hides them"_s;
    data.terseMaskName = u"KERPLE: distance 0, masked"_s;
    data.note = u"KERPLE: −r1·log(1 + r2·|k|) for each of %1 heads, %2%3"_s.arg(p.heads).arg(
        KerpleBias::dtypeWord(p.dtype), bothWays ? u", both ways"_s : QString());
    const QList<std::int64_t> heads = KerpleBias::drawnHeads(p.heads, p.head);
    double least = 0.0, most = 0.0;
    for (const std::int64_t h : heads) {
        const double r = std::log(KerpleBias::r2(p, h));
        least = h == heads.front() ? r : std::min(least, r);
        most = h == heads.front() ? r : std::max(most, r);
    }
    // Heads of one r1 and one r2 (one value each, given for every head) draw one curve, each head's
    // line over the others': the last head's entry says so, not a number no curve of its own shows.
    bool alike = p.heads > 1;
    for (std::int64_t h = 2; h <= p.heads; ++h)
        alike = alike && KerpleBias::r1(p, h) == KerpleBias::r1(p, 1) && KerpleBias::r2(p, h) == KerpleBias::r2(p, 1);
    for (const std::int64_t h : heads) {
        FamilyPanelLine line;
        line.curve = headCurve(p, h, offsets, bothWays);
        const double r = std::log(KerpleBias::r2(p, h));
        line.shade = most > least ? 0.8 * (most - r) / (most - least) : 0.0;
        line.emphasised = h == p.head;
        if (h == p.head || h == heads.front() || h == heads.back()) {
            line.name = u"KERPLE head %1 (r1 = %2, r2 = %3)"_s.arg(h).arg(NumberText::compact(KerpleBias::r1(p, h), 3),
                                                                          NumberText::compact(KerpleBias::r2(p, h), 3));
            line.terseName = u"KERPLE head %1"_s.arg(h);
        }
        if (alike && h == heads.back() && h != p.head) {
            line.name = u"KERPLE heads 1–%1 alike (r1 = %2, r2 = %3)"_s.arg(p.heads).arg(
                NumberText::compact(KerpleBias::r1(p, h), 3), NumberText::compact(KerpleBias::r2(p, h), 3));
            line.terseName = u"KERPLE heads alike"_s;
        }
        data.lines.append(std::move(line));
    }
    return data;
}

std::optional<FamilyPanelPoint> kerplePanelValue(const Params &params, std::int64_t query, std::int64_t key)
{
    if (kerpleProblem(params))
        return std::nullopt;
    const bool bothWays = params.batch.attention == Attention::BothWays;
    const std::int64_t offset = key - query;
    const std::int64_t r = bothWays ? std::abs(offset) : KerpleBias::distance(offset);
    return HeadBiasPanel::point(biasAt(params.kerple, offset, bothWays), offset, params.kerple.head, r);
}

} // namespace

FamilyPanel makeKerplePanel()
{
    FamilyPanel panel = HeadBiasPanel::named(u"KERPLE"_s, u"bias per head"_s, FamilyPanelStyle::Lines);
    // Its heads in cividis' shades and dashed, ALiBi's beside it in viridis' and solid: the two
    // panels' head 1, keyed side by side, took one colour and one pen.
    panel.lineColormap = Colormap::Cividis;
    panel.lineStyle = Qt::DashLine;
    panel.inputs = {Quantity::KerpleBias};
    panel.compute = kerplePanelData;
    panel.valueAt = kerplePanelValue;
    return panel;
}

} // namespace posenc
