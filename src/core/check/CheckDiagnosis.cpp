#include "CheckDiagnosis.h"

#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::CheckDiagnosis {

namespace {

QString number(double value)
{
    return NumberText::exact(value);
}

QString short5(double value)
{
    return NumberText::compact(value, 5);
}

// The fewest significant digits that write `value` (10000: 1, 12345.6: 6).
int significantDigits(double value)
{
    if (!(value > 0.0 && std::isfinite(value)))
        return 17;
    const int exponent = int(std::floor(std::log10(value)));
    for (int digits = 1; digits < 17; ++digits) {
        const double unit = std::pow(10.0, exponent - digits + 1);
        if (std::fabs(std::round(value / unit) * unit - value) <= 1e-12 * value)
            return digits;
    }
    return 17;
}

QString rowList(const std::vector<std::int64_t> &rows)
{
    QStringList words;
    for (const std::int64_t r : rows)
        words.append(QString::number(r));
    return words.join(u", "_s);
}

QString positionsFrom(std::int64_t offset)
{
    return offset == 0 ? u"positions from 0"_s
                       : u"row r holding position r %1 %2"_s.arg(offset < 0 ? u"-"_s : u"+"_s).arg(std::abs(offset));
}

QString layoutWords(Layout layout)
{
    return layout == Layout::Interleaved ? u"interleaved (sin in column 2i, cos in 2i+1)"_s
                                         : u"split (the sines in the first columns, then the cosines)"_s;
}

QString frequencyWords(const SinusoidalFit::Hypothesis &h)
{
    const QString b = number(h.base);
    switch (h.variant) {
    case SinusoidalFit::Variant::Paper:
        return u"the paper's frequencies w_i = %1^(-2i/d)"_s.arg(b);
    case SinusoidalFit::Variant::HalfDimMinusOne:
        return u"half_dim - 1 frequencies w_i = %1^(-i/(h-1)), h = d/2 (fairseq, tensor2tensor, Whisper)"_s.arg(b);
    case SinusoidalFit::Variant::ColumnIndex:
        return u"column j at %1^(-j/d)"_s.arg(b);
    case SinusoidalFit::Variant::Divided:
        return u"angles p / w_i with w_i = %1^(-2i/d)"_s.arg(b);
    }
    return {};
}

QString roundingWords(PositionRounding rounding)
{
    return rounding == PositionRounding::BFloat16 ? u"bfloat16 (8188..8191 all become 8192)"_s
                                                  : u"float16 (2049 becomes 2048, 4097 becomes 4096)"_s;
}

QString halfPrecisionLine(PositionRounding rounding)
{
    return u"positions were rounded to %1 before the angle was formed; the correct table takes each position "
           "exactly (position ids in float32, as transformers PR #29285 keeps them)"_s.arg(roundingWords(rounding));
}

QString offsetLine(std::int64_t offset, const QString &convention)
{
    const QString start = offset == 1 ? u"positions start at 1"_s : u"positions start at %1"_s.arg(offset);
    return u"%1: row r holds position r %2 %3; %4 number positions from 0, row r holding position r"_s.arg(start)
        .arg(offset < 0 ? u"-"_s : u"+"_s)
        .arg(std::abs(offset))
        .arg(convention);
}

} // namespace

QString sinusoidReference(const SinusoidalFit::Hypothesis &h, const RowFraming &framing)
{
    return u"sinusoidal, %1, %2, %3"_s.arg(CheckWords::layout(h.layout), frequencyWords(h),
                                           positionsFrom(h.firstPosition - framing.firstRow));
}

