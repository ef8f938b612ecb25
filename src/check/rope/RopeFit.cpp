// RopeFit's measuring half: the fastest pair's frequency, amplitude and phase, which give the
// table's function and first position, then every pair's frequency and rope_theta
// (docs/ARCHITECTURE.md, Checking a table). RopeSearch.cpp tries the types.
#include "RopeFit.h"

#include "check/FitNumbers.h"
#include "check/rope/RopeSearch.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numbers>

namespace posenc::RopeFit {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kHalfPi = std::numbers::pi / 2.0;

// The compared rows of the sample, with their positions relative to the first compared row.
struct Rows
{
    std::vector<std::int64_t> index; // sample index
    std::vector<double> relative; // row - firstRow
    std::int64_t leading = 0; // the first `leading` are consecutive
};

Rows comparedRows(const TableSample &sample, const RowFraming &framing)
{
    Rows rows;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        if (row < framing.firstRow || std::binary_search(framing.paddingRows.begin(), framing.paddingRows.end(), row))
            continue;
        rows.index.push_back(i);
        rows.relative.push_back(double(row - framing.firstRow));
    }
    while (rows.leading < std::int64_t(rows.index.size())
           && rows.relative[std::size_t(rows.leading)] == double(rows.leading))
        ++rows.leading;
    return rows;
}

double formatNoise(ValueFormat format, double textRounding)
{
    switch (format) {
    case ValueFormat::Float32:
        return 2e-7 + textRounding;
    case ValueFormat::Float16:
        return 1.2e-3 + textRounding;
    case ValueFormat::BFloat16:
        return 8e-3 + textRounding;
    }
    return 2e-7 + textRounding;
}

// The candidate angles of a value near the prediction: +-a (cos) or a, pi - a (sin), plus turns.
std::vector<double> nearAngles(double a, bool cosine, double predicted, double reach)
{
    const double base[2] = {a, cosine ? -a : std::numbers::pi - a};
    std::vector<double> near;
    for (const double b : base) {
        const double c = b + kTwoPi * std::round((predicted - b) / kTwoPi);
        // An angle theta p is never negative: theta >= 0 at p > 0.
        for (const double candidate : {c - kTwoPi, c, c + kTwoPi}) {
            if (candidate >= 0.0 && std::fabs(candidate - predicted) <= reach)
                near.push_back(candidate);
        }
    }
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    return near;
}

// A pair's frequency from its values y = x / A at positions p (cos or sin of theta p), tracked
// from a first row's angle: at each farther row the one angle within the line's uncertainty,
// kept when it pins theta closer.
Frequency track(const std::vector<double> &p, const std::vector<double> &y, bool cosine, double noise,
                std::size_t first, double firstAngle)
{
    Frequency f;
    const double floorAngle = std::sqrt(2.0 * noise);
    for (std::size_t k = first; k < p.size(); ++k) {
        if (!(p[k] > 0.0))
            continue;
        const double v = std::clamp(y[k], -1.0, 1.0);
        const double a = cosine ? std::acos(v) : std::asin(v);
        const double slope = cosine ? std::sin(a) : std::cos(a);
        // The angle's uncertainty: the value's over the derivative, the drift of float32 angles.
        const double u
            = noise / std::max(std::fabs(slope), floorAngle) + (std::isfinite(f.sigma) ? f.theta : 1.0) * p[k] * 1e-6;
        if (!std::isfinite(f.sigma)) {
            f.theta = firstAngle / p[k];
            f.sigma = (u + floorAngle) / p[k];
            continue;
        }
        const double predicted = f.theta * p[k];
        const std::vector<double> near = nearAngles(a, cosine, predicted, 3.0 * f.sigma * p[k] + 3.0 * u);
        double angle = 0.0;
        double uncertainty = u;
        if (near.size() == 1) {
            angle = near.front();
        } else if (near.size() == 2 && near[1] - near[0] < 2.0 * u + 2.0 * floorAngle) {
            // The two branches meet at an extremum: the angle is between them.
            angle = 0.5 * (near[0] + near[1]);
            uncertainty = u + 0.5 * (near[1] - near[0]);
        } else {
            continue;
        }
        const double sigma = uncertainty / p[k];
        if (sigma < f.sigma && angle >= 0.0) {
            f.theta = angle / p[k];
            f.sigma = sigma;
        }
    }
    return f;
}

