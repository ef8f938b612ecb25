#include "SinusoidalRows.h"

#include "check/DeclaredWords.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::SinusoidalRows {

namespace {

// Rows of one parity the sample's leading rows must hold for a column's frequency to be read
// (the recurrence x[k+1] + x[k-1] = 2 cos(2w) x[k] of a sine sampled every other position).
constexpr std::int64_t kMinRows = 8;

struct Column
{
    bool sine = false; // every row of the parity is sin(p w) within the tolerance
    double w = 0.0; // the frequency, in [0, pi): a sine over every other row is read mod pi
};

// Column `col` over the leading rows r = parity, parity + 2, ..., each at position r: a sine of the
// position at one frequency. The frequency from the least-squares recurrence, its aliases tried,
// each cell held to float32's rounding of an angle r w (twice its unit) beside `tolerance`.
Column sineOverRows(const TableSample &sample, std::int64_t col, std::int64_t parity, std::int64_t rows,
                    double tolerance)
{
    std::vector<double> x;
    std::vector<double> p;
    for (std::int64_t r = parity; r < rows; r += 2) {
        x.push_back(double(sample.values(r, col)));
        p.push_back(double(r));
    }
    const std::size_t n = x.size();
    double numerator = 0.0, denominator = 0.0;
    for (std::size_t k = 1; k + 1 < n; ++k) {
        numerator += x[k] * (x[k - 1] + x[k + 1]);
        denominator += x[k] * x[k];
    }
    const auto residual = [&](double w) {
        double worst = 0.0;
        for (std::size_t k = 0; k < n; ++k) {
            const double allowed = tolerance + 1.2e-7 * p[k] * w;
            worst = std::max(worst, std::fabs(x[k] - std::sin(p[k] * w)) / allowed);
        }
        return worst;
    };
    Column c;
    if (denominator <= 1e-18) {
        // Every cell zero: sin(p 0), a column at frequency 0.
        c.sine = residual(0.0) <= 1.0;
        return c;
    }
    const double theta = std::acos(std::clamp(numerator / denominator / 2.0, -1.0, 1.0)); // 2w mod 2 pi, up to sign
    const double pi = std::numbers::pi;
    // A slow column's recurrence is ill-conditioned (2 cos 2w near 2): its last cell's arcsine as well,
    // a frequency whose angles stay within a quarter turn. Each candidate refined by Gauss-Newton on
    // sum (x - sin(p w))^2.
    const double direct = std::asin(std::clamp(x.back(), -1.0, 1.0)) / std::max(p.back(), 1.0);
    const auto refined = [&](double w) {
        for (int i = 0; i < 4; ++i) {
            double g = 0.0, h = 0.0;
            for (std::size_t k = 0; k < n; ++k) {
                const double slope = p[k] * std::cos(p[k] * w);
                g += (x[k] - std::sin(p[k] * w)) * slope;
                h += slope * slope;
            }
            if (!(h > 0.0))
                break;
            w += g / h;
        }
        return w;
    };
    double best = std::numeric_limits<double>::infinity();
    for (const double start : {theta / 2.0, pi - theta / 2.0, theta / 2.0 + pi, 2.0 * pi - theta / 2.0, direct}) {
        const double w = refined(start);
        const double r = residual(w);
        if (r < best) {
            best = r;
            c.w = std::fmod(std::fmod(w, pi) + pi, pi);
        }
    }
    c.sine = best <= 1.0;
    return c;
}

} // namespace

std::optional<SinusoidalDeclared::Differences> read(const SinusoidalFit::FitInput &input)
{
    const TableSample &sample = input.sample;
    // Positions are the rows' own from 0: no first row set aside, no padding, no window declared.
    if (input.framing.firstRow != 0 || !input.framing.paddingRows.empty() || input.firstPosition != 0)
        return std::nullopt;
    const std::int64_t rows = std::min(sample.leadingRows, sample.size());
    const std::int64_t d = sample.cols();
    if (rows < 2 * kMinRows || d < 2)
        return std::nullopt;
    // A half format's unit at 1, float32's rounding of the sine itself otherwise.
    const double tolerance = input.format == ValueFormat::Float32 ? 2e-4 : 8e-3;
    for (const std::int64_t parity : {std::int64_t(0), std::int64_t(1)}) {
        std::vector<double> w;
        bool sines = true;
        for (std::int64_t col = 0; col < d && sines; ++col) {
            const Column c = sineOverRows(sample, col, parity, rows, tolerance);
            sines = c.sine;
            w.push_back(c.w);
        }
        if (!sines)
            continue;
        const auto [lo, hi] = std::minmax_element(w.begin(), w.end());
        const auto turning = std::count_if(w.begin(), w.end(), [](double v) { return v > 1e-6; });
        // One frequency for every column is one sinusoid over the rows, no frequency per column.
        if (2 * turning < d || *hi <= *lo * (1.0 + 1e-3))
            return std::nullopt;
        // The other rows sines too: every column a sine of the position, no alternation over the rows
        // (the cosines replaced, a rope-sin table's), which the other readings name.
        bool otherSines = true;
        for (std::int64_t col = 0; col < d && otherSines; ++col)
            otherSines = sineOverRows(sample, col, 1 - parity, rows, tolerance).sine;
        if (otherSines)
            return std::nullopt;
        SinusoidalDeclared::Differences out;
        out.ids.append(kSinusoidRows);
        const QString these = parity == 0 ? u"even rows (positions 0, 2, 4, …)"_s : u"odd rows (positions 1, 3, 5, …)"_s;
        const QString others = parity == 0 ? u"odd rows"_s : u"even rows"_s;
        out.lines.append(
            u"sin and cos alternate over the rows, not the columns: the %1 hold sin(p w_c) in every column, a sine of "
            "the row's position at a frequency of each column's (w_0 = %2, w_1 = %3, …, w_%4 = %5, read modulo pi), "
            "where %6 sinusoid puts sin and cos in alternate columns at one frequency per pair; the %7 hold no such "
            "sine (BrianPulfer/PapersReimplementations#9: sin applied to the rows arange(0, n, 2), then cos of those "
            "sines to the rows 1 - arange(0, n, 2))"_s.arg(these, NumberText::compact(w[0], 6),
                                                             NumberText::compact(w[std::min<std::size_t>(1, w.size() - 1)], 6))
                .arg(d - 1)
                .arg(NumberText::compact(w.back(), 6), DeclaredWords::the(), others));
        return out;
    }
    return std::nullopt;
}

} // namespace posenc::SinusoidalRows
