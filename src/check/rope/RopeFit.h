#pragma once

#include "check/CellTolerance.h"
#include "check/PairReference.h"
#include "check/SampleScore.h"
#include "check/TableSample.h"
#include "core/Params.h"
#include "core/rope/RopeFrequencies.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

// Identifies a RoPE cos or sin table as HF transformers' rotary embedding returns it (L x
// rotary_dim, each pair's value in two columns: c and c + r/2 in the half layout, 2i and 2i + 1
// in the interleaved one) from its sample (docs/ARCHITECTURE.md, Checking a table). Each pair's
// frequency is measured from its column, unwrapped over the sample's rows; the fast pairs give
// rope_theta, the ratios of the slow ones to theta's give the scaling, and every rope_type that
// could make them (RopeFrequencies, modeling_rope_utils.py's formulas) is tried against the
// sample, the published forms first. The amplitude is the attention factor.
namespace posenc::RopeFit {

// A llama3 or yarn scaling computed the wrong way round: the mistake rope-scaling-reversed.
enum class ScalingMistake {
    None,
    // llama3: the blended band's smooth factor runs from 1 to 0, (1 - s) where s belongs; yarn: the
    // ramp taken for the extrapolation factor, ramp where 1 - ramp belongs, which exchanges the
    // interpolated and extrapolated bands and runs the blend between them the wrong way.
    BlendReversed,
    BandsExchanged, // llama3: the short wavelengths divided and the long ones kept, the blend reversed with them
};

struct Hypothesis
{
    Params params; // encoding rope; head_dim the table's width; max_len its rows
    ScalingMistake scaling = ScalingMistake::None;
    bool cosine = true; // a cos table, else a sin table
    double amplitude = 1.0; // what the table's cos and sin are multiplied by
    // How closely `amplitude` is known, relative: 0 for a parameter's value (1, a type's or a config's
    // attention factor, a round number that explains the cells); a measured one's uncertainty
    // (Measured::amplitudeSlack), which the cells' tolerance takes in (PairReferenceSpec).
    double amplitudeSlack = 0.0;
    std::int64_t firstPosition = 0; // the position the first compared row holds
    PositionRounding rounding = PositionRounding::None;
};

// Llama 3's frequencies computed with `mistake` (not None): the table of rope-scaling-reversed.
std::vector<double> reversedLlama3(const Params &params, ScalingMistake mistake);
// YaRN's frequencies with the ramp where 1 - ramp belongs: the table of rope-scaling-reversed.
std::vector<double> reversedYarn(const Params &params);
// The hypothesis as a reference for a table framed by `framing`.
PairReferenceSpec reference(const Hypothesis &h, const RowFraming &framing);
// The same from RopeFrequencies::table(h.params), computed once by a caller that reads it too.
PairReferenceSpec reference(const Hypothesis &h, const RowFraming &framing, const RopeFrequencies::Table &table);

// A table of the family that ships, for the fit to try first: its name and parameters, and where
// they are published.
struct Published
{
    QString name;
    Params params;
    QString source = QStringLiteral("the model's config.json (posenc presets)");
    // Whether transformers' code of the model writes its interleaved rotation de-interleaved,
    // [evens | odds], q and k alike (modeling_deepseek_v3.py, apply_rotary_pos_emb_interleave), as
    // well as the pairs turned in place of the model's own code.
    bool deinterleaved = false;
    // Whether the model's own code pairs its columns otherwise than transformers' and both are
    // published: Meta's llama/model.py and mistral-inference turn consecutive pairs
    // (apply_rotary_emb, torch.view_as_complex), transformers' conversion permutes q and k to halves.
    bool eitherPairing = false;
};

struct Fit
{
    Hypothesis hypothesis;
    SampleScore score;
    bool float32Angles = false;
    // The attention factor the type computes (RopeFrequencies), against which `amplitude` is read.
    double typeAttentionFactor = 1.0;
    QStringList published; // the published forms whose table this is
    QStringList mistakes;
    Hypothesis correct; // the hypothesis with its mistakes undone
    QStringList notes; // other types that give the same table, the bands, the attention factor

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
    // Where not 0: the caller reads a fit only where at most one compared cell in this many is beyond
    // the tolerance (10: explains()), so a hypothesis past that stops counting there and is never
    // the best (RopeSearch::consider).
    std::int64_t readsOneIn = 0;
    // The position of the table's row 0 where the user's --position-ids start past 0 (a later chunk's
    // rows, position_ids F..: CheckDeclaration::firstPosition): the rows are read from there, and a
    // table at F + r is at its own positions; 0: the first position is read from the rows (0..64).
    std::int64_t firstPosition = 0;
};

// The hypothesis scored on the sample with the tolerance of exact angles and of float32 ones;
// counting stops once the cells beyond both pass `stopAfter`, where `stop` allows (ScoreStop).
Fit evaluate(const FitInput &input, const Hypothesis &h,
             std::int64_t stopAfter = std::numeric_limits<std::int64_t>::max(), ScoreStop stop = ScoreStop::AnyTile);
// The same of the hypothesis's reference `spec` (reference(h, ...)) and its type's attention factor
// (RopeFrequencies::table(h.params).attentionFactor), computed once by the caller (ScoreMemo).
Fit evaluate(const FitInput &input, const Hypothesis &h, PairReferenceSpec spec, double typeAttentionFactor,
             std::int64_t stopAfter, ScoreStop stop);

// The layout in which the table's columns repeat as RoPE's do, in all but at most 1 % of the
// sample's pair comparisons (a few wrong cells are a mistake for the fit to place), or nothing.
std::optional<RopeLayout> repeatedLayout(const TableSample &sample, const RowFraming &framing, double tolerance);

// Whether the sample is a function of j - i: in each of at least six steps from a sampled row to
// the next, every cell's value is, within `tolerance` (relative), the next row's in the column after
// it, and the table changes down its columns (a cell a step on average). Every relative bias (T5's
// buckets, ALiBi's, DeBERTa's, Sandwich's, KERPLE's) written whole is; a RoPE table's pairs turn at
// frequencies of their own, which the next column's slower pair repeats for one step at most
// ((p + 1) w_{i+1} = p w_i), and a cell that turns leaves a value the next column does not take
// up. No RoPE hypothesis can claim such a table, or equal half of it, so its search is not begun.
// A damaged bias fails the test and is searched as any table.
bool movesAlongDiagonals(const TableSample &sample, double tolerance);

// How many RoPE searches (fit, fitFewRows) this process has begun: what a test reads to see that
// a table was never searched.
std::int64_t searchesBegun();

// The best rope hypothesis for a table whose columns repeat as `layout`, the published forms
// tried first; `declared` is the layout the user said the table has, if any. Where the fastest
// pair turns at 1 and no hypothesis leaves at most half the compared cells beyond the tolerance,
// the fit returned is one whose count stopped past that half (mostlyEquals reads none such).
std::optional<Fit> fit(const FitInput &input, RopeLayout layout, std::optional<RopeLayout> declared,
                       const std::vector<Published> &published);

// What a table of a few rows (fewer than four after its first) or of one pair shows: each pair's
// angle at position 1 and the amplitude of position 0, tried as the default type; nothing when
// the rows show no rotation.
std::optional<Fit> fitFewRows(const FitInput &input, RopeLayout layout, std::optional<RopeLayout> declared);

} // namespace posenc::RopeFit
