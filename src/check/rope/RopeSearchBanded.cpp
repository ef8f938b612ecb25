// RopeFit's search, its banded types: llama3 and yarn at each factor and original length
// (docs/ARCHITECTURE.md, Checking a table).
#include "RopeSearch.h"

#include "check/FitNumbers.h"
#include "check/rope/RopeYarnBetas.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace posenc::RopeFit {

namespace {

constexpr double kTurn = 2.0 * std::numbers::pi;
// The factors configs use, tried besides the roundings of what was measured.
constexpr double kCommonFactors[] = {2.0, 4.0, 8.0, 16.0, 32.0, 40.0, 64.0};

} // namespace

// Llama 3's low and high frequency factors for `original`: the configs' (1 and 4, Llama 3.1 and
// 3.2; 1 and 1, Llama 4), and those the blended pairs give. A blended pair i divides by
// 1 / ((1 - s_i) / f + s_i) with s_i = (original / wavelength_i - low) / (high - low): a line in
// original / wavelength_i, whose slope and intercept give the two.
std::vector<std::array<double, 2>> RopeSearch::llamaBands(const Params &p, double factor) const
{
    std::vector<std::array<double, 2>> bands {{1.0, 4.0}, {1.0, 1.0}};
    const std::int64_t d = m_input.sample.cols();
    const std::vector<double> r = ratios(p.rope.theta);
    std::vector<double> x, s;
    for (std::int64_t i = 0; i < m_measured.live; ++i) {
        const Frequency &f = m_measured.theta[std::size_t(i)];
        const double ratio = r[std::size_t(i)];
        if (!(f.theta > 0.0 && f.sigma < 1e-5 * f.theta && ratio > 1.0 + 1e-4 && ratio < factor * (1.0 - 1e-4)))
            continue;
        const double wavelength = kTurn * std::pow(p.rope.theta, 2.0 * double(i) / double(d));
        x.push_back(double(*p.rope.originalMaxLen) / wavelength);
        s.push_back((1.0 / ratio - 1.0 / factor) / (1.0 - 1.0 / factor));
    }
    if (x.size() < 2)
        return bands;
    double mx = 0.0, ms = 0.0;
    for (std::size_t k = 0; k < x.size(); ++k) {
        mx += x[k] / double(x.size());
        ms += s[k] / double(x.size());
    }
    double sxx = 0.0, sxs = 0.0;
    for (std::size_t k = 0; k < x.size(); ++k) {
        sxx += (x[k] - mx) * (x[k] - mx);
        sxs += (x[k] - mx) * (s[k] - ms);
    }
    if (!(sxx > 0.0 && sxs > 0.0))
        return bands;
    const double slope = sxs / sxx;
    const double low = -(ms - slope * mx) / slope;
    const double high = low + 1.0 / slope;
    if (low > 0.0 && high > low)
        bands.push_back({snapped(low, 1e-3), snapped(high, 1e-3)});
    return bands;
}

