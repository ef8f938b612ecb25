// A constant per query row removed from a bias (RowConstant.h).
#include "RowConstant.h"

#include "check/ChangedRegion.h"
#include "check/CheckDiagnosis.h"
#include "check/FamilyCheck.h"
#include "check/SampleScore.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::RowConstant {

namespace {

// Row i is the inner reference's plus constants[i].
class ShiftedReference final : public TableReference
{
public:
    ShiftedReference(std::shared_ptr<const TableReference> inner, std::vector<double> constants)
        : m_inner(std::move(inner))
        , m_constants(std::move(constants))
    { }
    std::int64_t cols() const override { return m_inner->cols(); }
    bool compared(std::int64_t row) const override { return m_inner->compared(row); }
    std::int64_t position(std::int64_t row) const override { return m_inner->position(row); }
    bool holdsInfinities() const override { return m_inner->holdsInfinities(); }
    void forEachTile(const Block &block, const TileSink &sink) const override
    {
        std::vector<float> cells;
        m_inner->forEachTile(block, [&](const Tile &t) {
            cells.resize(std::size_t(t.rows * t.cols));
            for (std::int64_t r = 0; r < t.rows; ++r) {
                const double add = constantOf(t.row0 + r);
                const float *from = t.values + r * t.stride;
                float *to = cells.data() + r * t.cols;
                for (std::int64_t c = 0; c < t.cols; ++c)
                    to[c] = std::isfinite(from[c]) ? float(double(from[c]) + add) : from[c];
            }
            sink(Tile {t.row0, t.rows, t.col0, t.cols, cells.data(), t.cols});
        });
    }

private:
    double constantOf(std::int64_t row) const
    {
        return row >= 0 && row < std::int64_t(m_constants.size()) ? m_constants[std::size_t(row)] : 0.0;
    }

    std::shared_ptr<const TableReference> m_inner;
    std::vector<double> m_constants;
};

// The value of sample row `k` at its query's own key, if the row has one that is finite.
std::optional<double> ownKey(const TableSample &sample, std::int64_t k)
{
    const std::int64_t row = sample.rows[std::size_t(k)];
    if (row >= sample.cols())
        return std::nullopt;
    const float v = sample.values(k, row);
    return std::isfinite(v) ? std::optional(double(v)) : std::nullopt;
}

// The sample with each row's constant removed: its value at its own key made 0, or with
// `keepFirst` that of the first row that has one. Each cell is allowed the rounding of the two
// values of `format` it is the difference of (SampleScore reads TableSample::cellRounding): the
// cell's and the row's constant's, a unit of their magnitude, not of the difference's.
TableSample removed(const TableSample &sample, bool keepFirst, ValueFormat format)
{
    TableSample out = sample;
    if (out.cellRounding.size() == 0)
        out.cellRounding = RowMatrixXf::Zero(sample.values.rows(), sample.values.cols());
    std::optional<double> base;
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        const std::optional<double> own = ownKey(sample, k);
        if (!own)
            continue;
        if (!base)
            base = keepFirst ? *own : 0.0;
        for (std::int64_t c = 0; c < sample.cols(); ++c) {
            const float v = sample.values(k, c);
            if (std::isfinite(v)) {
                out.values(k, c) = float(double(v) - (*own - *base));
                out.cellRounding(k, c) += float(2.0 * halfUnit(format) * (std::fabs(double(v)) + std::fabs(*own)));
            }
        }
    }
    return out;
}

// Each diagonal (offset j − i) of a sample whose rows' constants were removed: its cells within
// their rounding (cellRounding) of the diagonal's median set to it, so that a table of offsets read
// by its majority (OffsetProfile) is one where the subtraction's rounding alone moved its cells.
// A cell beyond that stays as it is, to be outvoted or shown.
void snapDiagonals(TableSample &sample)
{
    const std::int64_t cols = sample.cols();
    const std::int64_t first = -(sample.tableRows - 1);
    std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> diagonals(
        std::size_t(sample.tableRows + cols - 1));
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        const std::int64_t i = sample.rows[std::size_t(k)];
        for (std::int64_t j = 0; j < cols; ++j) {
            if (std::isfinite(sample.values(k, j)))
                diagonals[std::size_t(j - i - first)].emplace_back(k, j);
        }
    }
    std::vector<float> values;
    for (const auto &cells : diagonals) {
        if (cells.size() < 2)
            continue;
        values.clear();
        for (const auto &[k, j] : cells)
            values.push_back(sample.values(k, j));
        std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(values.size() / 2), values.end());
        const float median = values[values.size() / 2];
        for (const auto &[k, j] : cells) {
            if (std::fabs(double(sample.values(k, j)) - double(median)) <= double(sample.cellRounding(k, j)))
                sample.values(k, j) = median;
        }
    }
}

