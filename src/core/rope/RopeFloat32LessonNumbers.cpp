#include "RopeLessonNumbers.h"

#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

// RoPE's float32 numbers of the lessons (float32-precision, left-padding): how far transformers'
// float32 angles stray from exact ones, and where bfloat16 stops hiding it.
namespace posenc::RopeLessonNumbers {

using namespace LessonNumbers;

namespace {

// Named apart from RopeLessonNumbers.cpp's, which a unity build may compile in the same unit.
const QString kNotRopeEncoded = u"not here: the encoding is not rope"_s;

bool ropeEncoded(const Params &p)
{
    return p.encoding == Encoding::Rope;
}

// The float32 angle as transformers' LlamaRotaryEmbedding.forward forms it (models/llama/
// modeling_llama.py: inv_freq_expanded.float() @ position_ids_expanded.float(), autocast disabled,
// then emb.cos() * self.attention_scaling): fl(fl(p)·fl(θ_i)), its cos and sin times a rounded to
// float32, against a·cos(p θ_i) in double, as the precision figure's error quantity takes them.
struct Float32Error
{
    double largest = 0.0;
    std::int64_t pair = 0;
};

Float32Error float32Error(const Params &p, std::int64_t position)
{
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    Float32Error error;
    for (std::size_t i = 0; i < table.inv.size(); ++i) {
        const double angle32 = double(float(position) * float(table.inv[i]));
        const double angle = double(position) * table.inv[i];
        const double a = table.attentionFactor;
        const double e = std::max(std::abs(double(float(a * std::sin(angle32))) - a * std::sin(angle)),
                                  std::abs(double(float(a * std::cos(angle32))) - a * std::cos(angle)));
        if (e > error.largest)
            error = {e, std::int64_t(i)};
    }
    return error;
}

// The bound a·p·θ_0·2^-23 + r of a cos or sin at position p: θ_0 the fastest, a the attention
// factor, r the rounding of a value up to a (2^-25 up to 1, 2^-24 below 2).
double float32Bound(const Params &p, double position)
{
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    const double fastest = table.inv.empty() ? 0.0 : *std::max_element(table.inv.begin(), table.inv.end());
    return table.attentionFactor * position * fastest * std::ldexp(1.0, -23)
        + std::ldexp(1.0, table.attentionFactor > 1.0 ? -24 : -25);
}

// The first position where that bound reaches 2^-9, the most bfloat16 rounds a value near ±1 by
// (half its spacing 2^-8 just below 1): where cos.to(dtype=x.dtype) in bfloat16 stops hiding it.
std::optional<std::int64_t> float32ReachBf16(const Params &p)
{
    const double slope = float32Bound(p, 1.0) - float32Bound(p, 0.0);
    const double start = float32Bound(p, 0.0);
    if (!(slope > 0.0))
        return std::nullopt;
    return std::int64_t(std::ceil((std::ldexp(1.0, -9) - start) / slope));
}

// fl(fl(L − 1)·fl(θ_0)), the first pair's float32 angle at the last position (0 if none turns).
double firstAngle32(const Params &p)
{
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    return table.inv.empty() ? 0.0 : double(float(p.maxLen - 1) * float(table.inv.front()));
}

} // namespace

QList<Entry> float32Entries()
{
    const QString never = u"not here: no pair turns"_s;
    return {
        {u"rope_f32_bound"_s,
         u"a·(L − 1)·θ_0·2⁻²³ + 2⁻²⁵ (2⁻²⁴ for a > 1): the float32-angle bound of a cos or sin at the last position"_s,
         [](const Params &p) {
             return ropeEncoded(p) ? real(float32Bound(p, double(p.maxLen - 1))) : none(kNotRopeEncoded);
         }},
        {u"rope_f32_formula"_s, u"that bound in symbols, a the attention factor where it is not 1"_s,
         [](const Params &p) {
             if (!ropeEncoded(p))
                 return none(kNotRopeEncoded);
             const double a = RopeFrequencies::table(p).attentionFactor;
             if (a == 1.0)
                 return word(u"p·θ₀·2⁻²³ + 2⁻²⁵"_s);
             return word(u"a·p·θ₀·2⁻²³ + %1 (a = %2, the attention factor)"_s.arg(a > 1.0 ? u"2⁻²⁴"_s : u"2⁻²⁵"_s,
                                                                                  NumberText::prose(a)));
         }},
        {u"rope_f32_error"_s, u"the largest error of a pair's float32-angle cos or sin at p = L − 1"_s,
         [](const Params &p) {
             return ropeEncoded(p) ? real(float32Error(p, p.maxLen - 1).largest) : none(kNotRopeEncoded);
         }},
        {u"rope_f32_error_pair"_s, u"the pair of that largest error"_s,
         [](const Params &p) {
             return ropeEncoded(p) ? integer(float32Error(p, p.maxLen - 1).pair) : none(kNotRopeEncoded);
         }},
        {u"rope_f32_reach_bf16"_s,
         u"the position where the float32-angle bound reaches 2⁻⁹, bfloat16's rounding near ±1"_s,
         [never](const Params &p) {
             if (!ropeEncoded(p))
                 return none(kNotRopeEncoded);
             const auto reach = float32ReachBf16(p);
             return reach ? positions(double(*reach)) : none(never);
         }},
        {u"rope_f32_reach_bf16_within"_s, u"a condition: the bound reaches 2⁻⁹ at a position below L"_s,
         [](const Params &p) {
             if (!ropeEncoded(p))
                 return none(kNotRopeEncoded);
             const auto reach = float32ReachBf16(p);
             return condition(reach && *reach < p.maxLen,
                              u"the bound stays below 2⁻⁹ over the %1 positions"_s.arg(p.maxLen));
         }},
        {u"rope_theta_0"_s, u"θ_0, the fastest pair's frequency after scaling"_s,
         [](const Params &p) {
             if (!ropeEncoded(p))
                 return none(kNotRopeEncoded);
             const RopeFrequencies::Table table = RopeFrequencies::table(p);
             return table.inv.empty() ? none(u"not here: no pair turns"_s) : real(table.inv.front());
         }},
        // fl(θ_0) = θ_0 = 2^k and p < 2^24: fl(p)·2^k only moves the exponent, so pair 0's float32
        // angle is exact at every position drawn (Llama's θ_0 = 1, Gemma 3's 1/8 after linear ×8).
        {u"rope_first_exact"_s,
         u"a condition: θ_0 is a power of two, so the first pair's float32 angle p·θ_0 is exact"_s,
         [](const Params &p) {
             if (!ropeEncoded(p))
                 return none(kNotRopeEncoded);
             const RopeFrequencies::Table table = RopeFrequencies::table(p);
             const double t = table.inv.empty() ? 0.0 : table.inv.front();
             int e = 0;
             const bool power = t > 0.0 && double(float(t)) == t && std::frexp(t, &e) == 0.5;
             return condition(power && p.maxLen <= (std::int64_t(1) << 24), u"θ_0 is not a power of two"_s);
         }},
        // The float32 product fl(fl(L − 1)·fl(θ_0)) and the spacing of float32 numbers near it: the
        // steps in which pair 0's angle moves there (p's own spacing only where θ_0 = 1).
        {u"rope_f32_product"_s, u"(L − 1)·θ_0 in float32: the first pair's angle at the last position"_s,
         [](const Params &p) { return ropeEncoded(p) ? real(firstAngle32(p)) : none(kNotRopeEncoded); }},
        {u"rope_f32_spacing"_s, u"the spacing of float32 numbers near (L − 1)·θ_0, the first pair's angle"_s,
         [](const Params &p) {
             if (!ropeEncoded(p))
                 return none(kNotRopeEncoded);
             const double a = firstAngle32(p);
             return a > 0.0 ? real(std::ldexp(1.0, std::ilogb(a) - 23)) : none(u"not here: no pair turns"_s);
         }},
    };
}

} // namespace posenc::RopeLessonNumbers
