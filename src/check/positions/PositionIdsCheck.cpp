#include "PositionIdsCheck.h"

#include "IdsAgainstReference.h"
#include "IdsOffsets.h"

#include "check/TableMatch.h"
#include "check/mrope/MropeMistakes.h"
#include "core/positions/BatchIds.h"
#include "core/positions/BatchParamRows.h"

#include "core/Engine.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace Qt::StringLiterals;

namespace posenc::PositionIdsCheck {

namespace {

using IdsAgainstReference::differences;
using IdsAgainstReference::holds;
using IdsAgainstReference::ReferenceIds;
using IdsAgainstReference::referenceWords;
using IdsAgainstReference::RowShifts;
using IdsAgainstReference::shifts;
using IdsOffsets::commonShift;
using IdsOffsets::decodeShiftsOnly;
using IdsOffsets::offByOne;
using IdsOffsets::offTheCacheFrom;
using IdsOffsets::partsOff;

void notePadding(Report &report, const ReferenceIds &batch, const RowMatrixXf &ids)
{
    const BatchLayout &layout = batch.layout();
    std::set<std::int64_t> values;
    for (std::int64_t b = 0; b < layout.rows(); ++b)
        for (const BatchSegment &s : layout.row(b))
            if (!s.isReal())
                for (std::int64_t c = s.start; c < s.end() && values.size() < 4; ++c)
                    values.insert(std::llround(ids(b, c)));
    values.erase(BatchLayout::kPaddingId);
    if (!values.empty())
        report.notes.append(u"the padding's ids are not all 1, as transformers fills them; no attention reads "
                            "them, so they do not count"_s);
}

const QString kSecondPerGrid = u"second-per-grid"_s;
using CheckMistakes::kPositionOffset;
const QString kPositionsConstant = u"positions-constant"_s;

// M-RoPE's ids of a prompt whose videos' t ids are those of second_per_grid 1, where the declaration
// gives a video another: get_rope_index's default when the video's second_per_grid_ts does not reach
// it (transformers#41152: Qwen2_5_VLForConditionalGeneration.prepare_inputs_for_generation called
// get_rope_index without second_per_grid_ts). The declared seconds, or nothing where the ids are not
// those of 1.
std::optional<QString> secondPerGridOne(const Params &params, const RowMatrixXf &ids)
{
    if (params.encoding != Encoding::Mrope)
        return std::nullopt;
    QStringList declared, segments = params.mrope.prompt.split(u',');
    for (QString &segment : segments) {
        if (!segment.startsWith(u"video:"_s) || segment.contains(u"px"_s) || !segment.contains(u'@'))
            continue;
        const QString seconds = segment.section(u'@', 1);
        if (seconds.toDouble() != 1.0)
            declared.append(seconds);
        segment = segment.section(u'@', 0, 0);
    }
    if (params.mrope.secondPerGrid != 1.0)
        declared.append(QString::number(params.mrope.secondPerGrid));
    if (declared.isEmpty())
        return std::nullopt;
    Params one = params;
    one.mrope.prompt = segments.join(u',');
    one.mrope.secondPerGrid = 1.0;
    if (!one.isValid())
        return std::nullopt;
    const Engine engine(one);
    const BatchIds &batch = engine.source<BatchIds>();
    if (batch.problem() || !holds(ReferenceIds(batch, batch.axes()), IdsChoice::Reference, ids))
        return std::nullopt;
    declared.removeDuplicates();
    return declared.join(u", "_s);
}

} // namespace

QStringList mistakeNames()
{
    return BatchParamRows::choiceWords().mid(1) + QStringList {kSecondPerGrid, kPositionOffset, kPositionsConstant}
        + MropeIdsRules::ids()
        + QStringList {MropeMistakes::kOtherEra, MropeMistakes::kTimeTruncated, MropeMistakes::kAxesSwapped};
}

QString verdictWord(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Correct:
        return u"correct"_s;
    case Verdict::Mistake:
        return u"mistake"_s;
    case Verdict::Unknown:
        break;
    }
    return u"unknown"_s;
}

