#include "TimestepReading.h"

#include "check/CheckDiagnosis.h"
#include "check/DeclaredWords.h"
#include "check/FitNumbers.h"
#include "check/TableHypothesis.h"
#include "check/rope/ApplyCheck.h"
#include "check/rope/RopeRowPositions.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::TimestepReading {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

struct PairColumns
{
    std::vector<std::int64_t> sinCol, cosCol;
    std::vector<std::int64_t> slowestFirst; // the pairs that turn, by their frequency
};

PairColumns pairColumns(const PairReferenceSpec &spec)
{
    const std::int64_t pairs = std::int64_t(spec.schedule.w.size());
    PairColumns p {std::vector<std::int64_t>(std::size_t(pairs), -1), std::vector<std::int64_t>(std::size_t(pairs), -1),
                   {}};
    for (std::int64_t j = 0; j < spec.cols(); ++j) {
        const ReferenceColumn &c = spec.columns[std::size_t(j)];
        if (c.pair >= 0 && c.pair < pairs)
            (c.isCos ? p.cosCol : p.sinCol)[std::size_t(c.pair)] = j;
    }
    for (std::int64_t k = 0; k < pairs; ++k) {
        if (spec.schedule.w[std::size_t(k)] > 0.0 && p.sinCol[std::size_t(k)] >= 0 && p.cosCol[std::size_t(k)] >= 0)
            p.slowestFirst.push_back(k);
    }
    std::sort(p.slowestFirst.begin(), p.slowestFirst.end(),
              [&](std::int64_t a, std::int64_t b) { return spec.schedule.w[std::size_t(a)] < spec.schedule.w[std::size_t(b)]; });
    return p;
}

// An angle's doubt at timestep t and frequency w: the stored value's rounding, and float32 code's
// angle, t times a float32 frequency exp(float32 exponent) (a part in 10^6 of the angle).
double angleDoubt(double t, double w)
{
    return 2e-6 + 8e-7 * std::fabs(t * w);
}

// Sample row i's timestep: a candidate for each turn of the slowest pair (up to |t| of 2^24, the
// nearest 0 first), held by every faster pair whose prediction is sure and refined by each; the
// first candidate that two further pairs hold (one pair's angle holds any timestep).
std::optional<double> timestepOf(const TableSample &sample, std::int64_t i, const PairReferenceSpec &spec,
                                 const PairColumns &p)
{
    if (p.slowestFirst.size() < 2)
        return std::nullopt;
    const double amplitude = spec.schedule.amplitude;
    const auto angle = [&](std::int64_t k) {
        return std::atan2(double(sample.values(i, p.sinCol[std::size_t(k)])) / amplitude,
                          double(sample.values(i, p.cosCol[std::size_t(k)])) / amplitude);
    };
    const std::int64_t slowest = p.slowestFirst.front();
    const double ws = spec.schedule.w[std::size_t(slowest)];
    const double as = angle(slowest);
    const std::int64_t turns = std::min<std::int64_t>(std::int64_t(0x1p24 * ws / kTwoPi) + 1, 4096);
    const std::int64_t needed = std::min<std::int64_t>(std::int64_t(p.slowestFirst.size()) - 1, 2);
    for (std::int64_t m = 0; m <= 2 * turns; ++m) {
        const std::int64_t n = m % 2 == 0 ? m / 2 : -(m + 1) / 2;
        double t = (as + kTwoPi * double(n)) / ws;
        double spread = angleDoubt(t, ws) / ws;
        bool held = true;
        std::int64_t checked = 0;
        for (std::size_t s = 1; s < p.slowestFirst.size() && held; ++s) {
            const std::int64_t k = p.slowestFirst[s];
            const double w = spec.schedule.w[std::size_t(k)];
            const double tolerance = 3.0 * (spread * w + angleDoubt(t, w));
            if (tolerance > 0.3)
                continue;
            const double off = std::remainder(angle(k) - t * w, kTwoPi);
            held = std::fabs(off) <= tolerance;
            ++checked;
            const double finer = angleDoubt(t, w) / w;
            if (held && finer < spread) {
                t += off / w;
                spread = finer;
            }
        }
        if (held && checked >= needed && std::isfinite(t))
            return t;
    }
    return std::nullopt;
}