// A pair's frequency, at most thetaMax (the fastest pair's). The first row's angle theta p is the
// branch of acos or asin when theta p cannot pass it: [0, pi] (cos) or [-pi/2, pi/2] (sin), as
// when positions start at 0 or 1. Positions from q > 1 put theta q up to thetaMax q: every turn
// of both branches within that is tracked, and the track that explains the rows best is kept.
Frequency measureFrequency(const std::vector<double> &p, const std::vector<double> &y, bool cosine, double noise,
                           double thetaMax)
{
    std::size_t first = 0;
    while (first < p.size() && !(p[first] > 0.0))
        ++first;
    if (first == p.size())
        return {};
    const double a = cosine ? std::acos(std::clamp(y[first], -1.0, 1.0)) : std::asin(std::clamp(y[first], -1.0, 1.0));
    const double reach = thetaMax * p[first] + std::sqrt(2.0 * noise);
    if (reach <= (cosine ? std::numbers::pi : kHalfPi))
        return track(p, y, cosine, noise, first, std::max(a, 0.0));
    Frequency best;
    double bestResidual = std::numeric_limits<double>::infinity();
    for (const double b : {a, cosine ? kTwoPi - a : std::numbers::pi - a}) {
        for (double angle = b < 0.0 ? b + kTwoPi : b; angle <= reach; angle += kTwoPi) {
            const Frequency f = track(p, y, cosine, noise, first, angle);
            double residual = 0.0;
            for (std::size_t k = first; k < p.size(); ++k) {
                const double x = f.theta * p[k];
                residual += std::fabs(y[k] - (cosine ? std::cos(x) : std::sin(x)));
            }
            if (residual < bestResidual) {
                bestResidual = residual;
                best = f;
            }
        }
    }
    return best;
}

// Pair 0, the fastest: its frequency from v[r-1] + v[r+1] = 2 cos(theta) v[r] over the first
// rows, whatever the amplitude and phase; then the amplitude A and phase phi of
// A cos(theta r + phi) by least squares; then the table's function and its first position q:
// cos(theta (r + q)) has phase theta q, sin(theta (r + q)) = cos(theta (r + q) - pi/2) has phase
// theta q - pi/2.
// The fastest pair's frequency, or nothing when the rows show no rotation.
std::optional<double> measurePairZero(const std::function<double(std::size_t, std::int64_t)> &value,
                                      std::int64_t leading, std::int64_t declaredFirst, Measured &m)
{
    double num = 0.0, den = 0.0;
    for (std::int64_t k = 1; k + 1 < leading; ++k) {
        const double v = value(std::size_t(k), 0);
        num += v * (value(std::size_t(k - 1), 0) + value(std::size_t(k + 1), 0));
        den += 2.0 * v * v;
    }
    if (!(den > 0.0))
        return std::nullopt;
    const double theta0 = std::acos(std::clamp(num / den, -1.0, 1.0));
    double cc = 0.0, ss = 0.0, cs = 0.0, xc = 0.0, xs = 0.0;
    for (std::int64_t k = 0; k < leading; ++k) {
        const double c = std::cos(theta0 * double(k)), s = std::sin(theta0 * double(k));
        const double x = value(std::size_t(k), 0);
        cc += c * c;
        ss += s * s;
        cs += c * s;
        xc += x * c;
        xs += x * s;
    }
    const double det = cc * ss - cs * cs;
    if (!(std::fabs(det) > 1e-12))
        return theta0;
    const double a = (xc * ss - xs * cs) / det;
    const double b = (xs * cc - xc * cs) / det;
    m.amplitude = std::hypot(a, b);
    const double phase = std::atan2(-b, a); // x = A cos(theta r + phase)
    if (!(m.amplitude > 0.0))
        return std::nullopt;
    // The amplitude's standard error: a's and b's variance is the residuals' mean square times their
    // element of the inverse normal matrix, A's the larger.
    double rss = 0.0;
    for (std::int64_t k = 0; k < leading; ++k)
        rss += std::pow(value(std::size_t(k), 0) - a * std::cos(theta0 * k) - b * std::sin(theta0 * k), 2);
    m.amplitudeSigma = leading > 2 ? std::sqrt(rss / double(leading - 2) * std::max(cc, ss) / det) : m.amplitude;
    // Row 0 at the declared first position (--positions A:B, the ids' first), its phase saying cos or sin; where
    // that is off by over 0.05 rad and one of 0..64 far closer (a cache offset forgotten), it (position-offset).
    double best = std::numeric_limits<double>::infinity();
    const auto tryFrom = [&](std::int64_t fromQ, std::int64_t toQ) {
        for (std::int64_t q = fromQ; q <= toQ; ++q)
            for (const bool c : {true, false}) {
                const double target = theta0 * double(q) - (c ? 0.0 : kHalfPi);
                const double residual = std::fabs(std::remainder(phase - target, kTwoPi)) + 1e-9 * double(q);
                if (residual < best)
                    best = residual, m.cosine = c, m.firstPosition = q;
            }
    };
    tryFrom(std::max<std::int64_t>(declaredFirst, 0), declaredFirst > 0 ? declaredFirst : 64);
    if (const Measured declared = m; declaredFirst > 0 && best > 0.05) {
        const double declaredResidual = std::exchange(best, std::numeric_limits<double>::infinity());
        tryFrom(0, 64);
        if (!(best * 8.0 < declaredResidual))
            m = declared;
    }
    return theta0;
}