// The banded types: llama3 and yarn (truncated or not), each factor near the slow pairs' ratio
// and each original length a power of two.
void RopeSearch::tryBanded(const Params &p)
{
    const double largest = largestRatio(p.rope.theta);
    if (!(largest > 1.0 + 1e-6))
        return;
    std::vector<double> factors = FitNumbers::roundings(largest, 4);
    for (const double common : kCommonFactors) {
        if (common >= largest * 0.8 && std::find(factors.begin(), factors.end(), common) == factors.end())
            factors.push_back(common);
    }
    // Past the commons, the powers of ten: a factor so large that the divided pairs barely turn in
    // the table's rows, which then pins it only loosely.
    for (double power = 100.0; power <= 1e6; power *= 10.0) {
        if (power >= largest * 0.8 && std::find(factors.begin(), factors.end(), power) == factors.end())
            factors.push_back(power);
    }
    // The published forms' original lengths first, then the powers of two.
    std::vector<std::int64_t> originals = m_publishedOriginals;
    for (std::int64_t original = kLeastOriginal; original <= kMostOriginal; original *= 2) {
        if (std::find(originals.begin(), originals.end(), original) == originals.end())
            originals.push_back(original);
    }
    // Llama 3's and YaRN's bands at an original length below 256 (llama3 takes 1 and up, yarn 2):
    // a head of three pairs at original 16 keeps or divides pairs no longer length does.
    for (std::int64_t original = kLeastOriginal / 2; original >= 1; original /= 2) {
        if (std::find(originals.begin(), originals.end(), original) == originals.end())
            originals.push_back(original);
    }
    for (const double f : factors) {
        if (!(f > 1.0))
            continue;
        for (const std::int64_t original : originals) {
            Params q = p;
            q.rope.factor = f;
            q.rope.originalMaxLen = original;
            q.rope.type = RopeType::Llama3;
            for (const auto &[low, high] : llamaBands(q, f)) {
                q.rope.lowFreqFactor = low;
                q.rope.highFreqFactor = high;
                if (consider(q))
                    return;
            }
            q.rope.lowFreqFactor = 1.0;
            q.rope.highFreqFactor = 4.0;
            q.rope.type = RopeType::Yarn;
            for (const bool truncate : {true, false}) {
                q.rope.yarnTruncate = truncate;
                if (consider(q))
                    return;
            }
        }
    }
    for (const double f : factors) {
        if (f > 1.0 && !matched())
            tryReversedLlama3(p, f);
    }
    for (const double f : factors) {
        if (f > 1.0 && !matched())
            tryReversedYarn(p, f);
    }
    // After the reversed blend, which HF's betas with the ramp reversed give: untruncated, that is
    // the table of the betas exchanged too, and rope-scaling-reversed is the reading kept.
    if (!matched())
        tryYarnRamp(p, originals);
}

// YaRN's ramp read back from the measured frequencies (RopeYarnBetas): betas other than HF's 32 and 1
// (exchanged, or candle-vllm's defaults 1 and 128 before EricLBuehler/candle-vllm#285) and a ramp
// that runs past the last pair, at each original length and truncation, the roundest betas first and
// each ramp's table tried once.
void RopeSearch::tryYarnRamp(const Params &p, const std::vector<std::int64_t> &originals)
{
    // Once a base: the roundings of one fitted base read the same ramp.
    const bool seen = std::any_of(m_rampBases.begin(), m_rampBases.end(),
                                  [&](double b) { return std::fabs(b / p.rope.theta - 1.0) < 1e-6; });
    if (seen || m_measured.live != std::int64_t(m_measured.theta.size()))
        return;
    m_rampBases.push_back(p.rope.theta);
    RopeYarnBetas::Read read;
    for (const Frequency &f : m_measured.theta) {
        read.w.push_back(f.theta);
        read.within.push_back(f.theta > 0.0 ? std::max(f.sigma / f.theta, 2e-6)
                                            : std::numeric_limits<double>::infinity());
    }
    std::vector<Params> candidates;
    for (const std::int64_t original : originals) {
        for (const bool truncate : {true, false}) {
            Params at = p;
            at.rope.type = RopeType::Yarn;
            at.rope.originalMaxLen = original;
            at.rope.yarnTruncate = truncate;
            for (Params &q : RopeYarnBetas::readings(read, at))
                candidates.push_back(std::move(q));
        }
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const Params &a, const Params &b) {
        return RopeYarnBetas::roughness(a) < RopeYarnBetas::roughness(b);
    });
    // Scored only where every pinned pair's frequency is the candidate's: a table costs far more.
    const auto near = [&](const std::vector<double> &inv) {
        for (std::size_t i = 0; i < inv.size() && i < read.w.size(); ++i) {
            const double within = read.within[i];
            if (within < 1e-3 && std::fabs(inv[i] - read.w[i]) > std::max(10.0 * within, 1e-5) * read.w[i])
                return false;
        }
        return true;
    };
    std::vector<std::vector<double>> tried;
    for (const Params &q : candidates) {
        std::vector<double> inv = RopeFrequencies::table(q).inv;
        if (!near(inv) || std::find(tried.begin(), tried.end(), inv) != tried.end())
            continue;
        if (tried.size() >= kMostRampReadings || consider(q))
            return;
        tried.push_back(std::move(inv));
    }
}

} // namespace posenc::RopeFit
