#include "CellTolerance.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace posenc {

namespace {

constexpr double kFloat32Ulp = 0x1p-23; // one unit in the last place of float32 at 1
constexpr double kFloat16Half = 0x1p-11; // half a unit of float16 at 1
constexpr double kBFloat16Half = 0x1p-8;
constexpr double kFloat16SubnormalHalf = 0x1p-25;
// The exact kernel's own error (docs/ARCHITECTURE.md, Exactness), per unit of amplitude.
constexpr double kKernelError = 1e-12;
// A table computed in double from another correct formula of its frequencies (pow where the kernel
// takes exp) has w off by an ulp or two: its angles are off by p w 2^-51, up to w 2^-27 below
// position 2^24. Near a zero of the sine that is its whole error, which no relative term covers:
// at L 2^20, three cells of a correct table were called deviating.
constexpr double kDoubleAngles = 0x1p-27;

bool isBFloat16(float x)
{
    return (std::bit_cast<std::uint32_t>(x) & 0xffffu) == 0 && std::isfinite(x);
}

bool isFloat16(float x)
{
    const float a = std::fabs(x);
    if (a == 0.0f)
        return true;
    if (!(a <= 65504.0f) || a < 0x1p-24f)
        return false;
    if (a < 0x1p-14f) {
        // Subnormal halves: multiples of 2^-24.
        const float scaled = a * 0x1p24f;
        return scaled == std::floor(scaled);
    }
    return (std::bit_cast<std::uint32_t>(x) & 0x1fffu) == 0;
}

} // namespace

ValueFormat representableFormat(const float *values, std::int64_t count)
{
    bool bfloat = true;
    bool half = true;
    for (std::int64_t i = 0; i < count && (bfloat || half); ++i) {
        bfloat = bfloat && isBFloat16(values[i]);
        half = half && isFloat16(values[i]);
    }
    if (bfloat)
        return ValueFormat::BFloat16;
    return half ? ValueFormat::Float16 : ValueFormat::Float32;
}

double halfUnit(ValueFormat format)
{
    switch (format) {
    case ValueFormat::Float16:
        return kFloat16Half;
    case ValueFormat::BFloat16:
        return kBFloat16Half;
    case ValueFormat::Float32:
        break;
    }
    return 0.5 * kFloat32Ulp;
}

ValueFormat storedFormat(StoredType stored)
{
    switch (stored) {
    case StoredType::Float16:
        return ValueFormat::Float16;
    case StoredType::BFloat16:
        return ValueFormat::BFloat16;
    case StoredType::Float64:
    case StoredType::Float32:
    case StoredType::Integer:
    case StoredType::Text:
        return ValueFormat::Float32;
    }
    return ValueFormat::Float32;
}

CellTolerance cellTolerance(ValueFormat format, StoredType stored, double textRounding, double scale, double ulps)
{
    CellTolerance t;
    // The table's value and the reference's are each within half a float32 unit of the exact value.
    t.relative = 1.01 * ulps * kFloat32Ulp;
    t.heldRelative = t.relative;
    t.absolute = kKernelError * scale;
    switch (format) {
    case ValueFormat::Float32:
        break;
    case ValueFormat::Float16:
        t.relative += 1.01 * kFloat16Half;
        t.absolute += kFloat16SubnormalHalf;
        break;
    case ValueFormat::BFloat16:
        t.relative += 1.01 * kBFloat16Half;
        break;
    }
    if (stored == StoredType::Text)
        t.absolute += 1.01 * textRounding;
    return t;
}

