// One frequency at every pair (ApplyOneFrequency.h).
#include "check/rope/ApplyOneFrequency.h"

#include "check/FitNumbers.h"
#include "core/rope/RopeFrequencies.h"

#include <cmath>
#include <limits>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::ApplyOneFrequency {

namespace {

constexpr double kTurn = 2.0 * std::numbers::pi;

// The angle every judged pair of a row shares, or NaN where they differ beyond their uncertainty
// (a whole row unjudged: NaN too).
double sharedAngle(const std::vector<double> &angle, const std::vector<double> &unc)
{
    double first = std::numeric_limits<double>::quiet_NaN(), firstUnc = 0.0;
    for (std::size_t k = 0; k < angle.size(); ++k) {
        if (std::isnan(angle[k]) || !(unc[k] < 0.1))
            continue;
        if (std::isnan(first)) {
            first = angle[k];
            firstUnc = unc[k];
        } else if (std::fabs(std::remainder(angle[k] - first, kTurn)) > 4.0 * (unc[k] + firstUnc) + 1e-6) {
            return std::numeric_limits<double>::quiet_NaN();
        }
    }
    return first;
}

} // namespace

bool name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared)
{
    if (r.geometry.pairs() < 2)
        return false;
    const std::vector<std::int64_t> sample = ApplyPairs::sampleRows(x.rows());
    const auto position = [&](std::int64_t p) { return declared.ids.empty() ? p : declared.ids[std::size_t(p)]; };
    std::vector<double> angle(std::size_t(r.geometry.pairs())), unc(angle.size());
    // The frequency from the rows at positions 1 (where its angle is less than a turn), checked at every row.
    std::vector<std::pair<std::int64_t, double>> rows;
    std::vector<double> atOne;
    for (const std::int64_t p : sample) {
        ApplyPairs::rowAngles(x, y, p, r.geometry, u, angle.data(), nullptr, unc.data());
        const double shared = sharedAngle(angle, unc);
        if (std::isnan(shared))
            return false;
        rows.emplace_back(position(p), shared);
        if (position(p) == 1)
            atOne.push_back(shared);
    }
    if (atOne.empty() || rows.size() < 3)
        return false;
    const double w = FitNumbers::median(atOne);
    for (const auto &[at, shared] : rows) {
        const double off = std::remainder(shared - double(at) * w, kTurn);
        if (std::fabs(off) > std::max(1e-4, 0x1p-21 * double(at) * std::fabs(w)))
            return false;
    }
    const double shown = std::fabs(w - std::round(w)) < 1e-5 ? std::round(w) : w;
    const QString one = u"every pair of each row turns by one angle, %1 radians a position: inv_freq is %1 at each of "
                        "the %2 pairs, where 1 / base^(2i / dim) gives each pair its own (modeling_rope_utils.py, "
                        "_compute_default_rope_parameters)"_s.arg(shown)
                            .arg(r.geometry.pairs());
    const QString cause = shown == 1.0
        ? u"; 1 = base^0: the exponent 2i / dim is 0 at every pair, as an integer division gives it "
          "(LeetCUDA#289: powf(theta, token_idx / (N * 2)) with ints), or a rope_theta of 1"_s
        : u"; the pair index i dropped from the exponent"_s;
    result.rotation = r.geometry.rotation;
    result.table = r.geometry.rotation;
    result.attentionFactor = r.factor;
    result.notes.clear();
    if (!declared.reference) {
        result.verdict = CheckVerdict::Unknown;
        result.diagnosis = u"Y is X turned, %1 pairs, but not by RoPE's frequencies: "_s.arg(
                               ApplyPairs::layoutWords(r.geometry.rotation))
            + one + cause + u"; declare the reference (--expect rope and its flags) to have it named"_s;
        return true;
    }
    const std::vector<double> declaredW = RopeFrequencies::schedule(*declared.reference).w;
    bool equal = true;
    for (const double v : declaredW)
        equal = equal && std::fabs(v / w - 1.0) < 1e-6;
    if (equal)
        return false;
    result.verdict = CheckVerdict::Mistake;
    result.mistakes.append(kFrequenciesEqual);
    result.diagnosis = one + cause + u"; the reference declared turns pair i at inv_freq[i], %1 down to %2"_s.arg(
                                         declaredW.empty() ? 0.0 : declaredW.front())
                                         .arg(declaredW.empty() ? 0.0 : declaredW.back());
    return true;
}

} // namespace posenc::ApplyOneFrequency
