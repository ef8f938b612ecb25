#include "LearnedTableCheck.h"

#include "check/CheckDiagnosis.h"
#include "check/GridResize.h"
#include "check/learned/LearnedFit.h"
#include "core/NumberText.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::LearnedTableCheck {

namespace {

const QString kTable = u"learned"_s;

QString diagnosis(const LearnedFit::Structure &s, std::optional<std::int64_t> declaredFirstRow)
{
    const QString where = s.firstPositionRow == 0
        ? u"positions start at row 0"_s
        : u"positions start at row %1 (rows 0..%2 are padding or never trained, as in RoBERTa, XLM-R, BART and OPT)"_s
              .arg(s.firstPositionRow)
              .arg(s.firstPositionRow - 1);
    if (declaredFirstRow && *declaredFirstRow != s.firstPositionRow)
        return u"%1, but it is read from row %2: position p must read row p + %3 (transformers#20761)"_s.arg(where)
            .arg(*declaredFirstRow)
            .arg(s.firstPositionRow);
    return u"a learned table: %1; neighbouring rows point the same way (cosine %2)"_s.arg(
        where, NumberText::compact(s.neighbourCosine, 3));
}

QStringList notes(const LearnedFit::Structure &s)
{
    QStringList notes;
    if (!s.zeroRows.empty())
        notes.append(u"row%1 %2: zeros (padding_idx)"_s.arg(s.zeroRows.size() > 1 ? u"s"_s : QString(),
                                                            CheckDiagnosis::rowList(s.zeroRows)));
    if (!s.untrainedRows.empty())
        notes.append(u"row%1 %2: unlike the rows after them, as initialised and never trained"_s.arg(
            s.untrainedRows.size() > 1 ? u"s"_s : QString(), CheckDiagnosis::rowList(s.untrainedRows)));
    QStringList profile;
    for (const auto &[distance, cosine] : s.cosineByDistance)
        profile.append(u"%1: %2"_s.arg(distance).arg(NumberText::compact(cosine, 2)));
    if (!profile.isEmpty())
        notes.append(u"median cosine of rows k apart, k: cosine: "_s + profile.join(u", "_s));
    return notes;
}

QString unclaimed(const LearnedFit::Structure &s)
{
    const double far = s.cosineByDistance.empty() ? 0.0 : s.cosineByDistance.back().second;
    return u"no learned structure: the median cosine of neighbouring rows is %1, of rows far apart %2 (random "
           "numbers give 0 for both)"_s.arg(NumberText::compact(s.neighbourCosine, 2), NumberText::compact(far, 2));
}

TableMatch matchOf(const TableEvidence &e, const LearnedFit::Structure &s)
{
    TableMatch m;
    m.table = kTable;
    m.firstPositionRow = s.firstPositionRow;
    m.positionOffset = -s.firstPositionRow;
    // No formula to compare with: never correct unless a reference is declared (--expect-table).
    m.verdict = CheckVerdict::Learned;
    std::optional<std::int64_t> declaredFirstRow;
    if (e.declared.declares(u"position-offset"_s))
        declaredFirstRow = e.declared.params.learned.offset;
    if (declaredFirstRow && *declaredFirstRow != s.firstPositionRow) {
        m.mistakes = {CheckMistakes::kPositionOffset};
        m.verdict = CheckVerdict::Mistake;
    }
    m.diagnosis = diagnosis(s, declaredFirstRow);
    m.notes = notes(s);
    m.unreferenced = u"A learned table has no formula to compare with: no |table − reference| to show."_s;
    Params p;
    p.encoding = Encoding::Learned;
    p.dModel = std::min(e.cols(), Params::kMaxDModel);
    p.maxLen = std::clamp<std::int64_t>(e.rows() - s.firstPositionRow, 1, Params::kMaxLen);
    p.learned.offset = s.firstPositionRow;
    m.params = p; // the window loads the table itself as the position table
    return m;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    if (e.infinite || e.sameRow)
        return std::nullopt;
    const LearnedFit::Structure s = LearnedFit::analyse(e.sample);
    TableCandidate c;
    c.claims = s.learned;
    if (s.learned)
        c.match = matchOf(e, s);
    else
        c.unclaimed = unclaimed(s);
    return c;
}

} // namespace

TableHypothesis hypothesis()
{
    TableHypothesis h;
    h.tables = {kTable};
    h.declares = {u"position-offset"_s};
    h.help = u"a table no family's formula explains, with structure: padding rows, the first row a position reads, "
             "neighbouring rows' similarity, the nearest sinusoid"_s;
    // A learned grid compared with its resize (--expect-table of the grid, GridResize) names the resize's.
    h.mistakes = {CheckMistakes::kPositionOffset, GridResize::kWithoutAlignCorners};
    h.fit = fit;
    return h;
}

} // namespace posenc::LearnedTableCheck
