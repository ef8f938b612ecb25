#include "RopeFit.h"

#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::RopeFit {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kHalfPi = std::numbers::pi / 2.0;

// Simpler types first: the one named when several give the same table.
int typeRank(RopeType type)
{
    switch (type) {
    case RopeType::Default:
        return 0;
    case RopeType::Linear:
        return 1;
    case RopeType::Proportional:
        return 2;
    case RopeType::Llama3:
        return 3;
    case RopeType::Yarn:
        return 4;
    case RopeType::LongRope:
        return 5;
    case RopeType::Dynamic:
        return 6;
    }
    return 7;
}

// `value` and its roundings to 1..max significant digits, the fewest first.
std::vector<double> roundings(double value, int maxDigits)
{
    std::vector<double> out;
    if (!(value > 0.0 && std::isfinite(value)))
        return out;
    const int exponent = int(std::floor(std::log10(value)));
    for (int digits = 1; digits <= maxDigits; ++digits) {
        const double unit = std::pow(10.0, exponent - digits + 1);
        const double rounded = std::round(value / unit) * unit;
        if (rounded > 0.0 && std::find(out.begin(), out.end(), rounded) == out.end())
            out.push_back(rounded);
    }
    if (std::find(out.begin(), out.end(), value) == out.end())
        out.push_back(value);
    return out;
}

int digitsOf(double value)
{
    const std::vector<double> r = roundings(value, 15);
    const auto it = std::find(r.begin(), r.end(), value);
    return it == r.end() ? 17 : int(it - r.begin()) + 1;
}

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

// A pair's frequency from its values y = x / A at positions p (cos or sin of theta p): the
// branch of acos or asin at the first position, then at each farther row the one angle within
// the line's uncertainty, kept when it pins theta closer.
struct Frequency
{
    double theta = 0.0;
    double sigma = std::numeric_limits<double>::infinity();
};

