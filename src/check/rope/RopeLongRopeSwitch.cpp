#include "RopeLongRopeSwitch.h"

#include "check/CellTolerance.h"
#include "check/PairReference.h"
#include "check/rope/RopeCheckWords.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::RopeLongRopeSwitch {

namespace {

// One list's reference and tolerance, a row of the table read against it.
class RowJudge
{
public:
    RowJudge(const TableEvidence &e, const RopeFit::Hypothesis &h)
        : m_table(e.table)
        , m_reference(RopeFit::reference(h, RowFraming {}))
        , m_tolerance(cellTolerance(e.format, true, e.table.storedType(), e.table.textRounding(), m_reference.spec()))
        , m_cols(e.cols())
    { }

    // Whether row `row` of the table is this list's within the tolerance; nothing when unreadable.
    std::optional<bool> holds(std::int64_t row) const
    {
        std::vector<float> values(static_cast<std::size_t>(m_cols));
        QString error;
        if (!m_table.read(row, 1, values.data(), error))
            return std::nullopt;
        RowMatrixXf out(1, m_cols);
        m_reference.fill(Block {row, 1, 0, m_cols}, out);
        for (std::int64_t c = 0; c < m_cols; ++c) {
            const double ref = double(out(0, c));
            if (std::fabs(double(values[std::size_t(c)]) - ref) > m_tolerance.limit(ref, c, double(row)))
                return false;
        }
        return true;
    }

private:
    const TableRows &m_table;
    PairReference m_reference;
    CellTolerance m_tolerance;
    std::int64_t m_cols;
};

} // namespace

RopeFit::Hypothesis otherList(const RopeFit::Hypothesis &declared)
{
    RopeFit::Hypothesis other = declared;
    const std::int64_t original = declared.params.rope.originalMaxLen.value_or(0);
    // RopeFrequencies takes the long list where max_len passes the original length.
    other.params.maxLen = declared.params.maxLen > original ? original : original + 1;
    return other;
}

std::optional<std::int64_t> switchRow(const TableEvidence &e, const RopeFit::Hypothesis &declared)
{
    const std::int64_t original = declared.params.rope.originalMaxLen.value_or(0);
    const std::int64_t rows = e.rows();
    if (original < 1 || rows <= original || declared.params.maxLen <= original)
        return std::nullopt;
    const RowJudge longList(e, declared), shortList(e, otherList(declared));
    const auto is = [](const std::optional<bool> &b) { return b.value_or(false); };
    // The last row the long list's alone, the first rows the short list's.
    if (!is(longList.holds(rows - 1)) || is(shortList.holds(rows - 1)))
        return std::nullopt;
    // The first row that is not the short list's: rows before it are (row 0 is both lists').
    std::int64_t lo = 0, hi = rows - 1;
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (is(shortList.holds(mid)) ? lo : hi) = mid;
    }
    const std::int64_t n = hi;
    // Row n - 1 the short list's and not the long one's, and the sample's rows each on its side.
    if (n < 2 || is(longList.holds(n - 1)))
        return std::nullopt;
    for (const std::int64_t row : e.sample.rows) {
        if (!is(row < n ? shortList.holds(row) : longList.holds(row)))
            return std::nullopt;
    }
    for (const std::int64_t row : {n, std::min(n + 1, rows - 1)}) {
        if (!is(longList.holds(row)))
            return std::nullopt;
    }
    return n;
}

namespace {

// The fewest sampled rows before the switch for their list to be read.
constexpr std::int64_t kFewestLeadingRows = 8;

// The sample's rows before `n`, as the sample of a table of `n` rows.
TableSample rowsBefore(const TableSample &s, std::int64_t n)
{
    TableSample out;
    std::vector<std::int64_t> kept;
    for (std::int64_t k = 0; k < s.size(); ++k) {
        if (s.rows[std::size_t(k)] < n)
            kept.push_back(k);
    }
    out.rows.reserve(kept.size());
    out.values.resize(std::ssize(kept), s.cols());
    if (s.cellRounding.size() > 0)
        out.cellRounding.resize(std::ssize(kept), s.cols());
    for (std::size_t i = 0; i < kept.size(); ++i) {
        out.rows.push_back(s.rows[std::size_t(kept[i])]);
        out.values.row(std::int64_t(i)) = s.values.row(kept[i]);
        if (s.cellRounding.size() > 0)
            out.cellRounding.row(std::int64_t(i)) = s.cellRounding.row(kept[i]);
    }
    out.tableRows = n;
    out.leadingRows = std::min(s.leadingRows, std::ssize(kept));
    out.causalMask = false;
    return out;
}

} // namespace

