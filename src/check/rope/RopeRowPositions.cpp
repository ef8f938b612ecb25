#include "RopeRowPositions.h"
#include "RopeRowPatterns.h"

#include "check/CellTolerance.h"
#include "check/PairAngles.h"
#include "check/PairReference.h"
#include "check/rope/RopeHalfAngles.h"
#include "check/rope/RopeLongRopeSwitch.h"
#include "check/rope/RopeLongShortCache.h"
#include "core/rope/RopeTypes.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

using namespace Qt::StringLiterals;

namespace posenc::RopeRowPositions {

namespace {

// The most rows read one by one: a longer table's rows are left to the stream's words.
constexpr std::int64_t kMostRowsRead = std::int64_t(1) << 18;
// At most this many of the sample's rows unread: one in kStrayShare, at least one.
std::int64_t mostStraySampleRows(std::int64_t sampled)
{
    return std::max<std::int64_t>(1, sampled / kStrayShare);
}
// Rows read from the table at a time.
constexpr std::int64_t kRowsPerRead = 256;
// The fewest pairs that turn for a row's position to be read: one or two pairs' values recur at
// many positions within the rounding.
constexpr std::int64_t kFewestTurningPairs = 4;
// A cosine that float32 rounds to +-1 holds its angle only within 2.4e-4 rad of 0 or pi
// (MropeTableFit's kFlatAngle): such a pair says nothing finer than that.
constexpr double kFlatCosAngle = 2.5e-4;

// One hypothesis's rows: each column's pair and function, the frequencies, the amplitude, and the
// tolerance of float32 angles (HF forms them so: inv_freq @ position_ids in float32).
class ListReader
{
public:
    ListReader(const TableEvidence &e, const RopeFit::Hypothesis &h)
        : m_spec(RopeFit::reference(h, RowFraming {}))
        , m_tolerance(cellTolerance(e.format, true, e.table.storedType(), e.table.textRounding(), m_spec))
        , m_cosine(h.cosine)
    {
        const std::int64_t pairs = m_spec.schedule.pairs();
        m_column.assign(std::size_t(pairs), -1);
        for (std::int64_t c = 0; c < m_spec.cols(); ++c) {
            const ReferenceColumn &col = m_spec.columns[std::size_t(c)];
            if (col.pair >= 0 && col.isCos == m_cosine && m_column[std::size_t(col.pair)] < 0)
                m_column[std::size_t(col.pair)] = c;
        }
        for (std::int64_t k = 0; k < pairs; ++k) {
            if (m_spec.schedule.w[std::size_t(k)] > 0.0 && m_column[std::size_t(k)] >= 0)
                m_slowFirst.push_back(k);
        }
        std::sort(m_slowFirst.begin(), m_slowFirst.end(), [&](std::int64_t a, std::int64_t b) { return w(a) < w(b); });
    }

    // Whether rows of `cols` columns are read: the reference's width, enough pairs that turn.
    bool readable(std::int64_t cols) const
    {
        return m_spec.cols() == cols && std::ssize(m_slowFirst) >= kFewestTurningPairs;
    }

    // Whether every cell of `row` is the reference's at `position` within the tolerance.
    bool holds(const float *row, std::int64_t position) const
    {
        if (position < 0)
            return false;
        const double a = m_spec.schedule.amplitude;
        for (std::int64_t c = 0; c < m_spec.cols(); ++c) {
            const ReferenceColumn &col = m_spec.columns[std::size_t(c)];
            const double angle = col.pair < 0 ? 0.0 : double(position) * w(col.pair);
            const double ref = col.pair < 0 ? 0.0 : a * (col.isCos ? std::cos(angle) : std::sin(angle));
            if (!(std::fabs(double(row[c]) - ref) <= m_tolerance.limit(ref, c, double(position))))
                return false;
        }
        return true;
    }

