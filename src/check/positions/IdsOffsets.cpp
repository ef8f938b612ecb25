#include "IdsOffsets.h"

#include "check/TableMatch.h"
#include "core/CountWords.h"
#include "core/positions/BatchParamRows.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace Qt::StringLiterals;

namespace posenc::IdsOffsets {

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

std::optional<std::int64_t> commonShift(const std::vector<RowShifts> &rows)
{
    std::set<std::int64_t> all;
    for (const RowShifts &r : rows) {
        all.insert(r.prefill.begin(), r.prefill.end());
        all.insert(r.decode.begin(), r.decode.end());
    }
    return all.size() == 1 ? std::optional(*all.begin()) : std::nullopt;
}

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
                         : oneId
                         ? u"row %1's ids are all %2, not advancing"_s.arg(b).arg(*firstId + shown)
                         : u"row %1's ids from %2 are all %3, not advancing"_s.arg(b).arg(where).arg(*stuck + shown));
    }
    // Rows shifted whole, from their first token, are no step after a cache: each row's offset
    // (partsOff names them).
    if (parts.isEmpty() || wholeRows)
        return std::nullopt;
    return OffTheCache {parts.join(u"; "_s), wholeStill, allStill};
}

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
                                                : CheckMistakes::kPositionOffset;
            const QString part = alike || layout.cache() == 0 ? u"ids"_s : decode ? u"decode steps"_s : u"prefill"_s;
            if (!ids.contains(id))
                ids.append(id);
            const QString cache = !decode && !alike && d == layout.cache() && d > 0
                ? u", the prefill's own length: its tokens counted into the offset before it was read"_s
                : QString();
            parts.append(u"row %1's %2 (%3): the reference's %4%5%6, %7"_s.arg(b)
                             .arg(part, CountWords::range(first, last, u"column"_s, {}, u"-"_s))
                             .arg(d > 0 ? u"+"_s : u"−"_s)
                             .arg(std::abs(d))
                             .arg(cache, id));
        }
    }
    if (parts.isEmpty())
        return std::nullopt;
    return std::pair(ids, parts.join(u"; "_s));
}

namespace {

// What a decode step's ids are: the reference's, its bare cache position's, 0 on every axis, or none.
enum class StepIds { Reference, Bare, Alone, Other };

StepIds stepIds(const ReferenceIds &batch, const RowMatrixXf &ids, std::int64_t b, std::int64_t c,
                const std::vector<std::int64_t> &reference, const std::vector<std::int64_t> &bare)
{
    const BatchLayout &layout = batch.layout();
    bool isReference = true, isBare = true, isAlone = true;
    for (int a = 0; a < batch.axes(); ++a) {
        const double given = ids(a * layout.rows() + b, c);
        const auto at = std::size_t(a * layout.cols() + c);
        isReference = isReference && given == double(reference[at]);
        isBare = isBare && given == double(bare[at]) && bare[at] != reference[at];
        isAlone = isAlone && given == 0.0;
    }
    return isReference ? StepIds::Reference : isBare ? StepIds::Bare : isAlone ? StepIds::Alone : StepIds::Other;
}

} // namespace

std::optional<QString> offsetLostFrom(const ReferenceIds &batch, const RowMatrixXf &ids)
{
    const BatchLayout &layout = batch.layout();
    if (layout.cache() <= 0 || batch.axes() != 3)
        return std::nullopt;
    std::vector<std::int64_t> reference(std::size_t(batch.axes() * layout.cols())), bare(reference.size());
    QStringList parts;
    for (std::int64_t b = 0; b < layout.rows(); ++b) {
        batch.ids(IdsChoice::Reference, b, 0, layout.cols(), reference.data());
        batch.ids(IdsChoice::CacheOffset, b, 0, layout.cols(), bare.data());
        std::vector<std::int64_t> steps;
        std::vector<StepIds> kinds;
        for (const BatchSegment &s : layout.row(b)) {
            for (std::int64_t c = s.start; s.isReal() && c < s.end(); ++c) {
                const StepIds kind = stepIds(batch, ids, b, c, reference, bare);
                if (!s.decode && kind != StepIds::Reference)
                    return std::nullopt;
                if (s.decode) {
                    steps.push_back(c);
                    kinds.push_back(kind);
                }
            }
        }
        auto k = std::ssize(kinds);
        while (k > 0 && kinds[std::size_t(k - 1)] == StepIds::Bare)
            --k;
        if (k == std::ssize(kinds)) {
            if (std::all_of(kinds.begin(), kinds.end(), [](StepIds i) { return i == StepIds::Reference; }))
                continue;
            return std::nullopt;
        }
        QStringList before, alone;
        for (std::int64_t j = 0; j < k; ++j) {
            if (kinds[std::size_t(j)] == StepIds::Other || kinds[std::size_t(j)] == StepIds::Bare)
                return std::nullopt;
            if (kinds[std::size_t(j)] == StepIds::Alone)
                alone.append(QString::number(j));
        }
        const std::int64_t first = steps[std::size_t(k)], last = steps.back();
        const std::int64_t offset = reference[std::size_t(first)] - bare[std::size_t(first)];
        const bool one = k == std::ssize(steps) - 1;
        QString part = u"row %1's %2 (%3) at %4 bare cache position, the reference's %5%6 lost"_s.arg(b)
                           .arg(u"decode "_s + CountWords::range(k, std::ssize(steps) - 1, u"step"_s, {}, u"-"_s),
                                CountWords::range(first, last, u"column"_s, {}, u"-"_s), one ? u"its"_s : u"their"_s)
                           .arg(offset < 0 ? u"−"_s : u"+"_s)
                           .arg(std::abs(offset));
        if (!alone.isEmpty())
            part += u", step%1 %2 at 0, computed alone (the step's one token as a sequence of its own: the cache's "
                    "offset lost too)"_s.arg(alone.size() == 1 ? QString() : u"s"_s, alone.join(u", "_s));
        if (alone.size() < k)
            part += u", the other steps before %1 the reference's"_s.arg(k);
        parts.append(part);
    }
    if (parts.isEmpty())
        return std::nullopt;
    return parts.join(u"; "_s);
}

} // namespace posenc::IdsOffsets