QString sinusoid(const SinusoidalFit::Hypothesis &found, const SinusoidalFit::Hypothesis &correct, std::int64_t dModel,
                 const RowFraming &framing, const std::vector<TableMistake> &mistakes, bool layoutDeclared)
{
    QStringList lines;
    const QString b = number(correct.base);
    for (const TableMistake mistake : mistakes) {
        switch (mistake) {
        case TableMistake::ExponentColumnIndex:
            lines.append(
                SinusoidalFit::isDoubledBase(found.base)
                    ? u"column j uses %1^(-2j/d): the exponent counts columns instead of pairs; the paper's "
                      "pair i uses %1^(-2i/d) for both its sine (column 2i) and its cosine (column 2i+1)"_s.arg(b)
                    : u"column 2i+1 uses %1^(-(2i+1)/d); the paper's pair i uses %1^(-2i/d) for both its "
                      "sine and cosine"_s.arg(b));
            break;
        case TableMistake::ExponentDoubled:
            if (found.variant != SinusoidalFit::Variant::ColumnIndex)
                lines.append(u"pair i uses %1^(-4i/d), base %1^2 = %2: the exponent steps twice (2i/d with i already "
                             "stepping by 2); the paper's pair i uses %1^(-2i/d)"_s.arg(b, number(found.base)));
            break;
        case TableMistake::SinCosSwapped:
            lines.append(found.layout == Layout::Interleaved
                             ? u"column 2i holds cos(p w_i) and column 2i+1 sin(p w_i); the paper puts the sine in "
                               "column 2i and the cosine in column 2i+1"_s
                             : u"the first %1 columns hold the cosines and the rest the sines; the split layout puts "
                               "sin(p w_i) in column i and cos(p w_i) after all the sines"_s.arg((dModel + 1) / 2));
            break;
        case TableMistake::PositionDivided:
            lines.append(u"the angle is p / w_i = p %1^(2i/d); the paper's is p w_i = p / %1^(2i/d)"_s.arg(b));
            break;
        case TableMistake::PositionOffset:
            lines.append(offsetLine(found.firstPosition - framing.firstRow, u"the paper, PyTorch and TensorFlow"_s));
            break;
        case TableMistake::HalfPrecisionAngles:
            lines.append(halfPrecisionLine(found.rounding));
            break;
        case TableMistake::SameRow:
        case TableMistake::RopeLayout:
        case TableMistake::AttentionFactorMissing:
            break;
        }
    }
    if (layoutDeclared)
        lines.append(u"the table is %1 where %2 was declared, which is %3 (tensorflow/text#1122)"_s.arg(
            CheckWords::layout(found.layout), CheckWords::layout(correct.layout), layoutWords(correct.layout)));
    if (!lines.isEmpty())
        return lines.join(u"; "_s);
    if (found.variant == SinusoidalFit::Variant::HalfDimMinusOne) {
        const std::int64_t offset = found.firstPosition - framing.firstRow;
        return u"the half_dim - 1 sinusoid of fairseq, tensor2tensor and Whisper: w_i = %1^(-i/(h-1)) with h = %2, "
               "%3%4"_s.arg(b)
                   .arg(dModel / 2)
                   .arg(layoutWords(found.layout),
                        offset > 0
                            ? u", positions from %1 (fairseq's padding_idx + 1, tensor2tensor's start_index)"_s.arg(
                                offset)
                            : QString());
    }
    return u"the paper's sinusoid: w_i = %1^(-2i/d), %2, positions from 0"_s.arg(b, layoutWords(found.layout));
}

