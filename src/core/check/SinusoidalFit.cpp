#include "SinusoidalFit.h"

#include "core/sinusoidal/Frequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>

namespace posenc::SinusoidalFit {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kCommonBase = 10000.0;

double wrapAngle(double a)
{
    return a - kTwoPi * std::round(a / kTwoPi);
}

std::int64_t pairsOf(std::int64_t dModel, bool fairseqPairs)
{
    return fairseqPairs ? dModel / 2 : Frequencies::pairCount(dModel);
}

// A straight line through points (x, u) by least squares, and how well its slope is known.
struct Line
{
    double slope = 0.0;
    double intercept = 0.0;
    double sigma = 0.0; // RMS residual, at least the float32 floor
    double sigmaSlope = std::numeric_limits<double>::infinity();
};

Line fitLine(const std::vector<double> &x, const std::vector<double> &u, std::size_t n)
{
    double mx = 0.0, mu = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        mx += x[i];
        mu += u[i];
    }
    mx /= double(n);
    mu /= double(n);
    double sxx = 0.0, sxu = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxu += (x[i] - mx) * (u[i] - mu);
    }
    Line line;
    if (!(sxx > 0.0))
        return line;
    line.slope = sxu / sxx;
    line.intercept = mu - line.slope * mx;
    double squares = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double r = u[i] - (line.intercept + line.slope * x[i]);
        squares += r * r;
    }
    line.sigma = std::max(std::sqrt(squares / double(n)), 1e-7);
    line.sigmaSlope = line.sigma / std::sqrt(sxx);
    return line;
}

// One pair's angle atan2(sine, cosine) over the sample's compared rows, unwrapped: its
// frequency (negative when the angle runs backwards, as swapped columns make it) and its phase
// at the first compared row. The first consecutive rows give a first line; each farther row is
// unwrapped against the line while the line's uncertainty there stays well below a turn, and
// the line is fitted again with it.
struct Track
{
    bool ok = false;
    double omega = 0.0;
    double sigmaOmega = 0.0;
    double phase0 = 0.0;
    double amplitudeSquares = 0.0; // mean of sin^2 + cos^2
    double amplitudeSpread = 0.0; // mean |sin^2 + cos^2 - mean|
};

Track trackPair(const TableSample &sample, std::int64_t sineColumn, std::int64_t cosineColumn,
                const RowFraming &framing)
{
    std::vector<double> x, angle, squares;
    std::int64_t row0 = -1;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        if (row < framing.firstRow || std::binary_search(framing.paddingRows.begin(), framing.paddingRows.end(), row))
            continue;
        if (row0 < 0)
            row0 = row;
        const double s = sample.values(i, sineColumn);
        const double c = sample.values(i, cosineColumn);
        x.push_back(double(row - row0));
        angle.push_back(std::atan2(s, c));
        squares.push_back(s * s + c * c);
    }
    Track track;
    const std::size_t n = x.size();
    if (n < 3)
        return track;
    for (const double q : squares)
        track.amplitudeSquares += q / double(n);
    for (const double q : squares)
        track.amplitudeSpread += std::fabs(q - track.amplitudeSquares) / double(n);
    // The first rows, consecutive but for a padding row among them (fairseq's row 1).
    std::size_t lead = 1;
    while (lead < n && x[lead] - x[lead - 1] <= 2.0)
        ++lead;
    if (lead < 3)
        return track;
    std::vector<double> u(n);
    u[0] = angle[0];
    for (std::size_t i = 1; i < lead; ++i)
        u[i] = u[i - 1] + wrapAngle(angle[i] - angle[i - 1]);
    Line line = fitLine(x, u, lead);
    std::size_t used = lead;
    for (std::size_t i = lead; i < n; ++i) {
        const double spread = line.sigmaSlope * x[i] + line.sigma;
        if (spread > 0.25)
            break;
        const double predicted = line.intercept + line.slope * x[i];
        const double unwrapped = angle[i] + kTwoPi * std::round((predicted - angle[i]) / kTwoPi);
        // A row far off the line (float32 angles drifting, a corrupted cell) ends the tracking.
        if (std::fabs(unwrapped - predicted) > 6.0 * spread + 1e-6)
            break;
        x[used] = x[i];
        u[used] = unwrapped;
        ++used;
        // Fitted again at the end of each run of rows: the next run is farther.
        if (i + 1 == n || x[i + 1] - x[i] > 2.0)
            line = fitLine(x, u, used);
    }
    track.ok = true;
    track.omega = line.slope;
    track.sigmaOmega = line.sigmaSlope;
    track.phase0 = line.intercept;
    return track;
}

