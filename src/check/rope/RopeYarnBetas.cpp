#include "check/rope/RopeYarnBetas.h"

#include "check/DeclaredWords.h"
#include "check/FitNumbers.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <numbers>
#include <optional>
#include <tuple>

using namespace Qt::StringLiterals;

namespace posenc::RopeYarnBetas {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
// How far from an integer a truncated ramp's end may be read.
constexpr double kEndWithin = 0.05;
// The factors configs use, tried where no pair is fully divided and the ends are not integers.
constexpr double kCommonFactors[] = {2.0, 4.0, 8.0, 16.0, 32.0, 40.0, 64.0};

// The beta whose correction dim is c: find_correction_dim inverted, original / (2 pi) theta^(-2c/d).
double betaAt(double c, const Params &at)
{
    const double d = double(RopeFrequencies::rotaryDim(at.rope));
    return double(at.rope.originalMaxLen.value_or(1)) / kTwoPi * std::pow(at.rope.theta, -2.0 * c / d);
}

// The roundest value in (lo, hi]: one of `preferred`, else the power of two nearest 1, else the
// fewest significant digits.
std::optional<double> roundestIn(double lo, double hi, std::initializer_list<double> preferred)
{
    if (!(hi > lo) || !(hi > 0.0))
        return std::nullopt;
    const auto inside = [&](double x) { return x > lo && x <= hi; };
    for (const double p : preferred)
        if (inside(p))
            return p;
    std::optional<double> best;
    for (int k = 0; k <= 30; ++k) {
        for (const double x : {std::ldexp(1.0, k), std::ldexp(1.0, -k)}) {
            if (!best && inside(x))
                best = x;
        }
    }
    if (best)
        return best;
    const double top = std::floor(std::log10(hi));
    for (int digits = 1; digits <= 8; ++digits) {
        const double step = std::pow(10.0, top - digits + 1);
        double x = std::ceil(lo / step) * step;
        if (x <= lo)
            x += step;
        if (inside(x))
            return x;
    }
    return std::sqrt(std::max(lo, 1e-300) * hi);
}

struct Line
{
    double slope = 0.0, intercept = 0.0;
    double last = 0.0, first = 0.0; // the pairs it was read over, ends
};

std::optional<Line> lineOver(const std::vector<double> &g, const std::vector<std::size_t> &pairs)
{
    if (pairs.size() < 2)
        return std::nullopt;
    double mx = 0.0, my = 0.0;
    for (const std::size_t i : pairs) {
        mx += double(i) / double(pairs.size());
        my += g[i] / double(pairs.size());
    }
    double sxx = 0.0, sxy = 0.0;
    for (const std::size_t i : pairs) {
        sxx += (double(i) - mx) * (double(i) - mx);
        sxy += (double(i) - mx) * (g[i] - my);
    }
    if (!(sxx > 0.0) || sxy == 0.0)
        return std::nullopt;
    Line line;
    line.slope = sxy / sxx;
    line.intercept = my - line.slope * mx;
    line.first = double(pairs.front());
    line.last = double(pairs.back());
    return line;
}

// A ramp read: its ends (as linear_ramp_factor takes them) and the factor.
struct Ramp
{
    double low = 0.0, high = 0.0, factor = 1.0;
    // Read from the slope at an end the ramp may have (no pair fully divided): a config's factor
    // then has few digits, which sorts the one end out of the many tried.
    bool fromSlope = false;
};

// The betas that give the ramp's ends at `at`, the factor rounded: a candidate, or nothing.
std::optional<Params> paramsOf(const Ramp &ramp, const Params &at)
{
    const bool truncate = at.rope.yarnTruncate;
    const double d = double(RopeFrequencies::rotaryDim(at.rope));
    double low = ramp.low, high = ramp.high;
    if (truncate) {
        if (std::fabs(low - std::round(low)) > kEndWithin || std::fabs(high - std::round(high)) > kEndWithin)
            return std::nullopt;
        low = std::round(low);
        high = std::round(high);
    }
    if (low < -kEndWithin || high > d - 1.0 + kEndWithin || std::fabs(high - low) < 0.5)
        return std::nullopt;
    constexpr double kHuge = 1e12;
    const double spread = truncate ? 0.0 : 2.0 * kEndWithin;
    // beta_fast: floor(cd) = low (truncate), cd = low within the reading else; clamped at 0: cd <= low.
    const double fastLo = truncate ? betaAt(low + 1.0, at) : betaAt(low + spread, at);
    const double fastHi = low < 0.5 ? kHuge : (truncate ? betaAt(low, at) : betaAt(low - spread, at));
    // beta_slow: ceil(cd) = high (truncate); clamped at d - 1: cd >= high.
    const double slowLo
        = high > d - 1.5 ? 0.0 : (truncate ? betaAt(high, at) * (1.0 - 1e-12) : betaAt(high + spread, at));
    const double slowHi = truncate ? betaAt(high - 1.0, at) * (1.0 - 1e-12) : betaAt(high - spread, at);
    // find_correction_dim reads original / beta: at's betas at another original length (a power of
    // two times it) are one parameter that differs, not two.
    const auto inside = [](double x, double lo, double hi) { return x > lo && x <= hi; };
    std::optional<double> fast, slow;
    std::optional<std::int64_t> original = at.rope.originalMaxLen;
    for (int j = -12; j <= 12 && !fast; ++j) {
        const double k = std::ldexp(1.0, j);
        const double scaled = double(*at.rope.originalMaxLen) / k;
        if (j != 0 && scaled >= 1.0 && scaled == std::round(scaled) && inside(at.rope.betaFast * k, fastLo, fastHi)
            && inside(at.rope.betaSlow * k, slowLo, slowHi)) {
            fast = at.rope.betaFast;
            slow = at.rope.betaSlow;
            original = std::int64_t(scaled);
        }
    }
    if (!fast) {
        fast = roundestIn(fastLo, fastHi, {at.rope.betaFast, 32.0, 1.0});
        slow = roundestIn(slowLo, slowHi, {at.rope.betaSlow, 1.0, 32.0});
    }
    if (!fast || !slow)
        return std::nullopt;
    std::optional<double> factor;
    for (const double f : FitNumbers::roundings(ramp.factor, ramp.fromSlope ? 3 : 5)) {
        if (!factor && std::fabs(f / ramp.factor - 1.0) <= 2e-4)
            factor = f;
    }
    if (at.rope.factor && std::fabs(*at.rope.factor / ramp.factor - 1.0) <= 2e-4)
        factor = at.rope.factor;
    if (!factor || !(*factor > 1.0))
        return std::nullopt;
    Params p = at;
    p.rope.type = RopeType::Yarn;
    p.rope.factor = factor;
    p.rope.betaFast = *fast;
    p.rope.betaSlow = *slow;
    p.rope.originalMaxLen = original;
    return p;
}

} // namespace

