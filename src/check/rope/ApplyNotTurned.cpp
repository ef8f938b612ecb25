#include "check/rope/ApplyNotTurned.h"

#include "check/TableMatch.h"
#include "check/rope/ApplyIds.h"
#include "check/rope/RopeCheckWords.h"
#include "check/rope/RopeFit.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::ApplyNotTurned {

namespace {

// Room for Y's rounding in a cell: a few of its units of the larger value, and float32's own.
bool within(double yv, double xv, double c, double u)
{
    const double expected = c * xv;
    return std::fabs(yv - expected) <= 4.0 * u * std::max(std::fabs(yv), std::fabs(expected)) + 1e-30;
}

std::int64_t positionOf(const std::vector<std::int64_t> &ids, std::int64_t row)
{
    return ids.empty() ? row : ids[std::size_t(row)];
}

// The reference's words, as posenc check names one: "rope_type default (rope_theta 1e+06)".
QString referenceWords(const Params &reference)
{
    RopeFit::Hypothesis words;
    words.params = reference;
    words.amplitude = RopeFrequencies::schedule(reference).amplitude;
    return RopeCheckWords::reference(words).section(u", "_s, 2);
}

const QString kCauses = u"RoPE not applied (the rotated tensor dropped and its input kept: microsoft/SeerAttention#37 "
                        "cached the keys from before apply_rotary_pos_emb), or every row at position 0 (position_ids "
                        "all 0)"_s;

} // namespace

QString rowsText(const std::vector<std::int64_t> &rows)
{
    QStringList runs;
    std::size_t i = 0;
    while (i < rows.size()) {
        std::size_t j = i;
        while (j + 1 < rows.size() && rows[j + 1] == rows[j] + 1)
            ++j;
        runs.append(j == i ? u"row %1"_s.arg(rows[i]) : u"rows %1..%2"_s.arg(rows[i]).arg(rows[j]));
        i = j + 1;
    }
    if (runs.size() > 8)
        return runs.mid(0, 8).join(u", "_s) + u", …"_s;
    return runs.join(u", "_s);
}

std::optional<double> scaleOf(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows,
                              double u)
{
    // The factor from the largest |x| of the sample, then every cell held to it.
    double best = 0.0, c = 1.0;
    for (const std::int64_t p : rows)
        for (std::int64_t j = 0; j < x.cols(); ++j)
            if (std::fabs(double(x(p, j))) > best) {
                best = std::fabs(double(x(p, j)));
                c = double(y(p, j)) / double(x(p, j));
            }
    if (!(best > 0.0) || !std::isfinite(c) || !(c > 0.0))
        return std::nullopt;
    for (const std::int64_t p : rows)
        for (std::int64_t j = 0; j < x.cols(); ++j)
            if (!within(y(p, j), x(p, j), c, u))
                return std::nullopt;
    // Y equal to X within its rounding is said as 1.
    if (std::fabs(c - 1.0) <= 4.0 * u)
        c = 1.0;
    return c;
}

std::vector<std::int64_t> stillRows(const RowMatrixXf &x, const RowMatrixXf &y, double u,
                                    const std::vector<std::int64_t> &ids)
{
    std::vector<std::int64_t> still;
    for (std::int64_t p = 0; p < x.rows(); ++p) {
        if (positionOf(ids, p) == 0 || x.row(p).cwiseAbs().maxCoeff() == 0.0f)
            continue;
        bool same = true;
        for (std::int64_t j = 0; j < x.cols() && same; ++j)
            same = within(y(p, j), x(p, j), 1.0, u);
        if (same)
            still.push_back(p);
    }
    return still;
}

std::vector<std::int64_t> withoutRows(const std::vector<std::int64_t> &still, std::int64_t rows,
                                      const std::vector<std::int64_t> &ids)
{
    if (still.empty() || std::ssize(still) >= rows)
        return {};
    std::vector<std::int64_t> positions(static_cast<std::size_t>(rows));
    for (std::int64_t p = 0; p < rows; ++p)
        positions[std::size_t(p)] = positionOf(ids, p);
    for (const std::int64_t p : still)
        positions[std::size_t(p)] = -1;
    return positions;
}

void nameNoRotation(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, double u,
                    const ApplyCheck::Declared &declared)
{
    result.diagnosis = ApplyPairs::notTurned(u"its columns"_s);
    const double yMost = y.cwiseAbs().maxCoeff(), xMost = x.cwiseAbs().maxCoeff();
    if (!(xMost > 0.0) || yMost > u * xMost)
        return;
    result.diagnosis = u"Y is 0 in every cell where X is not: no rotation gives 0 of a nonzero X (a kernel that never "
                       "wrote these rows, as ml-explore/mlx#3494's single-token path, its grid N for B*N, left a "
                       "batch's other rows zero)"_s;
    if (!declared.reference)
        return;
    result.verdict = CheckVerdict::Mistake;
    result.mistakes.append(CheckMistakes::kCellsOverwritten);
}