    // The position `row` holds: `hints` tried first, then each hint and the slowest pair's angle as
    // a start refined pair by pair to the fastest (the angle nearest the estimate, up to whole
    // turns and the mirror a cos or sin does not tell), the nearest positions checked. -1: none.
    std::int64_t read(const float *row, const std::vector<std::int64_t> &hints) const
    {
        for (const std::int64_t hint : hints) {
            if (holds(row, hint))
                return hint;
        }
        PairAngles::PairSample pairs;
        pairs.cosine = m_cosine;
        pairs.value.resize(1, std::ssize(m_column));
        const double a = m_spec.schedule.amplitude;
        for (std::size_t k = 0; k < m_column.size(); ++k)
            pairs.value(0, std::int64_t(k)) = m_column[k] < 0 ? 0.0 : double(row[m_column[k]]) / a;
        std::vector<double> starts(hints.begin(), hints.end());
        // The slowest pair's angle or its mirror (cos: -a, sin: pi - a) in [0, 2 pi): below its period.
        const double shown = pairs.angle(0, m_slowFirst.front()), turn = 2.0 * std::numbers::pi;
        for (const double a : {shown, -shown, std::numbers::pi - shown})
            starts.push_back((a - turn * std::floor(a / turn)) / w(m_slowFirst.front()));
        for (double x : starts) {
            for (const std::int64_t k : m_slowFirst) {
                const auto [turned, gap] = pairs.nearestTurn(0, k, x * w(k));
                const double shown = pairs.angle(0, k);
                if (m_cosine && (shown < kFlatCosAngle || shown > std::numbers::pi - kFlatCosAngle)
                    && gap < kFlatCosAngle)
                    continue;
                x = turned / w(k);
            }
            if (!(x > -1.0 && x < double(Params::kMaxLen)))
                continue;
            const auto p = std::int64_t(std::llround(x));
            for (const std::int64_t q : {p, p - 1, p + 1}) {
                if (holds(row, q))
                    return q;
            }
        }
        return -1;
    }

private:
    double w(std::int64_t pair) const { return m_spec.schedule.w[std::size_t(pair)]; }

