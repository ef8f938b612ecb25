#include "PositionIdsCheck.h"

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

// The reference's ids as the given ids hold them: BatchIds' every axis, or, for ids of one axis where
// BatchIds' three agree (M-RoPE's text pack: the flattening collator's [B, L], which
// Qwen2VLTextModel.forward expands to t, h and w), the first alone.
class ReferenceIds
{
public:
    ReferenceIds(const BatchIds &batch, int axes)
        : m_batch(batch)
        , m_axes(axes)
    { }
    const BatchLayout &layout() const { return m_batch.layout(); }
    int axes() const { return m_axes; }
    void ids(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, std::int64_t *out) const
    {
        if (m_axes == m_batch.axes()) {
            m_batch.ids(choice, b, c0, count, out);
            return;
        }
        std::vector<std::int64_t> all(std::size_t(m_batch.axes() * count));
        m_batch.ids(choice, b, c0, count, all.data());
        std::copy_n(all.begin(), count, out);
    }

private:
    const BatchIds &m_batch;
    int m_axes;
};

// Each real token's given id less the reference's, per row: the set of differences of its prefill
// and of its decode steps (every axis).
struct RowShifts
{
    std::set<std::int64_t> prefill, decode;
};

// Whether `ids` holds, for every real token, the ids `prefill` makes of the prefill's tokens and
// `decode` of the decode steps': a mistake's ids regenerated for the batch (BatchIds), which alone
// name it.
bool holds(const ReferenceIds &batch, IdsChoice prefill, IdsChoice decode, const RowMatrixXf &ids)
{
    const BatchLayout &layout = batch.layout();
    std::vector<std::int64_t> made(std::size_t(batch.axes() * layout.cols()));
    std::vector<std::int64_t> steps(made.size());
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        batch.ids(prefill, b, 0, layout.cols(), made.data());
        batch.ids(decode, b, 0, layout.cols(), steps.data());
        for (const BatchSegment &s : layout.row(b)) {
            if (!s.isReal())
                continue;
            const std::vector<std::int64_t> &row = s.decode ? steps : made;
            for (int a = 0; a < batch.axes(); ++a)
                for (std::int64_t c = s.start; c < s.end(); ++c)
                    if (double(ids(a * layout.rows() + b, c)) != double(row[std::size_t(a * layout.cols() + c)]))
                        return false;
        }
    }
    return true;
}

bool holds(const ReferenceIds &batch, IdsChoice choice, const RowMatrixXf &ids)
{
    return holds(batch, choice, choice, ids);
}

// Where no mistake's ids are the batch's: what each row's real tokens hold against the reference,
// segment by segment (its prefill, its decode steps), in words.
QString differences(const ReferenceIds &batch, const std::vector<RowShifts> &rows, const RowMatrixXf &ids)
{
    const BatchLayout &layout = batch.layout();
    const auto words = [](const std::set<std::int64_t> &shifts) {
        if (shifts.empty() || (shifts.size() == 1 && *shifts.begin() == 0))
            return QString();
        if (shifts.size() == 1)
            return u"the reference's %1%2"_s.arg(*shifts.begin() > 0 ? u"+"_s : u"−"_s).arg(std::abs(*shifts.begin()));
        return u"ids off the reference's by %1 amounts"_s.arg(shifts.size());
    };
    QStringList parts;
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        QString prefill = words(rows[std::size_t(b)].prefill);
        QString decode = words(rows[std::size_t(b)].decode);
        // Decode steps at their own column: the row's padding counted (arange-with-padding's ids there).
        if (!decode.isEmpty() && holds(batch, IdsChoice::Reference, IdsChoice::ArangeWithPadding, ids)) {
            const std::int64_t padding = layout.cols() - layout.realTokens(b);
            decode = u"their columns, the row's padding (%1 token%2) not subtracted"_s.arg(padding).arg(
                padding == 1 ? QString() : u"s"_s);
        }
        if (!prefill.isEmpty())
            parts.append(u"row %1's prefill: %2"_s.arg(b).arg(prefill));
        if (!decode.isEmpty())
            parts.append(u"row %1's decode steps: %2"_s.arg(b).arg(decode));
    }
    return parts.join(u"; "_s);
}