void name(ApplyCheck::Result &result, double scale, std::int64_t rows, const ApplyCheck::Declared &declared)
{
    result.notTurned = true;
    const QString what = scale == 1.0 ? u"Y equals X in every column"_s
                                      : u"Y is X times %1 in every column"_s.arg(NumberText::compact(scale, 6));
    std::int64_t moving = -1; // the first row a rotation at its position turns
    for (std::int64_t p = 0; p < rows && moving < 0; ++p)
        moving = positionOf(declared.ids, p) != 0 ? p : -1;
    if (!declared.reference && moving >= 0 && !declared.ids.empty()) {
        // The positions declared: a RoPE of any rope_theta and type turns a row at position p > 0 by p
        // times its first pair's frequency (1 at the default type's), so no rotation at them turns none.
        result.verdict = CheckVerdict::Mistake;
        result.mistakes.append(kNotApplied);
        result.diagnosis = u"%1: no pair is turned, where --position-ids puts row %2 at position %3: every row is "
                           "at position 0 (or unturned), which no RoPE at the positions declared gives. %4 (a layer "
                           "that takes no positions, NoPE, turns nothing at any position)"_s.arg(what)
                               .arg(moving)
                               .arg(positionOf(declared.ids, moving))
                               .arg(kCauses);
        return;
    }
    if (!declared.reference) {
        result.verdict = CheckVerdict::Unknown;
        result.diagnosis = u"%1: no pair is turned. %2, or a layer that takes no positions (NoPE, as Llama 4's every "
                           "fourth layer); declare the reference (--expect rope and its flags, --preset, --config) and "
                           "Y unturned where it turns the rows is the mistake %3"_s.arg(what, kCauses, kNotApplied);
        return;
    }
    const FrequencySchedule s = RopeFrequencies::schedule(*declared.reference);
    const double factor = s.amplitude;
    const bool factorHolds = std::fabs(scale / factor - 1.0) <= 1e-3;
    result.params = std::nullopt;
    if (moving < 0 && factorHolds) {
        // Every --position-ids 0: RoPE at position 0 is cos 1, sin 0, Y = attention factor X.
        result.verdict = CheckVerdict::Correct;
        result.diagnosis = u"%1: every row's --position-ids is 0, where the declared reference (%2) turns nothing "
                           "and scales by its attention factor %3"_s.arg(what, referenceWords(*declared.reference),
                                                                         NumberText::compact(factor, 6));
        return;
    }
    result.verdict = CheckVerdict::Mistake;
    result.mistakes.append(kNotApplied);
    const std::int64_t at = moving < 0 ? 0 : positionOf(declared.ids, moving);
    const double angle = s.w.empty() ? 0.0 : double(at) * s.w.front();
    QString factorWords;
    if (!factorHolds)
        factorWords = u"; the declared attention factor %1 is not applied either (Y is X times %2)"_s.arg(
            NumberText::compact(factor, 6), NumberText::compact(scale, 6));
    else if (factor != 1.0)
        factorWords = u"; the declared attention factor %1 is applied, so the positions are more likely all 0 than "
                      "the rotation skipped"_s.arg(NumberText::compact(factor, 6));
    result.diagnosis = u"%1: no pair is turned, where the declared reference (%2) turns row %3, at position %4, by "
                       "%5 rad in its first pair: %6%7"_s.arg(what, referenceWords(*declared.reference))
                           .arg(moving)
                           .arg(at)
                           .arg(NumberText::compact(angle, 6))
                           .arg(kCauses, factorWords);
}

void nameOutcome(ApplyPairs::Outcome &outcome, double scale, const QString &reference)
{
    outcome.notTurned = true;
    const QString what = scale == 1.0 ? u"Y equals X in every column"_s
                                      : u"Y is X times %1 in every column"_s.arg(NumberText::compact(scale, 6));
    if (reference.isEmpty()) {
        outcome.verdict = CheckVerdict::Unknown;
        outcome.diagnosis = u"%1: no pair is turned. %2, or a layer that takes no positions; declare the prompt "
                            "(--prompt) and Y unturned is the mistake %3"_s.arg(what, kCauses, kNotApplied);
        return;
    }
    outcome.verdict = CheckVerdict::Mistake;
    outcome.mistakes.append(kNotApplied);
    outcome.diagnosis = u"%1: no pair is turned, where %2: %3"_s.arg(what, reference, kCauses);
}