// A robust estimate of k in ln w = -k g(i) from pairs' frequencies: the median of the pairs'
// own k, then the mean of those within 1e-4 of it, each weighted by how well its w is known.
std::optional<double> slopeThroughOrigin(const std::vector<double> &g, const std::vector<double> &w,
                                         const std::vector<double> &sigma)
{
    std::vector<double> ks;
    for (std::size_t i = 0; i < g.size(); ++i) {
        if (g[i] > 0.0 && w[i] > 0.0 && sigma[i] < 1e-3 * w[i])
            ks.push_back(-std::log(w[i]) / g[i]);
    }
    if (ks.empty())
        return std::nullopt;
    std::nth_element(ks.begin(), ks.begin() + std::ptrdiff_t(ks.size() / 2), ks.end());
    const double median = ks[ks.size() / 2];
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < g.size(); ++i) {
        if (!(g[i] > 0.0 && w[i] > 0.0 && sigma[i] < 1e-3 * w[i]))
            continue;
        const double k = -std::log(w[i]) / g[i];
        if (std::fabs(k - median) > 1e-4 * std::fabs(median) + 1e-12)
            continue;
        // Var(k) = (sigma / w)^2 / g^2.
        const double weight = (w[i] * g[i] / sigma[i]) * (w[i] * g[i] / sigma[i]);
        num += weight * k;
        den += weight;
    }
    return den > 0.0 ? num / den : median;
}

// The base and its roundings to 1..15 significant digits, the fewest digits first.
std::vector<double> roundedBases(double base)
{
    std::vector<double> out;
    if (!(base > 1.0 && base < 1e30))
        return out;
    const int exponent = int(std::floor(std::log10(base)));
    for (int digits = 1; digits <= 15; ++digits) {
        const double unit = std::pow(10.0, exponent - digits + 1);
        const double rounded = std::round(base / unit) * unit;
        if (rounded > 1.0 && std::find(out.begin(), out.end(), rounded) == out.end())
            out.push_back(rounded);
    }
    if (std::find(out.begin(), out.end(), base) == out.end())
        out.push_back(base);
    return out;
}

// cos(w_j) of each column from the first consecutive compared rows: v[r-1] + v[r+1] =
// 2 cos(w) v[r] holds for any amplitude and phase; NaN where the column says too little.
std::vector<double> columnFrequencies(const TableSample &sample, const RowFraming &framing)
{
    std::vector<double> omega(std::size_t(sample.cols()), std::numeric_limits<double>::quiet_NaN());
    // The first run of at least three consecutive rows that are neither before firstRow nor padding.
    std::int64_t first = framing.firstRow;
    std::int64_t end = first;
    for (;;) {
        while (end < sample.leadingRows
               && !std::binary_search(framing.paddingRows.begin(), framing.paddingRows.end(), end))
            ++end;
        if (end - first >= 3 || end >= sample.leadingRows)
            break;
        first = ++end;
    }
    if (end - first < 3)
        return omega;
    for (std::int64_t c = 0; c < sample.cols(); ++c) {
        double num = 0.0, den = 0.0;
        for (std::int64_t r = first + 1; r + 1 < end; ++r) {
            const double v = sample.values(r, c);
            num += v * (sample.values(r - 1, c) + sample.values(r + 1, c));
            den += 2.0 * v * v;
        }
        if (den > 1e-6 * double(end - first))
            omega[std::size_t(c)] = std::acos(std::clamp(num / den, -1.0, 1.0));
    }
    return omega;
}

struct Pairing
{
    Layout layout;
    bool fairseqPairs;
};

} // namespace

bool isDoubledBase(double base)
{
    return std::fabs(base / (kCommonBase * kCommonBase) - 1.0) < 1e-9;
}

ReferenceSpec reference(const Hypothesis &h, std::int64_t dModel, const RowFraming &framing)
{
    ReferenceSpec spec;
    spec.firstRow = framing.firstRow;
    spec.paddingRows = framing.paddingRows;
    spec.positionOffset = h.firstPosition;
    spec.positionRounding = h.rounding;
    const double logBase = std::log(h.base);
    const double d = double(dModel);
    if (h.variant == Variant::ColumnIndex) {
        // Each column its own frequency b^(-j/d), a sine on even columns and a cosine on odd ones.
        spec.schedule.w.resize(std::size_t(dModel));
        spec.columns.resize(std::size_t(dModel));
        for (std::int64_t j = 0; j < dModel; ++j) {
            spec.schedule.w[std::size_t(j)] = std::exp(-double(j) * logBase / d);
            spec.columns[std::size_t(j)] = {j, (j % 2 == 1) != h.swapped};
        }
        return spec;
    }
    const std::int64_t pairs = pairsOf(dModel, h.fairseqPairs);
    spec.schedule.w.resize(std::size_t(pairs));
    const double halfMinusOne = double(dModel / 2 - 1);
    for (std::int64_t i = 0; i < pairs; ++i) {
        double w = 0.0;
        switch (h.variant) {
        case Variant::Paper:
            w = std::exp(-2.0 * double(i) * logBase / d);
            break;
        case Variant::HalfDimMinusOne:
            w = std::exp(-double(i) * logBase / halfMinusOne);
            break;
        case Variant::Divided:
            w = std::exp(2.0 * double(i) * logBase / d);
            break;
        case Variant::ColumnIndex:
            break;
        }
        spec.schedule.w[std::size_t(i)] = w;
    }
    spec.columns = sinusoidalColumns(dModel, pairs, h.layout, h.swapped);
    return spec;
}

