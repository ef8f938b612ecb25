// ALiBi's panel of the families figure (FamilyPanel.h): the bias of each head against the offset.
#include "render/data/HeadBiasPanel.h"

#include "core/NumberText.h"
#include "core/alibi/AlibiSlopes.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The colour of `slope` among slopes from `steepest` down to `gentlest`, as the ALiBi figures draw
// a head (render's AlibiPlot::slopeColor): viridis up to 0.8 on a log scale.
double slopeShade(double slope, double steepest, double gentlest)
{
    const double span = std::log2(steepest / gentlest);
    const double t = span > 0.0 ? 0.8 * std::log2(steepest / slope) / span : 0.0;
    return std::clamp(t, 0.0, 0.8);
}

// The families figure's panel: a line per drawn head, exact through the offsets in view, 0 and
// (causal) no key after the query.
std::optional<FamilyPanelData> alibiPanelData(const Params &params, std::int64_t query, const OffsetPixels &offsets,
                                              std::int64_t, const std::atomic<bool> *)
{
    FamilyPanelData data;
    const AlibiParams &alibi = params.alibi;
    data.maskedAfterQuery = alibi.mask == AlibiMask::Causal;
    data.maskName = u"ALiBi causal: keys after q masked"_s;
    data.terseMaskName = u"ALiBi: masked"_s;
    data.note = u"ALiBi: −m·|k| for each of %1 heads, %2"_s.arg(alibi.heads).arg(AlibiSlopes::maskText(alibi.mask));
    if (offsets.count() == 0)
        return data;
    const std::int64_t shownLast = data.maskedAfterQuery ? std::min<std::int64_t>(offsets.last, 0) : offsets.last;
    QList<double> points;
    if (offsets.first <= shownLast) {
        points.append(static_cast<double>(offsets.first));
        if (offsets.first < 0 && shownLast > 0)
            points.append(0.0);
        if (shownLast != offsets.first)
            points.append(static_cast<double>(shownLast));
    }
    const std::vector<double> slopes = AlibiSlopes::all(alibi.heads);
    const QList<std::int64_t> heads = AlibiSlopes::drawnHeads(alibi.heads, alibi.head);
    double steepest = 0.0, gentlest = 0.0;
    for (const std::int64_t k : heads) {
        const double m = slopes[static_cast<std::size_t>(k - 1)];
        steepest = k == heads.front() ? m : std::max(steepest, m);
        gentlest = k == heads.front() ? m : std::min(gentlest, m);
    }
    for (const std::int64_t k : heads) {
        const double m = slopes[static_cast<std::size_t>(k - 1)];
        FamilyPanelLine line;
        for (const double offset : points) {
            line.curve.offset.append(offset);
            line.curve.lo.append(AlibiSlopes::bias(m, query, query + static_cast<std::int64_t>(offset), alibi.mask));
        }
        line.curve.hi = line.curve.lo;
        line.shade = slopeShade(m, steepest, gentlest);
        line.emphasised = k == alibi.head;
        // The steepest, the gentlest and head K are named: the colours run between the first two.
        if ((m == steepest || m == gentlest || k == alibi.head) && heads.size() > 1) {
            line.name = u"ALiBi head %1 (m = %2)"_s.arg(k).arg(NumberText::compact(m, 3));
            line.terseName = u"ALiBi head %1"_s.arg(k);
        }
        data.lines.append(std::move(line));
    }
    return data;
}

std::optional<FamilyPanelPoint> alibiPanelValue(const Params &params, std::int64_t query, std::int64_t key)
{
    const AlibiParams &alibi = params.alibi;
    const double bias = AlibiSlopes::bias(AlibiSlopes::of(alibi.heads, alibi.head), query, key, alibi.mask);
    return HeadBiasPanel::point(bias, key - query, alibi.head);
}

} // namespace

FamilyPanel makeAlibiPanel()
{
    FamilyPanel panel = HeadBiasPanel::named(u"ALiBi"_s, u"bias per head"_s, FamilyPanelStyle::Lines);
    panel.inputs = {Quantity::AlibiSlopes, Quantity::AlibiBias};
    panel.compute = alibiPanelData;
    panel.valueAt = alibiPanelValue;
    // Drawn with the model's mask (FamiliesModel::panelParams).
    panel.followMask
        = [](Params &p, bool bothWays) { p.alibi.mask = bothWays ? AlibiMask::Symmetric : AlibiMask::Causal; };
    return panel;
}

} // namespace posenc
