#include "CheckApplyHeads.h"

#include "check/TableMatch.h"
#include "check/VerdictNames.h"
#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyNotTurned.h"
#include "core/Description.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::CheckApplyHeads {

namespace {

// The leading dimensions: batch (1 for a rank 3 array), then the two of heads and positions.
struct Dims
{
    std::int64_t batch = 1, first = 1, second = 1, width = 1;
};

Dims dimsOf(const std::vector<std::int64_t> &shape)
{
    const std::size_t n = shape.size();
    return {n == 4 ? shape[0] : 1, shape[n - 3], shape[n - 2], shape[n - 1]};
}

// The worse of two verdicts: a mistake in any head, else a head unknown, else a variant.
int rank(CheckVerdict v)
{
    switch (v) {
    case CheckVerdict::Mistake:
        return 4;
    case CheckVerdict::Unknown:
        return 3;
    case CheckVerdict::Variant:
    case CheckVerdict::Learned:
        return 2;
    case CheckVerdict::Correct:
        return 1;
    }
    return 3;
}

QString shapeText(const std::vector<std::int64_t> &shape)
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    return u"["_s + dims.join(u", "_s) + u"]"_s;
}

QString orderText(Order order, bool batch)
{
    const QString dims = order == Order::HeadsFirst ? u"H, L, D"_s : u"L, H, D"_s;
    return u"["_s + (batch ? u"B, "_s : QString()) + dims + u"]"_s;
}

// The names of a head's --json entries under `key`: a mistake's ("mistakes") or another verdict's
// guess ("guessed_mistakes"); both where no key is given.
QStringList mistakesOf(const QString &entries, const QString &key = {})
{
    const QJsonObject o = QJsonDocument::fromJson((u"{"_s + entries + u"}"_s).toUtf8()).object();
    QStringList ids;
    for (const QString &k : {u"mistakes"_s, u"guessed_mistakes"_s}) {
        if (!key.isEmpty() && k != key)
            continue;
        for (const QJsonValue &v : o.value(k).toArray())
            ids.append(v.toString());
    }
    return ids;
}

// Whether a head's --json entries say Y is X there, no pair turned ("not_turned": true).
bool notTurnedOf(const QString &entries)
{
    return QJsonDocument::fromJson((u"{"_s + entries + u"}"_s).toUtf8()).object().value(u"not_turned"_s).toBool();
}

// The heads (batch-major indices) as runs: "batch 0, heads 4..7; batch 1, head 2".
QString headsText(const std::vector<std::int64_t> &indices, std::int64_t heads)
{
    QStringList runs;
    std::size_t i = 0;
    while (i < indices.size()) {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1 && indices[j + 1] / heads == indices[i] / heads)
            ++j;
        const std::int64_t b = indices[i] / heads, h0 = indices[i] % heads, h1 = indices[j] % heads;
        runs.append(j == i ? u"batch %1, head %2"_s.arg(b).arg(h0) : u"batch %1, heads %2..%3"_s.arg(b).arg(h0).arg(h1));
        i = j + 1;
    }
    return runs.join(u"; "_s);
}

// The line of the heads left unturned where others are turned (a rotation applied to a subset of
// the heads: a slice or a loop over heads that stops short), or nothing.
QString subsetLine(const std::vector<ApplyResult> &results, std::int64_t heads)
{
    std::vector<std::int64_t> still;
    bool named = false;
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (notTurnedOf(results[i].json)) {
            still.push_back(std::int64_t(i));
            named = named || results[i].verdict == CheckVerdict::Mistake;
        }
    }
    if (still.empty() || still.size() == results.size())
        return {};
    return u"not turned (Y equals X there): %1; the other %2 heads turned: a rotation applied to a subset of the "
           "heads%3"_s.arg(headsText(still, heads))
        .arg(std::ssize(results) - std::ssize(still))
        .arg(named ? QString()
                   : u" (declare the reference, --expect rope and its flags, --preset or --config, to have it named "
                     "rope-not-applied)"_s);
}

} // namespace

bool isHeads(const std::vector<std::int64_t> &shape)
{
    if (shape.size() < 3)
        return false;
    std::int64_t leading = 0;
    for (std::size_t i = 0; i + 2 < shape.size(); ++i)
        leading += shape[i] > 1 ? 1 : 0;
    return leading > 0 || shape.size() > 4;
}

