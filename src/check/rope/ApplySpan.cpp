// Which columns --apply's rotation turns (ApplySpan.h).
#include "check/rope/ApplySpan.h"

#include "check/FamilyCheck.h"
#include "core/rope/RopeFrequencies.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ApplySpan {

// The rotary width 2h of a half-layout part (rotate_half: columns i and i + h) whose slowest pairs
// Y's format leaves as they were: the pairs that turn (either column moved) are the first k of the
// h, the rest of [0, 2h) and everything after it pass. A pair turned by less than the format's
// rounding over these positions (theta^(-2i/r) at a large theta, in bfloat16) is no pass column;
// its frequency is read with the others. h is where the second half's first column turns after
// the first half's run. Nothing for another pattern.
std::optional<std::int64_t> slowPairsWidth(const std::vector<bool> &pass)
{
    const auto d = std::int64_t(pass.size());
    const auto moved = [&](std::int64_t j) { return !pass[std::size_t(j)]; };
    std::int64_t k = 0;
    while (k < d && moved(k))
        ++k;
    std::int64_t h = k;
    while (h < d && !moved(h))
        ++h;
    if (k == 0 || h == k || h == d || 2 * h > d)
        return std::nullopt;
    bool turning = true;
    for (std::int64_t i = 0; i < h; ++i) {
        const bool turned = moved(i) || moved(i + h);
        if (turned && !turning)
            return std::nullopt;
        turning = turned;
    }
    for (std::int64_t j = 2 * h; j < d; ++j) {
        if (moved(j))
            return std::nullopt;
    }
    return 2 * h;
}

// HF's partial rotary turns the first rotary_dim columns and passes the rest; the pass columns
// first are the rotated part misplaced; pass columns elsewhere are pairs of frequency 0
// (proportional RoPE's), read with the whole head.
Span spanOf(const std::vector<bool> &pass)
{
    const auto d = std::int64_t(pass.size());
    const auto passing = std::int64_t(std::count(pass.begin(), pass.end(), true));
    if (passing == 0)
        return {Placement::Whole, 0, d};
    if (passing == d)
        return {Placement::None, 0, d};
    const std::int64_t r = d - passing;
    const bool tail = std::all_of(pass.begin() + r, pass.end(), [](bool b) { return b; });
    const bool head = std::all_of(pass.begin(), pass.begin() + passing, [](bool b) { return b; });
    if (r % 2 == 0 && tail)
        return {Placement::First, 0, r};
    if (r % 2 == 0 && head)
        return {Placement::Last, passing, r};
    if (const auto width = slowPairsWidth(pass); width && *width < d)
        return {Placement::First, 0, *width};
    return {Placement::Scattered, 0, d};
}

// The partial rotary's own mistakes: the rotated part's place, the rotary_dim declared, and
// frequencies whose exponent runs over head_dim (a variant theta t over rotary_dim r is theta
// t^(d/r) over head_dim d: a published theta there is that mistake).
QStringList partialLines(ApplyCheck::Result &result, const Span &span, const ApplyCheck::Declared &declared)
{
    QStringList lines;
    const std::int64_t d = result.headDim, r = result.rotaryDim;
    if (span.placement == Placement::Last) {
        result.mistakes.append(ApplyCheck::kRotaryPartMisplaced);
        lines.append(u"the rotated part is the last %1 columns and the first %2 pass through unchanged: HF turns "
                     "q[..., :rotary_dim] and passes q[..., rotary_dim:] after it (modeling_gpt_neox.py, "
                     "apply_rotary_pos_emb)"_s.arg(r)
                         .arg(d - r));
    }
    // Proportional's frequencies where a partial rotary of as many turning pairs is declared: the
    // pairs (i, i + head_dim / 2) at theta^(-2i / head_dim), the rest at frequency 0
    // (_compute_proportional_rope_parameters), where HF's default type turns the first rotary_dim
    // columns, pairs (i, i + rotary_dim / 2) at theta^(-2i / rotary_dim)
    // (_compute_default_rope_parameters, dim = int(head_dim * partial_rotary_factor)).
    const RopeParams *found = result.params ? &result.params->rope : nullptr;
    const bool proportional = found && found->type == RopeType::Proportional && r == d && declared.rotaryDim
        && *declared.rotaryDim < d && *declared.rotaryDim == 2 * RopeFrequencies::livePairs(*found);
    if (proportional) {
        result.mistakes.append(ApplyCheck::kRotaryDimExponent);
        lines.append(u"Y turns proportional RoPE's pairs: %1 pairs (i, i + %2) at rope_theta^(-2i / %3), the other "
                     "%4 at frequency 0, where %5 gives rotary_dim %6: pairs (i, i + %7) of the first %6 columns "
                     "at rope_theta^(-2i / %6) (_compute_default_rope_parameters divides by dim = int(head_dim * "
                     "partial_rotary_factor), not head_dim)"_s.arg(*declared.rotaryDim / 2)
                         .arg(d / 2)
                         .arg(d)
                         .arg((d - *declared.rotaryDim) / 2)
                         .arg(declared.rotaryDimSource)
                         .arg(*declared.rotaryDim)
                         .arg(*declared.rotaryDim / 2));
    } else if (declared.rotaryDim && *declared.rotaryDim != r) {
        result.mistakes.append(ApplyCheck::kRotaryDim);
        lines.append(u"Y turns %1 of the %2 columns (rotary_dim %1), but %3 gives rotary_dim %4 (%5)"_s.arg(r)
                         .arg(d)
                         .arg(declared.rotaryDimSource)
                         .arg(*declared.rotaryDim)
                         .arg(declared.rotaryDimRule));
    }
    const bool variant = result.correctAgainst.isEmpty() && result.mistakes.isEmpty();
    if (r < d && variant && result.params && result.params->rope.type == RopeType::Default) {
        const double theta = std::pow(result.params->rope.theta, double(d) / double(r));
        std::vector<double> thetas {10000.0};
        for (const PublishedForm &form : FamilyChecks::of(Encoding::Rope).table->publishedForms(r))
            thetas.push_back(form.params.rope.theta);
        const bool published
            = std::any_of(thetas.begin(), thetas.end(), [&](double t) { return std::fabs(theta / t - 1.0) < 1e-4; });
        if (published) {
            result.mistakes.append(ApplyCheck::kRotaryDimExponent);
            lines.append(u"inv_freq's exponent runs over head_dim %1, not rotary_dim %2: 1 / %3^(2i / %1) over %4 "
                         "pairs reads as rope_theta %5 over rotary_dim; _compute_default_rope_parameters divides "
                         "by dim = int(head_dim * partial_rotary_factor)"_s.arg(d)
                             .arg(r)
                             .arg(std::round(theta))
                             .arg(r / 2)
                             .arg(result.params->rope.theta));
        }
    }
    return lines;
}

} // namespace posenc::ApplySpan
