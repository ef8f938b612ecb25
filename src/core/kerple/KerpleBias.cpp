#include "KerpleBias.h"

#include "core/NumberText.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::KerpleBias {

namespace {

// The significant bits and least normal exponent of a dtype's numbers.
struct Format
{
    int bits;
    int minExponent; // of the least normal number, 2^minExponent
    double largest;
};

Format formatOf(KerpleDtype dtype)
{
    switch (dtype) {
    case KerpleDtype::BFloat16:
        return {8, -126, 0x1.fep127};
    case KerpleDtype::Float16:
        return {11, -14, 65504.0};
    case KerpleDtype::Float32:
        break;
    }
    return {24, -126, static_cast<double>(std::numeric_limits<float>::max())};
}

} // namespace

double rounded(double x, KerpleDtype dtype)
{
    // torch computes a 16-bit operation in float32 and rounds that to the dtype: so here too.
    x = static_cast<double>(static_cast<float>(x));
    if (dtype == KerpleDtype::Float32 || !std::isfinite(x) || x == 0.0)
        return x;
    const Format f = formatOf(dtype);
    // The quantum of x's binade (or of the subnormals below the least normal), x rounded to it
    // under the default rounding mode, to nearest with ties to even.
    const int exponent = std::max(std::ilogb(x), f.minExponent);
    const double quantum = std::ldexp(1.0, exponent - (f.bits - 1));
    const double r = std::nearbyint(x / quantum) * quantum;
    // Past the largest finite value by half a quantum of its binade or more: infinity.
    const double limit = f.largest + 0.5 * std::ldexp(1.0, std::ilogb(f.largest) - (f.bits - 1));
    if (std::fabs(r) >= limit)
        return std::copysign(std::numeric_limits<double>::infinity(), x);
    return r;
}

double ofHead(const std::vector<double> &list, std::int64_t head)
{
    if (list.empty())
        return 0.0;
    return list.size() == 1 ? list.front() : list[static_cast<std::size_t>(head - 1)];
}

double used(double r, KerpleDtype dtype)
{
    return std::max(rounded(r, dtype), rounded(KerpleParams::kEps, dtype));
}

std::int64_t distance(std::int64_t offset)
{
    return offset < 0 ? -offset : 0;
}

double atDistance(double r1, double r2, std::int64_t r, KerpleDtype dtype)
{
    const double diff = rounded(static_cast<double>(r), dtype);
    const double product = rounded(r2 * diff, dtype);
    const double logarithm = rounded(std::log(rounded(1.0 + product, dtype)), dtype);
    // -bias_p * log(...): the negation is exact, the product rounds once.
    return rounded(-r1 * logarithm, dtype);
}

double r1(const KerpleParams &params, std::int64_t head)
{
    return used(ofHead(params.r1, head), params.dtype);
}

double r2(const KerpleParams &params, std::int64_t head)
{
    return used(ofHead(params.r2, head), params.dtype);
}

double bias(const KerpleParams &params, std::int64_t offset)
{
    return atDistance(r1(params, params.head), r2(params, params.head), distance(offset), params.dtype);
}

std::int64_t clampedHeads(const KerpleParams &params)
{
    std::int64_t clamped = 0;
    for (std::int64_t h = 1; h <= params.heads; ++h) {
        if (ofHead(params.r1, h) < KerpleParams::kEps || ofHead(params.r2, h) < KerpleParams::kEps)
            ++clamped;
    }
    return clamped;
}

QString dtypeWord(KerpleDtype dtype)
{
    switch (dtype) {
    case KerpleDtype::BFloat16:
        return u"bfloat16"_s;
    case KerpleDtype::Float16:
        return u"float16"_s;
    case KerpleDtype::Float32:
        break;
    }
    return u"float32"_s;
}

QList<std::int64_t> drawnHeads(std::int64_t heads, std::int64_t head)
{
    return HeadBias::drawnHeads(heads, head, kMaxDrawnHeads);
}

const HeadBias::Family &biasFamily()
{
    static const HeadBias::Family family = [] {
        HeadBias::Family f = HeadBias::family(Encoding::Kerple, &Params::kerple, u"KERPLE"_s, FamilyWords(u"Kerple"_s),
                                              {u"kerple-heads"_s, u"kerple-head"_s, QString(), u"kerple-bias"_s});
        f.at = [](const Params &p, std::int64_t t) { return bias(p.kerple, t); };
        // The bias falls with the distance: the farthest key's bounds the table (float16's farthest
        // finite one, where its distances overflow).
        f.bound = [](const Params &p) {
            double farthest = bias(p.kerple, 1 - p.maxLen);
            if (!std::isfinite(farthest))
                farthest = bias(p.kerple, -65504);
            return std::max(std::fabs(farthest), std::numeric_limits<double>::min());
        };
        f.tableParameters = [](const Params &p) {
            return QStringList {
                u"head %1 of %2"_s.arg(p.kerple.head).arg(p.kerple.heads),
                u"r1 = %1, r2 = %2, %3, L = %4"_s.arg(NumberText::compact(r1(p.kerple, p.kerple.head), 4),
                                                      NumberText::compact(r2(p.kerple, p.kerple.head), 4),
                                                      dtypeWord(p.kerple.dtype), NumberText::count(p.maxLen))};
        };
        return f;
    }();
    return family;
}

} // namespace posenc::KerpleBias