CellTolerance cellTolerance(ValueFormat format, bool float32Angles, StoredType stored, double textRounding,
                            const PairReferenceSpec &reference)
{
    const double amplitude = std::fabs(reference.schedule.amplitude);
    CellTolerance t = cellTolerance(format, stored, textRounding, amplitude);
    // An amplitude known to a part in 1 / amplitudeSlack moves a cell A cos by that part of it.
    t.relative += std::fabs(reference.amplitudeSlack);
    double fastest = 0.0;
    for (std::int64_t j = 0; j < reference.cols(); ++j)
        fastest = std::max(fastest, std::fabs(reference.frequency(j)));
    t.absolute += kDoubleAngles * amplitude * fastest;
    if (float32Angles) {
        // HF's rotary embedding in float32 (modeling_rope_utils.py, _compute_default_rope_parameters:
        // inv_freq = 1 / base ** (arange(0, dim, 2).float() / dim); the model's forward:
        // freqs = inv_freq.float() @ position_ids.float()), numpy's float32 of the same, PyTorch's
        // PositionalEncoding (div_term = exp(arange(0, d, 2) * (-ln(10000) / d))). Each step rounds
        // in float32, u = 2^-24 relative:
        //   e = 2i / d rounded: |de| <= e u, which moves base^-e by |ln base| e u = |ln w| u;
        //   pow (or exp) of it: within 1 ulp (2u) of its exact result (glibc's powf and expf, the
        //   manual's "Errors in Math Functions"; Sleef's u10 functions that torch takes, 1.0 ulp),
        //   and 1 / x rounded: u; so |w32 - w| <= (|ln w| + 3) u w, whichever pow: numpy's and
        //   torch's may differ by an ulp of w32, each within this bound. An exp-of-a-product form
        //   (ln base rounded first) adds |ln w| u again.
        //   the angle float(p) * w32 (p exact below 2^24) rounded: u p w.
        // So |angle32 - p w| <= (2 |ln w| + 5) u p w at most over the forms, and a cell A cos(angle)
        // moves by A times that. The tolerance is (|ln w| + 4) 2^-22 = (4 |ln w| + 16) u per unit of
        // p w: the bound, with room for a form that rounds once more. A pair at w = 1 exactly (i = 0:
        // pow(x, 0) = exp(0) = 1 / 1 = 1, and p * 1 exact) has no angle error at all: its cells hold
        // the exact angles' values in a table of float32 angles, which the streamed rows' probe of
        // exact values must not take for evidence against them (`exactAngle`). Nor has a pair at any
        // power of two: a scaling that divides the positions or the frequencies by a power of two
        // (transformers' linear, _compute_linear_scaling_rope_parameters: inv_freq /= factor; the
        // older t = arange(L) / factor) forms float(p) * 2^k, exact, and a linear table of factor 4
        // is the default one at p / 4, its pair 0 exact (a tenth of the cells the probe takes at
        // L 5000). Its allowance stays: angles read back from a rotation (check --apply) are that
        // uncertain.
        t.perPosition.resize(static_cast<std::size_t>(reference.cols()));
        t.exactAngle.resize(static_cast<std::size_t>(reference.cols()));
        t.angleRounding.resize(static_cast<std::size_t>(reference.cols()));
        t.amplitude = amplitude;
        // Each pair's terms once (a RoPE table's pair fills two columns, a search scores thousands of
        // references), then each column takes its pair's; a zero column's frequency is 0.
        const auto pairs = reference.schedule.w.size();
        std::vector<double> perPosition(pairs + 1), angleRounding(pairs + 1);
        std::vector<char> exactAngle(pairs + 1);
        int exponent = 0;
        for (std::size_t i = 0; i <= pairs; ++i) {
            const double w = i < pairs ? std::fabs(reference.schedule.w[i]) : 0.0;
            perPosition[i] = w > 0.0 ? amplitude * w * (std::fabs(std::log(w)) + 4.0) * 0x1p-22 : 0.0;
            exactAngle[i] = w > 0.0 && std::frexp(w, &exponent) == 0.5;
            angleRounding[i] = amplitude * w * 0x1p-24;
        }
        for (std::int64_t j = 0; j < reference.cols(); ++j) {
            const std::int64_t pair = reference.columns[static_cast<std::size_t>(j)].pair;
            const std::size_t i = pair < 0 ? pairs : static_cast<std::size_t>(pair);
            t.perPosition[static_cast<std::size_t>(j)] = perPosition[i];
            t.exactAngle[static_cast<std::size_t>(j)] = exactAngle[i] != 0;
            t.angleRounding[static_cast<std::size_t>(j)] = angleRounding[i];
        }
    }
    return t;
}

} // namespace posenc
