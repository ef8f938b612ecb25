#include "T5BiasStack.h"

#include "check/CheckDiagnosis.h"
#include "check/MaskFill.h"
#include "core/NumberText.h"
#include "core/t5/T5Buckets.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace Qt::StringLiterals;

namespace posenc::T5BiasStack {

namespace {

// The longest head read whole: 4096 x 4096 float32 cells, 64 MiB.
constexpr std::int64_t kMaxLength = 4096;

struct Map
{
    T5Params params;
    bool mirrored = false; // the bucket of i - j instead of j - i
    // The position of query row 0: a head of q queries over k keys holds queries start .. start + q - 1.
    std::int64_t start = 0;
    std::vector<std::int64_t> bucketOf; // of offset t = j - i (mirrored: i - j), at t + L - 1 (L the keys)
    QHash<std::int64_t, int> offsets; // how many of the table's offsets each bucket holds
};

// The map of `queries` rows over `keys` keys, query row 0 at position `start`.
Map mapOf(const T5Params &params, bool mirrored, std::int64_t queries, std::int64_t keys, std::int64_t start)
{
    Map m {params, mirrored, start, {}, {}};
    m.bucketOf.resize(std::size_t(2 * keys - 1));
    for (std::int64_t t = -(keys - 1); t < keys; ++t)
        m.bucketOf[std::size_t(t + keys - 1)]
            = T5Buckets::bucket(mirrored ? -t : t, params.buckets, params.maxDistance, !params.causal);
    // The offsets the table holds: from key 0 at the last query to key keys - 1 at the first.
    for (std::int64_t t = -(start + queries - 1); t <= keys - 1 - start; ++t)
        ++m.offsets[m.bucketOf[std::size_t(t + keys - 1)]];
    return m;
}

// Whether some bucket of the map holds two offsets of the table: else any Toeplitz table fits it.
bool showsTheMap(const Map &m)
{
    return std::any_of(m.offsets.cbegin(), m.offsets.cend(), [](int n) { return n >= 2; });
}

std::uint32_t bitsOf(float v)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return v == 0.0f ? 0u : bits; // -0 and +0 alike
}

// One head against a map: each bucket's value (what most of its cells hold) and the cells that
// hold another.
struct HeadReading
{
    std::int64_t deviating = 0;
    std::int64_t compared = 0;
    std::int64_t distinct = 0; // buckets' values that differ from one another
    std::int64_t shared = 0; // buckets whose value another bucket holds too
    // The cells of buckets that hold more than one offset, which show the map, and those of them off.
    std::int64_t evidence = 0, evidenceDeviating = 0;
    // The first deviating cell: its place, value, and its bucket's.
    std::int64_t row = -1, col = -1, bucket = -1;
    float value = 0.0f, expected = 0.0f;
};

// A head's cells against a map, its masked cells (a causal mask added, MaskFill::is in a table of
// `format`) left out.
HeadReading readHead(const std::vector<float> &cells, std::int64_t queries, std::int64_t length, const Map &m,
                     ValueFormat format)
{
    const auto masked = [format](float v) { return MaskFill::is(double(v), format); };
    // Cell (r, j)'s offset j - (start + r), at its index into bucketOf.
    const auto at = [&](std::int64_t r, std::int64_t j) { return std::size_t(j - (m.start + r) + length - 1); };
    QHash<std::int64_t, QHash<std::uint32_t, std::int64_t>> counts;
    std::vector<bool> unmasked(std::size_t(2 * length - 1), false); // the offsets the head shows
    for (std::int64_t i = 0; i < queries; ++i) {
        for (std::int64_t j = 0; j < length; ++j) {
            const float v = cells[std::size_t(i * length + j)];
            if (!masked(v)) {
                ++counts[m.bucketOf[at(i, j)]][bitsOf(v)];
                unmasked[at(i, j)] = true;
            }
        }
    }
    // A bucket shows the map where it holds two offsets the head does not mask: a causal mask's
    // keys share bucket 0 with offset 0, which tells nothing (a causal ALiBi head of 12 keys has
    // every unmasked offset in a bucket of its own, and any Toeplitz head fits such a map).
    QHash<std::int64_t, int> shown;
    for (std::size_t k = 0; k < unmasked.size(); ++k) {
        if (unmasked[k])
            ++shown[m.bucketOf[k]];
    }
    QHash<std::int64_t, std::uint32_t> mode;
    QHash<std::uint32_t, int> values;
    for (auto b = counts.cbegin(); b != counts.cend(); ++b) {
        auto best = b->cbegin();
        for (auto c = b->cbegin(); c != b->cend(); ++c) {
            if (c.value() > best.value() || (c.value() == best.value() && c.key() < best.key()))
                best = c;
        }
        mode.insert(b.key(), best.key());
        values[best.key()] += 1;
    }
    HeadReading r;
    r.distinct = values.size();
    r.shared = std::int64_t(mode.size()) - r.distinct;
    for (std::int64_t i = 0; i < queries; ++i) {
        for (std::int64_t j = 0; j < length; ++j) {
            const float v = cells[std::size_t(i * length + j)];
            if (masked(v))
                continue;
            ++r.compared;
            const std::int64_t b = m.bucketOf[at(i, j)];
            const bool shows = shown.value(b) >= 2;
            r.evidence += shows ? 1 : 0;
            if (bitsOf(v) == mode.value(b))
                continue;
            r.evidenceDeviating += shows ? 1 : 0;
            if (r.deviating++ == 0) {
                r.row = i;
                r.col = j;
                r.bucket = b;
                r.value = v;
                const std::uint32_t bits = mode.value(b);
                std::memcpy(&r.expected, &bits, sizeof bits);
            }
        }
    }
    return r;
}

struct Reading
{
    Map map;
    std::vector<HeadReading> heads;
    std::int64_t deviating = 0, compared = 0, distinct = 0, evidence = 0, evidenceDeviating = 0, shared = 0;
};

QString mapWords(const Map &m)
{
    return u"relative_position_bucket(%1, %2, %3 buckets, max_distance %4)"_s
        .arg(m.mirrored ? u"i - j"_s : u"j - i"_s, m.params.causal ? u"causal"_s : u"bidirectional"_s)
        .arg(m.params.buckets)
        .arg(m.params.maxDistance);
}

// The declared map's parameters the reading's differs in, by their keys.
QStringList differences(const T5Params &found, const T5Params &declared)
{
    QStringList keys;
    if (found.causal != declared.causal)
        keys.append(u"t5-causal"_s);
    if (found.buckets != declared.buckets)
        keys.append(u"t5-buckets"_s);
    if (found.maxDistance != declared.maxDistance)
        keys.append(u"t5-max-distance"_s);
    return keys;
}

// The maps tried: the declared one, else T5's own (32 buckets, max_distance 128, bidirectional and
// causal), each also mirrored; the queries where T5Attention.forward puts them, the last q of the k
// keys (with a cache, position_bias[:, :, -seq_length:, :] of compute_bias(real_seq_length,
// key_length)), then at 0 .. q - 1 (compute_bias without a cache: a window said, or against a declared one
// position-offset, the cache's offset forgotten, candle#899). Those whose buckets
// hold two offsets of the table, which any Toeplitz head would not fit.
std::vector<Map> mapsTried(const std::optional<T5Params> &declared, std::int64_t queries, std::int64_t length)
{
    QList<T5Params> tried;
    if (declared)
        tried.append(*declared);
    for (const bool causal : {false, true}) {
        const T5Params t5 {32, 128, causal};
        if (!tried.contains(t5))
            tried.append(t5);
    }
    QList<std::int64_t> starts {length - queries};
    if (queries < length)
        starts.append(0);
    std::vector<Map> maps;
    for (const std::int64_t start : starts) {
        for (const T5Params &t5 : tried) {
            for (const bool mirrored : {false, true}) {
                Map m = mapOf(t5, mirrored, queries, length, start);
                if (showsTheMap(m))
                    maps.push_back(std::move(m));
            }
        }
    }
    return maps;
}

// The heads' slices of q rows the shape gives, if the rows are the shape's: rows of its last
// dimension, the product of the others (a table of another width, or of rows the shape does not
// give, is no stack of these heads).
std::optional<std::int64_t> slicesOf(const std::vector<std::int64_t> &shape, const TableRows &rows)
{
    const std::int64_t queries = shape[shape.size() - 2];
    std::int64_t slices = 1;
    for (std::size_t i = 0; i + 2 < shape.size(); ++i) {
        if (shape[i] < 1 || __builtin_mul_overflow(slices, shape[i], &slices))
            return std::nullopt;
    }
    std::int64_t stackRows = 0;
    if (shape[shape.size() - 3] < 1 || rows.cols() != shape.back()
        || __builtin_mul_overflow(slices, queries, &stackRows) || rows.rows() != stackRows)
        return std::nullopt;
    return slices;
}

// The window the queries were read at (a decode step's one row, or q rows), said with the other
// window the check cannot tell it from.
QString windowWords(std::int64_t queries, std::int64_t length, std::int64_t start)
{
    const std::int64_t cacheStart = length - queries;
    const bool one = queries == 1;
    const QString which = one ? u"the query"_s : u"the %1 queries"_s.arg(queries);
    const QString last = one
        ? u"position %1, the last of the %2 keys (a decode step's row)"_s.arg(cacheStart).arg(length)
        : u"positions %1..%2, the last of the %3 keys"_s.arg(cacheStart).arg(length - 1).arg(length);
    const QString first = one ? u"position 0"_s : u"positions 0..%1"_s.arg(queries - 1);
    if (start == cacheStart)
        return u"%1 read at %2, as T5Attention.forward keeps %3 with a cache of %4 (position_bias[:, :, "
               "-seq_length:, :]); %5 would be as faithful a window, and the check cannot tell which the caller "
               "meant: --positions A:B declares it"_s.arg(which, last, one ? u"it"_s : u"them"_s)
                   .arg(cacheStart)
                   .arg(first + u", the first of the keys"_s);
    return u"%1 read at %2, the first of the %3 keys (compute_bias without a cache), where T5Attention.forward "
           "with a cache of %4 keys keeps %5; both windows are faithful, and the check cannot tell which the "
           "caller meant: --positions A:B declares it"_s.arg(which, first)
               .arg(length)
               .arg(cacheStart)
               .arg(last);
}

} // namespace