int roughness(const Params &p)
{
    const auto of = [](double beta) {
        if (beta >= 1.0 && beta == std::round(beta))
            return std::exp2(std::round(std::log2(beta))) == beta ? 1 : 1 + FitNumbers::digitsOf(beta);
        return 10 + FitNumbers::digitsOf(beta);
    };
    if (p.rope.betaFast == 32.0 && p.rope.betaSlow == 1.0)
        return 0;
    return of(p.rope.betaFast) + of(p.rope.betaSlow);
}

std::vector<Params> readings(const Read &read, const Params &at)
{
    std::vector<Params> out;
    const std::size_t n = read.w.size();
    if (n < 3 || read.within.size() != n || RopeFrequencies::rotaryDim(at.rope) != std::int64_t(2 * n)
        || !at.rope.originalMaxLen || !(at.rope.theta > 1.0))
        return out;
    const double d = double(2 * n);
    // g_i = 1 - w_i / e_i = (1 - 1 / factor) r_i, and how far each may be off.
    std::vector<double> g(n), tol(n);
    std::vector<bool> pinned(n);
    double gmax = 0.0;
    std::size_t top = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double e = std::pow(at.rope.theta, -2.0 * double(i) / d);
        g[i] = 1.0 - read.w[i] / e;
        tol[i] = 3.0 * read.within[i] + 1e-12;
        pinned[i] = read.within[i] < 1e-3 && std::isfinite(read.w[i]);
        if (pinned[i] && g[i] < -tol[i])
            return out; // a frequency above its unscaled one: no yarn's
        if (pinned[i] && g[i] > gmax) {
            gmax = g[i];
            top = i;
        }
    }
    if (!(gmax > tol[top]))
        return out;
    std::vector<std::size_t> sloped, slopedWithTop;
    std::int64_t plateau = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!pinned[i] || std::fabs(g[i]) <= tol[i])
            continue;
        const bool atTop = std::fabs(g[i] - gmax) <= tol[i] + tol[top];
        plateau += atTop ? 1 : 0;
        if (!atTop)
            sloped.push_back(i);
        if (!atTop || i == top)
            slopedWithTop.push_back(i);
    }
    std::vector<Ramp> ramps;
    // The divided pairs' plateau gives the factor, the line between the ends.
    if (const auto line = lineOver(g, sloped); line && plateau >= 1) {
        const double factor = 1.0 / (1.0 - gmax);
        const double low = -line->intercept / line->slope;
        ramps.push_back({low, low + (1.0 - 1.0 / factor) / line->slope, factor});
    }
    // No pair fully divided (the largest alone at the top): the slope at each end the ramp may have
    // past the blended pairs.
    if (const auto line = plateau == 1 ? lineOver(g, slopedWithTop) : std::optional<Line>()) {
        const double low = -line->intercept / line->slope;
        std::vector<double> highs;
        if (at.rope.yarnTruncate) {
            if (line->slope > 0.0)
                for (double h = std::floor(line->last) + 1.0; h <= d - 1.0; h += 1.0)
                    highs.push_back(h);
            else
                for (double h = std::ceil(line->first) - 1.0; h >= 0.0; h -= 1.0)
                    highs.push_back(h);
        } else {
            std::vector<double> factors(std::begin(kCommonFactors), std::end(kCommonFactors));
            if (at.rope.factor)
                factors.insert(factors.begin(), *at.rope.factor);
            for (const double f : factors)
                highs.push_back(low + (1.0 - 1.0 / f) / line->slope);
        }
        for (const double high : highs) {
            const double share = line->slope * (high - low); // 1 - 1 / factor
            if (share > 1e-9 && share < 1.0)
                ramps.push_back({low, high, 1.0 / (1.0 - share), true});
        }
    }
    for (const Ramp &ramp : ramps) {
        if (auto p = paramsOf(ramp, at))
            out.push_back(*p);
    }
    return out;
}