std::optional<QString> shapeProblem(const Params &params, const std::vector<std::int64_t> &shape)
{
    const BatchLayout layout(params);
    const bool threeAxes = BatchIds::axesOf(params) == 3, oneId = BatchIds::takesOneId(params);
    const std::int64_t rows = layout.rows(), cols = layout.cols();
    const bool one = (shape.size() == 1 && rows == 1) || (shape.size() == 2 && shape[0] == rows);
    const bool three
        = (shape.size() == 3 && shape[0] == 3 && shape[1] == rows) || (shape.size() == 2 && shape[0] == 3 * rows);
    if (!shape.empty() && shape.back() == cols && ((oneId && one) || (threeAxes && three)))
        return std::nullopt;
    if (threeAxes && oneId)
        return u"[B, L] = [%1, %2], the collator's ids, or M-RoPE's [3, B, L] = [3, %1, %2]"_s.arg(rows).arg(cols);
    if (threeAxes && one && !shape.empty() && shape.back() == cols)
        // [B, L] ids, which only a pack of text holds (its three axes one id): say what makes it one.
        return u"M-RoPE's [3, B, L] = [3, %1, %2] of the batch: [B, L] ids are a text pack's alone, and the prompt "
               "%3 holds image or video tokens, whose t, h and w ids differ; for a pack of text give --prompt text:N "
               "(N its tokens)"_s.arg(rows)
                   .arg(cols)
                   .arg(params.mrope.prompt);
    return threeAxes ? u"M-RoPE's [3, B, L] = [3, %1, %2] of the batch"_s.arg(rows).arg(cols)
                     : u"[B, L] = [%1, %2], the batch's rows and max_len (one row's [L]), or M-RoPE's [3, B, L] "
                       "without --prompt or a batch's flag"_s.arg(rows)
                           .arg(cols);
}

Report check(const Params &params, const RowMatrixXf &ids)
{
    return check(params, ids, 0, {});
}