std::optional<TableMatch> read(const std::vector<std::int64_t> &shape, const TableRows &rows,
                               const std::optional<T5Params> &declared)
{
    if (shape.size() < 3 || shape.back() < 2 || shape.back() > kMaxLength)
        return std::nullopt;
    // A head of q queries over k keys: q = k without a cache, q < k with one (q = 1 a decode step's
    // row, [1, H, 1, L]).
    const std::int64_t length = shape.back();
    const std::int64_t queries = shape[shape.size() - 2];
    if (queries < 1 || queries > length)
        return std::nullopt;
    const std::int64_t heads = shape[shape.size() - 3];
    const std::optional<std::int64_t> sliceCount = slicesOf(shape, rows);
    if (!sliceCount)
        return std::nullopt;
    const std::int64_t slices = *sliceCount;
    const std::vector<Map> maps = mapsTried(declared, queries, length);
    if (maps.empty())
        return std::nullopt;
    std::vector<Reading> readings(maps.size());
    for (std::size_t k = 0; k < maps.size(); ++k)
        readings[k].map = maps[k];
    std::vector<float> cells(std::size_t(queries * length));
    for (std::int64_t s = 0; s < slices; ++s) {
        QString error;
        if (!rows.read(s * queries, queries, cells.data(), error))
            return std::nullopt;
        const ValueFormat format = representableFormat(cells.data(), std::int64_t(cells.size()));
        for (Reading &r : readings) {
            const HeadReading h = readHead(cells, queries, length, r.map, format);
            r.deviating += h.deviating;
            r.compared += h.compared;
            r.distinct = std::max(r.distinct, h.distinct);
            r.shared += h.shared;
            r.evidence += h.evidence;
            r.evidenceDeviating += h.evidenceDeviating;
            r.heads.push_back(h);
        }
    }
    // The map with the fewest cells off their bucket's value; of those, the one whose buckets hold
    // values of their own (a learned weight's buckets differ): a map of finer buckets fits any head of
    // coarser ones, its buckets sharing values (a decode step's row of the encoder's 16 buckets a side
    // fits the decoder's 32, whose row holds only keys before the query). Then the declared one first.
    const auto best = std::min_element(readings.begin(), readings.end(), [](const Reading &a, const Reading &b) {
        return a.deviating < b.deviating || (a.deviating == b.deviating && a.shared < b.shared);
    });
    // A map holds where at most one cell in a hundred is off, and one in ten of the cells that show it
    // (those of buckets of more than one offset: a bias of another family differs there), and the
    // buckets hold values of their own.
    if (best->compared == 0 || best->distinct < 2 || 100 * best->deviating > best->compared
        || 10 * best->evidenceDeviating > best->evidence || best->evidence < 16)
        return std::nullopt;
    const Map &m = best->map;
    TableMatch match;
    match.family = Encoding::T5;
    match.table = kTable;
    match.findings = {{u"buckets"_s, m.params.buckets},
                      {u"max_distance"_s, m.params.maxDistance},
                      {u"bidirectional"_s, !m.params.causal}};
    match.unreferenced = u"T5's position_bias holds the learned relative_attention_bias weight, which no formula "
                         "gives; its structure was read per bucket"_s;
    match.referenceText = u"T5's position_bias, each head constant on the buckets of "_s + mapWords(m);
    // The map it read, which a stack checked against this one is read with (CheckTensor's
    // nameByReferenceStack): the values are learned, the buckets are T5's.
    Params read;
    read.encoding = Encoding::T5;
    read.t5 = m.params;
    match.params = read;
    const QString layout = u"%1 heads of %2 x %3 (shape %4)"_s.arg(slices).arg(queries).arg(length).arg([&] {
        QStringList dims;
        for (const std::int64_t d : shape)
            dims.append(QString::number(d));
        return u"("_s + dims.join(u", "_s) + u")"_s;
    }());
    match.notes.append(layout + u", read per bucket (modeling_t5.py, T5Attention.compute_bias)"_s);
    // The queries' window, a parameter of the reading: either is faithful, said; a declared window
    // judges it (CheckTensor).
    const std::int64_t cacheStart = length - queries;
    if (cacheStart > 0) {
        PositionWindow window {m.start, m.start + queries - 1, false, true, {}};
        window.ambiguity = windowWords(queries, length, m.start);
        match.positions = window;
        match.notes.append(window.ambiguity);
    }
    if (m.mirrored)
        match.mistakes.append(CheckMistakes::kRelativeReversed);
    if (declared && !(m.params == *declared))
        match.mistakes += differences(m.params, *declared);
    QStringList lines;
    if (m.mirrored)
        lines.append(u"the buckets are those of i - j where T5 buckets j - i (memory_position - "
                     "context_position): the offsets are mirrored"_s);
    if (declared && !(m.params == *declared))
        lines.append(u"the heads are constant on the buckets of %1, not on the declared %2"_s.arg(
            mapWords(m), mapWords(mapOf(*declared, false, 1, 1, 0))));
    if (best->deviating > 0) {
        match.mistakes.append(kCellBroken);
        const auto first = std::find_if(best->heads.begin(), best->heads.end(),
                                        [](const HeadReading &h) { return h.deviating > 0; });
        const std::int64_t index = first - best->heads.begin();
        QStringList where;
        for (std::size_t s = 0; s < best->heads.size(); ++s) {
            if (best->heads[s].deviating > 0)
                where.append(u"head %1 (%2)"_s.arg(std::int64_t(s) % std::max<std::int64_t>(heads, 1))
                                 .arg(best->heads[s].deviating));
        }
        lines.append(u"%1 cells hold another value than their bucket's: head %2, query %3, key %4 holds %5 where "
                     "bucket %6 holds %7 in its other cells; by head: %8"_s.arg(best->deviating)
                         .arg(index % std::max<std::int64_t>(heads, 1))
                         .arg(first->row)
                         .arg(first->col)
                         .arg(NumberText::compact(first->value, 7))
                         .arg(first->bucket)
                         .arg(NumberText::compact(first->expected, 7))
                         .arg(where.join(u", "_s)));
        match.maxAbsError = std::fabs(double(first->value) - double(first->expected));
        match.worstRow = first->row;
        match.worstColumn = first->col;
    }
    if (match.mistakes.isEmpty() && declared) {
        // The declared map holds every head: the declared reference, its free values (the weight's,
        // one per bucket and head) read from the table as compute_bias gathers them.
        match.verdict = CheckVerdict::Correct;
        match.referenceText = u"T5's position_bias of the declared "_s + mapWords(m)
            + u", each bucket's value the relative_attention_bias weight read from the table"_s;
        match.correctAgainst = CheckDiagnosis::declaredReference(match.referenceText);
        match.diagnosis = u"T5's position_bias as T5Attention.compute_bias forms it: each of the %1 heads constant "
                          "on the buckets of the declared %2, every cell its bucket's value (the learned "
                          "relative_attention_bias weight, read per bucket and head from the table: the weight "
                          "itself no formula gives)"_s.arg(slices)
                              .arg(mapWords(m));
    } else if (match.mistakes.isEmpty()) {
        match.verdict = CheckVerdict::Learned;
        match.diagnosis = u"T5's position_bias: each of the %1 heads constant on the buckets of %2, its values "
                          "the learned relative_attention_bias weight's (no formula gives them: learned, never "
                          "correct)"_s.arg(slices)
                              .arg(mapWords(m));
    } else {
        match.verdict = CheckVerdict::Mistake;
        match.diagnosis = lines.join(u"; "_s);
    }
    return match;
}

QStringList mistakeIds()
{
    return {kCellBroken, u"t5-causal"_s, u"t5-buckets"_s, u"t5-max-distance"_s, CheckMistakes::kPositionOffset};
}

} // namespace posenc::T5BiasStack