std::vector<Params> undeclaredReadings(const Read &read, const std::vector<double> &thetas)
{
    std::vector<Params> out;
    for (const double t : thetas) {
        for (int k = 8; k <= 21; ++k) {
            for (const bool truncate : {true, false}) {
                Params at;
                at.encoding = Encoding::Rope;
                RopeFrequencies::setHeadDim(at, std::int64_t(2 * read.w.size()));
                at.rope.theta = t;
                at.rope.type = RopeType::Yarn;
                at.rope.originalMaxLen = std::int64_t(1) << k;
                at.rope.yarnTruncate = truncate;
                at.maxLen = 1;
                for (Params &p : readings(read, at))
                    out.push_back(std::move(p));
            }
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Params &a, const Params &b) { return roughness(a) < roughness(b); });
    return out;
}

QStringList differences(const Params &found, const Params &declared, QStringList &ids)
{
    const RopeParams &f = found.rope, &d = declared.rope;
    QStringList said;
    if (f.originalMaxLen != d.originalMaxLen) {
        ids.append(u"original-max-len"_s);
        said.append(u"original_max_position_embeddings %1 where %2 %3"_s.arg(f.originalMaxLen.value_or(0))
                        .arg(d.originalMaxLen.value_or(0))
                        .arg(DeclaredWords::isDeclared()));
    }
    if (f.factor != d.factor) {
        ids.append(u"rope-factor"_s);
        said.append(u"factor %1 where %2 %3"_s.arg(NumberText::exact(f.factor.value_or(1.0)),
                                                   NumberText::exact(d.factor.value_or(1.0)),
                                                   DeclaredWords::isDeclared()));
    }
    if (f.yarnTruncate != d.yarnTruncate) {
        // transformers' _compute_yarn_parameters: truncate (default true) floors the ramp's low end
        // and ceils its high one; gpt-oss sets it false, which vLLM ignored (vllm#27722).
        ids.append(kTruncate);
        said.append(
            u"truncate %1 where %2 %3: the ramp's ends %4 (find_correction_range floors the low end and "
            "ceils the high one where truncate is true; modeling_rope_utils.py, _compute_yarn_parameters)"_s.arg(
                f.yarnTruncate ? u"true"_s : u"false"_s, d.yarnTruncate ? u"true"_s : u"false"_s,
                DeclaredWords::isDeclared(),
                f.yarnTruncate ? u"rounded to whole pairs where the reference keeps them fractional"_s
                               : u"kept fractional where the reference rounds them to whole pairs"_s));
    }
    const bool swapped = f.betaFast == d.betaSlow && f.betaSlow == d.betaFast;
    for (const auto &[id, name, mine, theirs] : {std::tuple {kBetaFast, u"beta_fast"_s, f.betaFast, d.betaFast},
                                                 std::tuple {kBetaSlow, u"beta_slow"_s, f.betaSlow, d.betaSlow}}) {
        if (mine == theirs)
            continue;
        ids.append(id);
        said.append(u"%1 %2 where %3 %4"_s.arg(name, NumberText::exact(mine), NumberText::exact(theirs),
                                               DeclaredWords::isDeclared()));
    }
    if (said.isEmpty() || (f.betaFast == d.betaFast && f.betaSlow == d.betaSlow))
        return said;
    if (swapped && f.betaFast != f.betaSlow)
        said.append(u"beta_fast and beta_slow exchanged: find_correction_range's low end is then above its high "
                    "one and the ramp runs backwards, the fast pairs divided and the slow ones kept "
                    "(modeling_rope_utils.py, _compute_yarn_parameters)"_s);
    else if (f.betaFast < f.betaSlow)
        said.append(u"beta_fast below beta_slow: find_correction_range's low end is above its high one and the "
                    "ramp runs backwards, the fast pairs divided and the slow ones kept (candle-vllm's defaults "
                    "1 and 128 before EricLBuehler/candle-vllm#285; transformers' are 32 and 1)"_s);
    return said;
}

} // namespace posenc::RopeYarnBetas