// rope_theta from the fast pairs, which every type but linear and proportional keeps and those
// divide alike: ln theta_i = ln theta_0 - (2 ln base / dim) i. The exponent's denominator is the
// table's width: the rotary dim, or proportional's head_dim. Each fast pair gives the slope to the
// uncertainty of its own and pair 0's frequency over i (pair i pins it i times as close as pair 1):
// the slope is the median of theirs weighted by that, so that a half-precision table, whose rows
// pin each frequency to a part in a few thousand only, reads its base as closely as its rows allow.
// A pair pinned no closer than a part in a hundred tells no base. One pair shows no theta: 10000.
void measureBase(Measured &m, std::int64_t d)
{
    const Frequency &fastest = m.theta[0];
    const double fastestRelative = fastest.sigma / fastest.theta;
    std::vector<std::pair<double, double>> slopes; // slope, weight
    for (std::int64_t i = 1; i < std::max<std::int64_t>(2, m.live / 4 + 1) && i < m.live; ++i) {
        const Frequency &f = m.theta[std::size_t(i)];
        const double relative = f.sigma / f.theta;
        if (!(f.theta > 0.0 && relative < 1e-2 && fastestRelative < 1e-2))
            continue;
        const double uncertainty = std::hypot(relative, fastestRelative) / double(i);
        slopes.emplace_back((std::log(fastest.theta) - std::log(f.theta)) / double(i),
                            1.0 / std::max(uncertainty * uncertainty, 1e-300));
    }
    std::sort(slopes.begin(), slopes.end());
    double total = 0.0;
    for (const auto &slope : slopes)
        total += slope.second;
    double slope = 0.0, below = 0.0;
    for (const auto &[k, weight] : slopes) {
        slope = k;
        below += weight;
        if (below >= 0.5 * total)
            break;
    }
    m.fittedBase = slopes.empty() ? 10000.0 : std::exp(slope * double(d) / 2.0);
    m.bases = FitNumbers::roundings(m.fittedBase, 12);
    // The configs' thetas: first where the fit is near one, last in any case (slow pairs pin theta
    // loosely when a large factor divides them all).
    for (const double common : {10000.0, 500000.0, 1000000.0, 150000.0}) {
        if (std::find(m.bases.begin(), m.bases.end(), common) != m.bases.end())
            continue;
        if (std::fabs(common / m.fittedBase - 1.0) < 0.01)
            m.bases.insert(m.bases.begin(), common);
        else
            m.bases.push_back(common);
    }
}

// A fastest pair that turns too slowly for the first rows to show it (a linear factor of 10^3 or
// more): a cos table holds its amplitude in row 0, a sin table 0 there (a leading zero row), and
// row r holds position r. A sin table of small angles shows A theta alone: amplitude 1 taken.
void measureSlowPairZero(const FitInput &input, Measured &m)
{
    m.cosine = input.framing.firstRow == 0;
    m.amplitude = m.cosine ? double(input.sample.values(0, 0)) : 1.0;
    m.amplitudeSigma = m.amplitude; // one cell: as far as its rounding (RopeSearch::amplitudeSlack)
    m.firstPosition = input.framing.firstRow + input.firstPosition;
}

