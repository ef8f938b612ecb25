#include "SinusoidalCheckWords.h"

#include "check/CheckDiagnosis.h"
#include "check/DeclaredWords.h"
#include "core/NumberText.h"

#include <cmath>
#include <cstdlib>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::SinusoidalCheckWords {

namespace {

QString number(double value)
{
    return NumberText::exact(value);
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
    case SinusoidalFit::Variant::Constant:
        return u"every w_i = 1"_s;
    }
    return {};
}

// The table's scale and function per column, where they are not the paper's.
QString shapeWords(const SinusoidalFit::Hypothesis &h)
{
    QString words;
    if (h.replaced == SinusoidalFit::Replaced::Cosines)
        words += u", sines in both columns of every pair"_s;
    else if (h.replaced == SinusoidalFit::Replaced::Sines)
        words += u", cosines in both columns of every pair"_s;
    if (h.amplitude != 1.0)
        words += u", times %1"_s.arg(NumberText::compact(h.amplitude, 7));
    return words;
}

// What a scale of c is, in words: sqrt(d), d or their inverses.
QString scaleWords(double c, std::int64_t dModel)
{
    const double root = std::sqrt(double(dModel));
    if (std::fabs(c / root - 1.0) < 1e-9)
        return u"sqrt(d) = %1"_s.arg(NumberText::compact(c, 7));
    if (std::fabs(c * root - 1.0) < 1e-9)
        return u"1/sqrt(d) = %1"_s.arg(NumberText::compact(c, 7));
    if (std::fabs(c / double(dModel) - 1.0) < 1e-9)
        return u"d = %1"_s.arg(dModel);
    if (std::fabs(c / SinusoidalFit::unitRowsAmplitude(dModel) - 1.0) < 1e-9)
        return u"1/sqrt(d/2) = %1, every row of norm 1"_s.arg(NumberText::compact(c, 7));
    return std::fabs(c - 1.0) < 1e-3 ? NumberText::factor(c) : NumberText::compact(c, 7);
}