QStringList sinusoidNotes(const SinusoidalFit::Hypothesis &h, const RowFraming &framing, TablePrecision precision)
{
    QStringList notes;
    if (framing.firstRow == 1)
        notes.append(u"row 0 holds zeros and is not compared"_s);
    else if (framing.firstRow > 1)
        notes.append(u"rows 0..%1 hold zeros and are not compared"_s.arg(framing.firstRow - 1));
    if (!framing.paddingRows.empty())
        notes.append(u"row%1 %2 hold%3 zeros: padding (fairseq's padding_idx), not compared"_s.arg(
            framing.paddingRows.size() > 1 ? u"s"_s : QString(), rowList(framing.paddingRows),
            framing.paddingRows.size() > 1 ? QString() : u"s"_s));
    switch (precision) {
    case TablePrecision::Exact:
        break;
    case TablePrecision::Float16:
        notes.append(u"the values are rounded to float16: correct within its rounding"_s);
        break;
    case TablePrecision::BFloat16:
        notes.append(u"the values are rounded to bfloat16: correct within its rounding"_s);
        break;
    case TablePrecision::Float32Angles:
        notes.append(float32AnglesNote());
        break;
    }
    if (h.variant == SinusoidalFit::Variant::HalfDimMinusOne)
        notes.append(u"b^(-i/(h-1)) is the paper's formula with base b^(d/(d-2)); the parameters set for this table "
                     "use that base"_s);
    return notes;
}

QString float32AnglesNote()
{
    return u"the angles were formed in float32 (float(p) * float(w_i), as float32 PyTorch code forms them): their "
           "error grows with p w_i, up to (|ln w_i| + 3) 2^-23 p w_i"_s;
}

QString exactNotFloat32Note(double share)
{
    return u"not float32 angles: %1% of the cells that float32 angles would move hold the exact angles' values, "
           "so the rows are compared with the exact angles"_s.arg(NumberText::compact(100.0 * share, 3));
}

QString nearestSinusoid(const SinusoidalFit::Hypothesis &h, const SampleScore &score)
{
    return u"nearest sinusoidal reference: %1, %2 (RMS difference %3, %4% of the table's energy)"_s.arg(
        CheckWords::layout(h.layout), frequencyWords(h), NumberText::compact(score.rms(), 3),
        NumberText::compact(100.0 * score.relativeResidual(), 3));
}

QString ropeReference(const RopeFit::Hypothesis &h)
{
    const RopeParams &r = h.params.rope;
    QStringList parameters {u"rope_theta %1"_s.arg(number(r.theta))};
    if (r.type == RopeType::Proportional)
        parameters.append(u"partial_rotary_factor %1"_s.arg(number(r.partialRotaryFactor)));
    if (r.factor && r.type != RopeType::Default && r.type != RopeType::LongRope)
        parameters.append(u"factor %1"_s.arg(number(*r.factor)));
    if (r.originalMaxLen && (r.type == RopeType::Yarn || r.type == RopeType::Llama3))
        parameters.append(u"original_max_position_embeddings %1"_s.arg(*r.originalMaxLen));
    if (r.type == RopeType::Yarn && !r.yarnTruncate)
        parameters.append(u"truncate false"_s);
    if (r.type == RopeType::Llama3)
        parameters.append(
            u"low_freq_factor %1, high_freq_factor %2"_s.arg(number(r.lowFreqFactor), number(r.highFreqFactor)));
    if (r.type == RopeType::LongRope)
        parameters.append(u"a factor per pair"_s);
    return u"%1, %2 layout, rope_type %3 (%4), attention factor %5"_s.arg(
        h.cosine ? u"rope-cos"_s : u"rope-sin"_s, CheckWords::ropeLayout(r.layout), CheckWords::ropeType(r.type),
        parameters.join(u", "_s), short5(h.amplitude));
}