std::vector<std::int64_t> zeroRows(const RowMatrixXf &x, const RowMatrixXf &y)
{
    std::vector<std::int64_t> zero;
    for (std::int64_t p = 0; p < x.rows(); ++p) {
        if (y.row(p).cwiseAbs().maxCoeff() == 0.0f && x.row(p).cwiseAbs().maxCoeff() > 0.0f)
            zero.push_back(p);
    }
    return zero;
}

bool nameZeroRows(ApplyCheck::Result &result, const std::vector<std::int64_t> &zero,
                  const std::vector<std::int64_t> &still, const ApplyCheck::Declared &declared,
                  std::vector<std::int64_t> &positions, QStringList &lines)
{
    if (zero.empty() || std::ssize(zero) >= std::ssize(positions))
        return false;
    std::vector<char> aside(positions.size(), 0);
    for (const std::int64_t p : zero)
        aside[std::size_t(p)] = 1;
    for (const std::int64_t p : still)
        aside[std::size_t(p)] = 1;
    // Only where the other rows are each at their own position, or all at it plus one offset k
    // (a chunk after k cached tokens, which the positions' line then says): the zero rows are rows
    // the rotation of the others would have turned at their own position (plus k), overwritten
    // after it.
    std::optional<std::int64_t> offset;
    for (std::size_t p = 0; p < positions.size(); ++p) {
        if (aside[p])
            continue;
        const std::int64_t own = positionOf(declared.ids, std::int64_t(p));
        if (positions[p] < 0 || (offset && positions[p] - own != *offset))
            return false;
        offset = positions[p] - own;
    }
    if (!offset)
        return false;
    for (const std::int64_t p : zero)
        positions[std::size_t(p)] = positionOf(declared.ids, p) + *offset;
    const bool named = declared.reference || !declared.ids.empty();
    if (named)
        result.mistakes.append(CheckMistakes::kCellsOverwritten);
    lines.append(u"%1 (%2 of %3) of Y are 0 in every column where X's are not: no rotation makes 0 of a nonzero row; "
                 "they were overwritten after RoPE (a padding mask multiplied in, a kernel that never wrote them, as "
                 "ml-explore/mlx#3494's)%4"_s.arg(rowsText(zero))
                     .arg(std::ssize(zero))
                     .arg(std::ssize(positions))
                     .arg(named ? QString()
                                : u": a padding's rows masked so are no mistake of RoPE's. Declare the reference "
                                  "(--expect rope and its flags, --preset, --config) or the rows' --position-ids "
                                  "and such rows are the mistake "_s
                                  + CheckMistakes::kCellsOverwritten));
    return true;
}

bool nameRows(ApplyCheck::Result &result, const std::vector<std::int64_t> &still, const ApplyCheck::Declared &declared,
              std::vector<std::int64_t> &positions, QStringList &lines, std::int64_t zeroRows)
{
    if (still.empty())
        return false;
    for (const std::int64_t p : still) {
        if (positions[std::size_t(p)] > 0)
            return false; // a row read at another position than 0 is no row left unturned
    }
    // Only where every other row is at its own position: rows turned at arange(L) where the ids
    // differ leave the row at 0 as X too, and are that mistake (arange-with-padding), not this.
    std::vector<bool> isStill(positions.size(), false);
    for (const std::int64_t p : still)
        isStill[std::size_t(p)] = true;
    for (std::size_t p = 0; p < positions.size(); ++p)
        if (!isStill[p] && positions[p] != positionOf(declared.ids, std::int64_t(p)))
            return false;
    for (const std::int64_t p : still)
        positions[std::size_t(p)] = positionOf(declared.ids, p);
    // With nothing declared, rows at position id 0 (a padding's) leave Y as X too: said, not named.
    const bool named = declared.reference || !declared.ids.empty();
    if (named)
        result.mistakes.append(kNotApplied);
    lines.append(u"%1 (%2 of %3) equal X in every column: not turned, where RoPE at each one's position (%4, not 0) "
                 "turns it, as the other %5 rows are turned: %6"_s.arg(rowsText(still))
                     .arg(std::ssize(still))
                     .arg(std::ssize(positions))
                     .arg(declared.ids.empty() ? u"its index"_s : u"its --position-ids"_s)
                     .arg(std::ssize(positions) - std::ssize(still) - zeroRows)
                     .arg(kCauses.section(u", or every"_s, 0, 0) + u" for these rows, or their position ids 0"_s
                          + (named ? QString()
                                   : u" (as a padding's are: declare the reference, --expect rope and its flags, or "
                                     "the rows' --position-ids, and rows unturned where they turn are the mistake "_s
                                     + kNotApplied + u")"_s)));
    return true;
}

