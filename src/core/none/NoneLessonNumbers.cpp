#include "NoneLessonNumbers.h"

#include "core/Engine.h"
#include "core/LineWords.h"
#include "core/none/NopeOrder.h"

using namespace Qt::StringLiterals;

namespace posenc::NoneLessonNumbers {

using namespace LessonNumbers;

namespace {

const QString kLoaded = u"not here: loaded embedding rows need not have zero mean"_s;

// The cells of s·E a measured number may read: numbers are read on the GUI thread at every change
// of a parameter (LessonController::followModel), and 100 rows of d 1,048,576 took 1.4 s there.
// 2^21 cells (about 30 ms) hold 100 rows of every preset's width (d 16,384 and below).
constexpr std::int64_t kMeasuredCells = std::int64_t(1) << 21;

// The first key's weight for query t under the causal mask, where t is a position of the table.
Number causal(const Params &p, std::int64_t t)
{
    if (t >= p.maxLen)
        return none(u"not here: L is at most %1"_s.arg(t));
    return real(NopeOrder::causalWeight(t));
}

Number expected(const Params &p, std::int64_t t)
{
    if (t >= p.maxLen)
        return none(u"not here: L is at most %1"_s.arg(t));
    const auto norm = NopeOrder::expectedNorm(p, t);
    return norm ? real(*norm) : none(kLoaded);
}

bool tooWide(const Params &p, std::int64_t t)
{
    return (t + 1) * p.embeddingColumns() > kMeasuredCells;
}

QString unread(const Params &p, std::int64_t t)
{
    if (tooWide(p, t))
        return u"not here: rows 0 … %1 of s·E at d %2 are %3 cells, more than the %4 a lesson reads as the "
               "parameters change"_s.arg(t)
                   .arg(p.embeddingColumns())
                   .arg((t + 1) * p.embeddingColumns())
                   .arg(kMeasuredCells);
    return u"not here: rows 0 … %1 of s·E cannot be read"_s.arg(t);
}

// ‖h_t‖ for this seed (or the loaded rows): the mean of s·E's rows 0 … t, O(t·d).
std::optional<double> measured(const Params &p, std::int64_t t)
{
    if (t >= p.maxLen || !p.isValid() || tooWide(p, t))
        return std::nullopt;
    const Engine engine(p);
    if (engine.check(Quantity::Embedding, {0, std::min(t + 1, NopeOrder::kChunkRows), 0, p.embeddingColumns()}))
        return std::nullopt;
    const auto norms = NopeOrder::prefixNorms(engine, t + 1);
    return norms && std::ssize(*norms) == t + 1 ? std::optional(norms->back()) : std::nullopt;
}

Number measuredNumber(const Params &p, std::int64_t t)
{
    const auto norm = measured(p, t);
    return norm ? real(*norm) : none(unread(p, t));
}

// The position this seed's ‖h_t‖ stands for, s²σ²d/‖h_t‖² − 1.
Number readBack(const Params &p, std::int64_t t)
{
    const auto norm = measured(p, t);
    if (!norm)
        return none(unread(p, t));
    const auto position = NopeOrder::positionOfNorm(p, *norm);
    return position ? real(*position) : none(kLoaded);
}

} // namespace

QList<Entry> entries()
{
    return {
        {u"nope_weight_9"_s, u"1/(t + 1) at t = 9: the first key's weight, uniform attention under the causal mask"_s,
         [](const Params &p) { return causal(p, 9); }},
        {u"nope_weight_99"_s, u"… at t = 99"_s, [](const Params &p) { return causal(p, kQuoted); }},
        {u"nope_no_mask_lines"_s, u"the word for the figure's lines without the mask, from their pen"_s,
         [](const Params &) { return word(u"the %1 lines"_s.arg(LineWords::word(NopeOrder::kNoMaskPen))); }},
        {u"nope_weight_all"_s, u"1/L: every key's weight, uniform attention without the mask"_s,
         [](const Params &p) { return real(NopeOrder::bidirectionalWeight(p)); }},
        {u"nope_norm_0"_s, u"s·σ·√d: the expected norm of h_0, the output of a query that sees one key"_s,
         [](const Params &p) { return expected(p, 0); }},
        {u"nope_norm_99"_s, u"s·σ·√(d/100): the expected norm of h_99, the mean of 100 rows of s·E"_s,
         [](const Params &p) { return expected(p, kQuoted); }},
        {u"nope_norm_last"_s, u"s·σ·√(d/L): the expected norm of h at t = L − 1, every query's h without the mask"_s,
         [](const Params &p) { return expected(p, p.maxLen - 1); }},
        {u"nope_measured_99"_s, u"‖h_99‖ for this seed: the norm of the mean of s·E's rows 0 … 99"_s,
         [](const Params &p) { return measuredNumber(p, kQuoted); }},
        {u"nope_read_99"_s, u"the position ‖h_99‖ of this seed reads back as: s²σ²d/‖h_99‖² − 1"_s,
         [](const Params &p) { return readBack(p, kQuoted); }},
    };
}

} // namespace posenc::NoneLessonNumbers