QString rope(const RopeFit::Fit &fit, const RopeFit::Hypothesis &correct)
{
    const RopeFit::Hypothesis &h = fit.hypothesis;
    const RopeParams &r = h.params.rope;
    QStringList lines;
    for (const TableMistake mistake : fit.mistakes) {
        switch (mistake) {
        case TableMistake::RopeLayout:
            lines.append(u"the columns repeat as the %1 layout (%2) but the %3 layout was declared (%4): "
                         "cat((freqs, freqs)) gives the half layout, repeat_interleave the interleaved one "
                         "(llama.cpp#3018)"_s.arg(
                             CheckWords::ropeLayout(r.layout),
                             r.layout == RopeLayout::Half ? u"column c equals c + r/2"_s : u"column 2i equals 2i+1"_s,
                             CheckWords::ropeLayout(correct.params.rope.layout),
                             correct.params.rope.layout == RopeLayout::Half ? u"pair i in columns i and i + r/2"_s
                                                                            : u"pair i in columns 2i and 2i+1"_s));
            break;
        case TableMistake::AttentionFactorMissing:
            if (r.type == RopeType::Yarn)
                lines.append(u"the amplitude is 1, but yarn with factor %1 multiplies cos and sin by its attention "
                             "factor 0.1 ln(%1) + 1 = %2 (exllamav3#259); the correct table is %2 %3(p theta_i)"_s.arg(
                                 number(r.factor.value_or(1.0)), short5(fit.typeAttentionFactor),
                                 h.cosine ? u"cos"_s : u"sin"_s));
            else
                lines.append(u"the amplitude is 1, but LongRoPE with factors above 1 multiplies cos and sin by "
                             "sqrt(1 + ln(factor) / ln(original_max_position_embeddings)) > 1; the table does not "
                             "hold that factor's value, so the error is measured against the table as found"_s);
            break;
        case TableMistake::PositionOffset:
            lines.append(offsetLine(h.firstPosition - correct.firstPosition, u"HF's position_ids"_s));
            break;
        case TableMistake::HalfPrecisionAngles:
            lines.append(halfPrecisionLine(h.rounding));
            break;
        default:
            break;
        }
    }
    if (!lines.isEmpty())
        return lines.join(u"; "_s);
    return u"RoPE's %1 table as HF returns it: %2"_s.arg(h.cosine ? u"cos"_s : u"sin"_s, ropeReference(h));
}

QStringList ropeNotes(const RopeFit::Fit &fit)
{
    QStringList notes;
    const RopeParams &r = fit.hypothesis.params.rope;
    if (r.type == RopeType::Yarn || r.type == RopeType::Llama3) {
        const RopeFrequencies::Description d = RopeFrequencies::describe(fit.hypothesis.params);
        notes.append(u"%1 pairs kept, %2 blended, %3 divided by the factor; another original_max_position_embeddings "
                     "with the same bands gives the same table: the table holds the bands, not the length"_s
                         .arg(d.pairsKept.value_or(0))
                         .arg(d.pairsBlended.value_or(0))
                         .arg(d.pairsDivided.value_or(0)));
    }
    // A theta of many digits may be a dynamic table's grown base.
    if (r.type == RopeType::Default && significantDigits(r.theta) > 3)
        notes.append(
            u"dynamic NTK scaling gives a default table of a larger theta, theta (f L/L0 - (f - 1))^(r/(r-2)): "
            "a table cannot tell the two apart"_s);
    if ((r.type == RopeType::Yarn || r.type == RopeType::LongRope)
        && std::fabs(fit.hypothesis.amplitude - fit.typeAttentionFactor) > 1e-5 * fit.typeAttentionFactor
        && std::fabs(fit.hypothesis.amplitude - 1.0) > 1e-5)
        notes.append(
            u"the amplitude %1 is not the type's attention factor %2: an attention_factor given explicitly"_s.arg(
                short5(fit.hypothesis.amplitude), short5(fit.typeAttentionFactor)));
    return notes;
}

QString sameRow(bool sinusoid)
{
    return sinusoid ? u"every position holds the same row, the sinusoid's row of position 0: the table was "
                      "broadcast over the wrong axis (pe[:x.size(0)] of a batch-first x takes the batch size, "
                      "numpy-transformer#1); the correct table's row p holds PE(p)"_s
                    : u"every position holds the same row: the table was broadcast over the wrong axis "
                      "(numpy-transformer#1); a table of positions differs from row to row"_s;
}