Frequency measureFrequency(const std::vector<double> &p, const std::vector<double> &y, bool cosine, double noise)
{
    Frequency f;
    const double floorAngle = std::sqrt(2.0 * noise);
    for (std::size_t k = 0; k < p.size(); ++k) {
        if (!(p[k] > 0.0))
            continue;
        const double v = std::clamp(y[k], -1.0, 1.0);
        const double a = cosine ? std::acos(v) : std::asin(v);
        const double slope = cosine ? std::sin(a) : std::cos(a);
        // The angle's uncertainty: the value's over the derivative, the drift of float32 angles.
        const double u
            = noise / std::max(std::fabs(slope), floorAngle) + (std::isfinite(f.sigma) ? f.theta : 1.0) * p[k] * 1e-6;
        if (!std::isfinite(f.sigma)) {
            // The first row: theta p lies in [0, pi] (cos) or [-pi/2, pi/2] (sin), as RoPE's
            // frequencies are at most 1.
            f.theta = std::max(a, 0.0) / p[k];
            f.sigma = (u + floorAngle) / p[k];
            continue;
        }
        const double predicted = f.theta * p[k];
        const double reach = 3.0 * f.sigma * p[k] + 3.0 * u;
        // The candidate angles near the prediction: +-a (cos) or a, pi - a (sin), plus turns.
        const double base[2] = {a, cosine ? -a : std::numbers::pi - a};
        std::vector<double> near;
        for (const double b : base) {
            const double c = b + kTwoPi * std::round((predicted - b) / kTwoPi);
            for (const double candidate : {c - kTwoPi, c, c + kTwoPi}) {
                if (std::fabs(candidate - predicted) <= reach)
                    near.push_back(candidate);
            }
        }
        std::sort(near.begin(), near.end());
        near.erase(std::unique(near.begin(), near.end()), near.end());
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

} // namespace

ReferenceSpec reference(const Hypothesis &h, const RowFraming &framing)
{
    ReferenceSpec spec;
    spec.schedule = RopeFrequencies::schedule(h.params);
    spec.schedule.amplitude = h.amplitude;
    const std::int64_t d = h.params.rope.headDim;
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

std::optional<RopeLayout> repeatedLayout(const TableSample &sample, const RowFraming &framing, double tolerance)
{
    const std::int64_t d = sample.cols();
    if (d < 2 || d % 2 != 0)
        return std::nullopt;
    const std::int64_t h = d / 2;
    const Rows rows = comparedRows(sample, framing);
    if (rows.index.size() < 3)
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

std::optional<Fit> fit(const TableSample &sample, const RowFraming &framing, RopeLayout layout,
                       std::optional<RopeLayout> declared, ValueFormat format, StoredType stored, double textRounding)
{
    const std::int64_t d = sample.cols();
    const std::int64_t h = d / 2;
    const Rows rows = comparedRows(sample, framing);
    if (h < 1 || rows.leading < 4)
        return std::nullopt;
    const auto value = [&](std::size_t k, std::int64_t pair) {
        return double(sample.values(rows.index[k], layout == RopeLayout::Half ? pair : 2 * pair));
    };
    const std::size_t n = rows.index.size();

    // Pair 0, the fastest: its frequency from v[r-1] + v[r+1] = 2 cos(theta) v[r] over the first
    // rows, whatever the amplitude and phase; then the amplitude A and phase phi of
    // A cos(theta r + phi) by least squares.
    double num = 0.0, den = 0.0;
    for (std::int64_t k = 1; k + 1 < rows.leading; ++k) {
        const double v = value(std::size_t(k), 0);
        num += v * (value(std::size_t(k - 1), 0) + value(std::size_t(k + 1), 0));
        den += 2.0 * v * v;
    }
    if (!(den > 0.0))
        return std::nullopt;
    const double theta0 = std::acos(std::clamp(num / den, -1.0, 1.0));
    double cc = 0.0, ss = 0.0, cs = 0.0, xc = 0.0, xs = 0.0;
    for (std::int64_t k = 0; k < rows.leading; ++k) {
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
        return std::nullopt;
    const double a = (xc * ss - xs * cs) / det;
    const double b = (xs * cc - xc * cs) / det;
    const double measuredAmplitude = std::hypot(a, b);
    const double phase = std::atan2(-b, a); // x = A cos(theta r + phase)
    if (!(measuredAmplitude > 0.0))
        return std::nullopt;

    // The table's function and its first position q: cos(theta (r + q)) has phase theta q,
    // sin(theta (r + q)) = cos(theta (r + q) - pi/2) has phase theta q - pi/2.
    bool cosine = true;
    std::int64_t firstPosition = 0;
    double bestResidual = std::numeric_limits<double>::infinity();
    for (std::int64_t q = 0; q <= 64; ++q) {
        for (const bool c : {true, false}) {
            const double target = theta0 * double(q) - (c ? 0.0 : kHalfPi);
            const double residual = std::fabs(std::remainder(phase - target, kTwoPi)) + 1e-9 * double(q);
            if (residual < bestResidual) {
                bestResidual = residual;
                cosine = c;
                firstPosition = q;
            }
        }
    }

    // Every pair's frequency, unwrapped over the sample's rows at their positions.
    const double noise = formatNoise(format, textRounding);
    std::vector<double> positions(n);
    for (std::size_t k = 0; k < n; ++k)
        positions[k] = rows.relative[k] + double(firstPosition);
    std::vector<Frequency> theta(static_cast<std::size_t>(h));
    std::int64_t live = h; // pairs from `live` on never turn (proportional's tail)
    for (std::int64_t i = h - 1; i >= 0; --i) {
        bool still = true;
        for (std::size_t k = 0; k < n && still; ++k)
            still = std::fabs(value(k, i) - (cosine ? measuredAmplitude : 0.0)) <= 2.0 * noise * measuredAmplitude;
        if (!still)
            break;
        live = i;
    }
    for (std::int64_t i = 0; i < h; ++i) {
        std::vector<double> y(n);
        for (std::size_t k = 0; k < n; ++k)
            y[k] = value(k, i) / measuredAmplitude;
        theta[std::size_t(i)] = i >= live ? Frequency {0.0, 0.0} : measureFrequency(positions, y, cosine, noise);
    }
    const double fastest = theta[0].theta;
    if (!(fastest > 0.0))
        return std::nullopt;

    // rope_theta from the fast pairs, which every type but linear and proportional keeps and
    // those divide alike: ln theta_i = ln theta_0 - (2 ln base / dim) i. The exponent's
    // denominator is the table's width: the rotary dim, or proportional's head_dim.
    std::vector<double> ks;
    for (std::int64_t i = 1; i < std::max<std::int64_t>(2, live / 4 + 1) && i < live; ++i) {
        const Frequency &f = theta[std::size_t(i)];
        if (f.theta > 0.0 && f.sigma < 1e-4 * f.theta)
            ks.push_back((std::log(fastest) - std::log(f.theta)) / double(i));
    }
    if (ks.empty())
        return std::nullopt;
    std::nth_element(ks.begin(), ks.begin() + std::ptrdiff_t(ks.size() / 2), ks.end());
    const double fittedBase = std::exp(ks[ks.size() / 2] * double(d) / 2.0);
    std::vector<double> bases = roundings(fittedBase, 12);
    for (const double common : {10000.0, 500000.0, 1000000.0}) {
        if (std::fabs(common / fittedBase - 1.0) < 0.01 && std::find(bases.begin(), bases.end(), common) == bases.end())
            bases.insert(bases.begin(), common);
    }

    // The amplitude: A itself, or 1, or a type's attention factor, when the table holds it within
    // a part in a million.
    const auto snappedAmplitude = [&](double typeFactor) {
        for (const double candidate : {1.0, typeFactor}) {
            if (std::fabs(measuredAmplitude / candidate - 1.0) < 1e-5)
                return candidate;
        }
        return measuredAmplitude;
    };

    Params base;
    base.encoding = Encoding::Rope;
    base.maxLen = std::clamp<std::int64_t>(sample.tableRows - framing.firstRow, 1, Params::kMaxLen);
    base.rope.headDim = d;
    base.rope.layout = layout;

    std::optional<Fit> best;
    std::vector<std::optional<Fit>> bestOfType(7);
    const auto better = [&](const Fit &x, const Fit &y) {
        if (x.bad() != y.bad())
            return x.bad() < y.bad();
        if (x.float32Angles != y.float32Angles)
            return !x.float32Angles;
        const int tx = typeRank(x.hypothesis.params.rope.type), ty = typeRank(y.hypothesis.params.rope.type);
        if (tx != ty)
            return tx < ty;
        const int dx = digitsOf(x.hypothesis.params.rope.theta), dy = digitsOf(y.hypothesis.params.rope.theta);
        if (dx != dy)
            return dx < dy;
        return x.score.sumSquares < y.score.sumSquares;
    };
    const auto consider = [&](Params params) -> std::int64_t {
        if (!params.isValid())
            return std::numeric_limits<std::int64_t>::max();
        Hypothesis hyp;
        hyp.params = params;
        hyp.cosine = cosine;
        hyp.firstPosition = firstPosition;
        const double typeFactor = RopeFrequencies::table(params).attentionFactor;
        hyp.amplitude = snappedAmplitude(typeFactor);
        const ReferenceSpec spec = reference(hyp, framing);
        const CellTolerance exact = cellTolerance(format, false, stored, textRounding, spec);
        const CellTolerance angles = cellTolerance(format, true, stored, textRounding, spec);
        Fit f;
        f.hypothesis = hyp;
        f.typeAttentionFactor = typeFactor;
        const std::int64_t stopAfter = best ? best->bad() : std::numeric_limits<std::int64_t>::max();
        f.score = scoreOnSample(ReferenceTable(spec), sample, exact, &angles, stopAfter);
        f.float32Angles = f.score.bad > 0 && f.score.badWithFloat32Angles < f.score.bad;
        auto &ofType = bestOfType[std::size_t(typeRank(params.rope.type))];
        if (!ofType || better(f, *ofType))
            ofType = f;
        if (!best || better(f, *best))
            best = f;
        return f.bad();
    };

    // The scaled pairs' ratios to theta's: 1 where kept, the factor where divided.
    const auto ratiosFor = [&](double b) {
        std::vector<double> ratios(std::size_t(h), 1.0);
        for (std::int64_t i = 0; i < live; ++i) {
            const double unscaled = std::pow(b, -2.0 * double(i) / double(d));
            if (theta[std::size_t(i)].theta > 0.0)
                ratios[std::size_t(i)] = unscaled / theta[std::size_t(i)].theta;
        }
        return ratios;
    };

    for (const double b : bases) {
        Params p = base;
        p.rope.theta = b;
        if (live < h) {
            // Proportional: head_dim's first `live` pairs turn at theta^(-2j/head_dim) / factor.
            p.rope.type = RopeType::Proportional;
            p.rope.partialRotaryFactor = 2.0 * double(live) / double(d);
            for (const double f : roundings(1.0 / fastest, 8)) {
                p.rope.factor = f;
                if (consider(p) == 0)
                    break;
            }
            if (best && best->bad() == 0)
                break;
            continue;
        }
        p.rope.type = RopeType::Default;
        if (consider(p) == 0)
            break;
        // Linear: every pair divided by the factor.
        if (std::fabs(fastest - 1.0) > 1e-6) {
            p.rope.type = RopeType::Linear;
            for (const double f : roundings(1.0 / fastest, 8)) {
                p.rope.factor = f;
                if (consider(p) == 0)
                    break;
            }
            if (best && best->bad() == 0)
                break;
            p.rope.factor.reset();
        }
        // The slow pairs' ratio is the factor of yarn, llama3 and longrope.
        const std::vector<double> ratios = ratiosFor(b);
        double largest = 1.0;
        for (std::int64_t i = 0; i < live; ++i) {
            const Frequency &f = theta[std::size_t(i)];
            if (f.theta > 0.0 && f.sigma < 1e-3 * f.theta)
                largest = std::max(largest, ratios[std::size_t(i)]);
        }
        if (largest > 1.0 + 1e-6) {
            std::vector<double> factors = roundings(largest, 4);
            for (const double common : {2.0, 4.0, 8.0, 16.0, 32.0, 40.0, 64.0}) {
                if (common >= largest * 0.999 && std::find(factors.begin(), factors.end(), common) == factors.end())
                    factors.push_back(common);
            }
            bool matched = false;
            for (const double f : factors) {
                for (std::int64_t original = 256; original <= (std::int64_t(1) << 21) && !matched; original *= 2) {
                    Params q = p;
                    q.rope.factor = f;
                    q.rope.originalMaxLen = original;
                    q.rope.type = RopeType::Llama3;
                    matched = consider(q) == 0;
                    for (const bool truncate : {true, false}) {
                        if (matched)
                            break;
                        q.rope.type = RopeType::Yarn;
                        q.rope.yarnTruncate = truncate;
                        matched = consider(q) == 0;
                    }
                }
                if (matched)
                    break;
            }
        }
        if (best && best->bad() == 0)
            break;
    }
    if (!(best && best->bad() == 0) && live == h) {
        // LongRoPE: any ratio per pair, so it matches at any theta; the theta named is the
        // roundest that keeps the fast pairs' ratios 1, as LongRoPE's first factors are.
        double b = fittedBase;
        for (const double candidate : bases) {
            const std::vector<double> ratios = ratiosFor(candidate);
            bool unscaled = true;
            for (std::int64_t i = 1; i <= std::max<std::int64_t>(1, live / 8) && i < live; ++i)
                unscaled = unscaled && std::fabs(ratios[std::size_t(i)] - 1.0) < 1e-4;
            if (unscaled) {
                b = candidate;
                break;
            }
        }
        Params q = base;
        q.rope.theta = b;
        q.rope.type = RopeType::LongRope;
        q.rope.shortFactor = ratiosFor(b);
        for (double &r : q.rope.shortFactor)
            r = std::clamp(r, 1e-3, 1e6);
        q.rope.longFactor = q.rope.shortFactor;
        q.rope.originalMaxLen = base.maxLen;
        q.rope.attentionFactor = measuredAmplitude;
        consider(q);
    }
    if (!best)
        return std::nullopt;

    // Positions rounded to half precision before their angles.
    const std::int64_t lastPosition = firstPosition + sample.rows.back() - framing.firstRow;
    if (best->bad() > 0) {
        for (const PositionRounding rounding : {PositionRounding::BFloat16, PositionRounding::Float16}) {
            const bool shows = rounding == PositionRounding::BFloat16 ? lastPosition > 256 : lastPosition > 2048;
            if (!shows || (rounding == PositionRounding::Float16 && lastPosition > 65504))
                continue;
            Fit f = *best;
            f.hypothesis.rounding = rounding;
            const ReferenceSpec spec = reference(f.hypothesis, framing);
            const CellTolerance exact = cellTolerance(format, false, stored, textRounding, spec);
            const CellTolerance angles = cellTolerance(format, true, stored, textRounding, spec);
            f.score = scoreOnSample(ReferenceTable(spec), sample, exact, &angles);
            f.float32Angles = f.score.bad > 0 && f.score.badWithFloat32Angles < f.score.bad;
            if (f.bad() < best->bad())
                best = f;
        }
    }

    Fit result = *best;
    const RopeParams &rope = result.hypothesis.params.rope;
    result.correct = result.hypothesis;
    result.correct.rounding = PositionRounding::None;
    result.correct.firstPosition = framing.firstRow;
    if (declared && *declared != layout)
        result.mistakes.push_back(TableMistake::RopeLayout);
    if (result.hypothesis.firstPosition != framing.firstRow)
        result.mistakes.push_back(TableMistake::PositionOffset);
    if (result.hypothesis.rounding != PositionRounding::None)
        result.mistakes.push_back(TableMistake::HalfPrecisionAngles);
    const double amplitude = result.hypothesis.amplitude;
    if (rope.type == RopeType::Yarn && std::fabs(result.typeAttentionFactor - 1.0) > 1e-9
        && std::fabs(amplitude - 1.0) < 1e-5) {
        result.mistakes.push_back(TableMistake::AttentionFactorMissing);
        result.correct.amplitude = result.typeAttentionFactor;
    } else if (rope.type == RopeType::LongRope && std::fabs(amplitude - 1.0) < 1e-5) {
        bool scaled = false;
        for (const double r : rope.shortFactor)
            scaled = scaled || std::fabs(r - 1.0) > 1e-3;
        if (scaled)
            result.mistakes.push_back(TableMistake::AttentionFactorMissing);
    }
    std::sort(result.mistakes.begin(), result.mistakes.end());
    // Other types that give the same table.
    for (const auto &other : bestOfType) {
        if (!other || other->bad() != 0 || other->hypothesis.params.rope.type == rope.type)
            continue;
        result.notes.append(
            u"rope_type %1 gives the same table"_s.arg(CheckWords::ropeType(other->hypothesis.params.rope.type)));
    }
    return result;
}

} // namespace posenc::RopeFit