void concludeSetAside(ApplyCheck::Result &result, const ApplyCheck::Declared &declared, const SetAside &aside,
                      std::vector<std::int64_t> &positions, QStringList lines, bool reversed)
{
    const std::vector<std::int64_t> &zero = aside.zero;
    const qsizetype before = lines.size();
    const bool zeroSaid = nameZeroRows(result, zero, aside.still, declared, positions, lines);
    const bool stillSaid = nameRows(result, aside.still, declared, positions, lines, zeroSaid ? std::ssize(zero) : 0);
    const QStringList said = lines.mid(before);
    result.positions = zeroSaid || stillSaid ? ApplyCheck::runsOf(positions) : result.positions;
    // Y's rows of zeros are said apart: the rows deviating are the others.
    if (zeroSaid)
        result.deviatingRows = std::max<std::int64_t>(0, result.deviatingRows - std::ssize(zero));
    ApplyCheck::conclude(result, declared, positions, lines, reversed);
    if ((zeroSaid || stillSaid) && !declared.reference && declared.ids.empty()
        && result.verdict != CheckVerdict::Mistake) {
        result.verdict = CheckVerdict::Unknown;
        result.correctAgainst.clear();
        result.diagnosis = result.mistakes.isEmpty()
            ? u"Y is X turned at each row's own position but: "_s + said.join(u"; "_s)
            : result.diagnosis + u"; "_s + said.join(u"; "_s);
    }
}

std::vector<std::int64_t> blankRows(const RowMatrixXf &x, const RowMatrixXf &y)
{
    std::vector<std::int64_t> blank;
    if (x.cols() == 0)
        return blank;
    for (std::int64_t p = 0; p < x.rows(); ++p) {
        if (x.row(p).cwiseAbs().maxCoeff() == 0.0f && y.row(p).cwiseAbs().maxCoeff() == 0.0f)
            blank.push_back(p);
    }
    return blank;
}

std::vector<bool> blankMask(const std::vector<std::int64_t> &blank, std::int64_t rows)
{
    if (blank.empty())
        return {};
    std::vector<bool> is(static_cast<std::size_t>(rows), false);
    for (const std::int64_t p : blank)
        is[std::size_t(p)] = true;
    return is;
}

std::vector<std::int64_t> withoutBlank(std::vector<std::int64_t> sample, const std::vector<std::int64_t> &blank)
{
    if (blank.empty())
        return sample;
    std::erase_if(sample, [&](std::int64_t p) { return std::binary_search(blank.begin(), blank.end(), p); });
    return sample;
}

void nameAllBlank(ApplyPairs::Outcome &outcome, std::int64_t rows)
{
    outcome.verdict = CheckVerdict::Unknown;
    outcome.mistakes.clear();
    outcome.diagnosis = u"X and Y are 0 in every cell of their %1 row%2: a rotation turns a zero vector to zero at "
                        "any angle, so nothing in them says whether a rotation was applied, nor its pairing, "
                        "frequencies or positions; check rows of a query or key that are not 0"_s.arg(rows)
                            .arg(rows == 1 ? QString() : u"s"_s);
}

QString placeBlank(std::vector<std::int64_t> &positions, const std::vector<std::int64_t> &blank,
                   const std::vector<std::int64_t> &ids)
{
    if (blank.empty())
        return {};
    const auto rows = std::int64_t(positions.size());
    const auto meant = [&](std::int64_t p) { return ids.empty() ? p : ids[std::size_t(p)]; };
    const std::vector<bool> isBlank = blankMask(blank, rows);
    // The one position every read row is at (a scalar broadcast), kept for the blank rows too.
    std::int64_t one = -1;
    bool constant = true;
    for (std::int64_t p = 0; p < rows && constant; ++p) {
        if (isBlank[std::size_t(p)] || positions[std::size_t(p)] < 0)
            continue;
        constant = one < 0 || positions[std::size_t(p)] == one;
        one = positions[std::size_t(p)];
    }
    for (const std::int64_t p : blank) {
        if (constant && one >= 0 && rows > std::ssize(blank) + 1) {
            positions[std::size_t(p)] = one;
            continue;
        }
        // The nearest read row, before first, then after: its offset from its meant position.
        std::int64_t q = -1;
        for (std::int64_t d = 1; d < rows && q < 0; ++d) {
            for (const std::int64_t c : {p - d, p + d}) {
                if (q < 0 && c >= 0 && c < rows && !isBlank[std::size_t(c)] && positions[std::size_t(c)] >= 0)
                    q = c;
            }
        }
        if (q >= 0)
            positions[std::size_t(p)] = std::max<std::int64_t>(0, meant(p) + positions[std::size_t(q)] - meant(q));
    }
    return u"%1 (%2 of %3) are 0 in X and in Y: a rotation turns a zero vector to zero at any angle, so they say "
           "nothing of it and are counted as evidence neither way (the positions said for them are their "
           "neighbours')"_s.arg(rowsText(blank))
               .arg(std::ssize(blank))
               .arg(rows);
}

} // namespace posenc::ApplyNotTurned