// Half a unit of the format at 1, and the text's rounding: what a value equal to the amplitude may
// be off by.
double stillTolerance(ValueFormat format, double textRounding)
{
    switch (format) {
    case ValueFormat::Float32:
        return 0x1p-24 * 1.01 + textRounding;
    case ValueFormat::Float16:
        return 0x1p-11 * 1.01 + textRounding;
    case ValueFormat::BFloat16:
        return 0x1p-8 * 1.01 + textRounding;
    }
    return 0x1p-24 + textRounding;
}

// What the sample measures: nothing when the rows do not rotate as a RoPE table's do.
std::optional<Measured> measure(const FitInput &input, RopeLayout layout)
{
    const TableSample &sample = input.sample;
    const std::int64_t h = sample.cols() / 2;
    const Rows rows = comparedRows(sample, input.framing);
    if (h < 1 || rows.leading < 4)
        return std::nullopt;
    const auto value = [&](std::size_t k, std::int64_t pair) {
        return double(sample.values(rows.index[k], layout == RopeLayout::Half ? pair : 2 * pair));
    };
    Measured m;
    const std::optional<double> theta0 = measurePairZero(
        value, rows.leading, input.firstPosition > 0 ? input.framing.firstRow + input.firstPosition : 0, m);
    if (!theta0)
        return std::nullopt;
    if (*theta0 < 0.05)
        measureSlowPairZero(input, m);
    if (!(m.amplitude > 0.0))
        return std::nullopt;
    const std::size_t n = rows.index.size();
    const double noise = formatNoise(input.format, input.textRounding);
    std::vector<double> positions(n);
    for (std::size_t k = 0; k < n; ++k)
        positions[k] = rows.relative[k] + double(m.firstPosition);
    m.theta.resize(static_cast<std::size_t>(h));
    m.live = h;
    // A pair that never turns holds A cos 0 = A (or sin 0 = 0) in every row, to the format's
    // rounding of A; a slow pair that turns moves off it.
    const double still = stillTolerance(input.format, input.textRounding) * m.amplitude;
    for (std::int64_t i = h - 1; i >= 0; --i) {
        bool never = true;
        for (std::size_t k = 0; k < n && never; ++k)
            never = std::fabs(value(k, i) - (m.cosine ? m.amplitude : 0.0)) <= still;
        if (!never)
            break;
        m.live = i;
    }
    // Every rope_type's pairs turn no faster than pair 0; a little room for the fit's own error.
    const double thetaMax = *theta0 * 1.01 + 1e-6;
    for (std::int64_t i = 0; i < h; ++i) {
        if (ScoringCancel::requested()) // a pair's tracking takes a while over many rows: none after Ctrl+C
            return std::nullopt;
        std::vector<double> y(n);
        for (std::size_t k = 0; k < n; ++k)
            y[k] = value(k, i) / m.amplitude;
        m.theta[std::size_t(i)]
            = i >= m.live ? Frequency {0.0, 0.0} : measureFrequency(positions, y, m.cosine, noise, thetaMax);
    }
    if (!(m.theta[0].theta > 0.0))
        return std::nullopt;
    measureBase(m, sample.cols());
    return m;
}

} // namespace

PairReferenceSpec reference(const Hypothesis &h, const RowFraming &framing)
{
    return reference(h, framing, RopeFrequencies::table(h.params));
}

PairReferenceSpec reference(const Hypothesis &h, const RowFraming &framing, const RopeFrequencies::Table &table)
{
    PairReferenceSpec spec;
    spec.schedule.w = table.inv; // RopeFrequencies::schedule(h.params), its amplitude set below
    if (h.scaling != ScalingMistake::None && h.params.rope.type == RopeType::Llama3)
        spec.schedule.w = reversedLlama3(h.params, h.scaling);
    if (h.scaling != ScalingMistake::None && h.params.rope.type == RopeType::Yarn)
        spec.schedule.w = reversedYarn(h.params);
    spec.schedule.amplitude = h.amplitude;
    spec.amplitudeSlack = h.amplitudeSlack;
    const std::int64_t d = RopeFrequencies::rotaryDim(h.params.rope);
    const std::int64_t pairs = spec.schedule.pairs();
    spec.columns.resize(std::size_t(d));
    for (std::int64_t c = 0; c < d; ++c) {
        const std::int64_t pair = h.params.rope.layout == RopeLayout::Half ? c % pairs : c / 2;
        spec.columns[std::size_t(c)] = {pair < pairs ? pair : -1, h.cosine};
    }
    spec.firstRow = framing.firstRow;
    spec.paddingRows = framing.paddingRows;
    spec.positionOffset = h.firstPosition;
    spec.positionRounding = h.rounding;
    return spec;
}