// The line of one mistake, or nothing where another line says it.
QString mistakeLine(const QString &mistake, const SinusoidalFit::Hypothesis &found, const QString &b,
                    std::int64_t dModel, const RowFraming &framing, std::int64_t declaredStart)
{
    if (mistake == u"exponent-column-index"_s)
        return SinusoidalFit::isDoubledBase(found.base)
            ? u"column j uses %1^(-2j/d): the exponent counts columns instead of pairs; the paper's pair i uses "
              "%1^(-2i/d) for both its sine (column 2i) and its cosine (column 2i+1)"_s.arg(b)
            : u"column 2i+1 uses %1^(-(2i+1)/d); the paper's pair i uses %1^(-2i/d) for both its sine and "
              "cosine"_s.arg(b);
    if (mistake == u"exponent-doubled"_s)
        return found.variant == SinusoidalFit::Variant::ColumnIndex
            ? QString()
            : u"pair i uses %1^(-4i/d), base %1^2 = %2: the exponent steps twice (2i/d with i already stepping by "
              "2); the paper's pair i uses %1^(-2i/d)"_s.arg(b, number(found.base));
    if (mistake == u"sin-cos-swapped"_s)
        return found.layout == Layout::Interleaved
            ? u"column 2i holds cos(p w_i) and column 2i+1 sin(p w_i); the paper puts the sine in column 2i and "
              "the cosine in column 2i+1"_s
            : u"the first %1 columns hold the cosines and the rest the sines; the split layout puts sin(p w_i) in "
              "column i and cos(p w_i) after all the sines"_s.arg((dModel + 1) / 2);
    if (mistake == u"exponent-halved"_s)
        return u"pair i uses 10000^(-i/d) = 100^(-2i/d), base 100: the exponent is i/d where the paper's is 2i/d "
               "(p / b^(i/d) instead of p / b^(2i/d) gives base 100 from 10000)"_s;
    if (mistake == u"log-base-missing"_s)
        return std::fabs(found.base - std::numbers::e) < 1e-9
            ? u"pair i turns at exp(-2i/d), base e: the log of the base was left out (exp(-2i ln(10000)/d) is the "
              "paper's)"_s
            : u"pair i turns at exp(-i/d), base e^(1/2): the log of the base was left out, and the exponent "
              "counts columns (exp(-2i ln(10000)/d) is the paper's)"_s;
    if (mistake == u"integer-division"_s)
        return u"every pair turns at w_i = 1: 2 * i // d is 0 for every pair (integer division, as Python 2's / of "
               "integers), so 10000^0 = 1; the paper's pair i turns at 10000^(-2i/d). A mistake of the exponent made "
               "with it "
               "(halved, doubled, the column index) leaves every frequency 1 as well: the table cannot tell whether "
               "there was one"_s;
    if (mistake == u"cos-replaced"_s)
        return u"both columns of every pair hold sin(p w_i): the cosines were replaced by sines; the paper puts "
               "cos(p w_i) in %1"_s.arg(found.layout == Layout::Interleaved ? u"column 2i+1"_s
                                                                            : u"the columns after the sines"_s);
    if (mistake == u"sin-replaced"_s)
        return u"both columns of every pair hold cos(p w_i): the sines were replaced by cosines; the paper puts "
               "sin(p w_i) in %1"_s.arg(found.layout == Layout::Interleaved ? u"column 2i"_s : u"the first columns"_s);
    if (mistake == CheckMistakes::kScaled) {
        // A cause is named only for the factor that is its own within the cells' rounding (the
        // amplitude is snapped to sqrt(d) only there): any other factor is reported as measured.
        const double root = std::sqrt(double(dModel));
        const QString cause = std::fabs(found.amplitude / root - 1.0) < 1e-9
            ? u" (the embedding's sqrt(d) scale applied to the PE)"_s
            : std::fabs(found.amplitude * root - 1.0) < 1e-9 ? u" (the PE divided by sqrt(d))"_s
                                                             : QString();
        return u"every value is %1 times the sinusoid's: the table was multiplied by c = %1%2; the sinusoid's values "
               "lie in [-1, 1]"_s.arg(scaleWords(found.amplitude, dModel), cause);
    }
    if (mistake == u"position-divided"_s)
        return u"the angle is p / w_i = p %1^(2i/d); the paper's is p w_i = p / %1^(2i/d)"_s.arg(b);
    if (mistake == CheckMistakes::kPositionOffset)
        return declaredStart == 0 ? CheckDiagnosis::offsetLine(found.firstPosition - framing.firstRow,
                                                               u"the paper, PyTorch and TensorFlow"_s)
                                  : CheckDiagnosis::offsetLine(found.firstPosition - framing.firstRow, declaredStart);
    if (mistake == CheckMistakes::kHalfPrecisionAngles)
        return CheckDiagnosis::halfPrecisionLine(found.rounding);
    return {};
}

} // namespace

QString layout(Layout layout)
{
    return layout == Layout::Interleaved ? u"interleaved"_s : u"split"_s;
}

QString frequencies(SinusoidalFit::Variant variant)
{
    return variant == SinusoidalFit::Variant::HalfDimMinusOne ? u"half-dim-minus-one"_s : u"paper"_s;
}

QString reference(const SinusoidalFit::Hypothesis &h, const RowFraming &framing)
{
    const QString order = SinusoidalFit::flipSinToCos(h) ? u" (cos first: flip_sin_to_cos)"_s
        : SinusoidalFit::ropePairsCosFirst(h)            ? u" (cos first in each pair: a RoPE cache of (cos, sin) pairs)"_s
                                                         : QString();
    const QString scaled = h.frequencyScale != 1.0
        ? u", every angle times %1 (diffusers' scale)"_s.arg(NumberText::compact(h.frequencyScale, 7))
        : QString();
    return u"sinusoidal, %1%2, %3%4, %5%6"_s.arg(layout(h.layout), order, frequencyWords(h), scaled,
                                                 CheckDiagnosis::positionsFrom(h.firstPosition - framing.firstRow),
                                                 shapeWords(h));
}