namespace {

// `shown` is what the ids were read less (--position-offset): the ids quoted are the file's, the
// reference's + it (held-out set 8, F9: a decode step quoted at 0 where the file holds 2).
Report checkIds(const Params &params, const RowMatrixXf &ids, const MropeIdsRules::Declared &rule,
                std::int64_t shown = 0)
{
    const Engine engine(params);
    const BatchIds &ofBatch = engine.source<BatchIds>();
    // [B, L] ids of an M-RoPE batch whose three axes agree (a text pack's): one axis read.
    const bool oneAxis = ids.rows() == ofBatch.layout().rows() && ofBatch.axesAgree();
    const ReferenceIds batch(ofBatch, oneAxis ? 1 : ofBatch.axes());
    const BatchLayout &layout = batch.layout();
    Report report;
    report.rows = layout.rows();
    report.columns = layout.cols();
    report.axes = batch.axes();
    for (std::int64_t b = 0; b < layout.rows(); ++b)
        report.realTokens += layout.realTokens(b);
    report.reference = referenceWords(batch, ofBatch.axes() == 3);
    notePadding(report, batch, ids);
    const std::vector<RowShifts> rows = shifts(batch, ids, report.firstDifference);
    if (report.firstDifference) {
        report.firstDifference->given += shown;
        report.firstDifference->reference += shown;
    }
    const auto mistake = [&](IdsChoice choice, const QString &detail) {
        report.verdict = Verdict::Mistake;
        report.mistakes = {BatchParamRows::choiceWords().value(int(choice))};
        report.detail = detail;
        return report;
    };
    if (!report.firstDifference) {
        if (layout.twoDimensionalMask())
            return mistake(IdsChoice::RestartedWithoutBlockMask,
                           u"the ids restart at each document, but a 2-D attention mask is given beside them: "
                           "transformers then takes the mask's path, which knows no documents, and every token "
                           "attends to the documents before its own"_s);
        report.verdict = Verdict::Correct;
        report.detail = u"every real token's id is the reference's"_s;
        return report;
    }
    if (layout.hasDocuments() && holds(batch, IdsChoice::PositionsNotRestarted, ids))
        return mistake(IdsChoice::PositionsNotRestarted,
                       u"the ids run on across the documents of a row: the varlen attention finds no document's "
                       "start, and each document sees the ones before as its own past"_s);
    // A mistake is named only where its ids, regenerated for this batch, are the given ones, in
    // every segment or in the decode steps alone (the prefill the reference's).
    if (holds(batch, IdsChoice::ArangeWithPadding, ids))
        return mistake(IdsChoice::ArangeWithPadding,
                       u"each real token's id is its column, arange(L): the padding before it counted"_s);
    if (layout.cache() > 0 && decodeShiftsOnly(rows, false) && holds(batch, IdsChoice::CacheOffset, ids))
        return mistake(IdsChoice::CacheOffset,
                       batch.axes() == 3 ? u"the decode steps' ids are not cache_position + rope_deltas: rope_deltas "
                                           "lost or stale"_s
                                         : u"the decode steps' ids do not continue from the cache: its offset lost"_s);
    if (const auto lost = IdsOffsets::offsetLostFrom(batch, ids))
        return mistake(IdsChoice::CacheOffset,
                       u"the decode steps lose rope_deltas, the offset that continues the prefill, from a step on: "
                       "%1; the prefill's ids are the reference's"_s.arg(*lost));
    if (layout.cache() > 0 && holds(batch, IdsChoice::Reference, IdsChoice::ArangeWithPadding, ids))
        return mistake(
            IdsChoice::ArangeWithPadding,
            u"the decode steps' ids are their columns: the cache's offset is there, but the row's padding "
            "is not subtracted (%1); the prefill's ids are the reference's"_s.arg(differences(batch, rows, ids)));
    const bool oneAway = offByOne(rows) && holds(batch, IdsChoice::OffByOne, ids);
    if (oneAway || (layout.cache() > 0 && holds(batch, IdsChoice::Reference, IdsChoice::OffByOne, ids)))
        return mistake(IdsChoice::OffByOne,
                       u"every real token%1's id is one more than the reference's"_s.arg(
                           oneAway ? QString() : u" of the decode steps"_s));
    if (const auto seconds = secondPerGridOne(params, ids)) {
        report.verdict = Verdict::Mistake;
        report.mistakes = {kSecondPerGrid};
        report.detail = u"second-per-grid 1 where the declaration gives %1: the videos' t ids are those of "
                        "second_per_grid 1, get_rope_index's default when a video's second_per_grid_ts does not reach "
                        "it (transformers#41152: prepare_inputs_for_generation called get_rope_index without "
                        "second_per_grid_ts); the other ids are the reference's"_s.arg(*seconds);
        return report;
    }
    // A batch declared (its lengths, documents, mask or cache), or M-RoPE's prompt, makes the
    // reference's ids exact integers: any other id is a mistake, named where a shape of the
    // difference explains it. Without one the reference is one unpadded row, a guess the ids may
    // not be made for.
    const BatchParams &given = params.batch;
    const bool batchDeclared
        = !given.lengths.isEmpty() || !given.packed.isEmpty() || given.mask || given.documents || given.cache > 0;
    const bool promptDeclared = params.encoding == Encoding::Mrope && rule.prompt;
    const bool declared = batchDeclared || promptDeclared;
    if (const auto named = MropeIdsRules::name(params, ids, rule)) {
        report.verdict = declared && !named->id.isEmpty() ? Verdict::Mistake : Verdict::Unknown;
        if (report.verdict == Verdict::Mistake)
            report.mistakes = {named->id};
        report.detail = named->detail;
        return report;
    }
    report.verdict = declared ? Verdict::Mistake : Verdict::Unknown;
    if (const auto shift = commonShift(rows)) {
        const QString by = u"every real token's id is the reference's %1 %2"_s.arg(*shift > 0 ? u"+"_s : u"−"_s)
                               .arg(std::abs(*shift));
        // + 2 is a published rule, RoBERTa's (padding_idx + 1 = 2: create_position_ids_from_input_ids),
        // not a mistake unless declared otherwise.
        if (*shift == 2) {
            report.verdict = Verdict::Unknown;
            report.detail = by
                + u": RoBERTa's ids start at padding_idx + 1 = 2 and make these; declare it "
                  "with --position-offset 2 (transformers' generation starts at 0)"_s;
            return report;
        }
        if (declared)
            report.mistakes = {kPositionOffset};
        report.detail = by
            + u": no model's rule the check knows starts there (RoBERTa's, at padding_idx + 1, "
              "is declared with --position-offset 2)"_s;
        return report;
    }
    if (const auto off = offTheCacheFrom(batch, ids, shown); off && declared && off->still) {
        // A row at one id (text-generation-inference#2714: Qwen2-VL's text ids torch.ones(3, B, L)), or the
        // tokens after a cache (jundot/omlx PR#2363: a decode window broadcast at its start).
        report.mistakes = {kPositionsConstant};
        report.detail = u"%1: %2 at one position, so attention reads no order among them; the reference's ids "
                        "advance by one a token%3"_s.arg(off->words)
                            .arg(off->wholeRowsStill ? u"every real token of the row"_s : u"the tokens from there"_s)
                            .arg(off->wholeRowsStill ? u" from its first"_s
                                 : layout.cache() > 0 ? u", continuing from the cache of %1"_s.arg(layout.cache())
                                                      : QString());
        return report;
    } else if (off && declared) {
        report.mistakes = {BatchParamRows::choiceWords().value(int(IdsChoice::CacheOffset))};
        report.detail = u"%1: a step after a cache (a decode step, or a later chunk of a chunked prefill) whose ids "
                        "do not continue from it; the ids before are the reference's"_s.arg(off->words);
        return report;
    }
    if (const auto parts = declared ? partsOff(layout, rows) : std::nullopt) {
        report.mistakes = parts->first;
        report.detail
            = u"parts of the batch each off the reference by a constant of their own: %1"_s.arg(parts->second);
        return report;
    }
    report.detail
        = (batchDeclared ? u"no mistake the check knows explains the ids (each regenerated for this batch): %1"_s
               : promptDeclared
               ? u"no mistake the check knows explains the ids against get_rope_index's for the declared "
                 "prompt: %1"_s
               : u"the ids are not one unpadded row's, the batch assumed where none is declared "
                 "(--batch, --packed, --attention-mask, --document-ids, --cache): %1"_s)
              .arg(differences(batch, rows, ids));
    return report;
}

} // namespace