QString acceptedShapes()
{
    return u"[L, D], [H, L, D], [B, H, L, D] or [B, L, H, D]"_s;
}

RowMatrixXf head(const RowMatrixXf &all, const std::vector<std::int64_t> &shape, Order order, std::int64_t index)
{
    const Dims d = dimsOf(shape);
    const std::int64_t heads = order == Order::HeadsFirst ? d.first : d.second;
    const std::int64_t length = order == Order::HeadsFirst ? d.second : d.first;
    const std::int64_t b = index / heads, h = index % heads;
    RowMatrixXf out(length, d.width);
    for (std::int64_t l = 0; l < length; ++l) {
        const std::int64_t row
            = order == Order::HeadsFirst ? (b * heads + h) * length + l : (b * length + l) * heads + h;
        out.row(l) = all.row(row);
    }
    return out;
}

namespace {

const QString kAlongHeads = u"rope-along-heads-axis"_s;

// Every head of one reading checked, or why a head's check refused.
struct Reading
{
    Order order = Order::HeadsFirst;
    std::vector<ApplyResult> results;
    std::optional<QString> refused;
    CheckVerdict verdict = CheckVerdict::Correct;
    std::int64_t worst = 0;
    bool atIds = true;
    // Stopped at its first head no rotation explains (that head the last of results): enough to say
    // the reading explains nothing, and a head whose angles are no RoPE's costs a whole search.
    bool stopped = false;
    // Whether a head read so far holds a row not 0 in X or Y: a head of zeros says nothing of a
    // rotation (ApplyNotTurned::blankRows), and its unknown is not the whole's where another head tells.
    bool evidence = false;
};

bool explained(CheckVerdict v)
{
    return v == CheckVerdict::Correct || v == CheckVerdict::Variant;
}

// Reads a reading's heads from the first it has not read; with `stop`, only up to the first head no
// rotation explains.
void readOn(Reading &reading, const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &shape,
            const CheckOne &one, bool stop)
{
    const Dims d = dimsOf(shape);
    const bool batch = shape.size() == 4;
    const std::int64_t heads = reading.order == Order::HeadsFirst ? d.first : d.second;
    reading.stopped = false;
    for (auto i = std::int64_t(reading.results.size()); i < d.batch * heads; ++i) {
        const RowMatrixXf xs = head(x, shape, reading.order, i), ys = head(y, shape, reading.order, i);
        const bool blank = std::ssize(ApplyNotTurned::blankRows(xs, ys)) == xs.rows();
        auto r = one(xs, ys, reading.atIds ? i / heads : kNoIds);
        if (const auto *refused = std::get_if<QString>(&r)) {
            reading.refused = i == 0 ? u"head 0 of %1 read as %2: %3"_s.arg(shapeText(shape),
                                                                           orderText(reading.order, batch), *refused)
                                     : u"batch %1, head %2: %3"_s.arg(i / heads).arg(i % heads).arg(*refused);
            return;
        }
        reading.results.push_back(std::get<ApplyResult>(std::move(r)));
        reading.evidence = reading.evidence || !blank;
        if (!blank && rank(reading.results.back().verdict) > rank(reading.verdict)) {
            reading.verdict = reading.results.back().verdict;
            reading.worst = i;
        }
        if (stop && !explained(reading.verdict) && i + 1 < d.batch * heads) {
            reading.stopped = true;
            return;
        }
    }
    if (!reading.evidence) // every head 0 in X and Y: nothing tells, as each head says
        reading.verdict = CheckVerdict::Unknown;
}

Reading readAs(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &shape, Order order,
               const CheckOne &one, bool atIds = true, bool stop = false)
{
    Reading reading;
    reading.order = order;
    reading.atIds = atIds;
    readOn(reading, x, y, shape, one, stop);
    return reading;
}

// What a reading's report says beyond its heads: the verdict that both readings make, its first line,
// a mistake of the axes and the --json's further entries.
struct Over
{
    std::optional<CheckVerdict> verdict;
    QString line, mistake, json;
};

// The heads' report of one reading: a line for the reading, a line a head, the worst head in full.
ApplyResult combined(const Reading &reading, const std::vector<std::int64_t> &shape, const Over &over = {})
{
    const Dims d = dimsOf(shape);
    const bool batch = shape.size() == 4;
    const Order order = reading.order;
    const std::int64_t heads = order == Order::HeadsFirst ? d.first : d.second;
    const std::int64_t count = std::int64_t(reading.results.size());
    const std::int64_t shown = reading.worst;
    ApplyResult out;
    out.verdict = over.verdict.value_or(reading.verdict);
    // A head's mistakes are the whole's; a head's guesses stay guesses (JSON's guessed_mistakes).
    QStringList mistakes, guessed, headEntries, headLines;
    if (!over.mistake.isEmpty())
        mistakes.append(over.mistake);
    const auto gather = [](QStringList &into, const QStringList &ids) {
        for (const QString &id : ids) {
            if (!into.contains(id))
                into.append(id);
        }
    };
    for (std::int64_t i = 0; i < count; ++i) {
        const ApplyResult &r = reading.results[std::size_t(i)];
        gather(mistakes, mistakesOf(r.json, u"mistakes"_s));
        gather(guessed, mistakesOf(r.json, u"guessed_mistakes"_s));
        headEntries.append(u"{\"batch\": %1, \"head\": %2, %3}"_s.arg(i / heads).arg(i % heads).arg(r.json));
        headLines.append(u"  batch %1, head %2: %3"_s.arg(i / heads).arg(i % heads).arg(
            r.lines.isEmpty() ? CheckWords::verdict(r.verdict) : r.lines.constFirst()));
    }
    const ApplyResult &worst = reading.results[std::size_t(shown)];
    if (!over.line.isEmpty())
        out.lines.append(over.line);
    out.lines.append({u"X and Y of %1 read as %2: %3 heads of %4 positions, each checked on its own"_s
                     .arg(shapeText(shape), orderText(order, batch))
                     .arg(count)
                     .arg(order == Order::HeadsFirst ? d.second : d.first)});
    out.lines += headLines;
    if (const QString subset = subsetLine(reading.results, heads); !subset.isEmpty())
        out.lines.append(subset);
    out.lines.append(u"batch %1, head %2 in full:"_s.arg(shown / heads).arg(shown % heads));
    out.lines += worst.lines;
    // Every result has a diagnosis: the over-reading's, else the shown head's, named.
    QString diagnosis;
    if (!over.json.contains(u"\"diagnosis\""_s)) {
        const QJsonObject shownHead = QJsonDocument::fromJson((u"{"_s + worst.json + u"}"_s).toUtf8()).object();
        diagnosis = u", \"diagnosis\": "_s
            + Description::jsonString(u"batch %1, head %2: %3"_s.arg(shown / heads)
                                          .arg(shown % heads)
                                          .arg(shownHead.value(u"diagnosis"_s).toString()));
    }
    out.json = u"\"verdict\": \"%1\", \"tensor_shape\": \"%2\", \"tensor_layout\": \"%3\", %4, "
               "\"worst_head\": {\"batch\": %5, \"head\": %6}, \"heads\": [%7]"_s
                   .arg(CheckWords::verdict(out.verdict), shapeText(shape), orderText(order, batch),
                        CheckWords::mistakesJson(out.verdict, mistakes, guessed))
                   .arg(shown / heads)
                   .arg(shown % heads)
                   .arg(headEntries.join(u", "_s))
               + diagnosis + over.json;
    return out;
}

// The reading a declaration picks: the axis of --apply-heads' count holds the heads, the axis of the ids'
// length the positions; nothing where it names neither axis or both.
std::optional<Order> declaredOrder(const Dims &d, const Axes &axes)
{
    if (d.first == d.second)
        return std::nullopt;
    if (axes.heads && (*axes.heads == d.first || *axes.heads == d.second))
        return *axes.heads == d.first ? Order::HeadsFirst : Order::PositionsFirst;
    if (axes.positions && (*axes.positions == d.first || *axes.positions == d.second))
        return *axes.positions == d.second ? Order::HeadsFirst : Order::PositionsFirst;
    return std::nullopt;
}

// Whether Y turns a reading's first head (its --json's "not_turned" not set).
bool firstHeadTurned(const Reading &r)
{
    return !r.results.empty() && !notTurnedOf(r.results.front().json);
}

// Whether every head read holds its rows at one position (positions-constant): the heads' axis read
// as the positions', each "head" one position's heads, as a rotation read across its heads is.
bool onePositionEach(const Reading &r)
{
    return !r.results.empty() && std::all_of(r.results.begin(), r.results.end(), [](const ApplyResult &head) {
        return mistakesOf(head.json).contains(ApplyCheck::kPositionsConstant);
    });
}

QString readingWords(const Reading &r, const std::vector<std::int64_t> &shape)
{
    const Dims d = dimsOf(shape);
    const std::int64_t heads = r.order == Order::HeadsFirst ? d.first : d.second;
    const std::int64_t length = r.order == Order::HeadsFirst ? d.second : d.first;
    const QString verdict = CheckWords::verdict(r.verdict);
    const std::int64_t last = std::int64_t(r.results.size()) - 1;
    const QString unexplained = r.stopped ? u"no rotation explains its batch %1, head %2"_s.arg(last / heads).arg(last % heads)
                                          : u"no rotation explains it"_s;
    return u"read as %1 (%2 heads of %3 positions) %4"_s.arg(orderText(r.order, shape.size() == 4))
        .arg(heads)
        .arg(length)
        .arg(explained(r.verdict) ? u"it is "_s + verdict : u"%1 (%2)"_s.arg(unexplained, verdict));
}

// Of two readings, one explained and the other not: where the reference declared in full is what
// every head of the explained one equals (correct, not a variant) and that reading holds fewer heads
// than positions, it is the reading, the report saying so. A query turned along its heads' axis
// (open_lm#4) read the other way equals the reference too, but as heads as many as the array's
// positions: left unknown, as without a reference.
std::optional<Over> settledByReference(const Reading &good, const Reading &bad, const std::vector<std::int64_t> &shape,
                                       const Axes &axes)
{
    const Dims d = dimsOf(shape);
    const std::int64_t heads = good.order == Order::HeadsFirst ? d.first : d.second;
    const std::int64_t length = good.order == Order::HeadsFirst ? d.second : d.first;
    if (!axes.reference || good.verdict != CheckVerdict::Correct || bad.verdict == CheckVerdict::Correct
        || heads >= length)
        return std::nullopt;
    const bool batch = shape.size() == 4;
    const QString why = u"the reference declared settles which axis holds the heads: %1 (each head equal to the "
                        "reference declared), %2"_s.arg(readingWords(good, shape), readingWords(bad, shape));
    const ApplyResult &first = good.results.front();
    const QString head
        = QJsonDocument::fromJson((u"{"_s + first.json + u"}"_s).toUtf8()).object().value(u"diagnosis"_s).toString();
    return Over {std::nullopt, why, QString(),
                 u", \"diagnosis\": %1, \"readings\": [{\"tensor_layout\": \"%2\", \"verdict\": \"%3\"}, "
                 "{\"tensor_layout\": \"%4\", \"verdict\": \"%5\"}]"_s.arg(
                     Description::jsonString(why + u"; batch 0, head 0: "_s + head), orderText(good.order, batch),
                     CheckWords::verdict(good.verdict), orderText(bad.order, batch), CheckWords::verdict(bad.verdict))};
}

} // namespace

