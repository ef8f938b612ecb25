#include "RopeHalfAnglesRead.h"

#include "check/PairReference.h"
#include "check/rope/RopeHalfAngles.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeHalfAnglesRead {

namespace {

// The angles read back from a pair's cells: only within these, where cos (sin) moves fast enough
// that a cell's rounding moves the angle little, and below the first turn (pi for cos, pi / 2 for sin).
constexpr double kLeastAngle = 0.2;
constexpr double kMostCosAngle = 2.9;
constexpr double kMostSinAngle = 1.35;
// A pair's cells may move back by this much along increasing positions and still be below their turn
// (a half format's rounding of values near 1).
constexpr double kBackStep = 0x1p-6;
// The config bases the reading is snapped to first, and how near the reading one must be.
constexpr double kConfigThetas[] = {10000.0, 50000.0, 100000.0, 150000.0, 500000.0, 1000000.0, 5000000.0, 1e7};
constexpr double kSnap = 0.05;

double median(std::vector<double> v)
{
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// The column of pair i's cos or sin: its first copy (both copies hold the same).
std::int64_t columnOf(RopeLayout layout, std::int64_t pair)
{
    return layout == RopeLayout::Half ? pair : 2 * pair;
}

// A reading of theta rounded to `digits` significant digits.
double roundedTo(double x, int digits)
{
    const double unit = std::pow(10.0, std::floor(std::log10(x)) - double(digits - 1));
    return std::round(x / unit) * unit;
}

// The bases tried for a reading: the configs' near it, then the reading to 1, 2, 3 and 4 digits.
std::vector<double> candidates(double theta)
{
    std::vector<double> out;
    for (const double t : kConfigThetas)
        if (std::fabs(theta / t - 1.0) <= kSnap)
            out.push_back(t);
    for (int digits = 1; digits <= 4; ++digits) {
        const double t = roundedTo(theta, digits);
        if (std::fabs(theta / t - 1.0) <= kSnap && std::find(out.begin(), out.end(), t) == out.end())
            out.push_back(t);
    }
    return out;
}

// The sample's rows beyond the tolerance of `match`'s reference (its exact angles), increasing.
std::vector<std::int64_t> deviatingRows(const TableSample &sample, const TableMatch &match)
{
    std::vector<std::int64_t> rows;
    const auto *reference = dynamic_cast<const PairReference *>(match.reference.get());
    if (!reference)
        return rows;
    const PairReferenceSpec &spec = reference->spec();
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        const std::int64_t row = sample.rows[std::size_t(k)];
        if (!spec.compared(row))
            continue;
        const double p = double(spec.position(row));
        for (std::int64_t c = 0; c < spec.cols(); ++c) {
            const ReferenceColumn &column = spec.columns[std::size_t(c)];
            if (column.pair < 0)
                continue;
            const double a = p * spec.schedule.w[std::size_t(column.pair)];
            const double value = spec.schedule.amplitude * (column.isCos ? std::cos(a) : std::sin(a));
            if (!(std::fabs(double(sample.values(k, c)) - value) <= match.tolerance.limit(value, c, p))) {
                rows.push_back(row);
                break;
            }
        }
    }
    return rows;
}

} // namespace

std::optional<SlowReading> slowTheta(const TableSample &sample, const RowFraming &framing, RopeLayout layout,
                                     bool cosine, std::int64_t first)
{
    const std::int64_t pairs = sample.cols() / 2;
    const double most = cosine ? kMostCosAngle : kMostSinAngle;
    std::vector<double> thetas;
    SlowReading reading;
    for (std::int64_t i = pairs - 1; i >= 1; --i) {
        const std::int64_t c = columnOf(layout, i);
        std::vector<double> w;
        double previous = cosine ? 2.0 : -2.0;
        bool belowTurn = true;
        for (std::int64_t k = 0; k < sample.size() && belowTurn; ++k) {
            const std::int64_t row = sample.rows[std::size_t(k)];
            const double p = double(first + row);
            if (!framing.compared(row) || p <= 0.0)
                continue;
            const double v = std::clamp(double(sample.values(k, c)), -1.0, 1.0);
            belowTurn = cosine ? v <= previous + kBackStep : v >= previous - kBackStep;
            previous = v;
            const double a = cosine ? std::acos(v) : std::asin(v);
            if (a >= kLeastAngle && a <= most)
                w.push_back(a / p);
        }
        // The pairs below their first turn over every sampled row are the slow ones, from the last on.
        if (!belowTurn)
            break;
        if (w.size() < 3)
            continue;
        thetas.push_back(std::pow(median(w), -double(pairs) / double(i)));
        reading.firstPair = i;
        if (reading.lastPair == 0)
            reading.lastPair = i;
    }
    if (thetas.size() < 2)
        return std::nullopt;
    reading.theta = median(thetas);
    if (!(reading.theta > 1.0) || !std::isfinite(reading.theta))
        return std::nullopt;
    return reading;
}

std::optional<TableCandidate> read(const TableEvidence &e, RopeLayout layout, const MatchOf &match)
{
    const std::int64_t cols = e.cols();
    const std::int64_t first = e.declared.firstPosition;
    if (cols < 4 || cols % 2 != 0 || e.sample.size() < 8)
        return std::nullopt;
    // A cos table's slowest pair starts near the amplitude, a sin table's near 0.
    std::int64_t k0 = 0;
    while (k0 < e.sample.size() && !e.framing.compared(e.sample.rows[std::size_t(k0)]))
        ++k0;
    if (k0 >= e.sample.size())
        return std::nullopt;
    const bool cosine = std::fabs(double(e.sample.values(k0, columnOf(layout, cols / 2 - 1)))) > 0.5;
    const auto slow = slowTheta(e.sample, e.framing, layout, cosine, first);
    if (!slow)
        return std::nullopt;
    for (const double theta : candidates(slow->theta)) {
        RopeFit::Fit fit;
        Params &params = fit.hypothesis.params;
        params.encoding = Encoding::Rope;
        params.dModel = cols;
        params.maxLen = std::clamp<std::int64_t>(first + e.rows(), 1, Params::kMaxLen);
        params.rope.headDim = cols;
        params.rope.theta = theta;
        params.rope.layout = layout;
        if (!params.isValid())
            continue;
        fit.hypothesis.cosine = cosine;
        fit.hypothesis.firstPosition = first + e.framing.firstRow;
        fit.correct = fit.hypothesis;
        TableMatch declared = match(fit);
        const std::vector<std::int64_t> rows = deviatingRows(e.sample, declared);
        if (rows.empty())
            continue;
        std::optional<TableMatch> named = RopeHalfAngles::name(declared, e.table, rows);
        if (!named)
            continue;
        named->verdict = CheckVerdict::Mistake;
        named->correctAgainst.clear();
        named->diagnosis = u"nothing declared, the base read from the table: rope_theta %1, which pairs %2..%3 "
                           "give (%4; their angles stay within the half format's rounding, the faster pairs' do not); "
                           "%5"_s.arg(NumberText::exact(theta))
                               .arg(slow->firstPair)
                               .arg(slow->lastPair)
                               .arg(NumberText::compact(slow->theta, 5), named->diagnosis);
        named->notes.append(
            u"undeclared: the reference is the default RoPE at the base read; declare it (--expect rope "
            "--rope-theta, or --preset) to check against the model's own"_s);
        TableCandidate c;
        c.compared = e.sample.size() * cols;
        c.bad = 0;
        c.claims = true;
        c.match = std::move(*named);
        return c;
    }
    return std::nullopt;
}

} // namespace posenc::RopeHalfAnglesRead
