#include "RopeApply.h"

#include "check/GuessedReading.h"
#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyReport.h"
#include "core/Description.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::RopeApply {

namespace {

using Description::jsonString;

QString positionsText(const ApplyCheck::Result &r)
{
    QStringList runs;
    for (const ApplyCheck::PositionRun &run : r.positions) {
        if (run.count == 1)
            runs.append(run.position < 0 ? u"row %1 not read"_s.arg(run.row)
                                         : u"row %1 at %2"_s.arg(run.row).arg(run.position));
        else
            runs.append(run.position < 0 ? u"rows %1..%2 not read"_s.arg(run.row).arg(run.row + run.count - 1)
                                         : u"rows %1..%2 at %3..%4"_s.arg(run.row)
                                               .arg(run.row + run.count - 1)
                                               .arg(run.position)
                                               .arg(run.position + run.count - 1));
    }
    return runs.join(u", "_s);
}

// RoPE's share of the report: the rotated part, the frequencies, the positions by runs of rows.
ApplyReport::Family ropeFamily(const ApplyCheck::Result &r)
{
    ApplyReport::Family f;
    // The function that turns the pairs so: transformers' modeling_llama.py apply_rotary_pos_emb
    // (rotate_half), or modeling_gptj.py's (rotate_every_two), as Meta's llama/model.py apply_rotary_emb.
    f.equals = r.rotation == RopeLayout::Half
        ? u"Y = apply_rotary_pos_emb(X) (rotate_half, modeling_llama.py) with %1"_s.arg(r.correctAgainst)
        : u"Y = X turned in consecutive pairs (rotate_every_two: modeling_gptj.py's apply_rotary_pos_emb, Meta's "
          "llama/model.py apply_rotary_emb) with %1"_s.arg(r.correctAgainst);
    f.found = bool(r.params);
    if (r.rotaryDim < r.headDim)
        f.pairing.append(
            u"rotary_dim: %1 of head_dim %2 (columns %3..%4 turned, the rest pass through)"_s.arg(r.rotaryDim)
                .arg(r.headDim)
                .arg(r.rotaryStart)
                .arg(r.rotaryStart + r.rotaryDim - 1));
    f.pairing.append(u"frequencies: "_s + r.frequencies);
    f.positions = {u"positions: "_s + positionsText(r)};
    QStringList runs;
    for (const ApplyCheck::PositionRun &run : r.positions)
        runs.append(u"[%1, %2, %3]"_s.arg(run.row).arg(run.position).arg(run.count));
    const bool found = f.found;
    f.pairingKeys = {
        {u"head_dim"_s, QString::number(r.headDim)},
        {u"rotary_dim"_s, found ? QString::number(r.rotaryDim) : u"null"_s},
        {u"rotary_start"_s, found ? QString::number(r.rotaryStart) : u"null"_s},
        {u"frequencies"_s, found ? jsonString(r.frequencies) : u"null"_s},
    };
    f.positionKeys = {
        {u"position_offset"_s, r.positionOffset ? QString::number(*r.positionOffset) : u"null"_s},
        {u"positions"_s, u"["_s + runs.join(u", "_s) + u"]"_s},
    };
    return f;
}

// What RoPE's check is told: the pairing declared (--rope-layout, else the config's), the
// rotary_dim (--partial-rotary-factor's, or the config's), and the format Y's file stores.
// A reference declared in full gives both, and is compared at the rows' sequence (the length
// dynamic and LongRoPE scale for: the largest position + 1).
ApplyCheck::Declared ropeDeclared(const ApplyDeclaration &declared, std::int64_t rows)
{
    ApplyCheck::Declared d;
    d.stored = declared.stored;
    const bool full = declared.reference.has_value();
    const Params &params = full ? *declared.reference : declared.params;
    if (declared.declares(u"rope-layout"_s) || declared.config || full)
        d.layout = params.rope.layout;
    if (declared.declares(u"partial-rotary-factor"_s) || declared.config || full) {
        d.rotaryDim = RopeFrequencies::rotaryDim(params.rope);
        // A config's factor is its key's, or a default it does not hold, said so (GuessedReading).
        d.rotaryDimSource = declared.config
            ? GuessedReading::rotaryDimSource(declared.configSources, params.rope.partialRotaryFactor)
            : u"%1partial_rotary_factor %2"_s.arg(full ? u"the reference's "_s : QString(),
                                                  QString::number(params.rope.partialRotaryFactor));
        // _compute_proportional_rope_parameters: pairs (i, i + head_dim / 2) over the whole head, those
        // past partial_rotary_factor's share at frequency 0.
        if (params.rope.type == RopeType::Proportional)
            d.rotaryDimRule = u"proportional RoPE turns every pair of the head, %1 of its %2 at frequency 0"_s
                                  .arg(d.rotaryDim.value_or(0) / 2 - RopeFrequencies::livePairs(params.rope))
                                  .arg(d.rotaryDim.value_or(0) / 2);
    }
    d.threads = declared.threads;
    d.deinterleaves = declared.deinterleaves;
    d.ids = declared.positionIds;
    if (full) {
        d.reference = params;
        d.reference->maxLen = d.ids.empty() ? rows : *std::max_element(d.ids.begin(), d.ids.end()) + 1;
    }
    return d;
}

} // namespace