Fit evaluate(const FitInput &input, const Hypothesis &h, std::int64_t stopAfter, ScoreStop stop)
{
    if (ScoringCancel::requested()) { // before the tolerances, which take a while at wide d
        Fit f;
        f.hypothesis = h;
        f.score = fitsNothing(input.sample);
        return f;
    }
    const RopeFrequencies::Table table = RopeFrequencies::table(h.params);
    return evaluate(input, h, reference(h, input.framing, table), table.attentionFactor, stopAfter, stop);
}

Fit evaluate(const FitInput &input, const Hypothesis &h, PairReferenceSpec spec, double typeAttentionFactor,
             std::int64_t stopAfter, ScoreStop stop)
{
    if (ScoringCancel::requested()) {
        Fit f;
        f.hypothesis = h;
        f.score = fitsNothing(input.sample);
        return f;
    }
    const CellTolerance exact = cellTolerance(input.format, false, input.stored, input.textRounding, spec);
    const CellTolerance angles = cellTolerance(input.format, true, input.stored, input.textRounding, spec);
    Fit f;
    f.hypothesis = h;
    f.typeAttentionFactor = typeAttentionFactor;
    f.score = scoreOnSample(PairReference(std::move(spec)), input.sample, exact, &angles, stopAfter, stop);
    f.float32Angles = f.score.bad > 0 && f.score.badWithFloat32Angles < f.score.bad;
    return f;
}

std::optional<RopeLayout> repeatedLayout(const TableSample &sample, const RowFraming &framing, double tolerance)
{
    const std::int64_t d = sample.cols();
    if (d < 2 || d % 2 != 0)
        return std::nullopt;
    const std::int64_t h = d / 2;
    const Rows rows = comparedRows(sample, framing);
    if (rows.index.empty())
        return std::nullopt;
    // A few cells off (a mistake the fit then finds and places) leave the layout plain: the
    // columns repeat in all but at most one comparison in a hundred, and in more of them than in
    // the other layout.
    const std::int64_t allowed = std::max<std::int64_t>(1, std::int64_t(rows.index.size()) * h / 100);
    // Counted up to allowed + 1, past which the layout is out whatever the exact count.
    const auto mismatches = [&](RopeLayout layout) {
        std::int64_t count = 0;
        for (std::size_t k = 0; k < rows.index.size() && count <= allowed; ++k) {
            const auto row = sample.values.row(rows.index[k]);
            for (std::int64_t i = 0; i < h && count <= allowed; ++i) {
                const double a = row(layout == RopeLayout::Half ? i : 2 * i);
                const double b = row(layout == RopeLayout::Half ? h + i : 2 * i + 1);
                count += !(std::fabs(a - b) <= tolerance * (1.0 + std::fabs(a)));
            }
        }
        return count;
    };
    const std::int64_t half = mismatches(RopeLayout::Half);
    const std::int64_t interleaved = mismatches(RopeLayout::Interleaved);
    if (half <= allowed && half <= interleaved)
        return RopeLayout::Half;
    if (interleaved <= allowed)
        return RopeLayout::Interleaved;
    return std::nullopt;
}

namespace {
std::atomic<std::int64_t> g_searchesBegun {0};
} // namespace

std::int64_t searchesBegun()
{
    return g_searchesBegun.load(std::memory_order_relaxed);
}

bool movesAlongDiagonals(const TableSample &sample, double tolerance)
{
    // Consecutive rows enough that a coincidence of one step ((p + 1) w_{i+1} = p w_i in a RoPE
    // table of a few rows) is not taken for the rule.
    constexpr std::int64_t kSteps = 6;
    const std::int64_t d = sample.cols();
    std::int64_t steps = 0, moving = 0;
    const auto same = [tolerance](double a, double b) {
        return a == b || std::fabs(b - a) <= tolerance * (1.0 + std::fabs(a));
    };
    for (std::int64_t k = 0; k + 1 < sample.size(); ++k) {
        if (sample.rows[std::size_t(k + 1)] != sample.rows[std::size_t(k)] + 1)
            continue;
        ++steps;
        const auto row = sample.values.row(k), next = sample.values.row(k + 1);
        for (std::int64_t c = 0; c + 1 < d; ++c) {
            const double a = row(c);
            if (!same(a, next(c + 1)))
                return false;
            moving += !same(a, next(c));
        }
    }
    return steps >= kSteps && moving >= steps;
}