    PairReferenceSpec m_spec;
    CellTolerance m_tolerance;
    bool m_cosine = true;
    std::vector<std::int64_t> m_column; // [pair] -> a column holding its cos (or sin), -1 none
    std::vector<std::int64_t> m_slowFirst; // the pairs that turn, slowest first
};

// The other list of a LongRoPE hypothesis, where it has one.
std::vector<RopeFit::Hypothesis> listsOf(const RopeFit::Hypothesis &correct)
{
    std::vector<RopeFit::Hypothesis> lists {correct};
    const RopeParams &r = correct.params.rope;
    if (r.type == RopeType::LongRope && r.originalMaxLen && *r.originalMaxLen > 0)
        lists.push_back(RopeLongRopeSwitch::otherList(correct));
    return lists;
}

QString rowsText(std::int64_t first, std::int64_t count)
{
    return count == 1 ? u"row %1"_s.arg(first) : u"rows %1..%2"_s.arg(first).arg(first + count - 1);
}

// The region's positions as the rows hold them, `first` the declared position of row 0.
QString positionsText(const Region &r, std::int64_t first)
{
    const std::int64_t p = first + r.position;
    return r.count == 1 ? u"holds position %1"_s.arg(p) : u"hold positions %1..%2"_s.arg(p).arg(p + r.count - 1);
}

// "short_factor" or "long_factor": the list of hypothesis `list` of `lists`.
QString listWord(const std::vector<RopeFit::Hypothesis> &lists, int list)
{
    const RopeFit::Hypothesis &h = lists[std::size_t(list)];
    return h.params.maxLen > h.params.rope.originalMaxLen.value_or(0) ? u"long_factor"_s : u"short_factor"_s;
}

// The rows of each list, consecutive regions of one list joined (a row both lists give joins its
// neighbours), in order: "rows 0..4095 turn with short_factor, rows 4097..4159 with long_factor".
struct ListRun
{
    std::int64_t row = 0;
    std::int64_t end = 0;
    int list = 0;
};
std::vector<ListRun> listRuns(const std::vector<Region> &regions)
{
    std::vector<ListRun> runs;
    for (const Region &r : regions) {
        if (r.list < 0)
            continue;
        if (!runs.empty() && runs.back().list == r.list)
            runs.back().end = r.row + r.count;
        else
            runs.push_back({r.row, r.row + r.count, r.list});
    }
    return runs;
}

QString switchWords(const std::vector<ListRun> &runs, const std::vector<RopeFit::Hypothesis> &lists, std::int64_t rows)
{
    QStringList parts;
    for (const ListRun &run : runs)
        parts.append(u"%1 turn with %2"_s.arg(rowsText(run.row, run.end - run.row), listWord(lists, run.list)));
    const std::int64_t at = runs.size() > 1 ? runs[1].row : runs.front().row;
    return u"longrope-factors-switched-at-row %1: %2; transformers turns every row of a sequence with one list, "
           "%3 for this one of %4 positions (modeling_rope_utils.py, longrope_frequency_update: long_factor where "
           "max(position_ids) + 1 > original_max_position_embeddings %5)"_s.arg(at)
               .arg(parts.join(u", "_s), listWord(lists, 0))
               .arg(rows)
               .arg(lists.front().params.rope.originalMaxLen.value_or(0));
}

QString movedWords(const std::vector<Region> &regions, bool twoLists, std::int64_t first)
{
    constexpr qsizetype kShown = 8;
    QStringList moved;
    qsizetype away = 0;
    for (const Region &r : regions) {
        if (r.position == r.row || r.list == kUnread)
            continue;
        QString words = u"%1 %2"_s.arg(rowsText(r.row, r.count), positionsText(r, first));
        if (twoLists && r.list < 0)
            words += r.count == 1 ? u" (either list's row)"_s : u" (either list's rows)"_s;
        if (++away <= kShown)
            moved.append(words);
    }
    const bool earlier
        = std::all_of(regions.begin(), regions.end(), [](const Region &r) { return r.position <= r.row; });
    std::int64_t unread = 0, own = 0;
    for (const Region &r : regions) {
        unread += r.list == kUnread ? r.count : 0;
        own += r.list != kUnread && r.position == r.row ? r.count : 0;
    }
    const QString at = first == 0 ? u"r"_s : u"r + %1"_s.arg(first);
    const QString others = own == 0 ? QString()
        : own == 1                  ? u"; the one other row r holds position %1"_s.arg(at)
                                    : u"; the other %1 rows r hold position %2"_s.arg(own).arg(at);
    return u"the rows' positions are not their own: %1%2%3%4%5"_s.arg(
        moved.join(u", "_s), away > kShown ? u", …"_s : QString(), others,
        unread > 0 ? u" but %1 that hold%2 no position (the cells the stream shows)"_s.arg(
            unread == 1 ? u"one row"_s : u"%1 rows"_s.arg(unread), unread == 1 ? u"s"_s : QString())
                   : QString(),
        earlier ? u" (the moved rows repeat earlier positions: a cache or position_ids that lost an offset, "
                  "or an index past a cache's end)"_s
                : QString());
}

// The offset (position - row) of the most rows read, and how many rows lie off it (unread ones too).
struct Offset
{
    std::int64_t offset = 0;
    std::int64_t off = 0;
};
Offset commonOffset(const std::vector<Region> &regions)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> counts; // offset, rows
    std::int64_t total = 0;
    for (const Region &r : regions) {
        total += r.count;
        if (r.list == kUnread)
            continue;
        const std::int64_t d = r.position - r.row;
        const auto at = std::find_if(counts.begin(), counts.end(), [&](const auto &c) { return c.first == d; });
        if (at == counts.end())
            counts.emplace_back(d, r.count);
        else
            at->second += r.count;
    }
    if (counts.empty())
        return {0, total};
    const auto most = std::max_element(counts.begin(), counts.end(),
                                       [](const auto &a, const auto &b) { return a.second < b.second; });
    return {most->first, total - most->second};
}

// Whether every row r holds position r rounded to bfloat16 (`bfloat16`) or float16, and some row
// another than its own: positions cast to half precision before their angles were formed.
bool atRoundedPositions(const std::vector<Region> &regions, bool bfloat16)
{
    bool moved = false;
    for (const Region &g : regions) {
        if (g.list > 0 || g.list == kUnread)
            return false;
        for (std::int64_t i = 0; i < g.count; ++i) {
            const std::int64_t row = g.row + i;
            if (double(g.position + i) != RopeHalfAngles::rounded(double(row), bfloat16))
                return false;
            moved = moved || g.position + i != row;
        }
    }
    return moved;
}

// Rows 0..n-1 at positions offset..offset+n-1 of list `list`: a later chunk of one sequence. The
// list transformers takes for it follows max(position_ids) + 1 = n + offset (modeling_rope_utils.py,
// longrope_frequency_update), not the chunk's length.
Named chunkAt(const std::vector<RopeFit::Hypothesis> &lists, std::int64_t offset, int list, std::int64_t rows)
{
    Named named;
    named.offset = offset;
    named.list = list;
    named.mistakes.append(CheckMistakes::kPositionOffset);
    const std::int64_t last = offset + rows - 1;
    QString words = u"%1 hold positions %2..%3 (row r holds position r + %2): the table of a later chunk of a "
                    "sequence, as a cached decoding step or a chunked prefill computes it for position_ids %2..%3, "
                    "where the declaration's rows start at position 0; declare the positions with --positions "
                    "%2:%4 or --position-ids"_s.arg(rowsText(0, rows)).arg(offset).arg(last).arg(last + 1);
    if (lists.size() > 1) {
        const std::int64_t original = lists.front().params.rope.originalMaxLen.value_or(0);
        const bool longTaken = last + 1 > original;
        const bool readLong = lists[std::size_t(list)].params.maxLen > original;
        const QString taken = longTaken ? u"long_factor"_s : u"short_factor"_s;
        const QString rule = u"max(position_ids) + 1 = %1 %2 original_max_position_embeddings %3 "
                             "(modeling_rope_utils.py, longrope_frequency_update)"_s.arg(last + 1)
                                 .arg(longTaken ? u">"_s : u"<="_s)
                                 .arg(original);
        if (readLong == longTaken) {
            words += u"; the rows turn with %1, the list transformers takes for these positions: %2"_s.arg(taken, rule);
        } else {
            named.mistakes.append(RopeLongRopeSwitch::kFactorSet);
            words += u"; and the rows turn with %1 where transformers takes %2 for these positions: %3"_s.arg(
                readLong ? u"long_factor"_s : u"short_factor"_s, taken, rule);
        }
    }
    named.diagnosis = words;
    return named;
}

} // namespace

