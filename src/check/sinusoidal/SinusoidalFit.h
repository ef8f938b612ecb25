#pragma once

#include "check/CellTolerance.h"
#include "check/PairReference.h"
#include "check/SampleScore.h"
#include "check/TableSample.h"

#include <QStringList>

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

// Identifies a sinusoidal table from its sample by testing hypotheses (docs/ARCHITECTURE.md,
// Checking a table): each pairing of sine and cosine columns, the frequencies that pairing's
// phases give (the paper's b^(-2i/d), half_dim - 1, and the mistaken column index and division),
// the base fitted and rounded to the fewest digits that still match, the position offset,
// swapped sines and cosines, and positions rounded to half precision. Free frequency estimation
// alone would alias the fast columns mod 2 pi; every hypothesis is judged by the sample's error.
namespace posenc::SinusoidalFit {

enum class Variant {
    Paper, // w_i = b^(-2i/d)
    HalfDimMinusOne, // w_i = b^(-i/(h-1)), h = d / 2: fairseq, tensor2tensor, Whisper
    ColumnIndex, // column j turns at b^(-j/d): the mistake exponent-column-index
    Divided, // angle p / w_i: the mistake position-divided
    Constant, // every w_i = 1: the mistake integer-division (2 * i // d is 0)
};

// Both columns of every pair hold the same function: the mistakes cos-replaced (sines in both)
// and sin-replaced (cosines in both).
enum class Replaced { None, Cosines, Sines };

struct Hypothesis
{
    Layout layout = Layout::Interleaved;
    bool fairseqPairs = false; // d / 2 pairs and a zero last column for an odd d, as fairseq lays them
    Variant variant = Variant::Paper;
    double base = 10000.0;
    bool swapped = false; // cosines where the layout puts sines
    Replaced replaced = Replaced::None;
    double amplitude = 1.0; // c of c * PE: the mistake scaled where it is not 1
    double frequencyScale = 1.0; // every w_i times it: diffusers' scale, declared (the fit keeps 1)
    std::int64_t firstPosition = 0; // the position the first compared row holds
    PositionRounding rounding = PositionRounding::None;
};

// The pairs of a table of `dModel` columns: the paper's, or fairseq's half_dim = d / 2.
std::int64_t pairsOf(std::int64_t dModel, bool fairseqPairs);
// The columns of the sinusoidal table of `dModel` columns over `pairs` pairs in `layout`: as
// Frequencies lays them out (paper), or fairseq's [sin | cos | 0] of half_dim = d / 2 pairs.
std::vector<ReferenceColumn> columns(std::int64_t dModel, std::int64_t pairs, Layout layout, bool swapped = false);
// The amplitude of a sinusoid whose rows are each divided by their L2 norm, sqrt(d / 2) (a pair's
// sin^2 + cos^2 is 1): curated-transformers' SinusoidalPositionalEmbedding with normalize=True
// (explosion/curated-transformers curated_transformers/layers/embeddings.py: pe /= l2.unsqueeze(-1)).
inline double unitRowsAmplitude(std::int64_t dModel)
{
    return 1.0 / std::sqrt(double(dModel) / 2.0);
}
// At that amplitude, how far a row's factor may be from it, relative, where the norm is summed in
// float32: the sum of d rounded squares in any order is within (d - 1) u of its value (u = 2^-24;
// Higham, Accuracy and Stability of Numerical Algorithms, 4.2), the square root halves that and
// rounds once more. 0 at any other amplitude.
inline double unitRowsSlack(std::int64_t dModel, double amplitude)
{
    return amplitude == unitRowsAmplitude(dModel) ? (double(dModel) / 2.0 + 1.0) * 0x1p-24 : 0.0;
}
// How far a row's factor may be from the amplitude, relative, in a table whose values are exact in
// `format`: unitRowsSlack, and in a half type, but at a power of two (exact in it, it commutes with
// its rounding) other than the unit rows' amplitude (their norm rounded), two of its half-units:
// the factor itself rounded to the format (x-transformers' ScaledSinusoidalEmbedding holds
// dim^-0.5 in float16 under .half(): 0.08838 for 0.08839 at d 128), or applied to values already
// rounded to it (curated-transformers' normalize dividing a half table by its half norm), each a
// half-unit on top of the product's own rounding, which the cells' tolerance holds.
double amplitudeSlack(std::int64_t dModel, double amplitude, ValueFormat format);
// The hypothesis as a reference for a table of `dModel` columns framed by `framing`, its values
// exact in `format`.
PairReferenceSpec reference(const Hypothesis &h, std::int64_t dModel, const RowFraming &framing,
                            ValueFormat format = ValueFormat::Float32);
// Its mistakes' ids, in the order of the sinusoid's mistakes; `firstRow` is the first compared row.
QStringList mistakesOf(const Hypothesis &h, std::int64_t firstRow);
// The correct table it departs from: its mistakes undone, its legitimate variants kept.
Hypothesis corrected(const Hypothesis &h, std::int64_t firstRow);
// Whether the cosines before the sines are diffusers' flip_sin_to_cos=True, a published order
// (huggingface/diffusers src/diffusers/models/embeddings.py, get_timestep_embedding: the split
// [sin | cos] of half_dim pairs flipped to [cos | sin]; downscale_freq_shift 0 gives the paper's
// frequencies, 1 half_dim - 1's), and not the mistake sin-cos-swapped: split, those frequencies.
inline bool flipSinToCos(const Hypothesis &h)
{
    return h.swapped && h.layout == Layout::Split && !h.fairseqPairs && h.replaced == Replaced::None
        && (h.variant == Variant::Paper || h.variant == Variant::HalfDimMinusOne);
}
// Whether the cosines before the sines in each pair of columns are a RoPE cache of (cos, sin)
// pairs read flat, a published form and not the mistake sin-cos-swapped: pytorch/torchtune
// torchtune/modules/position_embeddings.py, RotaryPositionalEmbeddings.build_rope_cache stacks
// [cos(p θ_i), sin(p θ_i)] on a last axis of 2 ([L, dim/2, 2]) with θ_i = base^(-2i/dim), the
// paper's frequencies; a complex freqs_cis through torch.view_as_real holds the same numbers.
inline bool ropePairsCosFirst(const Hypothesis &h)
{
    return h.swapped && h.layout == Layout::Interleaved && !h.fairseqPairs && h.replaced == Replaced::None
        && h.variant == Variant::Paper;
}
// A published order of the cosines first: either of the two above.
inline bool cosFirstPublished(const Hypothesis &h)
{
    return flipSinToCos(h) || ropePairsCosFirst(h);
}
// Whether `base` is the square of the common base 10000 (the exponent stepped twice).
bool isDoubledBase(double base);
// The mistake a base is what it makes of the common base 10000, or empty: 10000^2
// (exponent-doubled), 100 (exponent-halved: b^(-i/d)), e and e^(1/2) (log-base-missing:
// exp(-2i/d), exp(-i/d)).
QString baseMistake(double base);
// The published forms' base, 10000: the paper's, fairseq's, tensor2tensor's and Whisper's.
constexpr double kPublishedBase = 10000.0;

struct Fit
{
    Hypothesis hypothesis;
    SampleScore score;
    bool float32Angles = false; // the sample needs float32 angles' tolerance

    std::int64_t bad() const { return float32Angles ? score.badWithFloat32Angles : score.bad; }
};

// How a hypothesis is scored: the sample, its framing and its values' rounding.
struct FitInput
{
    const TableSample &sample;
    const RowFraming &framing;
    ValueFormat format;
    StoredType stored;
    double textRounding;
    // The position a declaration gives row 0 (CheckDeclaration::firstPosition: --positions, or the
    // window an undeclared reading found): the first compared row's position where nothing is wrong.
    std::int64_t firstPosition = 0;

    std::int64_t start() const { return framing.firstRow + firstPosition; }
};

// The hypothesis scored on the sample, with the tolerance of exact angles and of float32 ones;
// counting stops once the cells beyond both pass `stopAfter`.
Fit evaluate(const FitInput &input, const Hypothesis &h, std::int64_t stopAfter);

// The hypothesis the sample supports best, or nothing when no pairing of its columns holds
// sines and cosines of one angle.
std::optional<Fit> fit(const FitInput &input);

} // namespace posenc::SinusoidalFit