std::optional<LeadingList> withLeadingList(const TableEvidence &e, const RopeFit::Hypothesis &declared,
                                           const std::vector<RopeFit::Published> &forms)
{
    const RopeParams &r = declared.params.rope;
    const std::int64_t original = r.originalMaxLen.value_or(0), rows = e.rows();
    if (r.type != RopeType::LongRope || r.shortFactor.empty() || r.shortFactor != r.longFactor || original < 1
        || rows <= original || declared.params.maxLen <= original || declared.firstPosition != 0
        || e.framing.firstRow != 0 || !e.framing.paddingRows.empty())
        return std::nullopt;
    const RowJudge list(e, declared);
    const auto is = [](const std::optional<bool> &b) { return b.value_or(false); };
    if (!is(list.holds(rows - 1)))
        return std::nullopt;
    // The first row from which the rows are this list's (row 0 is every list's).
    std::int64_t lo = 0, hi = rows - 1;
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (is(list.holds(mid)) ? hi : lo) = mid;
    }
    const std::int64_t n = hi;
    if (n < kFewestLeadingRows || is(list.holds(n - 1)))
        return std::nullopt;
    const TableSample leading = rowsBefore(e.sample, n);
    if (leading.size() < kFewestLeadingRows)
        return std::nullopt;
    const RopeFit::FitInput input {leading, e.framing, e.format, e.table.storedType(), e.table.textRounding()};
    const auto found = RopeFit::fit(input, r.layout, r.layout, forms);
    if (!found || found->bad() != 0 || !found->mistakes.isEmpty() || found->hypothesis.cosine != declared.cosine
        || found->hypothesis.firstPosition != 0 || found->hypothesis.rounding != PositionRounding::None)
        return std::nullopt;
    // The same attention factor: transformers' follows the config's factor, whichever list turns.
    const double slack = std::max(1e-5, 3.0 * found->hypothesis.amplitudeSlack);
    if (!(std::fabs(found->hypothesis.amplitude / declared.amplitude - 1.0) <= slack))
        return std::nullopt;
    // Each pair's factor against the declared rope_theta: u_i / w_i, u_i = theta^(-2i/d); the fit's
    // own list where it read LongRoPE at that theta (its factors written as a config writes them).
    const RopeParams &f = found->hypothesis.params.rope;
    std::vector<double> factors;
    if (f.type == RopeType::LongRope && f.theta == r.theta && f.longFactor.size() == r.longFactor.size()) {
        factors = found->hypothesis.params.maxLen > f.originalMaxLen.value_or(0) ? f.longFactor : f.shortFactor;
    } else {
        const std::vector<double> inv = RopeFrequencies::table(found->hypothesis.params).inv;
        const double d = double(RopeFrequencies::rotaryDim(r));
        if (inv.size() != r.longFactor.size())
            return std::nullopt;
        for (std::size_t i = 0; i < inv.size(); ++i)
            factors.push_back(inv[i] > 0.0 ? std::pow(r.theta, -2.0 * double(i) / d) / inv[i] : 0.0);
    }
    // LongRoPE's factors divide the frequencies and are at least 1 (RopeSearch::tryLongRope); the
    // list must be another than the reference's.
    bool other = false;
    for (std::size_t i = 0; i < factors.size(); ++i) {
        if (!(factors[i] >= 1.0 - 1e-3))
            return std::nullopt;
        other = other || std::fabs(factors[i] / r.longFactor[i] - 1.0) > 1e-4;
    }
    if (!other)
        return std::nullopt;
    LeadingList out {declared, n};
    out.completed.params.rope.shortFactor = factors;
    return out;
}

QString readWords(const LeadingList &read, const QStringList &mistakes)
{
    if (!mistakes.contains(kSwitched))
        return {};
    return u"; the reference gives one list, long_factor, so short_factor is the list the table's rows 0..%1 turn with, "
           "read from them (LongRoPE at the reference's rope_theta and attention factor)"_s.arg(read.switchRow - 1);
}

QString switchedWords(std::int64_t n, std::int64_t rows, std::int64_t original)
{
    return u"longrope-factors-switched-at-row %1: rows 0..%2 turn with short_factor and rows %1..%3 with "
           "long_factor; transformers turns every row of a sequence with one list, long_factor for this one "
           "of %4 positions, past original_max_position_embeddings %5 (modeling_rope_utils.py, "
           "longrope_frequency_update: max(position_ids) + 1 > original)"_s.arg(n)
               .arg(n - 1)
               .arg(rows - 1)
               .arg(rows)
               .arg(original);
}

QString factorSetWords(bool longDeclared, std::int64_t sequence, std::int64_t original)
{
    const QString words = longDeclared
        ? u"the table turns with short_factor where transformers takes long_factor: its rows are a sequence of %1 "
          "positions (max(position_ids) + 1 = %1), past original_max_position_embeddings %2 (modeling_rope_utils.py, "
          "longrope_frequency_update)"_s
        : u"the table turns with long_factor where transformers takes short_factor: its rows are a sequence of %1 "
          "positions, at most original_max_position_embeddings %2 (max(position_ids) + 1 <= original, "
          "modeling_rope_utils.py, longrope_frequency_update)"_s;
    return words.arg(sequence).arg(original);
}

void judgeRegime(TableMatch &m, const Params &published, std::int64_t first, std::int64_t rows)
{
    const RopeParams &r = published.rope;
    if (r.type != RopeType::LongRope || !r.originalMaxLen)
        return;
    const std::int64_t original = *r.originalMaxLen, sequence = first + rows;
    if ((published.maxLen > original) == (sequence > original))
        return;
    if (first <= 0) {
        m.notes.append(RopeCheckWords::longRopeRegime(original, rows));
        return;
    }
    m.notes.prepend(m.diagnosis);
    m.diagnosis = factorSetWords(sequence > original, sequence, original)
        + u"; the rows stand at their --position-ids %1..%2"_s.arg(first).arg(sequence - 1);
    m.verdict = CheckVerdict::Mistake;
    m.mistakes.append(kFactorSet);
    m.correctAgainst.clear();
}

} // namespace posenc::RopeLongRopeSwitch