std::int64_t mostStrayRows(std::int64_t rows)
{
    return rows / kStrayShare;
}

std::optional<std::vector<Region>> regions(const TableEvidence &e, const std::vector<RopeFit::Hypothesis> &lists)
{
    const std::int64_t rows = e.rows(), cols = e.cols();
    if (rows < 3 || rows > kMostRowsRead || lists.empty())
        return std::nullopt;
    std::vector<ListReader> readers;
    for (const RopeFit::Hypothesis &h : lists) {
        readers.emplace_back(e, h);
        if (!readers.back().readable(cols))
            return std::nullopt;
    }
    // The sample's rows first, in memory: a table whose rows deviate otherwise is left at once.
    std::vector<float> values(static_cast<std::size_t>(cols));
    std::int64_t unreadSampled = 0;
    for (std::int64_t i = 0; i < e.sample.size(); ++i) {
        for (std::int64_t c = 0; c < cols; ++c)
            values[std::size_t(c)] = e.sample.values(i, c);
        const std::int64_t r = e.sample.rows[std::size_t(i)];
        if (std::none_of(readers.begin(), readers.end(),
                         [&](const ListReader &l) { return l.read(values.data(), {r}) >= 0; })
            && ++unreadSampled > mostStraySampleRows(e.sample.size()))
            return std::nullopt;
    }
    std::int64_t unread = 0;
    std::vector<Region> out;
    std::vector<float> chunk;
    QString error;
    std::int64_t previous = -1;
    int current = 0;
    for (std::int64_t row0 = 0; row0 < rows; row0 += kRowsPerRead) {
        const std::int64_t n = std::min(kRowsPerRead, rows - row0);
        chunk.resize(std::size_t(n * cols));
        if (!e.table.read(row0, n, chunk.data(), error))
            return std::nullopt;
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t r = row0 + i;
            const float *values = chunk.data() + i * cols;
            const std::vector<std::int64_t> hints {previous + 1, r};
            // The previous row's list first, then the others.
            std::vector<int> order(readers.size());
            std::iota(order.begin(), order.end(), 0);
            std::stable_partition(order.begin(), order.end(), [&](int l) { return l == current; });
            std::int64_t position = -1;
            for (const int l : order) {
                position = readers[std::size_t(l)].read(values, hints);
                if (position >= 0)
                    break;
            }
            if (position < 0) {
                // A damaged row: a region of its own, the next row read after the position it skips.
                if (++unread > mostStrayRows(rows))
                    return std::nullopt;
                if (!out.empty() && out.back().list == kUnread && out.back().row + out.back().count == r)
                    ++out.back().count;
                else
                    out.push_back({r, 1, -1, kUnread});
                previous = previous < 0 ? r : previous + 1;
                continue;
            }
            int list = -1, holding = 0;
            for (std::size_t l = 0; l < readers.size(); ++l) {
                if (readers[l].holds(values, position)) {
                    ++holding;
                    list = int(l);
                }
            }
            if (holding > 1)
                list = -1;
            else
                current = list;
            Region *last = out.empty() ? nullptr : &out.back();
            const bool follows = last && last->list != kUnread && position == last->position + last->count
                && (last->list == list || list < 0 || last->list < 0);
            if (follows) {
                if (last->list < 0)
                    last->list = list;
                ++last->count;
            } else {
                out.push_back({r, 1, position, list});
            }
            previous = position;
        }
    }
    return out;
}