QString learned(const LearnedFit::Structure &s, std::optional<std::int64_t> declaredFirstRow)
{
    const QString where = s.firstPositionRow == 0
        ? u"positions start at row 0"_s
        : u"positions start at row %1 (rows 0..%2 are padding or never trained, as in RoBERTa, XLM-R, BART and OPT)"_s
              .arg(s.firstPositionRow)
              .arg(s.firstPositionRow - 1);
    if (declaredFirstRow && *declaredFirstRow != s.firstPositionRow)
        return u"%1, but it is read from row %2: position p must read row p + %3 (transformers#20761)"_s.arg(where)
            .arg(*declaredFirstRow)
            .arg(s.firstPositionRow);
    return u"a learned table: %1; neighbouring rows point the same way (cosine %2)"_s.arg(
        where, NumberText::compact(s.neighbourCosine, 3));
}

QStringList learnedNotes(const LearnedFit::Structure &s)
{
    QStringList notes;
    if (!s.zeroRows.empty())
        notes.append(
            u"row%1 %2: zeros (padding_idx)"_s.arg(s.zeroRows.size() > 1 ? u"s"_s : QString(), rowList(s.zeroRows)));
    if (!s.untrainedRows.empty())
        notes.append(u"row%1 %2: unlike the rows after them, as initialised and never trained"_s.arg(
            s.untrainedRows.size() > 1 ? u"s"_s : QString(), rowList(s.untrainedRows)));
    QStringList profile;
    for (const auto &[distance, cosine] : s.cosineByDistance)
        profile.append(u"%1: %2"_s.arg(distance).arg(NumberText::compact(cosine, 2)));
    if (!profile.isEmpty())
        notes.append(u"median cosine of rows k apart, k: cosine: "_s + profile.join(u", "_s));
    return notes;
}

QString unknown(const LearnedFit::Structure &s)
{
    const double far = s.cosineByDistance.empty() ? 0.0 : s.cosineByDistance.back().second;
    return u"no sinusoid, no RoPE table and no learned structure this check can tell: the median cosine of "
           u"neighbouring "
           "rows is %1, of rows far apart %2 (random numbers give 0 for both)"_s.arg(
               NumberText::compact(s.neighbourCosine, 2), NumberText::compact(far, 2));
}

QString allZero()
{
    return u"every cell is 0: no table of positions"_s;
}

QString tooFewRows(std::int64_t rows)
{
    return u"%1 row%2 with values: too few to tell a table of positions (3 at least)"_s.arg(rows).arg(
        rows == 1 ? QString() : u"s"_s);
}

QString indexSet(const std::vector<std::int64_t> &indices, std::int64_t of, const QString &noun)
{
    if (indices.empty())
        return QString();
    const auto count = std::int64_t(indices.size());
    if (count == of)
        return u"every %1 (%2)"_s.arg(noun).arg(of);
    // Runs of consecutive indices, "3..7".
    QStringList runs;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i + 1;
        while (j < indices.size() && indices[j] == indices[j - 1] + 1)
            ++j;
        runs.append(j - i == 1 ? QString::number(indices[i]) : u"%1..%2"_s.arg(indices[i]).arg(indices[j - 1]));
        i = j;
    }
    const QString tally = u"%1 of %2"_s.arg(count).arg(of);
    if (runs.size() <= 6)
        return u"%1s %2 (%3)"_s.arg(noun, runs.join(u", "_s), tally);
    // An even step, "every 2nd from 1".
    const std::int64_t step = indices[1] - indices[0];
    bool even = step > 1;
    for (std::size_t i = 2; i < indices.size() && even; ++i)
        even = indices[i] - indices[i - 1] == step;
    if (even) {
        const QString nth = step == 2 ? u"second"_s : step == 3 ? u"third"_s : u"%1th"_s.arg(step);
        return u"every %1 %2 from %3 to %4 (%5)"_s.arg(nth, noun).arg(indices.front()).arg(indices.back()).arg(tally);
    }
    return u"%1s %2, ... %3 (%4)"_s.arg(noun, runs.mid(0, 4).join(u", "_s), runs.back(), tally);
}

} // namespace posenc::CheckDiagnosis