std::variant<ApplyResult, QString> check(const RowMatrixXf &x, const RowMatrixXf &y,
                                         const std::vector<std::int64_t> &shape, const CheckOne &one,
                                         const Axes &axes)
{
    if (shape.size() > 4)
        return u"X and Y of %1: --apply takes %2"_s.arg(shapeText(shape), acceptedShapes());
    const Dims d = dimsOf(shape);
    if (axes.heads && d.first != d.second && *axes.heads != d.first && *axes.heads != d.second)
        return u"--apply-heads %1: X and Y of %2 have no axis of %1 heads (a query's heads are its second or third "
               "dimension: %3 or %4)"_s.arg(*axes.heads)
            .arg(shapeText(shape))
            .arg(d.first)
            .arg(d.second);
    const std::optional<Order> declared = declaredOrder(d, axes);
    Reading main = readAs(x, y, shape, declared.value_or(Order::HeadsFirst), one);
    const Order otherOrder = main.order == Order::HeadsFirst ? Order::PositionsFirst : Order::HeadsFirst;
    // An axis of 1: one head of L positions or L heads of one position each, the second read only where
    // the first explains nothing.
    if (!declared && std::min(d.first, d.second) == 1) {
        if (!main.refused && main.verdict != CheckVerdict::Unknown)
            return combined(main, shape);
        Reading other = readAs(x, y, shape, otherOrder, one);
        if (!other.refused && other.verdict != CheckVerdict::Unknown)
            return combined(other, shape);
        return main.refused ? std::variant<ApplyResult, QString>(*main.refused) : combined(main, shape);
    }
    // The other reading only where it could change the answer: this one refused or not explained, or
    // no declaration picked it.
    if (declared && !main.refused && explained(main.verdict))
        return combined(main, shape);
    // The reading the ids' length did not pick reads its rows at their index.
    // Read up to its first head no rotation explains, the rest only where the report shows them.
    Reading other = readAs(x, y, shape, otherOrder, one, !(declared && axes.positions && !axes.heads), true);
    const auto finished = [&] {
        if (other.stopped)
            readOn(other, x, y, shape, one, false);
        return !other.refused;
    };
    if (main.refused && other.refused)
        return *main.refused;
    if (main.refused || other.refused) {
        if (declared && main.refused)
            return *main.refused;
        if (main.refused && !finished())
            return *main.refused;
        return combined(main.refused ? other : main, shape);
    }
    if (declared) {
        if (!explained(other.verdict))
            return combined(main, shape);
        // Each declared head's rows turned alike, a position a head: RoPE along the heads' axis.
        const QString why = u"mistake (%1): Y is X turned along its heads' axis: %2, but %3: the positions were "
                            "taken from the heads' axis (%4 declared)"_s.arg(kAlongHeads, readingWords(main, shape),
                                                                             readingWords(other, shape),
                                                                             axes.heads ? u"--apply-heads"_s
                                                                                        : u"--position-ids"_s);
        return combined(main, shape,
                        {CheckVerdict::Mistake, why, kAlongHeads, u", \"diagnosis\": "_s + Description::jsonString(why)});
    }
    if (explained(main.verdict) == explained(other.verdict)) {
        // Both explained, or neither: the reading whose first head Y turns (read across the heads'
        // axis, a head's rows all lie at one position, the first head's at 0: Y is X there), then the
        // worse verdict, then the heads first, as transformers' apply_rotary_pos_emb takes it.
        const bool mainTurns = firstHeadTurned(main), otherTurns = firstHeadTurned(other);
        if (explained(main.verdict) || (mainTurns && !otherTurns))
            return combined(main, shape);
        if (!finished())
            return combined(main, shape);
        // One reading's heads each at one position and the other's not: that one read across the heads.
        if (onePositionEach(main) != onePositionEach(other))
            return combined(onePositionEach(main) ? other : main, shape);
        if (mainTurns != otherTurns)
            return combined(other, shape);
        return combined(rank(main.verdict) >= rank(other.verdict) ? main : other, shape);
    }
    // One reading explained, the other not: which axis holds the heads decides, and the array cannot.
    const Reading &good = explained(main.verdict) ? main : other;
    const Reading &bad = explained(main.verdict) ? other : main;
    const Dims dd = dimsOf(shape);
    const std::int64_t goodHeads = good.order == Order::HeadsFirst ? dd.first : dd.second;
    const std::int64_t badHeads = bad.order == Order::HeadsFirst ? dd.first : dd.second;
    if (const auto settled = settledByReference(good, bad, shape, axes))
        return combined(good, shape, *settled);
    // Axes of one length: no count tells them apart, only a dump of another length.
    const QString declare = dd.first == dd.second
        ? u"both axes are %1 long, so no count can say which: dump X and Y at another length"_s.arg(dd.first)
        : u"declare the heads: --apply-heads %1 or --apply-heads %2"_s.arg(goodHeads).arg(badHeads);
    const QString why = u"unknown: which axis holds the heads, the array cannot say: %1; %2, as a rotation along the "
                        "heads' axis would be (%3); %4"_s.arg(readingWords(good, shape), readingWords(bad, shape),
                                                              kAlongHeads, declare);
    const bool batch = shape.size() == 4;
    return combined(good, shape,
                    {CheckVerdict::Unknown, why, QString(),
                     u", \"diagnosis\": %1, \"readings\": [{\"tensor_layout\": \"%2\", \"verdict\": \"%3\"}, "
                     "{\"tensor_layout\": \"%4\", \"verdict\": \"%5\"}]"_s
                         .arg(Description::jsonString(why), orderText(good.order, batch), CheckWords::verdict(good.verdict),
                              orderText(bad.order, batch), CheckWords::verdict(bad.verdict))});
}

} // namespace posenc::CheckApplyHeads