std::optional<Named> name(const TableEvidence &e, const RopeFit::Hypothesis &correct)
{
    const std::vector<RopeFit::Hypothesis> lists = listsOf(correct);
    const auto found = regions(e, lists);
    if (!found)
        return std::nullopt;
    // Positions past the declared first one (--position-ids from F: row r's own is F + r).
    std::vector<Region> r = *found;
    const std::int64_t first = e.declared.firstPosition;
    for (Region &g : r)
        g.position -= g.list == kUnread ? 0 : first;
    const std::int64_t original = lists.front().params.rope.originalMaxLen.value_or(0);
    if (RopeLongShortCache::holds(r, lists, e.rows()))
        return Named {{}, RopeLongShortCache::words(e.rows(), original), true, false, std::nullopt, 0};
    if (atRoundedPositions(r, true) || atRoundedPositions(r, false))
        return std::nullopt;
    // Unread rows are the stream's to show; so are a few rows off an offset that explains the rest
    // (position-offset, which the fit names, with rows 4000..4009 overwritten).
    // Every row at one position: one position's row repeated (a decode window whose ids did not
    // advance, pe[:, p] indexed where pe[:, :L] is meant): same-row, the position said as declared.
    if (const auto one = onePosition(r)) {
        Named same;
        same.mistakes = {CheckMistakes::kSameRow};
        same.diagnosis = u"every row holds position %1 (%2): one position's row repeated where each row holds its "
                         "own, positions %3..%4 (ids that did not advance, or pe[:, %1] indexed where pe[:, %3:%5] "
                         "is meant)"_s.arg(first + *one)
                             .arg(*one >= 0 && *one < e.rows() ? u"row %1's own"_s.arg(*one)
                                                               : u"no row's own"_s)
                             .arg(first)
                             .arg(first + e.rows() - 1)
                             .arg(first + e.rows());
        return same;
    }
    // Single rows read at position 0 inside the table, every other row at its own with the list the
    // reference takes: rows of position 0's value throughout (a cos cache's ones, a sin cache's zeros)
    // overwritten, not ids (no reset of the ids leaves the next row at its own position); the stream
    // names them (cells-overwritten). Where LongRoPE's other list turns some rows, the row at 0 sits
    // where an index crossed between the lists (vllm#27414: cat(short_cache, long_cache) indexed at
    // p + original, row `original` the long cache's position 0): positions, named below with the lists.
    const bool zeroRowsInside = std::all_of(r.begin(), r.end(), [&](const Region &g) {
        return g.list == kUnread || (g.position == g.row && g.list <= 0)
            || (g.position + first == 0 && g.count == 1 && g.row > 0 && g.row + 1 < e.rows());
    });
    if (zeroRowsInside)
        return std::nullopt;
    const Offset common = commonOffset(r);
    const std::int64_t unread
        = std::accumulate(r.begin(), r.end(), std::int64_t(0),
                          [](std::int64_t n, const Region &g) { return n + (g.list == kUnread ? g.count : 0); });
    const bool allOwn
        = std::all_of(r.begin(), r.end(), [](const Region &g) { return g.list == kUnread || g.position == g.row; });
    const bool oneOffset = common.off == unread || (common.offset != 0 && common.off <= mostStrayRows(e.rows()));
    const std::vector<ListRun> runs = listRuns(r);
    const bool otherList = std::any_of(runs.begin(), runs.end(), [](const ListRun &run) { return run.list != 0; });
    const bool bothLists
        = otherList && std::any_of(runs.begin(), runs.end(), [](const ListRun &run) { return run.list == 0; });
    if (common.offset > 0 && common.off == unread && !bothLists)
        return chunkAt(lists, first + common.offset, otherList ? 1 : 0, e.rows());
    // Nothing the rows show, or what the fit names of the whole table.
    if ((allOwn && !otherList) || (oneOffset && !otherList) || (allOwn && !bothLists))
        return std::nullopt;
    Named named;
    QStringList words;
    if (bothLists) {
        named.mistakes.append(RopeLongRopeSwitch::kSwitched);
        words.append(switchWords(runs, lists, e.rows()));
    } else if (otherList) {
        const RopeParams &r = correct.params.rope;
        named.mistakes.append(RopeLongRopeSwitch::kFactorSet);
        words.append(RopeLongRopeSwitch::factorSetWords(correct.params.maxLen > r.originalMaxLen.value_or(0), correct.params.maxLen,
                                                        r.originalMaxLen.value_or(0)));
    }
    if (const auto scale = allOwn || otherList ? std::nullopt : scaleOf(r)) {
        named.mistakes.append(kPositionsScaled);
        words.append(scaledWords(*scale, correct));
    } else if (!allOwn) {
        named.mistakes.append(ApplyCheck::kPositionsOutOfOrder);
        words.append(movedWords(r, lists.size() > 1, first));
        if (!otherList && restartsAtZero(r)) {
            named.restarts = true;
            words.back() += restartWords(r);
        }
    }
    named.diagnosis = words.join(u"; and "_s);
    return named;
}