// How many of the sample's compared cells are beyond float32's rounding of the declared sinusoid at
// the rows' timesteps `t` (one a sample row; NaN: not compared), and how many were compared.
std::pair<std::int64_t, std::int64_t> offCells(const SinusoidalFit::FitInput &input, const PairReferenceSpec &spec,
                                               const std::vector<double> &t)
{
    const TableSample &sample = input.sample;
    const double amplitude = spec.schedule.amplitude;
    std::int64_t bad = 0, compared = 0;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        if (std::isnan(t[std::size_t(i)]))
            continue;
        for (std::int64_t j = 0; j < sample.cols(); ++j) {
            const ReferenceColumn &c = spec.columns[std::size_t(j)];
            const bool zero = c.pair < 0 || c.pair >= std::int64_t(spec.schedule.w.size());
            const double angle = zero ? 0.0 : t[std::size_t(i)] * spec.schedule.w[std::size_t(c.pair)];
            const double expected = zero ? 0.0 : amplitude * (c.isCos ? std::cos(angle) : std::sin(angle));
            // Float32 code's value and angle: a few units in the last place of the value, and of the angle
            // those of its float32 exponent (up to ln(max_period) of them) besides its product's.
            const double tolerance = amplitude * (4.0 * 0x1p-24 + 24.0 * 0x1p-24 * std::fabs(angle)) + input.textRounding;
            ++compared;
            bad += std::fabs(double(sample.values(i, j)) - expected) > tolerance ? 1 : 0;
        }
    }
    return {bad, compared};
}

// p rounded to a float of `mantissaBits` explicit bits, to nearest, ties to even (float16: 10,
// bfloat16: 7): the timestep a half-precision cast leaves.
std::int64_t halfRounded(std::int64_t p, int mantissaBits)
{
    if (p == 0)
        return 0;
    const double step = std::ldexp(1.0, std::max(0, std::ilogb(double(p)) - mantissaBits));
    return std::int64_t(std::nearbyint(double(p) / step) * step);
}

// Where the rows' integer timesteps are their own rounded to a half type, the rounding (a
// timestep cast to bfloat16 before the sinusoid: utensils/mold#786, Wan's timestep embedding).
std::optional<PositionRounding> roundedTimesteps(const std::vector<double> &t, const std::vector<std::int64_t> &q,
                                                 const std::vector<std::int64_t> &positions)
{
    for (const auto &[rounding, bits] : {std::pair {PositionRounding::Float16, 10}, {PositionRounding::BFloat16, 7}}) {
        bool all = true, moved = false;
        for (std::size_t i = 0; i < t.size() && all; ++i) {
            if (std::isnan(t[i]))
                continue;
            const std::int64_t r = halfRounded(positions[i], bits);
            all = q[i] == r;
            moved = moved || r != positions[i];
        }
        if (all && moved)
            return rounding;
    }
    return std::nullopt;
}

QString listed(const std::vector<double> &t, int digits)
{
    QStringList words;
    for (std::size_t i = 0; i < t.size() && words.size() < 4; ++i) {
        if (!std::isnan(t[i]))
            words.append(NumberText::compact(t[i], digits));
    }
    return words.join(u", "_s) + u", …"_s;
}

} // namespace

