#include "check/rope/ApplyLengths.h"

#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::ApplyLengths {

namespace {

// A pair whose angle Y's rounding leaves unknown to more than this (radians: X's pair tiny beside
// its row) tells no length either.
constexpr double kMostUncertainty = 0.01;

// The share of the sampled cells of the reference's rotated columns that equal X mixed by
// [[cos, sin], [sin, cos]] at the reference's angles and amplitude: y_a = A (x_a c + x_b s),
// y_b = A (x_b c + x_a s), each within Y's rounding and float32's of the angle.
double signLostShare(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows, double u,
                     const Params &reference, const std::vector<std::int64_t> &ids)
{
    const FrequencySchedule s = RopeFrequencies::schedule(reference);
    const std::int64_t h = s.pairs();
    if (h == 0 || 2 * h > x.cols())
        return 0.0;
    const bool half = reference.rope.layout == RopeLayout::Half;
    std::int64_t cells = 0, equal = 0;
    for (const std::int64_t p : rows) {
        const double position = double(ids.empty() ? p : ids[std::size_t(p)]);
        for (std::int64_t k = 0; k < h; ++k) {
            const std::int64_t a = half ? k : 2 * k, b = half ? k + h : 2 * k + 1;
            const double angle = position * s.w[std::size_t(k)];
            const double c = std::cos(angle), sn = std::sin(angle);
            const double xa = x(p, a), xb = x(p, b);
            const double slack = s.amplitude * (std::fabs(xa) + std::fabs(xb)) * (4.0 * u + std::fabs(angle) * 0x1p-22);
            const double ya = s.amplitude * (xa * c + xb * sn), yb = s.amplitude * (xb * c + xa * sn);
            equal += std::fabs(double(y(p, a)) - ya) <= slack + 2.0 * u * std::fabs(ya);
            equal += std::fabs(double(y(p, b)) - yb) <= slack + 2.0 * u * std::fabs(yb);
            cells += 2;
        }
    }
    return cells == 0 ? 0.0 : double(equal) / double(cells);
}

} // namespace

void name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared)
{
    if (!declared.reference || result.verdict != CheckVerdict::Unknown || !result.mistakes.isEmpty()
        || !(r.factor > 0.0))
        return;
    const std::vector<std::int64_t> rows = ApplyPairs::sampleRows(x.rows());
    const std::int64_t pairs = r.geometry.pairs();
    std::vector<double> angle(static_cast<std::size_t>(pairs)), amplitude(angle.size()), uncertainty(angle.size());
    std::int64_t judged = 0, changed = 0;
    double least = std::numeric_limits<double>::infinity(), most = 0.0;
    for (const std::int64_t p : rows) {
        ApplyPairs::rowAngles(x, y, p, r.geometry, u, angle.data(), amplitude.data(), uncertainty.data());
        for (std::size_t k = 0; k < angle.size(); ++k) {
            if (!(uncertainty[k] <= kMostUncertainty) || std::isnan(amplitude[k]))
                continue;
            ++judged;
            const double ratio = amplitude[k] / r.factor;
            least = std::min(least, ratio);
            most = std::max(most, ratio);
            changed += std::fabs(ratio - 1.0) > uncertainty[k] + r.factorUncertainty() + 8.0 * u;
        }
    }
    if (judged == 0 || 10 * changed < judged)
        return;
    result.verdict = CheckVerdict::Mistake;
    result.notes.prepend(result.diagnosis);
    result.diagnosis = u"Y is no rotation of X: %1 of %2 sampled pairs (%3 pairs, the pairing that keeps most of "
                       "them) change length beyond Y's rounding, |Y| / |X| from %4 to %5 times the median %6, where a "
                       "rotation keeps every pair's length times the attention factor at any position; no faithful "
                       "computation of the declared reference makes it"_s.arg(changed)
                           .arg(judged)
                           .arg(r.geometry.rotation == RopeLayout::Half ? u"half"_s : u"interleaved"_s)
                           .arg(NumberText::compact(least, 4), NumberText::compact(most, 4),
                                NumberText::compact(r.factor, 6));
    const double share = signLostShare(x, y, rows, u, *declared.reference, declared.ids);
    if (share >= 0.99) {
        result.diagnosis += u"; Y is X mixed pair by pair by [[cos, sin], [sin, cos]] at the reference's angles in %1 "
                            "of its sampled cells: x cos + rotate_half(x) sin with rotate_half's (rotate_every_two's) "
                            "minus sign lost, so no pair turns"_s.arg(NumberText::compact(100.0 * share, 4) + u" %"_s);
    }
}

} // namespace posenc::ApplyLengths