std::optional<TableCandidate> fromLeadingRows(const TableEvidence &e, const std::optional<RopeFit::Fit> &whole,
                                              const LeadingFit &fit, const MatchOf &match)
{
    const TableSample &s = e.sample;
    const bool wholeExplains = whole && explains(whole->score.compared, whole->bad());
    if ((wholeExplains && whole->bad() == 0) || !e.framing.paddingRows.empty())
        return std::nullopt;
    // The leading rows, at most half the sample: a table sampled whole has its moved rows in it.
    const std::int64_t n = std::min({s.leadingRows, TableSample::kMaxLeadingRows, s.size() / 2});
    std::optional<RopeFit::Fit> found = whole;
    if (!wholeExplains) {
        if (n < 8)
            return std::nullopt;
        TableSample leading;
        leading.rows.assign(s.rows.begin(), s.rows.begin() + n);
        leading.values = s.values.topRows(n);
        if (s.cellRounding.size() > 0)
            leading.cellRounding = s.cellRounding.topRows(n);
        leading.tableRows = s.tableRows;
        leading.leadingRows = n;
        found = fit(leading);
    }
    // Row r at position r: a sin table's first row of zeros, framed out, is position 0.
    if (!found || !found->mistakes.isEmpty() || found->hypothesis.firstPosition != e.framing.firstRow
        || found->hypothesis.rounding != PositionRounding::None || found->score.compared <= 0
        || !explains(found->score.compared, found->bad()))
        return std::nullopt;
    // The correct table of these rows: LongRoPE's list by the table's length (transformers).
    RopeFit::Hypothesis correct = found->correct;
    correct.params.maxLen = std::clamp<std::int64_t>(e.rows(), 1, Params::kMaxLen);
    const auto named = name(e, correct);
    // A later chunk's rows: the fit reads the offset itself where it can.
    if (!named || named->offset)
        return std::nullopt;
    RopeFit::Fit reading = *found;
    reading.hypothesis = correct;
    reading.correct = correct;
    reading.mistakes = named->mistakes;
    reading.published.clear();
    TableCandidate c;
    if (named->longShortCache) {
        reading.mistakes.clear();
        c.match = RopeLongShortCache::asCache(match(reading), e, named->diagnosis);
    } else if (named->restarts) {
        // A correct input's pattern (packed documents) is no mistake undeclared: unknown, said.
        reading.mistakes.clear();
        c.match = match(reading);
        c.match.verdict = CheckVerdict::Unknown;
        c.match.mistakes.clear();
        c.match.correctAgainst.clear();
        c.match.asRead.reset();
        c.match.diagnosis = u"%1; each run is the table of %2"_s.arg(named->diagnosis, c.match.referenceText);
    } else {
        c.match = match(reading);
        c.match.diagnosis = u"%1; the correct table: %2"_s.arg(named->diagnosis, c.match.referenceText);
    }
    c.claims = true;
    c.compared = std::int64_t(s.values.size());
    c.bad = 0;
    return c;
}

TableMatch chunk(const TableEvidence &e, RopeFit::Fit fit, const Named &rows, const MatchOf &match)
{
    fit.hypothesis.firstPosition = rows.offset.value_or(0);
    if (rows.list != 0)
        fit.hypothesis = RopeLongRopeSwitch::otherList(fit.hypothesis);
    fit.mistakes.append(rows.mistakes);
    TableMatch m = match(fit);
    const PairReferenceSpec read = RopeFit::reference(fit.hypothesis, e.framing);
    m.asRead = std::make_shared<const PairReference>(read);
    m.asReadTolerance = cellTolerance(e.format, fit.float32Angles, e.table.storedType(), e.table.textRounding(), read);
    m.diagnosis = rows.diagnosis;
    return m;
}

} // namespace posenc::RopeRowPositions
