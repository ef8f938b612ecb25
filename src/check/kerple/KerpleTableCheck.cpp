#include "KerpleTableCheck.h"

#include "check/FitNumbers.h"
#include "check/HeadBiasFit.h"
#include "check/OffsetFit.h"
#include "check/SampleScore.h"
#include "core/NumberText.h"
#include "core/kerple/KerpleBias.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::KerpleTableCheck {

namespace {

const QString kTable = u"kerple-bias"_s;
// The distances a fit reads: every one up to this, then a few farther.
constexpr std::int64_t kNearDistances = 32;

// The bias at distances r >= 1 before the query (t = -r), as the sample holds it.
struct Side
{
    std::vector<double> distances, values;
};

// What the table shows: r1 and r2 as the reference uses them, the dtype it computed in, and what
// follows the query (the bias of distance 0, or a mask's fill).
struct Found
{
    double r1 = 0.0, r2 = 0.0;
    KerpleDtype dtype = KerpleDtype::Float32;
    HeadBiasFit::After after; // fill NaN: the reference's own value there, 0
    Side side; // what the fit read
};

std::optional<Side> sideOf(const OffsetProfile &profile)
{
    Side side;
    for (std::int64_t r = 1; r <= -profile.first;) {
        if (profile.has(-r) && std::isfinite(profile.at(-r))) {
            side.distances.push_back(double(r));
            side.values.push_back(double(profile.at(-r)));
        }
        r = r < kNearDistances ? r + 1 : r + r / 4;
    }
    if (side.distances.size() < 2 || side.distances.front() != 1.0 || !(side.values.front() < 0.0))
        return std::nullopt;
    return side;
}

// The relative agreement a format's rounding leaves between the table and a candidate.
double agreement(ValueFormat format)
{
    return format == ValueFormat::Float32 ? 1e-4 : 1e-2;
}

// log(1 + n x) / log(1 + x): n as x → 0 (a linear bias), falling to 1 as x grows.
double ratio(double n, double x)
{
    return std::log1p(n * x) / std::log1p(x);
}

// r2 from the ratio of the farthest distance's bias to distance 1's, by bisection over log r2;
// nothing where the ratio needs r2 below eps (nearer a line than the reference's clamp allows) or
// lies outside what any r2 gives. A 16-bit table's 1 + r2 d is rounded coarsely near 1, which
// moves the ratio: there a ratio past eps's, but below a line's, is read as eps.
std::optional<double> solveR2(const Side &side, ValueFormat format)
{
    const double n = side.distances.back();
    const double rho = side.values.back() / side.values.front();
    if (!(rho > 1.0) || rho < ratio(n, KerpleParams::kMaxR))
        return std::nullopt;
    if (rho > ratio(n, KerpleParams::kEps) * (1.0 + agreement(format)))
        return format != ValueFormat::Float32 && rho < n ? std::optional(KerpleParams::kEps) : std::nullopt;
    double lo = std::log(KerpleParams::kEps), hi = std::log(KerpleParams::kMaxR);
    for (int i = 0; i < 100; ++i) {
        const double mid = 0.5 * (lo + hi);
        (ratio(n, std::exp(mid)) > rho ? lo : hi) = mid;
    }
    return std::exp(0.5 * (lo + hi));
}

// The least-squares r1 of the side's distances at r2, its logarithms as exact or, in a 16-bit
// dtype, as the reference rounds them there.
double r1At(const Side &side, double r2, std::optional<KerpleDtype> dtype = std::nullopt)
{
    double ll = 0.0, lb = 0.0;
    for (std::size_t i = 0; i < side.distances.size(); ++i) {
        const double l = dtype ? -KerpleBias::atDistance(1.0, r2, std::int64_t(side.distances[i]), *dtype)
                               : std::log1p(r2 * side.distances[i]);
        ll += l * l;
        lb -= l * side.values[i];
    }
    return lb / ll;
}

// r1 and r2 refined by least squares over the side's distances (Gauss-Newton in r1 and log r2),
// r2 kept at eps or above as the reference's clamp keeps it.
std::pair<double, double> refined(const Side &side, double r2)
{
    for (int iteration = 0; iteration < 8; ++iteration) {
        const double r1 = r1At(side, r2);
        // The residual's derivatives in r1 and u = log r2.
        double a = 0.0, b = 0.0, c = 0.0, g1 = 0.0, g2 = 0.0;
        for (std::size_t i = 0; i < side.distances.size(); ++i) {
            const double d = side.distances[i];
            const double l = std::log1p(r2 * d);
            const double residual = side.values[i] + r1 * l;
            const double j1 = l, j2 = r1 * r2 * d / (1.0 + r2 * d);
            a += j1 * j1;
            b += j1 * j2;
            c += j2 * j2;
            g1 += j1 * residual;
            g2 += j2 * residual;
        }
        const double det = a * c - b * b;
        if (!(det > 0.0))
            break;
        const double step = (a * g2 - b * g1) / det;
        r2 = std::max(r2 * std::exp(-std::clamp(step, -1.0, 1.0)), KerpleParams::kEps);
    }
    return {r1At(side, r2), r2};
}

// A value as the user is likely to have written it, where that agrees to float32.
double snapped(double value)
{
    for (const double r : FitNumbers::roundings(value, 9)) {
        if (std::fabs(r / value - 1.0) < 1e-6)
            return r;
    }
    return value;
}

std::optional<Found> find(const OffsetProfile &profile, ValueFormat format)
{
    if (!profile.has(0) || profile.at(0) != 0.0f || !profile.has(-1))
        return std::nullopt;
    const std::optional<Side> side = sideOf(profile);
    if (!side)
        return std::nullopt;
    const std::optional<double> r2 = solveR2(*side, format);
    if (!r2)
        return std::nullopt;
    Found found;
    found.side = *side;
    std::tie(found.r1, found.r2) = refined(*side, *r2);
    if (!(found.r1 > 0.0) || !std::isfinite(found.r1))
        return std::nullopt;
    found.r1 = snapped(found.r1);
    found.r2 = snapped(std::max(found.r2, KerpleParams::kEps));
    // After the query: the bias of distance 0 (tril), or a mask's fill; a bias of the distance
    // after it too is no reference's.
    found.after.fill = std::numeric_limits<float>::quiet_NaN();
    const double near = side->values.front();
    const auto after = HeadBiasFit::readAfter(
        profile, format, near, 0.0, [&](double a, double b) { return std::fabs(a - b) <= 1e-6 * std::fabs(near); },
        found.after);
    if (!after || after->twoSided)
        return std::nullopt;
    found.after = *after;
    return found;
}

OffsetReference::Values valuesOf(const Found &found)
{
    return HeadBiasFit::values(
        [found](std::int64_t d) { return KerpleBias::atDistance(found.r1, found.r2, d, found.dtype); }, found.after);
}

CellTolerance toleranceOf(const TableEvidence &e, const Found &found)
{
    const double farthest
        = std::fabs(KerpleBias::atDistance(found.r1, found.r2, std::max(e.rows(), e.cols()), found.dtype));
    // Four roundings of an operation at a time (the product, the sum, the logarithm, the product
    // with r1) and the fit's own.
    return OffsetFit::tolerance(e, std::isfinite(farthest) ? farthest : 1.0, 8.0);
}

QString afterWords(const Found &found)
{
    if (std::isnan(found.after.fill))
        return u"keys after the query at distance 0, bias 0 (torch.tril)"_s;
    return u"keys after the query %1"_s.arg(HeadBiasFit::fillWords(found.after.fill));
}

TableMatch matchOf(const TableEvidence &e, const Found &found, std::shared_ptr<const OffsetReference> reference,
                   bool fitted = true)
{
    TableMatch m = OffsetFit::match(e, kTable, std::move(reference), toleranceOf(e, found));
    m.findings = HeadBiasFit::headFindings(0, 0);
    m.findings += {{u"r1"_s, found.r1}, {u"r2"_s, found.r2}, {u"dtype"_s, KerpleBias::dtypeWord(found.dtype)}};
    m.referenceText = u"kerple-bias, r1 = %1, r2 = %2, %3, %4"_s.arg(
        NumberText::compact(found.r1, 7), NumberText::compact(found.r2, 7), KerpleBias::dtypeWord(found.dtype),
        afterWords(found));
    m.notes.append(u"one head's table tells its r1 and r2, not H or K: every head learns its own"_s);
    if (!std::isnan(found.after.fill))
        m.notes.append(u"the keys after the query hold a mask's fill: ParallelKerpleLog's bias holds the bias of "
                       "distance 0, 0, there and leaves the mask to the attention"_s);
    if (found.r2 <= KerpleParams::kEps * (1.0 + 1e-6))
        m.notes.append(u"r2 is at eps = 0.01, where the reference clamps it: any value below gives this table"_s);
    m.verdict = CheckVerdict::Correct;
    m.correctAgainst = u"KERPLE's ParallelKerpleLog (chijames/KERPLE) with r1 = %1, r2 = %2%3"_s.arg(
        NumberText::compact(found.r1, 7), NumberText::compact(found.r2, 7), fitted ? u" (fitted)"_s : QString());
    m.diagnosis = u"KERPLE's log-kernel bias of one head as ParallelKerpleLog adds it: −%1·log(1 + %2·(i − j)) in %3, "
                  "%4"_s.arg(NumberText::compact(found.r1, 6), NumberText::compact(found.r2, 6),
                             KerpleBias::dtypeWord(found.dtype), afterWords(found));
    Params p;
    p.encoding = Encoding::Kerple;
    p.maxLen = std::clamp<std::int64_t>(e.rows(), 1, Params::kMaxLen);
    p.kerple.heads = 1;
    p.kerple.head = 1;
    p.kerple.r1 = {found.r1};
    p.kerple.r2 = {found.r2};
    p.kerple.dtype = found.dtype;
    if (p.isValid())
        m.params = p;
    return m;
}

// The dtypes the table may have been computed in: float32, and for a table whose values a 16-bit
// format holds, both 16-bit dtypes (bfloat16's values of a small range are float16's too).
QList<KerpleDtype> dtypesOf(ValueFormat format)
{
    if (format == ValueFormat::Float32)
        return {KerpleDtype::Float32};
    return {KerpleDtype::BFloat16, KerpleDtype::Float16, KerpleDtype::Float32};
}

// The values of a 16-bit dtype within `steps` of its rounding of `value`: a fit from values rounded
// to it lands within a few of the dtype's parameter.
std::vector<double> neighbours(double value, KerpleDtype dtype, int steps)
{
    const double r = KerpleBias::rounded(value, dtype);
    if (dtype == KerpleDtype::Float32)
        return {r};
    const double quantum = std::ldexp(1.0, std::ilogb(r) - (dtype == KerpleDtype::BFloat16 ? 7 : 10));
    std::vector<double> values;
    for (int k = -steps; k <= steps; ++k) {
        const double v = KerpleBias::rounded(r + k * quantum, dtype);
        if (v >= KerpleBias::rounded(KerpleParams::kEps, dtype))
            values.push_back(v);
    }
    return values;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    const std::optional<OffsetProfile> profile = OffsetFit::profile(e);
    const std::optional<Found> fitted = profile ? find(*profile, e.format) : std::nullopt;
    if (!fitted)
        return std::nullopt;
    // Each dtype the table may have been computed in, at the parameters of that dtype nearest the
    // fit: the reading with the fewest cells beyond the tolerance.
    std::optional<Found> best;
    std::int64_t fewest = std::numeric_limits<std::int64_t>::max();
    for (const KerpleDtype dtype : dtypesOf(e.format)) {
        // A 16-bit dtype's r2 near the fit's, or at eps, where its coarse 1 + r2 d hides it; each with
        // the r1s near its least-squares r1.
        std::vector<double> r2s = neighbours(fitted->r2, dtype, 4);
        if (dtype != KerpleDtype::Float32)
            r2s.push_back(KerpleBias::used(KerpleParams::kEps, dtype));
        for (const double r2 : r2s) {
            const double r1Fit = dtype == KerpleDtype::Float32 ? fitted->r1 : r1At(fitted->side, r2, dtype);
            for (const double r1 : neighbours(r1Fit, dtype, 4)) {
                Found found = *fitted;
                found.dtype = dtype;
                found.r1 = r1;
                found.r2 = r2;
                const OffsetReference reference(e.cols(), e.sample.queryStart, valuesOf(found),
                                                found.after.masked());
                const std::int64_t bad = scoreOnSample(reference, e.sample, toleranceOf(e, found)).bad;
                if (bad < fewest) {
                    fewest = bad;
                    best = found;
                }
            }
        }
    }
    const auto reference = std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart,
                                                                   valuesOf(*best), best->after.masked());
    return OffsetFit::candidate(e, *reference, toleranceOf(e, *best), [&] { return matchOf(e, *best, reference); });
}

// The match against exactly the table of `params` (HeadBiasFit::hypothesis's expect).
TableMatch expect(const TableEvidence &e, const Params &params)
{
    Found found;
    found.r1 = KerpleBias::r1(params.kerple, params.kerple.head);
    found.r2 = KerpleBias::r2(params.kerple, params.kerple.head);
    found.dtype = params.kerple.dtype;
    found.after = HeadBiasFit::declaredAfter(e, found.after);
    TableMatch m = matchOf(e, found,
                           std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart,
                                                                   valuesOf(found), found.after.masked()),
                           false);
    m.findings[0].value = params.kerple.heads;
    m.findings[1].value = params.kerple.head;
    return m;
}

} // namespace

TableHypothesis hypothesis()
{
    // Its words are KerpleWords.json's "check"; it names no mistake of its own.
    return HeadBiasFit::hypothesis(KerpleBias::biasFamily(), fit, expect);
}

} // namespace posenc::KerpleTableCheck