std::vector<TableMistake> mistakesOf(const Hypothesis &h, std::int64_t firstRow)
{
    std::vector<TableMistake> mistakes;
    if (h.variant == Variant::ColumnIndex)
        mistakes.push_back(TableMistake::ExponentColumnIndex);
    if (isDoubledBase(h.base))
        mistakes.push_back(TableMistake::ExponentDoubled);
    if (h.swapped)
        mistakes.push_back(TableMistake::SinCosSwapped);
    if (h.variant == Variant::Divided)
        mistakes.push_back(TableMistake::PositionDivided);
    // fairseq numbers positions from padding_idx + 1 and tensor2tensor from any start_index:
    // an offset is theirs. The paper, PyTorch, TensorFlow and Keras number them from 0.
    if (h.firstPosition != firstRow && h.variant != Variant::HalfDimMinusOne)
        mistakes.push_back(TableMistake::PositionOffset);
    if (h.rounding != PositionRounding::None)
        mistakes.push_back(TableMistake::HalfPrecisionAngles);
    return mistakes;
}

Hypothesis corrected(const Hypothesis &h, std::int64_t firstRow)
{
    Hypothesis c = h;
    if (c.variant == Variant::ColumnIndex || c.variant == Variant::Divided)
        c.variant = Variant::Paper;
    if (isDoubledBase(c.base))
        c.base = kCommonBase;
    c.swapped = false;
    if (c.variant != Variant::HalfDimMinusOne)
        c.firstPosition = firstRow;
    c.rounding = PositionRounding::None;
    return c;
}

