#include "AlibiSlopes.h"

#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/ParamText.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::AlibiSlopes {

namespace {

// get_slopes_power_of_2(n): start * ratio**i with start = ratio = 2**(-2**-(log2(n) - 3)),
// each operation as Python's floats do it.
void appendPowerOfTwo(std::int64_t n, std::vector<double> &to, std::int64_t count)
{
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(n)) - 3.0)));
    const double ratio = start;
    for (std::int64_t i = 0; i < count; ++i)
        to.push_back(start * std::pow(ratio, static_cast<double>(i)));
}

} // namespace

std::int64_t geometricHeads(std::int64_t heads)
{
    std::int64_t power = 1;
    while (power * 2 <= heads)
        power *= 2;
    return power;
}

std::vector<double> all(std::int64_t heads)
{
    std::vector<double> slopes;
    if (heads < 1)
        return slopes;
    slopes.reserve(static_cast<std::size_t>(heads));
    const std::int64_t closest = geometricHeads(heads);
    appendPowerOfTwo(closest, slopes, closest);
    if (closest == heads)
        return slopes;
    // get_slopes(2 * closest)[0::2][:heads - closest]: twice the power is a power of two itself.
    std::vector<double> twice;
    appendPowerOfTwo(2 * closest, twice, 2 * closest);
    for (std::int64_t i = 0; i < heads - closest; ++i)
        slopes.push_back(twice[static_cast<std::size_t>(2 * i)]);
    return slopes;
}

double of(std::int64_t heads, std::int64_t head)
{
    const std::int64_t closest = geometricHeads(heads);
    std::vector<double> one;
    if (head <= closest) {
        appendPowerOfTwo(closest, one, head);
        return one.back();
    }
    appendPowerOfTwo(2 * closest, one, 2 * (head - closest) - 1);
    return one.back();
}

double bias(double slope, std::int64_t query, std::int64_t key, AlibiMask mask)
{
    // m times the key's offset j - i (<= 0 where it counts): -m(i - j) exactly, and +0 at j = i.
    if (mask == AlibiMask::Symmetric)
        return slope * static_cast<double>(-std::abs(key - query));
    if (key > query)
        return -std::numeric_limits<double>::infinity();
    return slope * static_cast<double>(key - query);
}

void biases(double slope, std::int64_t first, std::int64_t count, AlibiMask mask, float *out)
{
    // Offsets t <= 0 (keys at or before the query), then t > 0; 32-bit offsets convert to double
    // in vectors.
    const auto t0 = static_cast<int>(first);
    const auto n = static_cast<int>(count);
    const int before = std::clamp(1 - t0, 0, n); // the cells with t <= 0
    for (int k = 0; k < before; ++k)
        out[k] = static_cast<float>(slope * static_cast<double>(t0 + k));
    if (mask == AlibiMask::Causal) {
        std::fill(out + before, out + n, -std::numeric_limits<float>::infinity());
        return;
    }
    for (int k = before; k < n; ++k)
        out[k] = static_cast<float>(slope * static_cast<double>(-(t0 + k)));
}

Description describe(const Params &params)
{
    const AlibiParams &a = params.alibi;
    Description d;
    d.heads = a.heads;
    d.head = a.head;
    d.slopes = all(a.heads);
    d.slope = d.slopes[static_cast<std::size_t>(a.head - 1)];
    d.geometricHeads = geometricHeads(a.heads);
    d.interleavedHeads = a.heads - d.geometricHeads;
    d.halfWeightDistance = std::log(2.0) / d.slope;
    d.farthestBias = -d.slope * static_cast<double>(params.maxLen - 1);
    return d;
}

QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head)
{
    return HeadBias::drawnHeads(heads, head, kMaxDrawnHeads);
}

QString maskText(AlibiMask mask)
{
    return mask == AlibiMask::Causal ? QStringLiteral("causal mask") : QStringLiteral("symmetric (bidirectional)");
}

const HeadBias::Family &biasFamily()
{
    static const HeadBias::Family family = [] {
        HeadBias::Family f
            = HeadBias::family(Encoding::Alibi, &Params::alibi, &AlibiParams::mask, u"ALiBi"_s, FamilyWords(u"Alibi"_s),
                               {u"heads"_s, u"head"_s, u"alibi"_s, u"alibi-bias"_s});
        f.at
            = [](const Params &p, std::int64_t t) { return bias(of(p.alibi.heads, p.alibi.head), 0, t, p.alibi.mask); };
        // A row is affine in the offset: vectorised.
        f.biases = [](const Engine &engine, std::int64_t first, std::int64_t count, float *out) {
            const Params &p = engine.params();
            biases(of(p.alibi.heads, p.alibi.head), first, count, p.alibi.mask, out);
        };
        // The farthest key's finite bias bounds the table: m_K (L - 1).
        f.bound = [](const Params &p) { return of(p.alibi.heads, p.alibi.head) * static_cast<double>(p.maxLen - 1); };
        f.tableParameters = [](const Params &p) {
            return QStringList {u"head %1 of %2, %3, L = %4"_s.arg(p.alibi.head)
                                    .arg(p.alibi.heads)
                                    .arg(ParamText::get(p, u"alibi"_s), NumberText::count(p.maxLen))};
        };
        return f;
    }();
    return family;
}

} // namespace posenc::AlibiSlopes