std::vector<RowShifts> shifts(const ReferenceIds &batch, const RowMatrixXf &ids, std::optional<Difference> &first)
{
    const BatchLayout &layout = batch.layout();
    std::vector<RowShifts> all(std::size_t(layout.rows()));
    std::vector<std::int64_t> row(std::size_t(batch.axes() * layout.cols()));
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        batch.ids(IdsChoice::Reference, b, 0, layout.cols(), row.data());
        for (const BatchSegment &s : layout.row(b)) {
            if (!s.isReal())
                continue;
            for (std::int64_t c = s.start; c < s.end(); ++c) {
                for (int a = 0; a < batch.axes(); ++a) {
                    const double given = ids(a * layout.rows() + b, c);
                    const std::int64_t reference = row[std::size_t(a * layout.cols() + c)];
                    const std::int64_t shift
                        = std::isfinite(given) ? std::llround(given) - reference : std::int64_t(1) << 40;
                    (s.decode ? all[std::size_t(b)].decode : all[std::size_t(b)].prefill).insert(shift);
                    if (shift != 0 && !first)
                        first = Difference {b, c, a, std::llround(std::isfinite(given) ? given : -1.0), reference};
                }
            }
        }
    }
    return all;
}

QString referenceWords(const ReferenceIds &batch, bool mrope)
{
    const BatchLayout &layout = batch.layout();
    if (batch.axes() == 3 && layout.hasDocuments())
        return u"each document laid out as Qwen-VL's get_rope_index lays out text (models/qwen2_vl/"
               "modeling_qwen2_vl.py): t, h and w alike from 0, the flattening collator's ids on every axis"_s;
    if (batch.axes() == 3)
        return u"Qwen-VL's get_rope_index with the attention mask (models/qwen2_vl/modeling_qwen2_vl.py), a "
               "decode step's ids cache_position + rope_deltas"_s;
    if (layout.hasDocuments())
        return u"transformers' DataCollatorWithFlattening: each document's ids from 0 (data/data_collator.py)%1"_s.arg(
            mrope ? u", which Qwen2VLTextModel.forward gives t, h and w alike (models/qwen2_vl/modeling_qwen2_vl.py: "
                    "position_ids[None, ...].expand(3, ...))"_s
                  : QString());
    return u"transformers' generation: attention_mask.long().cumsum(-1) - 1, the padding 1 "
           "(generation/utils.py, prepare_inputs_for_generation)%1"_s.arg(
               layout.cache() > 0 ? u", the mask a column of ones longer each decode step"_s : QString());
}

// A per-row shift of the decode steps only, the prefill right: the cache's offset wrong.
bool decodeShiftsOnly(const std::vector<RowShifts> &rows, bool oneAway)
{
    bool any = false;
    for (const RowShifts &r : rows) {
        if (r.prefill.size() > 1 || (r.prefill.size() == 1 && *r.prefill.begin() != 0) || r.decode.size() > 1)
            return false;
        if (r.decode.size() == 1 && *r.decode.begin() != 0) {
            any = true;
            if ((std::abs(*r.decode.begin()) == 1) != oneAway)
                return false;
        }
    }
    return any;
}

// Every real token one away from the reference, the same way along each row.
bool offByOne(const std::vector<RowShifts> &rows)
{
    bool any = false;
    for (const RowShifts &r : rows) {
        std::set<std::int64_t> both = r.prefill;
        both.insert(r.decode.begin(), r.decode.end());
        if (both.empty())
            continue;
        if (both.size() != 1 || std::abs(*both.begin()) != 1)
            return false;
        any = true;
    }
    return any;
}

// The same shift of every real token of the batch, or nothing.
std::optional<std::int64_t> commonShift(const std::vector<RowShifts> &rows)
{
    std::set<std::int64_t> all;
    for (const RowShifts &r : rows) {
        all.insert(r.prefill.begin(), r.prefill.end());
        all.insert(r.decode.begin(), r.decode.end());
    }
    return all.size() == 1 ? std::optional(*all.begin()) : std::nullopt;
}

// Where each row's ids leave the reference at one column and, from there to its last real token,
// either keep one shift from it or stop advancing: a step after a cache (a decode step, or a chunk of
// a chunked prefill) whose ids do not continue from it. The words; whether every such row stops
// (positions-constant), and from its first real token on with no cache before (one id a row).
struct OffTheCache { QString words; bool wholeRowsStill = false, still = false; };

