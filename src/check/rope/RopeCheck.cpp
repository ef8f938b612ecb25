// RoPE's facet of posenc check (FamilyCheck.h): its cos and sin tables, its rotation of a query or
// key, its config reader and its layers' numbers and words.
#include "check/FamilyCheck.h"
#include "check/PairReference.h"

#include "check/rope/CosSinCache.h"
#include "check/rope/CosSinPair.h"
#include "check/rope/RopeApply.h"
#include "check/rope/RopeConfigReader.h"
#include "check/rope/RopeDeclaredFactor.h"
#include "check/rope/RopeInvFreq.h"
#include "check/rope/RopeLayers.h"
#include "check/rope/RopeTableCheck.h"
#include "check/rope/RopeVectorLength.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What the shape check reads as RoPE's (TensorReading): a model's inv_freq, a cos|sin cache, and a
// cache of half the table's width.
TensorReading ropeTensors()
{
    TensorReading tensors;
    VectorReading inv;
    inv.what = u"RoPE's inv_freq"_s;
    inv.range = u"positive, at most 1 at pair 0"_s;
    inv.plausible = RopeInvFreq::plausible;
    inv.identify = RopeInvFreq::identify;
    inv.expect = [](const std::vector<double> &v, StoredType stored, const Params &declared,
                    std::optional<std::int64_t>) { return RopeInvFreq::expect(v, stored, declared); };
    inv.atUnstatedLength = RopeVectorLength::atUnstatedLength;
    tensors.vector = std::move(inv);
    tensors.readsLaterPositions = true; // the declared reference starts at the ids' first (RopeRowPositions)
    PairedTablesReading cosSin;
    cosSin.tables = {u"rope-cos"_s, u"rope-sin"_s};
    cosSin.holds = CosSinCache::holds;
    cosSin.half = [](std::shared_ptr<const TableRows> rows, int index, bool interleaved) {
        return CosSinCache::half(std::move(rows), index == 1, interleaved);
    };
    cosSin.combine = CosSinCache::combine;
    cosSin.holdsWhole = CosSinPair::holds;
    tensors.paired = std::move(cosSin);
    tensors.tableWidth = [](const Params &p) {
        return std::optional(std::pair {RopeFrequencies::rotaryDim(p.rope), p.rope.layout == RopeLayout::Interleaved});
    };
    tensors.mistakes = RopeInvFreq::mistakeIds();
    return tensors;
}

} // namespace

FamilyCheck makeRopeCheck()
{
    FamilyCheck check;
    check.table = RopeTableCheck::hypothesis();
    // A declared RoPE's deviating table named from the frequencies the undeclared reading found,
    // as an inv_freq vector is (RopeInvFreq::expect): rope-theta with both values, rope-type, ...
    check.table->nameDeclaredParameter
        = [](const TableMatch &read, const Params &declared) -> std::optional<TableMatch> {
        if (!read.params)
            return std::nullopt;
        const std::vector<double> inv = RopeFrequencies::table(*read.params).inv;
        // LongRoPE's list as transformers takes it for the table's rows (RopeTableCheck::expect), not for
        // a config's max_position_embeddings: the reading's sequence is the rows'.
        Params atRows = declared;
        if (declared.rope.type == RopeType::LongRope)
            atRows.maxLen = read.params->maxLen;
        TableMatch named = RopeInvFreq::expect(inv, StoredType::Float64, atRows);
        // The reading's amplitude, the table's attention factor, against the declared: a defect of its
        // own where the frequencies agree (RopeDeclaredFactor), a second one beside them (daScript#3479:
        // YaRN's betas 32/1 for 4/1 and its mscale dropped). It differs only beyond what the cells pin
        // it to (a half-precision cache's amplitude is known to its rounding: amplitudeSlack).
        const auto *reading = dynamic_cast<const PairReference *>(read.reference.get());
        const double declaredFactor = RopeFrequencies::attentionFactor(declared);
        const double slack = reading ? reading->spec().amplitudeSlack : 0.0;
        const bool sameFrequencies = named.verdict == CheckVerdict::Correct;
        if (named.verdict != CheckVerdict::Mistake && !sameFrequencies)
            return std::nullopt;
        if (reading && RopeDeclaredFactor::differs(reading->spec().schedule.amplitude, slack, declaredFactor)) {
            const double factor = reading->spec().schedule.amplitude;
            const bool missing = !RopeDeclaredFactor::differs(factor, slack, 1.0);
            const QString id = missing ? u"attention-factor-missing"_s : u"attention-factor"_s;
            const QString said = RopeDeclaredFactor::words(factor, slack, declaredFactor, declared.rope.type);
            if (sameFrequencies) {
                named.verdict = CheckVerdict::Mistake;
                named.correctAgainst.clear();
                named.mistakes = {id};
                named.diagnosis = u"%1 are the declared ones; but %2"_s.arg(named.diagnosis, said);
                return named;
            }
            if (!named.mistakes.contains(id))
                named.mistakes.append(id);
            named.diagnosis += u"; and "_s + said;
        }
        if (sameFrequencies)
            return std::nullopt;
        return named;
    };
    check.apply = RopeApply::hypothesis();
    check.readConfig = [](ConfigContext &context) { return RopeConfigReader(context).layers(); };
    check.configFindings = RopeConfig::findings();
    check.rotary = RopeLayers::rotary();
    check.tensors = ropeTensors();
    check.wideBenchTable = u"rope-cos"_s;
    // The sequence's length is the input, not the model: an inv_freq vector states none, and LongRoPE's
    // list and dynamic NTK's base depend on it (RopeVectorLength), so --expect-config takes --max-len.
    check.inputKeys = {u"max-len"_s};
    // A head whose every column turns is as wide as its table; a partial one keeps its head_dim.
    check.fitTableWidth = [](Params &params, std::int64_t cols) {
        if (params.rope.partialRotaryFactor == 1.0 && RopeFrequencies::rotaryDim(params.rope) != cols)
            RopeFrequencies::setHeadDim(params, std::clamp<std::int64_t>(cols, 2, RopeParams::kMaxHeadDim));
    };
    // transformers' dynamic_rope_update grows the base for seq_len = max(position_ids) + 1
    // (modeling_rope_utils.py, _compute_dynamic_ntk_parameters: seq_len = max(seq_len,
    // max_position_embeddings)): a table of rows 0..L-1 is one sequence of L positions.
    check.fitTableRows = [](Params &params, std::int64_t rows) {
        if (params.rope.type == RopeType::Dynamic)
            params.maxLen = std::clamp<std::int64_t>(rows, 1, Params::kMaxLen);
    };
    return check;
}

} // namespace posenc
