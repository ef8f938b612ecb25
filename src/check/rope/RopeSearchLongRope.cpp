// RopeSearch's LongRoPE reading (docs/ARCHITECTURE.md, Checking a table): a factor per pair,
// the published forms' factors first, a reading only where the factors could be LongRoPE's.
#include "RopeSearch.h"

#include "check/CellTolerance.h"
#include "check/FitNumbers.h"
#include "check/rope/RopeHalfAngles.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>

namespace posenc::RopeFit {

namespace {

// The fewest pairs pinned closely enough to tell a rounded inv_freq from another frequency.
constexpr int kFewestPinnedPairs = 4;

// Whether every pair the sample pins closely is the default inv_freq of one of `thetas` rounded to
// bfloat16 or float16 (HF's float32 1 / theta^(2i/d), then the cast): a table that a half-precision
// inv_freq explains with no free parameter, which a factor per pair must not claim (RopeHalfAngles
// names it against a declared reference).
bool halfPrecisionInvFreq(const std::vector<Frequency> &measured, std::int64_t live, std::int64_t d,
                          const std::vector<double> &thetas)
{
    for (const double theta : thetas) {
        for (const bool bfloat16 : {true, false}) {
            int pinned = 0;
            bool all = true;
            for (std::int64_t i = 0; i < live && all; ++i) {
                const Frequency &f = measured[std::size_t(i)];
                if (!(f.theta > 0.0) || !(f.sigma < 1e-4 * f.theta))
                    continue;
                const auto exact = float(1.0 / std::pow(theta, 2.0 * double(i) / double(d)));
                const double w = RopeHalfAngles::rounded(double(exact), bfloat16);
                all = std::fabs(f.theta - w) <= 3.0 * f.sigma + 1e-9 * w;
                ++pinned;
            }
            if (all && pinned >= kFewestPinnedPairs)
                return true;
        }
    }
    return false;
}

} // namespace

// LongRoPE: any ratio per pair, so it matches at any theta; the theta named is the one whose
// ratios a config writes with the fewest digits (1.07, 2.05: a part in 10^4 at most), the common
// thetas and the fitted one's roundings tried. Each ratio is written as a config writes it,
// within what the sample pins it to; the amplitude is the attention factor sqrt(1 + ln f / ln L0)
// of a factor and original length, or given.
void RopeSearch::tryLongRope()
{
    const Params base = baseParams();
    std::vector<double> thetas = m_measured.bases;
    for (const double common : {10000.0, 500000.0, 1000000.0, 150000.0, 5000000.0}) {
        if (std::find(thetas.begin(), thetas.end(), common) == thetas.end())
            thetas.push_back(common);
    }
    const auto shortRatios = [&](double theta) {
        const std::vector<double> r = ratios(theta);
        int count = 0;
        for (std::int64_t i = 0; i < m_measured.live; ++i) {
            const Frequency &f = m_measured.theta[std::size_t(i)];
            if (f.theta > 0.0
                && std::fabs(snapped(r[std::size_t(i)], 1e-4) / r[std::size_t(i)] - 1.0)
                    <= 3.0 * f.sigma / f.theta + 1e-9)
                ++count;
        }
        return count;
    };
    double b = m_measured.fittedBase;
    int most = -1;
    for (const double theta : thetas) {
        if (ScoringCancel::requested())
            return;
        const int count = shortRatios(theta);
        if (count > most) {
            most = count;
            b = theta;
        }
    }
    Params q = base;
    q.rope.theta = b;
    q.rope.type = RopeType::LongRope;
    q.rope.originalMaxLen = base.maxLen;
    const double a = m_measured.amplitude;
    double amplitude = std::fabs(a - 1.0) < amplitudeWithin() ? 1.0 : snapped(a, 3e-7);
    for (double f = 2.0; f <= 1024.0 && !q.rope.factor; f *= 2.0) {
        for (std::int64_t original = kLeastOriginal; original <= kMostOriginal; original *= 2) {
            const double factor = std::sqrt(1.0 + std::log(f) / std::log(double(original)));
            if (std::fabs(factor / a - 1.0) < amplitudeWithin()) {
                q.rope.factor = f;
                q.rope.originalMaxLen = original;
                amplitude = factor;
                break;
            }
        }
    }
    if (!q.rope.factor)
        q.rope.attentionFactor = amplitude;
    q.rope.shortFactor.resize(m_measured.theta.size());
    for (std::size_t i = 0; i < q.rope.shortFactor.size(); ++i) {
        if (ScoringCancel::requested()) // each pair's factor is searched over the sample's rows
            return;
        q.rope.shortFactor[i] = std::clamp(longRopeFactor(std::int64_t(i), b, amplitude), 1e-3, 1e6);
    }
    q.rope.longFactor = q.rope.shortFactor;
    // LongRoPE's factors divide the frequencies (ext_factors in _compute_longrope_parameters), and
    // every released model's are at least 1: a pair turning faster than rope_theta gives it, or
    // factors all within a rounding of 1, is another change of the frequencies (two columns
    // exchanged, inv_freq rounded to float16), not a LongRoPE table.
    const auto range = std::minmax_element(q.rope.shortFactor.begin(), q.rope.shortFactor.end());
    if (range.first == q.rope.shortFactor.end() || *range.first < 1.0 - 1e-3 || *range.second <= 1.0 + 1e-3)
        return;
    if (halfPrecisionInvFreq(m_measured.theta, m_measured.live, m_input.sample.cols(), thetas))
        return;
    consider(q);
}

// Pair `pair`'s LongRoPE factor at rope_theta `base`: the fewest digits (or float32's nearest value
// of them, a factor saved from float32) within what the sample pins the pair's frequency to, whose
// column the sample's rows agree with cell by cell; else the ratio the cells give.
double RopeSearch::longRopeFactor(std::int64_t pair, double base, double amplitude) const
{
    const std::int64_t d = m_input.sample.cols();
    const double unscaled = std::pow(base, -2.0 * double(pair) / double(d));
    if (!(m_measured.theta[std::size_t(pair)].theta > 0.0))
        return 1.0;
    const Frequency f = refinedFrequency(pair, m_measured.theta[std::size_t(pair)].theta, amplitude);
    if (!(f.theta > 0.0))
        return 1.0;
    const double ratio = unscaled / f.theta;
    const double spread = std::clamp(3.0 * f.sigma / f.theta, 1e-12, 0.1);
    const std::int64_t column = m_layout == RopeLayout::Half ? pair : 2 * pair;
    const CellTolerance tolerance = cellTolerance(m_input.format, m_input.stored, m_input.textRounding, amplitude);
    const auto agrees = [&](double factor) {
        const double theta = unscaled / factor;
        for (std::int64_t k = 0; k < m_input.sample.size(); ++k) {
            const std::int64_t row = m_input.sample.rows[std::size_t(k)];
            if (!m_input.framing.compared(row))
                continue;
            const double p = double(m_measured.firstPosition + row - m_input.framing.firstRow);
            const double angle = p * theta;
            const double expected = amplitude * (m_measured.cosine ? std::cos(angle) : std::sin(angle));
            // Half the tolerance, as the exact value is within half a float32 unit of every cell:
            // a value the table pins no better would let some unsampled row past it.
            if (!(std::fabs(double(m_input.sample.values(k, column)) - expected)
                  <= 0.55 * tolerance.limit(expected, 0, p)))
                return false;
        }
        return true;
    };
    // A published form's factors first, of either list: a table of one with a factor changed then
    // differs from it in that pair alone, which the report names (RopeTableCheck).
    for (const Params &form : m_longRopeForms) {
        if (form.rope.theta != base || RopeFrequencies::rotaryDim(form.rope) != d)
            continue;
        for (const std::vector<double> *list : {&form.rope.longFactor, &form.rope.shortFactor}) {
            if (std::size_t(pair) < list->size() && agrees((*list)[std::size_t(pair)]))
                return (*list)[std::size_t(pair)];
        }
    }
    const int exponent = int(std::floor(std::log10(ratio)));
    for (int digits = 1; digits <= 10; ++digits) {
        const double unit = std::pow(10.0, exponent - digits + 1);
        const double lo = std::ceil(ratio * (1.0 - spread) / unit), hi = std::floor(ratio * (1.0 + spread) / unit);
        if (hi - lo > 200.0)
            break;
        for (double k = lo; k <= hi; k += 1.0) {
            for (const double candidate : {k * unit, double(float(k * unit))}) {
                if (candidate > 0.0 && agrees(candidate))
                    return candidate;
            }
        }
    }
    return ratio;
}

// Pair `pair`'s frequency refined by Gauss-Newton over every compared row of the sample, from
// `theta`: the value of A cos(theta p) or A sin(theta p) nearest the column's cells, and how well
// the cells pin it (float32's rounding over the derivative's norm).
Frequency RopeSearch::refinedFrequency(std::int64_t pair, double theta, double amplitude) const
{
    const std::int64_t column = m_layout == RopeLayout::Half ? pair : 2 * pair;
    Frequency f {theta, std::numeric_limits<double>::infinity()};
    for (int step = 0; step < 4; ++step) {
        double num = 0.0, den = 0.0;
        for (std::int64_t k = 0; k < m_input.sample.size(); ++k) {
            const std::int64_t row = m_input.sample.rows[std::size_t(k)];
            if (!m_input.framing.compared(row))
                continue;
            const double p = double(m_measured.firstPosition + row - m_input.framing.firstRow);
            const double angle = p * f.theta;
            const double value = amplitude * (m_measured.cosine ? std::cos(angle) : std::sin(angle));
            const double slope = amplitude * p * (m_measured.cosine ? -std::sin(angle) : std::cos(angle));
            num += slope * (double(m_input.sample.values(k, column)) - value);
            den += slope * slope;
        }
        if (!(den > 0.0))
            return m_measured.theta[std::size_t(pair)];
        f.theta += num / den;
        f.sigma = (0x1p-23 * amplitude + m_input.textRounding) / std::sqrt(den);
    }
    return f;
}

} // namespace posenc::RopeFit
