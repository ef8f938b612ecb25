#include "SinusoidalLessonNumbers.h"

#include "core/FamiliesDistance.h"
#include "core/FamilySpec.h"
#include "core/sinusoidal/Frequencies.h"
#include "core/sinusoidal/SimilarityOffsets.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <array>
#include <functional>
#include <cmath>
#include <numbers>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::SinusoidalLessonNumbers {

using namespace LessonNumbers;

namespace {

double angular(const Params &p, std::int64_t pair)
{
    return Frequencies::angular(pair, p.peColumns(), p.sinusoidal);
}

std::int64_t pairCount(const Params &p)
{
    return Frequencies::pairCount(p.peColumns());
}

// The first pair whose wavelength 2 pi / w_i exceeds L: from there on a column does not
// complete one period over the table. pairCount() when none does.
std::int64_t firstSlowPair(const Params &p)
{
    const std::int64_t pairs = pairCount(p);
    for (std::int64_t i = 0; i < pairs; ++i) {
        if (Frequencies::wavelength(i, p.peColumns(), p.sinusoidal) > double(p.maxLen))
            return i;
    }
    return pairs;
}

// The PE's cosine column of its fastest pair, or of its slowest pair that has one (a lone last
// sine has none): the columns the compose-compare view's caption reads. -1 where there is none.
std::int64_t cosColumn(const Params &p, bool fastest)
{
    const std::int64_t pairs = pairCount(p);
    for (std::int64_t i = 0; i < pairs; ++i) {
        const std::int64_t column
            = Frequencies::column({fastest ? i : pairs - 1 - i, true}, p.peColumns(), p.sinusoidal);
        if (column >= 0)
            return column;
    }
    return -1;
}

// A number of that column, `of(column)`, or none where the PE has no cosine column.
std::function<Number(const Params &)> ofCosColumn(bool fastest, std::function<Number(const Params &, std::int64_t)> of)
{
    return [fastest, of = std::move(of)](const Params &p) {
        const std::int64_t j = cosColumn(p, fastest);
        return j < 0 ? none(u"none (the PE has no cosine column)"_s) : of(p, j);
    };
}

// Mean and standard deviation over p = 0 .. L-1 of column `column` of the PE table, exact angles:
// sum_p e^{i p w} = e^{i (L-1) w / 2} sin(L w / 2) / sin(w / 2), and sin^2, cos^2 = (1 -+ cos 2pw) / 2.
std::pair<double, double> columnMoments(const Params &p, std::int64_t column)
{
    const ColumnRole role = Frequencies::role(column, p.peColumns(), p.sinusoidal);
    const double w = angular(p, role.pair);
    const double n = double(p.maxLen);
    const auto dirichlet = [n](double x) { return std::sin(n * x / 2.0) / (n * std::sin(x / 2.0)); };
    const double half = (n - 1.0) * w / 2.0;
    const double mean = (role.isCos ? std::cos(half) : std::sin(half)) * dirichlet(w);
    const double meanCos2 = std::cos((n - 1.0) * w) * dirichlet(2.0 * w);
    const double meanSquare = role.isCos ? 0.5 + meanCos2 / 2.0 : 0.5 - meanCos2 / 2.0;
    return {mean, std::sqrt(std::max(0.0, meanSquare - mean * mean))};
}

// A sum over the d/2 pairs, kept for the form it was taken for: rendering a lesson asks for a
// number several times (its needs, its code's and its text's alternatives, the text), each time a
// pass of cosines, 10 ms at d 10^6 on the window's thread. `what` names the sum (an offset k, or
// -1 - last for similarityRises).
double keptSum(const Params &p, double what, const std::function<double()> &compute)
{
    struct Kept
    {
        std::int64_t columns;
        SinusoidalParams form;
        double what;
        double sum;
    };
    thread_local std::vector<Kept> kept;
    const std::int64_t columns = p.peColumns();
    for (const Kept &k : kept) {
        if (k.columns == columns && k.form == p.sinusoidal && k.what == what)
            return k.sum;
    }
    const double sum = compute();
    if (kept.size() == 16)
        kept.erase(kept.begin());
    kept.push_back({columns, p.sinusoidal, what, sum});
    return sum;
}

// S(k) = PE_p . PE_{p+k} over the whole sin/cos pairs: sum_i cos(k w_i), whatever p.
double similarity(const Params &p, double offset)
{
    return keptSum(p, offset, [&p, offset] {
        const std::int64_t pairs = p.peColumns() / 2;
        double sum = 0.0;
        for (std::int64_t i = 0; i < pairs; ++i)
            sum += std::cos(offset * angular(p, i));
        return sum;
    });
}

// Whether S(k) rises from S(k - 1) at some offset k in 1 .. last. Every pair's e^{i k w} is turned
// through e^{i w} one offset at a time, each turn's rounding a few ulps, so cos(k w) is within
// about k ulps (k <= 200 here); the pairs go a block at a time through every offset, a block's
// numbers staying in the processor's cache. Taking each S(k) from a pass of cosines cost
// 2 x 200 x d/2 of them: 20 s at d 10^6 on the window's thread, which renders the lesson.
bool risesAnywhere(const Params &p, std::int64_t last)
{
    constexpr std::size_t kBlock = 512;
    const std::size_t pairs = std::size_t(p.peColumns() / 2);
    std::vector<double> sums(std::size_t(last + 1), 0.0);
    sums[0] = double(pairs);
    std::array<double, kBlock> c {}, s {}, c1 {}, s1 {};
    for (std::size_t start = 0; start < pairs; start += kBlock) {
        const std::size_t n = std::min(kBlock, pairs - start);
        for (std::size_t i = 0; i < n; ++i) {
            const double w = angular(p, std::int64_t(start + i));
            c[i] = 1.0;
            s[i] = 0.0;
            c1[i] = std::cos(w);
            s1[i] = std::sin(w);
        }
        for (std::size_t k = 1; k < sums.size(); ++k) {
            for (std::size_t i = 0; i < n; ++i) {
                const double next = c[i] * c1[i] - s[i] * s1[i];
                s[i] = s[i] * c1[i] + c[i] * s1[i];
                c[i] = next;
            }
            sums[k] += std::accumulate(c.begin(), c.begin() + std::ptrdiff_t(n), 0.0);
        }
    }
    for (std::size_t k = 1; k < sums.size(); ++k) {
        if (sums[k] > sums[k - 1])
            return true;
    }
    return false;
}

bool similarityRises(const Params &p, std::int64_t last)
{
    return keptSum(p, -1.0 - double(last), [&p, last] { return risesAnywhere(p, last) ? 1.0 : 0.0; }) != 0.0;
}

// S(k) where the similarity figure draws it: offsets 0 .. SimilarityOffsets::lastOffset.
Number drawnSimilarity(const Params &p, std::int64_t offset)
{
    if (offset > SimilarityOffsets::lastOffset(p.maxLen))
        return none(u"none (the figure draws offsets up to %1)"_s.arg(SimilarityOffsets::lastOffset(p.maxLen)));
    return real(similarity(p, double(offset)));
}

// The float32 angle float(p) * float(w_0) is off by at most p w_0 2^-23, and the stored value by
// 2^-25 more (docs/ARCHITECTURE.md, The mathematics; the precision figure's bound).
double float32Bound(double position)
{
    return position * std::ldexp(1.0, -23) + std::ldexp(1.0, -25);
}

// The first position whose bound float32Bound reaches 10⁻³.
std::int64_t float32Reach1e3()
{
    return std::int64_t(std::ceil((1e-3 - std::ldexp(1.0, -25)) * std::ldexp(1.0, 23)));
}

// The format a preset's source says the model's checkpoint stores its table in, with the format's
// explicit mantissa bits (float16 10, bfloat16 7); nothing where it says none.
std::optional<std::pair<QString, int>> storedFormat(const QString &source)
{
    static const QRegularExpression stored(u"checkpoint stores the table in (float16|bfloat16) \\("_s);
    const QRegularExpressionMatch match = stored.match(source);
    if (!match.hasMatch())
        return std::nullopt;
    return std::pair {match.captured(1), match.captured(1) == u"float16"_s ? 10 : 7};
}

Number peDot(const Params &p, std::int64_t distance)
{
    const Params sinusoidal = familyUnder(p, Encoding::Sinusoidal);
    const std::int64_t k = sinusoidal.peColumns();
    const std::int64_t q = familiesDefaultQuery(p), j = q - distance;
    if (j < 0)
        return none(u"not here: no key that far before the query"_s);
    // PE[q] · PE[j]: whole pairs give cos((q - j) w_i), a lone sine sin(q w) sin(j w).
    double sum = 0.0;
    for (std::int64_t i = 0; i < Frequencies::pairCount(k); ++i) {
        const double w = Frequencies::angular(i, k, p.sinusoidal);
        sum += 2 * i + 1 < k ? std::cos(double(distance) * w) : std::sin(double(q) * w) * std::sin(double(j) * w);
    }
    return real(sum);
}

// The table's form: its base, angles, frequencies' shift and scale, layout, and where it is stored.
QList<Entry> formEntries()
{
    return {
        {u"base"_s, u"the base b of w_i = b^(−2i/d)"_s, [](const Params &p) { return real(p.sinusoidal.base); }},
        {u"angles_float32"_s, u"a condition: the table forms its angles in float32"_s,
         [](const Params &p) {
             return condition(p.sinusoidal.angles == Angles::Float32, u"the angles are formed in double"_s);
         }},
        // float32-precision told Wan 2.1's timestep table that it "forms the angle p·w_i in
        // float32": diffusers' port does (get_timestep_embedding), Wan's own sinusoidal_embedding_1d
        // (Wan-Video/Wan2.1, wan/modules/model.py) forms it in float64. A preset whose code is a
        // port records the model's own so in its source (Preset::source): "own code (CITE) computes
        // the same table in float64".
        {u"angles_own_code"_s,
         u"the model's own code, where its preset reads a port of it and that code forms the angles in float64"_s,
         std::function<Number(const LessonModel &)>([](const LessonModel &m) {
             static const QRegularExpression own(u"own code \\(([^()]*)\\) computes the same table in float64"_s);
             const QRegularExpressionMatch match = own.match(m.source);
             return match.hasMatch() ? word(match.captured(1))
                                     : none(u"the code the model's numbers were read from is its own"_s);
         })},
        // Whisper's published checkpoint stores its encoder's table as a weight in float16:
        // WhisperEncoder.embed_positions is an nn.Embedding that sinusoids() fills only at
        // initialisation (WhisperPreTrainedModel._init_weights, transformers' modeling_whisper.py),
        // and from_pretrained loads the checkpoint's encoder.embed_positions.weight over it, so the
        // model runs with the table rounded to the checkpoint's dtype. A preset records it in its
        // source (Preset::source): "the checkpoint stores the table in float16 (CITE)".
        {u"stored_dtype"_s,
         u"the format the model's published checkpoint stores its table in, where its preset's source records "
         "one narrower than float32 (float16, bfloat16)"_s,
         std::function<Number(const LessonModel &)>([](const LessonModel &m) {
             const auto format = storedFormat(m.source);
             return format ? word(format->first)
                           : none(u"the model's table is computed, or its checkpoint holds it in float32"_s);
         })},
        {u"stored_error"_s,
         u"half the spacing of that format's numbers just below 1: the most a value of the table near ±1 is off "
         "once rounded to it (float16 2⁻¹², bfloat16 2⁻⁹)"_s,
         std::function<Number(const LessonModel &)>([](const LessonModel &m) {
             const auto format = storedFormat(m.source);
             return format ? real(std::ldexp(1.0, -(format->second + 2)))
                           : none(u"the model's table is computed, or its checkpoint holds it in float32"_s);
         })},
        {u"paper_frequencies"_s, u"a condition: w_i = b^(−2i/k), the paper's (no shift s, scale c 1)"_s,
         [](const Params &p) {
             return condition(p.sinusoidal.freqShift == 0.0 && p.sinusoidal.timestepScale == 1.0,
                              u"w_i is c·b^(−i/(k/2 − s))"_s);
         }},
        {u"unscaled_frequencies"_s, u"a condition: the scale c of w_i is 1, so w_0 = 1"_s,
         [](const Params &p) { return condition(p.sinusoidal.timestepScale == 1.0, u"w_i is scaled by c"_s); }},
        {u"freq_shift"_s, u"the shift s of w_i = c·b^(−i/(k/2 − s)) (diffusers' downscale_freq_shift)"_s,
         [](const Params &p) { return real(p.sinusoidal.freqShift); }},
        {u"timestep_scale"_s, u"the scale c of w_i = c·b^(−i/(k/2 − s)) (diffusers' scale)"_s,
         [](const Params &p) { return real(p.sinusoidal.timestepScale); }},
        {u"pe_interleaved"_s, u"a condition: the PE's layout is interleaved, pair i in columns 2i and 2i + 1"_s,
         [](const Params &p) {
             return condition(p.sinusoidal.layout == Layout::Interleaved, u"the sines and cosines are split"_s);
         }},
        {u"pe_split_sin_first"_s, u"a condition: the PE's layout is split, its sines before its cosines"_s,
         [](const Params &p) {
             return condition(p.sinusoidal.layout == Layout::Split && !p.sinusoidal.flipSinToCos,
                              u"the PE is not split with its sines first"_s);
         }},
        {u"pe_split_cos_first"_s,
         u"a condition: the PE's layout is split, its cosines before its sines (diffusers' flip_sin_to_cos)"_s,
         [](const Params &p) {
             return condition(p.sinusoidal.layout == Layout::Split && p.sinusoidal.flipSinToCos,
                              u"the PE is not split with its cosines first"_s);
         }},
    };
}

// Its pairs, wavelengths, columns, dot products and float32 bounds.
QList<Entry> pairEntries()
{
    return {
        {u"pairs"_s, u"the sin/cos pairs of the PE: ⌈k/2⌉"_s, [](const Params &p) { return integer(pairCount(p)); }},
        {u"w_last"_s, u"w of the last pair, b^(−2(⌈k/2⌉−1)/k)"_s,
         [](const Params &p) { return real(angular(p, pairCount(p) - 1)); }},
        {u"lambda_first"_s, u"the wavelength of pair 0: 2π"_s,
         [](const Params &p) { return real(Frequencies::wavelength(0, p.peColumns(), p.sinusoidal)); }},
        {u"lambda_mid"_s, u"the wavelength of the middle pair"_s,
         [](const Params &p) { return real(Frequencies::wavelength(pairCount(p) / 2, p.peColumns(), p.sinusoidal)); }},
        {u"lambda_last"_s, u"the wavelength of the last pair"_s,
         [](const Params &p) { return real(Frequencies::wavelength(pairCount(p) - 1, p.peColumns(), p.sinusoidal)); }},
        {u"mid_pair"_s, u"the middle pair, ⌈k/2⌉/2 rounded down"_s,
         [](const Params &p) { return integer(pairCount(p) / 2); }},
        {u"mid_column"_s, u"the PE's column of the middle pair's sine"_s,
         [](const Params &p) {
             return integer(Frequencies::column({pairCount(p) / 2, false}, p.peColumns(), p.sinusoidal));
         }},
        {u"slow_pairs"_s, u"the pairs whose wavelength exceeds L: not one period over the table"_s,
         [](const Params &p) { return integer(pairCount(p) - firstSlowPair(p)); }},
        {u"slow_column"_s, u"the PE's column of the first such pair's sine"_s,
         [](const Params &p) {
             const std::int64_t pair = firstSlowPair(p);
             if (pair == pairCount(p))
                 return none(u"none (every pair turns at least once over L positions)"_s);
             return integer(Frequencies::column({pair, false}, p.peColumns(), p.sinusoidal));
         }},
        {u"slow_cos_column"_s, u"the PE's column of the first such pair's cosine"_s,
         [](const Params &p) {
             const std::int64_t pair = firstSlowPair(p);
             const std::int64_t column
                 = pair == pairCount(p) ? -1 : Frequencies::column({pair, true}, p.peColumns(), p.sinusoidal);
             if (column < 0)
                 return none(u"none (no pair turns less than once with a cosine column)"_s);
             return integer(column);
         }},
        {u"pe_mean_first"_s, u"the mean of the PE's column 0 over the positions"_s,
         [](const Params &p) { return real(columnMoments(p, 0).first); }},
        {u"pe_std_first"_s, u"the standard deviation of the PE's column 0"_s,
         [](const Params &p) { return real(columnMoments(p, 0).second); }},
        // The columns the compose-compare view's caption reads ("fastest cos j = 1: mean 0.00,
        // std 0.71"), which a sentence beside it quotes too.
        {u"fastest_cos_column"_s, u"the PE's cosine column of pair 0"_s,
         ofCosColumn(true, [](const Params &, std::int64_t j) { return integer(j); })},
        {u"pe_mean_fastest_cos"_s, u"the mean of that column over the positions"_s,
         ofCosColumn(true, [](const Params &p, std::int64_t j) { return real(columnMoments(p, j).first); })},
        {u"pe_std_fastest_cos"_s, u"the standard deviation of that column"_s,
         ofCosColumn(true, [](const Params &p, std::int64_t j) { return real(columnMoments(p, j).second); })},
        {u"slowest_cos_column"_s, u"the PE's cosine column of its slowest pair that has one"_s,
         ofCosColumn(false, [](const Params &, std::int64_t j) { return integer(j); })},
        {u"pe_mean_slowest_cos"_s, u"the mean of that column over the positions"_s,
         ofCosColumn(false, [](const Params &p, std::int64_t j) { return real(columnMoments(p, j).first); })},
        {u"pe_std_slowest_cos"_s, u"the standard deviation of that column"_s,
         ofCosColumn(false, [](const Params &p, std::int64_t j) { return real(columnMoments(p, j).second); })},
        {u"lambda_slowest_cos"_s, u"the wavelength of that column's pair"_s,
         [](const Params &p) {
             const std::int64_t j = cosColumn(p, false);
             if (j < 0)
                 return none(u"none (the PE has no cosine column)"_s);
             const ColumnRole role = Frequencies::role(j, p.peColumns(), p.sinusoidal);
             return real(Frequencies::wavelength(role.pair, p.peColumns(), p.sinusoidal));
         }},
        {u"last_column"_s, u"the PE's last column, k − 1"_s,
         [](const Params &p) { return integer(p.peColumns() - 1); }},
        {u"pe_mean_last"_s, u"the mean of the PE's last column over the positions"_s,
         [](const Params &p) { return real(columnMoments(p, p.peColumns() - 1).first); }},
        {u"pe_std_last"_s, u"the standard deviation of the PE's last column"_s,
         [](const Params &p) { return real(columnMoments(p, p.peColumns() - 1).second); }},
        {u"sim_0"_s, u"S(0) = Σ_i cos(0) over the whole pairs: ||PE_p||²"_s,
         [](const Params &p) { return real(similarity(p, 0.0)); }},
        // S(k) at an offset the similarity figure draws (SimilarityOffsets): none beyond them.
        {u"sim_1"_s, u"S(1) = Σ_i cos(w_i)"_s, [](const Params &p) { return drawnSimilarity(p, 1); }},
        {u"sim_10"_s, u"S(10) = Σ_i cos(10 w_i)"_s, [](const Params &p) { return drawnSimilarity(p, 10); }},
        {u"sim_100"_s, u"S(100) = Σ_i cos(100 w_i)"_s, [](const Params &p) { return drawnSimilarity(p, 100); }},
        {u"far_offset"_s, u"the last offset the similarity figure draws at first, min(L − 1, 200)"_s,
         [](const Params &p) { return integer(SimilarityOffsets::lastOffset(p.maxLen)); }},
        {u"sim_far"_s, u"S at the last offset drawn, where it is past 1"_s,
         [](const Params &p) {
             const std::int64_t last = SimilarityOffsets::lastOffset(p.maxLen);
             return last < 2 ? none(u"none (the figure draws no offset past 1)"_s) : drawnSimilarity(p, last);
         }},
        {u"sim_ripples"_s, u"a condition: S(k) rises somewhere over the offsets drawn"_s,
         [](const Params &p) {
             const std::int64_t last = SimilarityOffsets::lastOffset(p.maxLen);
             return condition(similarityRises(p, last), u"S(k) falls steadily over the %1 offsets drawn"_s.arg(last + 1));
         }},
        // The row is named by the lesson in the model's own symbol ({position_symbol}: a timestep's t).
        {u"sim_row_middle"_s,
         u"the row besides row 0 whose dot products the similarity figure draws against the offsets"_s,
         [](const Params &p) {
             const std::int64_t middle
                 = SimilarityOffsets::middleRow(p.maxLen, SimilarityOffsets::lastOffset(p.maxLen));
             return middle > 0 ? integer(middle) : none(u"none (the figure draws row 0 alone)"_s);
         }},
        {u"f32_bound"_s, u"(L − 1)·w_0·2⁻²³ + 2⁻²⁵: the float32-angle error bound at the last position"_s,
         [](const Params &p) { return real(float32Bound(double(p.maxLen - 1))); }},
        {u"f32_spacing"_s, u"the spacing of float32 numbers at L − 1: the angle of column 0 moves in such steps"_s,
         [](const Params &p) {
             const double last = double(p.maxLen - 1);
             return last < 1.0 ? real(std::ldexp(1.0, -149)) : real(std::ldexp(1.0, std::ilogb(last) - 23));
         }},
        {u"f32_reach_1e3"_s, u"the position where the bound reaches 10⁻³"_s,
         [](const Params &) { return integer(float32Reach1e3()); }},
        // Whether the table's own positions get there: Whisper's 1500 do not (the lesson spoke of
        // p = 99999, a length of its own, for every model).
        {u"f32_reach_within"_s, u"a condition: the bound reaches 10⁻³ at a position below L"_s,
         [](const Params &p) {
             return condition(float32Reach1e3() < p.maxLen,
                              u"the bound stays below 10⁻³ over the table's %1 positions"_s.arg(p.maxLen));
         }},
        {u"turns_last"_s, u"(L − 1)/(2π): the turns of column 0's angle up to the last position"_s,
         [](const Params &p) { return real(double(p.maxLen - 1) / (2.0 * std::numbers::pi)); }},

        {u"fam_pe_0"_s, u"PE[q]·PE[q]: the sinusoid's squared norm, d/2"_s,
         [](const Params &p) { return peDot(p, 0); }},
        {u"fam_pe_1"_s, u"PE[q]·PE[q − 1]"_s, [](const Params &p) { return peDot(p, 1); }},
        {u"fam_pe_100"_s, u"PE[q]·PE[q − 100]"_s, [](const Params &p) { return peDot(p, 100); }},
        {u"fam_pe_far"_s, u"PE[q]·PE[q − fam_far]"_s,
         [](const Params &p) {
             return atFamiliesDistance(p, FamiliesDistance::Far, [&](std::int64_t back) { return peDot(p, back); });
         }},
    };
}

} // namespace

QList<Entry> entries()
{
    return formEntries() + pairEntries();
}

} // namespace posenc::SinusoidalLessonNumbers
