// posenc check --apply of one or two rows (ApplyFewRows.h): HF's apply_rotary_pos_emb
// (modeling_llama.py: q * cos + rotate_half(q) * sin) at the rows' positions, the reference's
// inv_freq and attention_factor from modeling_rope_utils.py (RopeFrequencies).
#include "check/rope/ApplyFewRows.h"

#include "check/TableMatch.h"
#include "check/rope/ApplyIds.h"
#include "check/rope/ApplyReference.h"
#include "check/rope/RopeCheckWords.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc::ApplyFewRows {

namespace {

QString rowsWord(std::int64_t rows)
{
    return rows == 1 ? u"one row"_s : u"%1 rows"_s.arg(rows);
}

// "rope_type default (rope_theta 10000), attention factor 1", as the check's references are said.
QString referenceWords(const Params &reference)
{
    RopeFit::Hypothesis words;
    words.params = reference;
    words.amplitude = RopeFrequencies::attentionFactor(reference);
    return RopeCheckWords::reference(words).section(u", "_s, 2);
}

// What the rows show without a reference: the pairing and the amplitude, not the frequencies.
void undeclared(ApplyCheck::Result &result, std::int64_t rows)
{
    result.verdict = CheckVerdict::Unknown;
    result.diagnosis
        = u"Y is X turned pair by pair (%1 pairs, the table's and the rotation's alike), times %2, in %3: a row's "
           "angles are each pair's frequency times the row's position, so %3 cannot tell the frequencies from the "
           "position (any position p fits the frequencies angle / p)%4; declare the reference (--expect rope and its "
           "flags, --preset or --config) and the position (--position-ids) to have %5 compared"_s
              .arg(ApplyPairs::layoutWords(result.rotation))
              .arg(result.attentionFactor)
              .arg(rowsWord(rows),
                   rows > 1 ? u", and two rows give only each frequency times their positions' difference"_s
                            : QString(),
                   rows == 1 ? u"it"_s : u"them"_s);
}

} // namespace