QString publishedForm(const SinusoidalFit::Hypothesis &h, const RowFraming &framing, std::int64_t firstPosition)
{
    if (h.base != SinusoidalFit::kPublishedBase || h.amplitude != 1.0 || h.replaced != SinusoidalFit::Replaced::None
        || (h.swapped && !SinusoidalFit::cosFirstPublished(h)) || h.rounding != PositionRounding::None)
        return {};
    if (SinusoidalFit::ropePairsCosFirst(h))
        return h.firstPosition == framing.firstRow + firstPosition
            ? u"a RoPE cache of (cos, sin) pairs read flat, base 10000: torchtune's RotaryPositionalEmbeddings cache "
              "[L, dim/2, 2] (pytorch/torchtune torchtune/modules/position_embeddings.py, build_rope_cache), and a "
              "complex freqs_cis through torch.view_as_real"_s
            : QString();
    // diffusers' timestep embedding of SD, SDXL, DiT, Wan and FLUX: max_period 10000, timesteps
    // times `scale` as the positions.
    if (h.swapped)
        return u"diffusers' get_timestep_embedding, flip_sin_to_cos=True (cos first), downscale_freq_shift %1, "
               "max_period 10000 (huggingface/diffusers src/diffusers/models/embeddings.py)"_s.arg(
                   h.variant == SinusoidalFit::Variant::Paper ? u"0"_s : u"1"_s);
    // fairseq, tensor2tensor and Whisper all write torch.cat([sin, cos], dim=1): split, never interleaved.
    if (h.variant == SinusoidalFit::Variant::HalfDimMinusOne && h.layout == Layout::Split)
        return u"the half_dim - 1 sinusoid, base 10000 (fairseq's SinusoidalPositionalEmbedding, tensor2tensor's "
               "get_timing_signal_1d, Whisper's sinusoids)"_s;
    if (h.variant != SinusoidalFit::Variant::Paper || h.firstPosition != framing.firstRow + firstPosition)
        return {};
    return h.layout == Layout::Interleaved
        ? u"the paper's sinusoid, base 10000, interleaved (Vaswani et al. 2017, section 3.5; PyTorch's and the "
          "Annotated Transformer's PositionalEncoding)"_s
        : u"the paper's sinusoid, base 10000, split (TensorFlow's Transformer tutorial, positional_encoding; "
          "Keras)"_s;
}

QString baseReading(double base)
{
    const QString mistake = SinusoidalFit::baseMistake(base);
    QString how;
    if (mistake == u"exponent-halved"_s)
        how = u"10000^(1/2): the paper's base 10000 with the exponent halved, 10000^(-i/d),"_s;
    else if (mistake == u"exponent-doubled"_s)
        how = u"10000^2: the paper's base 10000 with the exponent doubled, 10000^(-4i/d),"_s;
    else
        how = u"e's: the paper's exp(-2i/d · ln 10000) with the logarithm left out, exp(-2i/d) or exp(-i/d),"_s;
    return u"base %1 is %2 gives this very table, a common mistake (%3); no table tells the two apart: declare "
           "the reference meant (--expect sinusoidal, base 10000) to have it named"_s.arg(number(base), how, mistake);
}

QString amplitudeVariant(const SinusoidalFit::Hypothesis &found, std::int64_t dModel, const QString &form)
{
    const double c = found.amplitude;
    const QString prefix = u"a variant: "_s;
    const QString inner = form.startsWith(prefix) ? form.mid(prefix.size()) : form;
    const double root = std::sqrt(double(dModel));
    const QString guess = std::fabs(c / root - 1.0) < 1e-9
        ? u"; a guess at the cause: the embedding's sqrt(d) scale applied to the PE, if no scale was meant"_s
        : std::fabs(c * root - 1.0) < 1e-9 ? u"; c = d^-0.5 is ScaledSinusoidalEmbedding's scale at init"_s
        : std::fabs(c / SinusoidalFit::unitRowsAmplitude(dModel) - 1.0) < 1e-9
        ? u"; each row divided by its norm, as curated-transformers' SinusoidalPositionalEmbedding does with "
          "normalize=True (curated_transformers/layers/embeddings.py), each row's factor within its float32 norm's "
          "rounding"_s
        : QString();
    return u"a variant: %1, every value times c = %2 (the sinusoid times a uniform scale, as x-transformers' "
           "ScaledSinusoidalEmbedding multiplies it by a learnable scale, dim^-0.5 at init: lucidrains/x-transformers "
           "x_transformers/x_transformers.py, ScaledSinusoidalEmbedding)%3. Declare the scale meant to have it "
           "judged: --pe-scale %4 makes this table correct, --pe-scale 1 (or --expect sinusoidal) names c as the "
           "mistake scaled"_s.arg(inner, scaleWords(c, dModel), guess, NumberText::compact(c, 10));
}