// Whether every finite cell of the sample is zero, and some row held a constant to remove.
bool allZero(const TableSample &sample)
{
    bool finite = false;
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        for (std::int64_t c = 0; c < sample.cols(); ++c) {
            const float v = sample.values(k, c);
            if (!std::isfinite(v))
                continue;
            finite = true;
            if (v != 0.0f)
                return false;
        }
    }
    return finite;
}

// A table whose rows, each less its constant, are zero: a function of the query alone.
TableMatch followsQuery(const TableEvidence &e)
{
    const TableSample &s = e.sample;
    // Two sampled rows with a value at their own key: how the value moves with the query.
    std::vector<std::pair<std::int64_t, double>> own;
    for (std::int64_t k = 0; k < s.size() && own.size() < 2; ++k) {
        if (const auto v = ownKey(s, k); v && s.rows[std::size_t(k)] > 0)
            own.emplace_back(s.rows[std::size_t(k)], *v);
    }
    TableMatch m;
    m.verdict = CheckVerdict::Mistake;
    m.mistakes = {kFollowsQuery};
    m.firstPositionRow = 0;
    m.unreferenced = CheckDiagnosis::noReference();
    QString rows;
    if (own.size() == 2) {
        const auto [r, v] = own.back();
        const double step = (own[1].second - own[0].second) / double(own[1].first - own[0].first);
        rows = u": row %1 holds %2 at every key%3 (cells (%1, 0) and (%1, %1)); from row to row the value moves "
               "by %4"_s.arg(r)
                   .arg(NumberText::compact(v, 6), e.infinite ? u" up to the query, the keys after it masked"_s
                                                               : QString(),
                        NumberText::compact(step, 6));
    }
    m.diagnosis = u"each query's row holds one value at its keys%1: a bias of the query's position alone, which the "
                  "softmax over the row's keys cancels, so it favours no key over another and the scores carry no "
                  "position; a position bias varies with the key's position against the query's (ALiBi's "
                  "m (j − i), its slope times the key's position less the query's)"_s.arg(rows);
    return m;
}

// What a cell compared with a reference plus a row's constant up to `largest` is allowed beyond the
// reference's tolerance: the rounding, in the values' format, of the constant and of the terms it
// was added to (a unit of their magnitude each).
double allowance(ValueFormat format, double largest)
{
    return 4.0 * halfUnit(format) * largest;
}

} // namespace

bool varies(const TableSample &sample)
{
    std::optional<double> first;
    double scale = 0.0;
    bool differs = false;
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        const std::optional<double> own = ownKey(sample, k);
        if (!own)
            continue;
        scale = std::max(scale, std::fabs(*own));
        if (!first)
            first = own;
        else if (*own != *first)
            differs = true;
    }
    if (!differs)
        return false;
    // Beyond the rounding of a table of values up to `scale`: one value written twice differs not.
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        if (const auto own = ownKey(sample, k); own && std::fabs(*own - *first) > 1e-6 * scale)
            return true;
    }
    return false;
}

bool holdsConstants(const TableSample &sample)
{
    if (varies(sample))
        return true;
    for (std::int64_t k = 0; k < sample.size(); ++k) {
        if (const auto own = ownKey(sample, k))
            return *own != 0.0;
    }
    return false;
}