Report check(const Params &params, const RowMatrixXf &ids, std::int64_t start)
{
    return check(params, ids, start, {});
}

Report check(const Params &params, const RowMatrixXf &ids, std::int64_t start, const MropeIdsRules::Declared &declared)
{
    if (start == 0)
        return checkIds(params, ids, declared);
    const RowMatrixXf less = (ids.array() - float(start)).matrix();
    Report report = checkIds(params, less, declared, start);
    const QString from = u"the ids declared to start at %1 (--position-offset; RoBERTa's padding_idx + 1 = 2, "
                         "transformers' create_position_ids_from_input_ids)"_s.arg(start);
    report.reference += u", each id + %1"_s.arg(start);
    if (report.verdict == Verdict::Correct) {
        report.detail = u"every real token's id is the reference's + %1: %2"_s.arg(start).arg(from);
        return report;
    }
    // The reference's own ids, from 0: a collator's or a port's, where the model counts from start.
    if (checkIds(params, ids, declared).verdict == Verdict::Correct) {
        report.verdict = Verdict::Mistake;
        report.mistakes = {kPositionOffset};
        report.detail = u"every real token's id is the reference's from 0, where %1: %2 + n is meant (a collator "
                        "that flattens documents counts from 0: sentence-transformers#3879)"_s.arg(from)
                            .arg(start);
        return report;
    }
    report.notes.append(u"the ids were read less %1: %2"_s.arg(start).arg(from));
    return report;
}

} // namespace posenc::PositionIdsCheck