QString amplitudeDeclared(double c, std::int64_t dModel, const QString &form)
{
    return u"%1, every value times c = %2 as --pe-scale declares (x-transformers' ScaledSinusoidalEmbedding)"_s.arg(
        form, scaleWords(c, dModel));
}

QString amplitudeMistake(double found, double declared, std::int64_t dModel)
{
    const double root = std::sqrt(double(dModel));
    const QString cause = declared != 1.0 ? QString()
        : std::fabs(found / root - 1.0) < 1e-9 ? u" (the embedding's sqrt(d) scale applied to the PE)"_s
        : std::fabs(found * root - 1.0) < 1e-9 ? u" (the PE divided by sqrt(d))"_s
                                               : QString();
    return u"every value is %1 times the sinusoid's, where scale %2 %3: the table is the sinusoid times c = %1%4 "
           "(c * PE, ScaledSinusoidalEmbedding's form) at another c than the declared one"_s.arg(
               scaleWords(found, dModel), NumberText::compact(declared, 10),
               declared == 1.0 ? u"is declared (no --pe-scale: the sinusoid's values lie in [-1, 1])"_s
                               : u"was declared (--pe-scale)"_s,
               cause);
}

QString variant(const SinusoidalFit::Hypothesis &h, const RowFraming &framing)
{
    SinusoidalFit::Hypothesis published = h;
    published.base = SinusoidalFit::kPublishedBase;
    published.firstPosition = framing.firstRow;
    const QString form = publishedForm(published, framing);
    const QString b = number(h.base);
    if (SinusoidalFit::ropePairsCosFirst(h))
        return u"a variant: a RoPE cache of (cos, sin) pairs read flat (torchtune's RotaryPositionalEmbeddings cache "
               "[L, dim/2, 2], a complex freqs_cis through torch.view_as_real) at base θ = %1; the check names this "
               "form at torchtune's default base 10000 only, though models publish other θ (Llama 3's 500000): "
               "compare it with the model's own cache (--expect-table)"_s.arg(b);
    if (h.variant == SinusoidalFit::Variant::HalfDimMinusOne && h.layout == Layout::Interleaved) {
        published.layout = Layout::Split;
        return u"a variant: %1 in the interleaved layout (sin in column 2i, cos in 2i+1), base %2, which no published "
               "form uses. The nearest published form is %3, which is split: it concatenates the sines, then the "
               "cosines "
               "(torch.cat([sin, cos], dim=1)); interleaving its columns gives this table. Declare this reference to "
               "make it correct"_s.arg(frequencyWords(h), b, publishedForm(published, framing));
    }
    const double ratio = std::log(h.base) / std::log(SinusoidalFit::kPublishedBase);
    return u"a variant: %1 with base %2, which no published form uses. The nearest published form is %3; from it, "
           "base %2 instead of 10000 gives this table (the exponent's 2i/d times %4, or a base set by hand). "
           "Declare this reference to make it correct"_s.arg(frequencyWords(h), b, form, NumberText::compact(ratio, 4));
}