std::optional<OffTheCache> offTheCacheFrom(const ReferenceIds &batch, const RowMatrixXf &ids, std::int64_t shown)
{
    const BatchLayout &layout = batch.layout();
    std::vector<std::int64_t> reference(std::size_t(batch.axes() * layout.cols()));
    QStringList parts;
    // Every row that leaves the reference: shifted from its first real token on; its real tokens at
    // one id, no cache before; at one id from where it leaves it, the token before at its id, or whole.
    bool wholeRows = true, wholeStill = true, allStill = true;
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        batch.ids(IdsChoice::Reference, b, 0, layout.cols(), reference.data());
        std::optional<std::int64_t> from, shift, stuck, first, firstId;
        bool shifted = true, still = true, oneId = true;
        for (const BatchSegment &s : layout.row(b)) {
            if (!s.isReal())
                continue;
            first = first.value_or(s.start);
            for (std::int64_t c = s.start; c < s.end(); ++c) {
                for (int a = 0; a < batch.axes(); ++a) {
                    const double given = ids(a * layout.rows() + b, c);
                    if (!std::isfinite(given))
                        return std::nullopt;
                    const std::int64_t id = std::llround(given), d = id - reference[std::size_t(a * layout.cols() + c)];
                    firstId = firstId.value_or(id);
                    oneId = oneId && id == *firstId;
                    if (!from && d == 0)
                        continue;
                    if (!from) {
                        from = c;
                        shift = d;
                        stuck = id;
                    }
                    shifted = shifted && d == *shift;
                    still = still && id == *stuck;
                }
            }
        }
        if (!from)
            continue;
        if (!shifted && !still)
            return std::nullopt;
        wholeRows = wholeRows && shifted && from == first;
        wholeStill = wholeStill && !shifted && oneId && layout.cache() == 0;
        // Stopped at the id before (a window not advancing); elsewhere (0, the first id) an offset lost.
        allStill = allStill && !shifted
            && ((oneId && layout.cache() == 0) || (*from > *first && *stuck == reference[std::size_t(*from - 1)]));
        const QString where
            = layout.cache() > 0 && *from >= layout.cache() ? u"its decode steps"_s : u"column %1 on"_s.arg(*from);
        parts.append(shifted ? u"row %1's ids from %2 are the reference's %3%4"_s.arg(b).arg(where).arg(
                         *shift > 0 ? u"+"_s : u"−"_s, QString::number(std::abs(*shift)))
                     : oneId ? u"row %1's ids are all %2, not advancing"_s.arg(b).arg(*firstId + shown)
                             : u"row %1's ids from %2 are all %3, not advancing"_s.arg(b).arg(where).arg(*stuck + shown));
    }
    // Rows shifted whole, from their first token, are no step after a cache: each row's offset
    // (partsOff names them).
    if (parts.isEmpty() || wholeRows)
        return std::nullopt;
    return OffTheCache {parts.join(u"; "_s), wholeStill, allStill};
}

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
const QString kPositionOffset = u"position-offset"_s;
const QString kPositionsConstant = u"positions-constant"_s;

// Every row's prefill and decode steps each off the reference by a constant of its own, not all
// one: each part named (off-by-one one away, cache-offset a decode step's, position-offset a
// prefill's) with the columns it covers (flash-linear-attention#747: an upper layer's prefill
// shifted by the chunk its cache already counted, its decode steps by one). The ids and the words.
std::optional<std::pair<QStringList, QString>> partsOff(const BatchLayout &layout, const std::vector<RowShifts> &rows)
{
    QStringList ids, parts;
    const QStringList &words = BatchParamRows::choiceWords();
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        const RowShifts &r = rows[std::size_t(b)];
        if (r.prefill.size() > 1 || r.decode.size() > 1)
            return std::nullopt;
        // A row shifted alike in its prefill and its decode steps is one part, the row's offset.
        const bool alike = r.prefill == r.decode;
        for (const bool decode : {false, true}) {
            const std::set<std::int64_t> &shift = decode ? r.decode : r.prefill;
            if (shift.empty() || *shift.begin() == 0 || (alike && decode))
                continue;
            const std::int64_t d = *shift.begin();
            std::int64_t first = layout.cols(), last = -1;
            for (const BatchSegment &s : layout.row(b)) {
                if (s.isReal() && (alike || s.decode == decode) && s.length > 0) {
                    first = std::min(first, s.start);
                    last = std::max(last, s.end() - 1);
                }
            }
            const QString id = std::abs(d) == 1 ? words.value(int(IdsChoice::OffByOne))
                : decode                        ? words.value(int(IdsChoice::CacheOffset))
                                                : kPositionOffset;
            const QString part = alike || layout.cache() == 0 ? u"ids"_s : decode ? u"decode steps"_s : u"prefill"_s;
            if (!ids.contains(id))
                ids.append(id);
            const QString cache = !decode && !alike && d == layout.cache() && d > 0
                ? u", the prefill's own length: its tokens counted into the offset before it was read"_s
                : QString();
            parts.append(u"row %1's %2 (columns %3-%4): the reference's %5%6%7, %8"_s.arg(b)
                             .arg(part)
                             .arg(first)
                             .arg(last)
                             .arg(d > 0 ? u"+"_s : u"−"_s)
                             .arg(std::abs(d))
                             .arg(cache, id));
        }
    }
    if (parts.isEmpty())
        return std::nullopt;
    return std::pair(ids, parts.join(u"; "_s));
}

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
