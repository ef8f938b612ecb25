#include "LearnedTableCheck.h"

#include "check/CellTolerance.h"
#include "check/CheckDiagnosis.h"
#include "check/GridResize.h"
#include "check/TableAgainstTable.h"
#include "check/learned/LearnedFit.h"
#include "check/rope/RopeFit.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

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

// A formula's sines and cosines: the columns (a, b) whose cells are a sine and a cosine of one angle
// in every sampled row, a² + b² = 1 at the values' rounding, the angle moving from row to row. Each
// column in one pair at most; the first such pair and their count. A trained table holds no such
// pair (held-out set 4, F7: LoFTR's and physicsnemo's 2-D sine grids, formulas posenc does not know).
struct SinePairs
{
    std::int64_t count = 0;
    std::int64_t first = -1, second = -1;
};

SinePairs sinePairs(const TableSample &sample, ValueFormat format)
{
    SinePairs found;
    const std::int64_t cols = sample.cols();
    if (sample.size() < 3 || cols < 2 || cols > 8192)
        return found;
    const double rounding = 4.0 * (format == ValueFormat::Float32 ? 6e-8 : halfUnit(format)) + 1e-7;
    const auto onCircle = [&](std::int64_t a, std::int64_t b) {
        double lo = 1.0, hi = -1.0;
        for (std::int64_t k = 0; k < sample.size(); ++k) {
            const double x = sample.values(k, a), y = sample.values(k, b);
            if (!std::isfinite(x) || std::fabs(x * x + y * y - 1.0) > 2.0 * rounding)
                return false;
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
        return hi - lo > 1e-3; // an angle that moves, not a constant pair
    };
    // Column a's partner has b² = 1 − a² in the first row: the columns sorted by their first cell's
    // square, each a's candidates found by a binary search.
    std::vector<std::pair<double, std::int64_t>> squares;
    for (std::int64_t c = 0; c < cols; ++c)
        squares.push_back({double(sample.values(0, c)) * double(sample.values(0, c)), c});
    std::sort(squares.begin(), squares.end());
    std::vector<bool> used(std::size_t(cols), false);
    for (std::int64_t a = 0; a < cols; ++a) {
        if (used[std::size_t(a)])
            continue;
        const double want = 1.0 - double(sample.values(0, a)) * double(sample.values(0, a));
        auto it = std::lower_bound(squares.begin(), squares.end(), std::pair(want - 2.0 * rounding, std::int64_t(-1)));
        for (; it != squares.end() && it->first <= want + 2.0 * rounding; ++it) {
            const std::int64_t b = it->second;
            if (b == a || used[std::size_t(b)] || !onCircle(a, b))
                continue;
            used[std::size_t(a)] = used[std::size_t(b)] = true;
            if (found.count++ == 0) {
                found.first = std::min(a, b);
                found.second = std::max(a, b);
            }
            break;
        }
    }
    return found;
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

// A RoPE cos or sin table's repeat: the sampled rows' column j equal to column j + d/2 (HF's
// rotate_half, cat(freqs, freqs)) or column 2i equal to 2i + 1 (interleaved, repeat_interleave),
// within the values' rounding in all but a tenth of the pairs of cells, some column moving from row
// to row. A trained table holds no such repeat (held-out set 6, B7 and B10: a bf16 inv_freq's sin table and Wan's 3-D
// RoPE table, their zero row 0 taken for padding, were read as learned). The layout's word, or empty.
QString ropeRepeat(const TableSample &sample, ValueFormat format)
{
    const std::int64_t cols = sample.cols(), n = sample.size();
    if (cols < 4 || cols % 2 != 0 || n < 4)
        return {};
    const double unit = 2.0 * halfUnit(format);
    const auto equal = [&](double a, double b) { return a == b || std::fabs(a - b) <= unit * std::fabs(a) + 1e-30; };
    bool moves = false;
    for (std::int64_t c = 0; c < cols && !moves; ++c)
        for (std::int64_t k = 1; k < n && !moves; ++k)
            moves = std::fabs(double(sample.values(k, c)) - double(sample.values(0, c))) > 0.1;
    if (!moves)
        return {};
    // The pairs of cells that break the repeat: a few (a damaged block, a row zeroed: r27a's LongRoPE
    // table with rows 3000..3099 x columns 10..19 moved) leave it a RoPE table's, not a trained one's.
    const auto breaks = [&](bool half) {
        std::int64_t broken = 0;
        for (std::int64_t k = 0; k < n; ++k)
            for (std::int64_t c = 0; c < cols / 2; ++c) {
                const std::int64_t a = half ? c : 2 * c, b = half ? c + cols / 2 : 2 * c + 1;
                broken += !equal(double(sample.values(k, a)), double(sample.values(k, b)));
            }
        return broken;
    };
    const std::int64_t pairs = n * (cols / 2);
    constexpr std::int64_t kPairsPerBreak = 10;
    const auto where = [&](std::int64_t broken) {
        return broken == 0 ? u"in every sampled row"_s
                           : u"in all but %1 of the %2 sampled pairs of cells (those deviate from the repeat: "
                             "damaged cells)"_s.arg(broken)
                                 .arg(pairs);
    };
    if (const std::int64_t broken = breaks(true); broken * kPairsPerBreak <= pairs)
        return u"column j equals column j + %1 %2, as rotate_half's cat(freqs, freqs) makes"_s.arg(cols / 2).arg(
            where(broken));
    if (const std::int64_t broken = breaks(false); broken * kPairsPerBreak <= pairs)
        return u"column 2i equals column 2i + 1 %1, as an interleaved RoPE's repeat makes"_s.arg(where(broken));
    return {};
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    if (e.infinite || e.sameRow)
        return std::nullopt;
    const LearnedFit::Structure s = LearnedFit::analyse(e.sample);
    TableCandidate c;
    // Half the columns or more in sine-cosine pairs: a formula's table, which no trained one is.
    const SinePairs pairs = s.learned ? sinePairs(e.sample, e.format) : SinePairs();
    const QString repeat = s.learned ? ropeRepeat(e.sample, e.format) : QString();
    // Every cell the one up and to its left (row i + 1, column j + 1 holds row i, column j): a
    // function of j − i alone, a relative-position map (T5's buckets or a bias: huggingface/candle#727's
    // and #1312's broken ones) or a one-hot table of positions, whose rows are no trained vectors.
    const bool diagonal
        = s.learned && RopeFit::movesAlongDiagonals(e.sample, 4.0 * 0x1p-23 + 2.0 * e.table.textRounding());
    c.claims = s.learned && 4 * pairs.count < e.cols() && repeat.isEmpty() && !diagonal;
    if (c.claims)
        c.match = matchOf(e, s);
    else if (diagonal)
        c.unclaimed = u"not a learned table: every cell equals the one up and to its left, a function of the "
                      "distance j − i alone, as a relative-position map (T5's buckets, a bias) or a one-hot table of "
                      "positions is, which no table of trained position vectors holds"_s;
    else if (!repeat.isEmpty())
        c.unclaimed
            = u"not a learned table: %1, a RoPE cos or sin table's repeat, which no trained table holds"_s.arg(repeat);
    else if (s.learned)
        c.unclaimed = u"not a learned table: %1 pairs of columns hold a sine and a cosine of one angle in every row "
                      "(a² + b² = 1; the first columns %2 and %3), a formula's table, which no family posenc knows "
                      "makes (a 2-D sine grid's channels, another form's frequencies): a trained table holds no such "
                      "pair"_s.arg(pairs.count)
                          .arg(pairs.first)
                          .arg(pairs.second);
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
    // And a table that is the reference's columns in another order (TableAgainstTable).
    h.mistakes = {CheckMistakes::kPositionOffset, GridResize::kWithoutAlignCorners, GridResize::kMergeBlocksLost,
                  GridResize::kResizeMethod, TableCheck::kColumnsSwapped};
    h.fit = fit;
    return h;
}

} // namespace posenc::LearnedTableCheck