ApplyHypothesis hypothesis()
{
    ApplyHypothesis apply;
    apply.help
        = u"Finds the pairs turned (half: rotate_half; interleaved: rotate_every_two), the pairs the "
          "cos/sin table shares (a layout swapped between the table and the apply is rope-layout-swapped), the "
          "frequencies (rope_type and parameters), the attention factor and each row's position, row r at r or at "
          "--position-ids' id r (an offset is position-offset against --position-ids; without them rows at "
          "p0..p0+n-1 are rows after a cache, a window of the sequence: read and said, correct against the "
          "published form; every row at one position positions-constant; rows out of order "
          "positions-out-of-order, rows at their index where the ids differ arange-with-padding, a rotation by "
          "-angle rotation-reversed, cos and sin exchanged in the call, each pair turned by pi/2 - angle, "
          "sin-cos-swapped); against a reference declared in full, Y that is X mixed pair by pair by "
          "[[cos, sin], [sin, cos]] at its angles, rotate_half's or rotate_every_two's minus sign lost "
          "(transformers#16298), rotation-sign-lost, and Y whose pairs change length where no pairing turns "
          "them a mistake that says so; a "
          "partial rotary's rotary_dim (against "
          "--partial-rotary-factor or --config when given: rotary-dim; the rotated part after the unrotated one: "
          "rotary-part-misplaced; inv_freq over head_dim: rotary-dim-exponent); Y's columns written back in "
          "another order than the rotation's, named and read put back (rope-output-deinterleaved: GPT-J's pairs "
          "concatenated as [evens | odds], named where the declared model's code interleaves them back; "
          "transformers' apply_rotary_pos_emb_interleave writes that order on purpose, the reference of a declared "
          "model whose config chooses it (DeepSeek-V3's rope_interleave), undeclared correct against such a "
          "model's published form, else unknown; rope-output-interleaved: rotate_half's halves interleaved; a partial "
          "rotary's within its rotated "
          "columns). Y equal to X, or X times one factor, where no pair turns (SeerAttention#37's keys cached "
          "before RoPE): unknown, said, undeclared (a layer without positions turns nothing either); "
          "rope-not-applied against a declared reference that turns the rows or --position-ids past 0; rows or "
          "heads of a [B, H, L, D] "
          "left unturned among turned ones are listed (rope-not-applied). A reference declared in full "
          "(--expect rope and its flags, --preset, --config, --expect-config, a flag of its frequencies; --head-dim, "
          "--partial-rotary-factor and --rope-layout alone declare only the shape) is compared as a table's "
          "is, every parameter that differs named with both values: the frequencies fitted as an inv_freq vector "
          "against the reference's (rope-theta, rope-type, rope-factor, longrope-factor-set; else the reference's "
          "parameter, one or two, that set as the rows have it explains them: original-max-len, beta-fast, ...; "
          "else rope-frequencies-differ; where that names nothing, or no frequencies are read, Y's angles as a "
          "cos table against the reference's, as --expect checks a table: half-precision-angles, ...), the "
          "attention factor "
          "(attention-factor, attention-factor-missing), the rotary_dim (rotary-dim) and the pairing (rope-layout). "
          "Every pair turned at one frequency (inv_freq's exponent lost, base^0 = 1: LeetCUDA#289) shows no "
          "table's layout: unknown, said, undeclared; rope-frequencies-equal against a declared reference. One or "
          "two rows (a decode step's [B, H, 1, D]) tell no frequencies: unknown undeclared; against a declared "
          "reference each row's position is compared with its --position-ids (position-offset); two rows without ids "
          "as more rows are: at p, p + 1 a window said, else positions-out-of-order"_s;
    apply.rowBytes = 8.0; // a position
    apply.widthKey = u"head-dim"_s;
    apply.declares = {u"rope-layout"_s};
    apply.positionIds = true;
    apply.check = [](const RowMatrixXf &x, const RowMatrixXf &y,
                     const ApplyDeclaration &declared) -> std::variant<ApplyResult, QString> {
        auto checked = ApplyCheck::check(x, y, ropeDeclared(declared, x.rows()));
        if (const auto *refused = std::get_if<QString>(&checked))
            return *refused;
        ApplyCheck::Result r = std::get<ApplyCheck::Result>(std::move(checked));
        GuessedReading::cap({r.verdict, r.mistakes, r.diagnosis, r.notes}, declared.configSources, declared.configPath);
        return ApplyReport::result(r, ropeFamily(r));
    };
    return apply;
}

} // namespace posenc::RopeApply