std::optional<SinusoidalDeclared::Differences> read(const SinusoidalFit::FitInput &input,
                                                    const SinusoidalFit::Hypothesis &declared, std::int64_t mostOff)
{
    const TableSample &sample = input.sample;
    const PairReferenceSpec spec = SinusoidalFit::reference(declared, sample.cols(), input.framing);
    const PairColumns p = pairColumns(spec);
    std::vector<double> t(std::size_t(sample.size()), std::nan(""));
    std::vector<std::int64_t> positions(std::size_t(sample.size()), 0);
    std::int64_t read = 0;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        if (!spec.compared(row))
            continue;
        const auto ti = timestepOf(sample, i, spec, p);
        if (!ti)
            return std::nullopt;
        t[std::size_t(i)] = *ti;
        positions[std::size_t(i)] = spec.position(row);
        ++read;
    }
    if (read < 2)
        return std::nullopt;
    // Every row the declared sinusoid at its own timestep, and better so than at the declared ones.
    const auto [bad, compared] = offCells(input, spec, t);
    if (!explains(compared, bad) || bad > mostOff)
        return std::nullopt;
    // The unit c: the rows' timesteps are c times integers. Candidates: the least step between two
    // rows read, over 1 .. 1000 (DDIM's 20 of 999, 979, ...: c = 1), each rounded to its fewest digits.
    double step = INFINITY, largest = 0.0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (std::isnan(t[i]))
            continue;
        largest = std::max(largest, std::fabs(t[i]));
        for (std::size_t j = i + 1; j < t.size(); ++j) {
            if (!std::isnan(t[j]) && std::fabs(t[j] - t[i]) > 1e-9 * (1.0 + largest))
                step = std::min(step, std::fabs(t[j] - t[i]));
        }
    }
    const auto integersAt = [&](double c) {
        for (const double ti : t) {
            if (std::isnan(ti))
                continue;
            // A timestep read is sure to its angle's doubt at the fastest pair (w = 1): a c whose
            // integers that leaves unsure (past a fiftieth) is not read.
            const double q = ti / c;
            const double doubt = 4.0 * angleDoubt(ti, 1.0) / c;
            if (!(std::fabs(q) <= 0x1p24) || doubt > 0.02 || std::fabs(q - std::round(q)) > 1e-3 + doubt)
                return false;
        }
        return true;
    };
    std::optional<double> unit;
    for (int m = 1; m <= 1000 && std::isfinite(step) && !unit; ++m) {
        for (const double c : FitNumbers::roundings(step / m, 15)) {
            if (integersAt(c)) {
                unit = c;
                break;
            }
        }
    }
    SinusoidalDeclared::Differences out;
    const QString was = DeclaredWords::wasDeclared();
    if (!unit) {
        out.noted = true;
        out.lines.append(u"the rows are the declared sinusoid at timesteps read from their angles, %1, which no "
                         "constant times integers gives (a flow-matching scheduler's sigmas times 1000 are such): no "
                         "scale of the timesteps is read; row r at timestep r %2"_s.arg(listed(t, 6), was));
        return out;
    }
    const double c = *unit;
    std::vector<std::int64_t> q(t.size(), 0);
    bool rowsOwn = true, shifted = true;
    std::optional<std::int64_t> shift;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (std::isnan(t[i]))
            continue;
        q[i] = std::llround(t[i] / c);
        rowsOwn = rowsOwn && q[i] == positions[i];
        if (!shift)
            shift = q[i] - positions[i];
        shifted = shifted && q[i] - positions[i] == *shift;
    }
    if (c == 1.0 && rowsOwn)
        return std::nullopt;
    std::vector<double> integers;
    for (std::size_t i = 0; i < t.size(); ++i)
        integers.push_back(std::isnan(t[i]) ? t[i] : double(q[i]));
    const QString grid = shifted && *shift != 0 ? u"row r holds %1 + r"_s.arg(*shift)
        : shifted                               ? u"row r holds r"_s
                                                : u"the rows hold %1"_s.arg(listed(integers, 9));
    if (c != 1.0) {
        out.ids.append(RopeRowPositions::kPositionsScaled);
        out.lines.append(u"the rows are the declared sinusoid at timesteps %1 times integers (%2): every angle %1 "
                         "times the declared one's at those integers, where row r at timestep r %3; timesteps in "
                         "[0, 1] where the embedding takes [0, 1000) (or multiplied by 1000 once too often) give "
                         "this"_s.arg(NumberText::compact(c, 7), grid, was));
        return out;
    }
    // Positions that are the declared ones at half precision are that, not a reordering.
    if (const auto rounding = roundedTimesteps(t, q, positions); rounding && !shifted) {
        std::size_t moved = 0;
        while (moved + 1 < t.size() && (std::isnan(t[moved]) || q[moved] == positions[moved]))
            ++moved;
        out.ids.append(CheckMistakes::kHalfPrecisionAngles);
        out.lines.append(u"the rows are the declared sinusoid at their own timesteps rounded (position %1 at %2), "
                         "where row r at timestep r %3: %4"_s.arg(positions[moved])
                             .arg(q[moved])
                             .arg(was, CheckDiagnosis::halfPrecisionLine(*rounding)));
        return out;
    }
    out.ids.append(shifted ? CheckMistakes::kPositionOffset : ApplyCheck::kPositionsOutOfOrder);
    if (shifted)
        out.positionOffset = *shift;
    out.lines.append(u"the rows are the declared sinusoid at other integer timesteps than their own (%1), where row r "
                     "at timestep r %2; a scheduler's timesteps are such (diffusers' DDIMScheduler.set_timesteps "
                     "gives 999, 979, ..., 19 for 50 steps): if the model was given these, the embedding is the "
                     "declared one"_s.arg(grid, was));
    return out;
}

} // namespace posenc::TimestepReading