QString diagnosis(const SinusoidalFit::Hypothesis &found, const SinusoidalFit::Hypothesis &correct, std::int64_t dModel,
                  const RowFraming &framing, const QStringList &mistakes, bool layoutDeclared)
{
    QStringList lines;
    const QString b = number(correct.base);
    for (const QString &mistake : mistakes) {
        const QString line = mistakeLine(mistake, found, b, dModel, framing, correct.firstPosition - framing.firstRow);
        if (!line.isEmpty())
            lines.append(line);
    }
    if (layoutDeclared)
        lines.append(u"the table is %1 where %2 %3, which is %4 (tensorflow/text#1122)"_s.arg(
            layout(found.layout), layout(correct.layout), DeclaredWords::wasDeclared(), layoutWords(correct.layout)));
    if (!lines.isEmpty())
        return lines.join(u"; "_s);
    if (SinusoidalFit::ropePairsCosFirst(found))
        return u"a RoPE cache of (cos, sin) pairs read flat (torchtune's RotaryPositionalEmbeddings cache [L, dim/2, "
               "2]): θ_i = %1^(-2i/d), positions from %2"_s.arg(b)
            .arg(found.firstPosition - framing.firstRow);
    if (SinusoidalFit::flipSinToCos(found))
        return u"diffusers' timestep embedding: w_i = %1^(-i/(h - s)) with h = %2 and downscale_freq_shift s = %3, "
               "the cosines in the first %2 columns and the sines after them (get_timestep_embedding's "
               "flip_sin_to_cos=True)"_s.arg(b)
                   .arg(dModel / 2)
                   .arg(found.variant == SinusoidalFit::Variant::Paper ? 0 : 1);
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
    return u"the paper's sinusoid: w_i = %1^(-2i/d), %2, positions from %3"_s.arg(b, layoutWords(found.layout))
        .arg(found.firstPosition - framing.firstRow);
}

QStringList notes(const SinusoidalFit::Hypothesis &h, const RowFraming &framing, TablePrecision precision)
{
    QStringList notes;
    if (framing.firstRow == 1)
        notes.append(u"row 0 holds zeros and is not compared"_s);
    else if (framing.firstRow > 1)
        notes.append(u"rows 0..%1 hold zeros and are not compared"_s.arg(framing.firstRow - 1));
    if (!framing.paddingRows.empty())
        notes.append(u"row%1 %2 hold%3 zeros: padding (fairseq's padding_idx), not compared"_s.arg(
            framing.paddingRows.size() > 1 ? u"s"_s : QString(), CheckDiagnosis::rowList(framing.paddingRows),
            framing.paddingRows.size() > 1 ? QString() : u"s"_s));
    switch (precision) {
    case TablePrecision::Exact:
        break;
    case TablePrecision::Float16:
    case TablePrecision::BFloat16:
        notes.append(CheckWords::roundedNote(precision));
        break;
    case TablePrecision::Float32Angles:
        notes.append(CheckDiagnosis::float32AnglesNote());
        break;
    }
    if (h.variant == SinusoidalFit::Variant::HalfDimMinusOne)
        notes.append(u"b^(-i/(h-1)) is the paper's formula with base b^(d/(d-2)); the parameters set for this table "
                     "use that base"_s);
    return notes;
}

QString nearest(const SinusoidalFit::Hypothesis &h, const SampleScore &score)
{
    // The fit's numbers are the sample's, which the words say: the whole table would give others.
    return u"nearest sinusoidal reference: %1, %2 (over the %5 cells of the rows sampled: RMS difference %3, %4% of "
           "their energy)"_s
               .arg(layout(h.layout), frequencyWords(h), NumberText::compact(score.rms(), 3),
                    NumberText::compact(100.0 * score.relativeResidual(), 3))
               .arg(score.compared);
}

QString sameRow()
{
    return u"every position holds the same row, the sinusoid's row of position 0: the table was broadcast over the "
           "wrong axis (pe[:x.size(0)] of a batch-first x takes the batch size, numpy-transformer#1); the correct "
           "table's row p holds PE(p)"_s;
}

QString baseNotShown(std::int64_t dModel, std::int64_t rows)
{
    if (rows <= 1)
        return u"one row, position 0, holds sin 0 and cos 0 whatever the base and frequencies: base 10000 "
               "assumed"_s;
    return u"d_model %1 has one pair, which turns at w_0 = 1 whatever the base: base 10000 assumed"_s.arg(dModel);
}

} // namespace posenc::SinusoidalCheckWords