std::optional<Fit> fit(const FitInput &input, RopeLayout layout, std::optional<RopeLayout> declared,
                       const std::vector<Published> &published)
{
    const std::optional<Measured> measured = measure(input, layout);
    if (!measured)
        return std::nullopt;
    g_searchesBegun.fetch_add(1, std::memory_order_relaxed);
    RopeSearch search(input, *measured, layout);
    // The default at the rounding of the fitted theta nearest it, which the loop below tries: a
    // count no hypothesis past which is the best, where the roundest thetas come first and leave
    // nearly every cell beyond the tolerance (a theta the fit reads between two round ones).
    if (!measured->bases.empty()) {
        const double fitted = measured->fittedBase;
        const auto nearest = std::min_element(measured->bases.begin(), measured->bases.end(), [&](double a, double b) {
            return std::fabs(a / fitted - 1.0) < std::fabs(b / fitted - 1.0);
        });
        Params p = search.baseParams();
        p.rope.theta = *nearest;
        p.rope.type = RopeType::Default;
        search.boundBy(p);
    }
    search.tryPublished(published);
    // Pairs that never turn are proportional's tail, or pairs too slow for the table to show: the
    // default type, the simpler, where it explains them as well.
    const bool still = measured->live < std::int64_t(measured->theta.size());
    for (const double b : measured->bases) {
        const bool defaultTried = still && !search.matched();
        if (defaultTried && !search.tryDefault(b))
            search.tryProportional(b);
        if (!search.matched())
            search.tryBase(b, defaultTried);
    }
    // A default table of a theta of many digits is a dynamic table's grown base, if round
    // parameters give it.
    if (!search.matched() || !search.roundBest())
        search.tryDynamic();
    if (!search.matched())
        search.tryLongRope();
    if (!search.best())
        return std::nullopt;
    if (!search.matched())
        search.tryRoundedPositions();
    return search.finish(declared);
}

std::optional<Fit> fitFewRows(const FitInput &input, RopeLayout layout, std::optional<RopeLayout> declared)
{
    const TableSample &sample = input.sample;
    const std::int64_t h = sample.cols() / 2;
    const Rows rows = comparedRows(sample, input.framing);
    // Row 0 at position 0 (A cos 0, or sin 0 framed out): not a table from a later position.
    if (h < 1 || rows.index.empty() || input.framing.firstRow > 1 || input.firstPosition > 0)
        return std::nullopt;
    // A cos table starts at A cos 0 = A in row 0; a sin table at sin 0 = 0, which the framing
    // took for a leading zero row.
    Measured m;
    m.cosine = input.framing.firstRow == 0;
    m.firstPosition = input.framing.firstRow;
    const auto value = [&](std::int64_t row, std::int64_t pair) {
        return double(sample.values(row, layout == RopeLayout::Half ? pair : 2 * pair));
    };
    m.amplitude = m.cosine ? value(0, 0) : 1.0;
    if (!(m.amplitude > 0.0))
        return std::nullopt;
    m.amplitudeSigma = m.amplitude;
    m.live = h;
    m.theta.assign(std::size_t(h), Frequency {});
    if (sample.size() >= 2) {
        for (std::int64_t i = 0; i < h; ++i) {
            const double v = std::clamp(value(1, i) / m.amplitude, -1.0, 1.0);
            m.theta[std::size_t(i)].theta = m.cosine ? std::acos(v) : std::asin(v);
            m.theta[std::size_t(i)].sigma = 1e-6;
        }
    }
    measureBase(m, sample.cols());
    if (sample.size() < 2 || h < 2)
        m.bases = {10000.0};
    g_searchesBegun.fetch_add(1, std::memory_order_relaxed);
    RopeSearch search(input, m, layout);
    for (const double b : m.bases) {
        if (search.matched())
            break;
        Params p;
        p.encoding = Encoding::Rope;
        p.maxLen = std::clamp<std::int64_t>(sample.tableRows, 1, Params::kMaxLen);
        RopeFrequencies::setHeadDim(p, sample.cols());
        p.rope.layout = layout;
        p.rope.theta = b;
        search.consider(p);
    }
    if (!search.best())
        return std::nullopt;
    return search.finish(declared);
}

} // namespace posenc::RopeFit