std::optional<TableMatch> read(const TableEvidence &e)
{
    const bool moves = varies(e.sample);
    if (e.rows() > e.cols() || e.rows() < 3 || !holdsConstants(e.sample))
        return std::nullopt;
    for (const bool keepFirst : {false, true}) {
        TableSample sample = removed(e.sample, keepFirst, e.format);
        // One constant throughout is no bias of the query (a table of one value is same-row's).
        if (!keepFirst && allZero(sample))
            return moves ? std::optional(followsQuery(e)) : std::nullopt;
        snapDiagonals(sample);
        TableEvidence reduced {e.table, sample, e.framing, e.format, e.declared};
        reduced.infinite = e.infinite;
        std::optional<TableCandidate> best, partial;
        std::optional<Encoding> bestFamily, partialFamily;
        const auto fewerBad = [](const std::optional<TableCandidate> &x, const TableCandidate &c) {
            return !x || double(c.bad) * double(x->compared) < double(x->bad) * double(c.compared);
        };
        for (const FamilySpec &family : Families::all()) {
            const auto &hypothesis = FamilyChecks::of(family.encoding).table;
            if (!hypothesis || !hypothesis->rowShiftFree)
                continue;
            std::optional<TableCandidate> c = hypothesis->fit(reduced);
            if (c && c->claims && c->match.reference && fewerBad(best, *c)) {
                best = std::move(c);
                bestFamily = family.encoding;
            } else if (c && c->partial && c->partial->reference && fewerBad(partial, *c)) {
                partial = std::move(c);
                partialFamily = family.encoding;
            }
        }
        // Every row the same as it is (a key bias broadcast over the queries, BLOOM's before the
        // mask): read as the table of a region changed is, up to the rows' constants.
        std::optional<TableMatch> changed;
        if (!best && partial && e.sameRow) {
            partial->partial->family = partialFamily;
            changed = ChangedRegion::read(*partial->partial, sample);
        }
        if (!best && !changed)
            continue;
        TableMatch m = best ? std::move(best->match) : std::move(*changed);
        m.family = best ? bestFamily : partialFamily;
        double largest = 0.0;
        m.reference = shifted(m.reference, e.table, &largest);
        if (!m.reference)
            return std::nullopt;
        m.tolerance.absolute += allowance(e.format, largest);
        if (m.asRead) {
            m.asRead = shifted(m.asRead, e.table);
            m.asReadTolerance.absolute += allowance(e.format, largest);
        }
        m.diagnosis += removedWords();
        if (m.verdict == CheckVerdict::Correct && m.correctAgainst.isEmpty()) { // TableCheck's promise
            m.verdict = CheckVerdict::Variant;
            m.notes.prepend(CheckDiagnosis::noPublishedForm());
        }
        return m;
    }
    return std::nullopt;
}

void expectShifted(TableMatch &match, const TableEvidence &e, const TableHypothesis &hypothesis)
{
    if (!hypothesis.rowShiftFree || !match.reference || e.rows() > e.cols() || !holdsConstants(e.sample))
        return;
    double largest = 0.0;
    auto moved = shifted(match.reference, e.table, &largest);
    if (!moved)
        return;
    CellTolerance tolerance = match.tolerance;
    tolerance.absolute += allowance(e.format, largest);
    const SampleScore asIs = scoreOnSample(*match.reference, e.sample, match.tolerance);
    const SampleScore rowsMoved = scoreOnSample(*moved, e.sample, tolerance);
    if (rowsMoved.bad >= asIs.bad)
        return;
    match.reference = std::move(moved);
    match.tolerance = tolerance;
    match.diagnosis += removedWords();
}

std::shared_ptr<const TableReference> shifted(std::shared_ptr<const TableReference> inner, const TableRows &table,
                                              double *largest)
{
    const std::int64_t n = std::min({table.rows(), table.cols(), inner->cols()});
    std::vector<double> constants(std::size_t(std::max<std::int64_t>(n, 0)), 0.0);
    const std::int64_t chunk = std::max<std::int64_t>(1, (std::int64_t(1) << 20) / std::max<std::int64_t>(1, table.cols()));
    std::vector<float> rows;
    QString error;
    for (std::int64_t r0 = 0; r0 < n; r0 += chunk) {
        const std::int64_t count = std::min(chunk, n - r0);
        rows.resize(std::size_t(count * table.cols()));
        if (!table.read(r0, count, rows.data(), error))
            return nullptr;
        for (std::int64_t i = r0; i < r0 + count; ++i) {
            if (!inner->compared(i))
                continue;
            const float own = rows[std::size_t((i - r0) * table.cols() + i)];
            float reference = std::numeric_limits<float>::quiet_NaN();
            inner->forEachTile(Block {i, 1, i, 1}, [&](const TableReference::Tile &t) { reference = t.values[0]; });
            if (std::isfinite(own) && std::isfinite(reference))
                constants[std::size_t(i)] = double(own) - double(reference);
            if (largest)
                *largest = std::max(*largest, std::fabs(constants[std::size_t(i)]));
        }
    }
    return std::make_shared<const ShiftedReference>(std::move(inner), std::move(constants));
}

QString removedWords()
{
    return u"; compared up to a constant per query row (each row's value at the query's own key taken as the "
           "reference's there): the softmax over a row's keys ignores such a constant, so BLOOM's m·j, MPT's "
           "m·(j − L + 1) and −m (i − j) are one bias"_s;
}

} // namespace posenc::RowConstant