void read(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared)
{
    result.rotation = r.geometry.rotation;
    result.table = r.geometry.table;
    result.attentionFactor = r.factor;
    result.rotaryStart = r.geometry.col0;
    result.rotaryDim = r.geometry.width;
    const std::int64_t rows = x.rows();
    if (!declared.reference) {
        undeclared(result, rows);
        return;
    }
    const Params &reference = *declared.reference;
    QStringList lines;
    const std::int64_t rotary = RopeFrequencies::rotaryDim(reference.rope);
    if (rotary != r.geometry.width) {
        result.mistakes.append(ApplyCheck::kRotaryDim);
        lines.append(u"Y turns %1 columns (from column %2), where the reference declared rotates rotary_dim %3"_s
                         .arg(r.geometry.width)
                         .arg(r.geometry.col0)
                         .arg(rotary));
        ApplyPairs::concludeMistakes(result, lines, QString());
        return;
    }
    ApplyPairs::layoutMistakes(result, declared.layout, lines);
    const FrequencySchedule schedule = RopeFrequencies::schedule(reference);
    const double factor = RopeFrequencies::attentionFactor(reference);
    const double within = r.factorUncertainty() + u;
    if (std::fabs(r.factor / factor - 1.0) > within) {
        const bool missing = std::fabs(r.factor - 1.0) <= within;
        result.mistakes.append(missing ? ApplyReference::kAttentionFactorMissing : ApplyReference::kAttentionFactor);
        lines.append(u"Y is X turned times %1, where the reference declared multiplies cos and sin by its attention "
                     "factor %2"_s.arg(r.factor)
                         .arg(factor));
    }
    const ApplyPairs::AxisPairs axis
        = ApplyPairs::AxisPairs::of(schedule.w, std::vector<bool>(schedule.w.size(), true));
    const std::vector<std::int64_t> &ids = declared.ids;
    std::int64_t maxId = std::int64_t(1) << 20;
    for (const std::int64_t id : ids)
        maxId = std::max(maxId, 2 * id + 1);
    std::vector<double> angle(std::size_t(r.geometry.pairs())), unc(angle.size()), turned(angle.size());
    std::vector<std::int64_t> positions(std::size_t(rows), -1);
    QStringList away;
    for (std::int64_t p = 0; p < rows; ++p) {
        ApplyPairs::rowAngles(x, y, p, r.geometry, u, angle.data(), nullptr, unc.data());
        const std::vector<std::int64_t> hints
            = ids.empty() ? std::vector<std::int64_t> {} : std::vector {ids[std::size_t(p)]};
        const std::int64_t at = ApplyPairs::readId(axis, angle.data(), unc.data(), u, hints, maxId);
        positions[std::size_t(p)] = at;
        if (at < 0) {
            ++result.deviatingRows;
            continue;
        }
        for (std::size_t k = 0; k < turned.size(); ++k)
            turned[k] = double(at) * schedule.w[k];
        result.add(p, ApplyPairs::compareRow(x, y, p, r.geometry, factor, turned.data(), u));
        if (!ids.empty() && at != ids[std::size_t(p)])
            away.append(u"row %1 at position %2 where its --position-ids gives %3 (off by %4)"_s.arg(p)
                            .arg(at)
                            .arg(ids[std::size_t(p)])
                            .arg(at - ids[std::size_t(p)]));
    }
    result.positions = ApplyCheck::runsOf(positions);
    const auto unread = std::count(positions.begin(), positions.end(), -1);
    if (unread > 0) {
        result.mistakes.append(ApplyReference::kFrequencies);
        lines.append(u"%1 of the %2 turns at no position the reference declared gives (%3): its angles are other "
                     "frequencies' (%2 cannot say which parameter differs)"_s.arg(unread)
                         .arg(rowsWord(rows), referenceWords(reference)));
    } else if (!away.isEmpty()) {
        result.mistakes.append(CheckMistakes::kPositionOffset);
        lines.append(u"Y is X turned by the reference declared at another position than its id: %1"_s.arg(
            away.join(u", "_s)));
    }
    if (ApplyPairs::concludeMistakes(result, lines, u"their positions"_s))
        return;
    QStringList at; // runs of consecutive positions: "80..95", "100, 57"
    for (const ApplyCheck::PositionRun &run : result.positions)
        at.append(run.count == 1 ? QString::number(run.position)
                                 : u"%1..%2"_s.arg(run.position).arg(run.position + run.count - 1));
    const QString turnedWords = u"Y is X turned by the reference declared (%1) at position%2 %3, %4"_s.arg(
        referenceWords(reference), rows == 1 ? QString() : u"s"_s, at.join(u", "_s),
        ApplyPairs::layoutWords(result.rotation));
    if (ids.empty() && rows == 2 && positions[1] != positions[0]) {
        // Two rows of one sequence at positions read with the reference, judged as more rows are
        // (ApplyCheck::positionLines): at p, p + 1 a window of the sequence, its positions said, not
        // judged (rows after a cache of p tokens: a chunk's two); else the positions out of order.
        const QString line = ApplyCheck::positionLines(result, positions);
        if (!line.isEmpty()) {
            lines.append(line);
            ApplyPairs::concludeMistakes(result, lines, QString());
            return;
        }
        result.verdict = CheckVerdict::Correct;
        result.correctAgainst = u"the reference declared: "_s + referenceWords(reference);
        result.diagnosis = turnedWords;
        return;
    }
    if (ids.empty()) {
        result.verdict = CheckVerdict::Unknown;
        result.diagnosis = turnedWords
            + u"; %1 holds no position of its own: declare %2 (--position-ids, a decode step's the cache's length) to "
              "have it compared"_s.arg(rowsWord(rows), rows == 1 ? u"it"_s : u"them"_s);
        return;
    }
    if (rows == 1)
        result.positionOffset = 0;
    result.verdict = CheckVerdict::Correct;
    result.correctAgainst = u"the reference declared: "_s + referenceWords(reference);
    result.diagnosis = turnedWords + u", each row at its --position-ids"_s;
}

} // namespace posenc::ApplyFewRows