std::optional<Fit> fit(const TableSample &sample, const RowFraming &framing, ValueFormat format, StoredType stored,
                       double textRounding)
{
    const std::int64_t d = sample.cols();
    if (d < 2 || sample.size() < 3)
        return std::nullopt;

    // What each pairing whose pairs hold sines and cosines of one angle says.
    struct PairingFit
    {
        Pairing pairing;
        bool swapped = false;
        double rawBase = kCommonBase; // the paper's base as fitted, unrounded
        std::vector<double> paperBases, halfBases, dividedBases;
        std::set<std::int64_t> firstPositions;
    };
    std::vector<PairingFit> pairingFits;
    std::vector<Pairing> pairings {{Layout::Interleaved, false}, {Layout::Split, false}};
    if (d % 2 == 1 && d >= 5)
        pairings.insert(pairings.end(), {{Layout::Interleaved, true}, {Layout::Split, true}});
    for (const Pairing &pairing : pairings) {
        const std::int64_t pairs = pairsOf(d, pairing.fairseqPairs);
        const std::vector<ReferenceColumn> columns = sinusoidalColumns(d, pairs, pairing.layout);
        std::vector<std::int64_t> sineColumn(std::size_t(pairs), -1), cosineColumn(std::size_t(pairs), -1);
        for (std::int64_t j = 0; j < d; ++j) {
            const ReferenceColumn &c = columns[std::size_t(j)];
            if (c.pair >= 0)
                (c.isCos ? cosineColumn : sineColumn)[std::size_t(c.pair)] = j;
        }
        std::vector<Track> tracks(static_cast<std::size_t>(pairs));
        double squares = 0.0, spread = 0.0;
        std::int64_t tracked = 0, forwards = 0, backwards = 0;
        for (std::int64_t i = 0; i < pairs; ++i) {
            const auto k = std::size_t(i);
            if (sineColumn[k] < 0 || cosineColumn[k] < 0)
                continue;
            Track &t = tracks[k] = trackPair(sample, sineColumn[k], cosineColumn[k], framing);
            if (!t.ok)
                continue;
            ++tracked;
            squares += t.amplitudeSquares;
            spread += t.amplitudeSpread;
            if (std::fabs(t.omega) > 3.0 * t.sigmaOmega) {
                forwards += t.omega > 0.0;
                backwards += t.omega < 0.0;
            }
        }
        // Every pair's sine and cosine lie on one circle: sin^2 + cos^2 is the same at every row.
        if (tracked == 0 || !(squares > 0.0) || spread > 0.05 * squares)
            continue;
        PairingFit pf;
        pf.pairing = pairing;
        pf.swapped = backwards > forwards;
        const double sign = pf.swapped ? -1.0 : 1.0;

        std::vector<double> index, omega, sigma;
        for (std::int64_t i = 0; i < pairs; ++i) {
            const Track &t = tracks[std::size_t(i)];
            if (!t.ok)
                continue;
            index.push_back(double(i));
            omega.push_back(sign * t.omega);
            sigma.push_back(t.sigmaOmega);
        }
        // ln w_i = -(2 ln b / d) i (paper) = -(ln b / (h - 1)) i (half_dim - 1).
        if (const auto k = slopeThroughOrigin(index, omega, sigma)) {
            pf.rawBase = std::exp(*k * double(d) / 2.0);
            pf.paperBases = roundedBases(pf.rawBase);
            if (d / 2 >= 2 && (d % 2 == 0 || pairing.fairseqPairs))
                pf.halfBases = roundedBases(std::exp(*k * double(d / 2 - 1)));
        }
        // Divided: w'_i = b^(2i/d) grows from 1; its first pairs, below pi, are not aliased.
        {
            std::vector<double> ks;
            for (std::size_t i = 1;
                 i < omega.size() && index[i] == index[i - 1] + 1 && omega[i] > omega[i - 1] && omega[i] < 0.9 * kPi;
                 ++i)
                ks.push_back(std::log(omega[i]) / index[i]);
            if (!ks.empty()) {
                std::nth_element(ks.begin(), ks.begin() + std::ptrdiff_t(ks.size() / 2), ks.end());
                pf.dividedBases = roundedBases(std::exp(ks[ks.size() / 2] * double(d) / 2.0));
            }
        }
        for (std::vector<double> *bases : {&pf.paperBases, &pf.halfBases, &pf.dividedBases}) {
            if (std::find(bases->begin(), bases->end(), kCommonBase) == bases->end())
                bases->insert(bases->begin(), kCommonBase);
        }

        // The first position: the slowest well-measured pair's phase at the first compared row
        // over its frequency (the angle is pi/2 minus it when the columns are swapped).
        pf.firstPositions.insert(framing.firstRow);
        double slowest = std::numeric_limits<double>::infinity();
        double phase = 0.0;
        for (std::int64_t i = 0; i < pairs; ++i) {
            const Track &t = tracks[std::size_t(i)];
            const double w = sign * t.omega;
            if (t.ok && w > 0.0 && t.sigmaOmega < 1e-3 * w && w < slowest) {
                slowest = w;
                phase = pf.swapped ? kPi / 2.0 - t.phase0 : t.phase0;
            }
        }
        if (std::isfinite(slowest)) {
            const double position = wrapAngle(phase) / slowest;
            if (std::fabs(position) < 1e9) {
                const auto p = std::int64_t(std::llround(position));
                for (const std::int64_t q : {p - 1, p, p + 1}) {
                    if (q >= 0)
                        pf.firstPositions.insert(q);
                }
            }
        }
        pairingFits.push_back(std::move(pf));
    }

    std::optional<Fit> best;
    const auto evaluate = [&](const Hypothesis &h) {
        const ReferenceSpec spec = reference(h, d, framing);
        const CellTolerance exact = cellTolerance(format, false, stored, textRounding, spec);
        const CellTolerance angles = cellTolerance(format, true, stored, textRounding, spec);
        Fit f;
        f.hypothesis = h;
        // A hypothesis already worse than the best stops being counted.
        const std::int64_t stopAfter = best ? best->bad() : std::numeric_limits<std::int64_t>::max();
        f.score = scoreOnSample(ReferenceTable(spec), sample, exact, &angles, stopAfter);
        f.float32Angles = f.score.bad > 0 && f.score.badWithFloat32Angles < f.score.bad;
        return f;
    };
    // Fewer cells beyond the tolerance; then exact angles before float32 ones, a base of fewer
    // digits (a table from 10000 at positions from 1 is the paper's with an offset, not
    // half_dim - 1's of 9305.7), fewer mistakes, the paper's frequencies before half_dim - 1, a
    // smaller error.
    const auto digitsOf = [](double base) {
        const std::vector<double> rounded = roundedBases(base);
        const auto it = std::find(rounded.begin(), rounded.end(), base);
        return it == rounded.end() ? 17 : int(it - rounded.begin()) + 1;
    };
    const auto better = [&](const Fit &a, const Fit &b) {
        if (a.bad() != b.bad())
            return a.bad() < b.bad();
        if (a.float32Angles != b.float32Angles)
            return !a.float32Angles;
        const int da = digitsOf(a.hypothesis.base), db = digitsOf(b.hypothesis.base);
        if (da != db)
            return da < db;
        const std::size_t ma = mistakesOf(a.hypothesis, framing.firstRow).size();
        const std::size_t mb = mistakesOf(b.hypothesis, framing.firstRow).size();
        if (ma != mb)
            return ma < mb;
        if (a.hypothesis.variant != b.hypothesis.variant)
            return a.hypothesis.variant < b.hypothesis.variant;
        return a.score.sumSquares < b.score.sumSquares;
    };
    const auto consider = [&](const Hypothesis &h) {
        Fit f = evaluate(h);
        if (!best || better(f, *best))
            best = f;
        return f;
    };
    // Each base in order of its digits, stopping at the first that matches the sample.
    const auto tryBases = [&](Hypothesis h, const std::vector<double> &bases) {
        for (const double b : bases) {
            h.base = b;
            if (consider(h).bad() == 0)
                return;
        }
    };

    for (const PairingFit &pf : pairingFits) {
        Hypothesis h;
        h.layout = pf.pairing.layout;
        h.fairseqPairs = pf.pairing.fairseqPairs;
        h.swapped = pf.swapped;
        h.base = pf.rawBase;
        // The first position that fits best at the base as fitted.
        std::optional<Fit> placed;
        for (const std::int64_t first : pf.firstPositions) {
            h.firstPosition = first;
            Fit f = evaluate(h);
            if (!placed || better(f, *placed))
                placed = f;
        }
        h.firstPosition = placed->hypothesis.firstPosition;
        h.variant = Variant::Paper;
        tryBases(h, pf.paperBases);
        h.variant = Variant::HalfDimMinusOne;
        tryBases(h, pf.halfBases);
    }
    if (!best || best->bad() > 0) {
        for (const PairingFit &pf : pairingFits) {
            Hypothesis h;
            h.layout = pf.pairing.layout;
            h.fairseqPairs = pf.pairing.fairseqPairs;
            h.swapped = pf.swapped;
            h.firstPosition = framing.firstRow;
            h.variant = Variant::Divided;
            tryBases(h, pf.dividedBases);
        }
    }
    if (!best || best->bad() > 0) {
        // Column j turning at b^(-j/d): its sine and cosine columns never share a frequency, so
        // no pairing holds it; each column's own frequency gives the base.
        const std::vector<double> columnOmega = columnFrequencies(sample, framing);
        std::vector<double> ks;
        for (std::int64_t j = 1; j < d; ++j) {
            const double w = columnOmega[std::size_t(j)];
            if (w > 0.02 && w < 2.5)
                ks.push_back(-std::log(w) / double(j));
        }
        std::vector<double> bases {kCommonBase, kCommonBase * kCommonBase};
        if (!ks.empty()) {
            std::nth_element(ks.begin(), ks.begin() + std::ptrdiff_t(ks.size() / 2), ks.end());
            for (const double b : roundedBases(std::exp(ks[ks.size() / 2] * double(d))))
                if (std::find(bases.begin(), bases.end(), b) == bases.end())
                    bases.push_back(b);
        }
        for (const bool swapped : {false, true}) {
            Hypothesis h;
            h.layout = Layout::Interleaved;
            h.variant = Variant::ColumnIndex;
            h.swapped = swapped;
            h.firstPosition = framing.firstRow;
            tryBases(h, bases);
        }
    }
    if (!best)
        return std::nullopt;

    // Positions rounded to half precision before their angles: only rows past 256 (bf16) or
    // 2048 (fp16) show it, and fp16 positions stop at 65504.
    const std::int64_t lastPosition = best->hypothesis.firstPosition + sample.rows.back() - framing.firstRow;
    if (best->bad() > 0) {
        const Hypothesis unrounded = best->hypothesis;
        for (const PositionRounding rounding : {PositionRounding::BFloat16, PositionRounding::Float16}) {
            const bool shows = rounding == PositionRounding::BFloat16 ? lastPosition > 256 : lastPosition > 2048;
            if (!shows || (rounding == PositionRounding::Float16 && lastPosition > 65504))
                continue;
            Hypothesis h = unrounded;
            h.rounding = rounding;
            consider(h);
        }
    }
    return best;
}

} // namespace posenc::SinusoidalFit
