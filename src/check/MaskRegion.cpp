// A mask's region that is no causal mask (MaskRegion.h).
#include "MaskRegion.h"

#include "check/CheckDiagnosis.h"
#include "check/MaskFill.h"
#include "check/TableReference.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::MaskRegion {

namespace {

// A mask's fill in any table: −inf, float32's or bfloat16's lowest (MaskFill::kBelow).
bool isFill(float v)
{
    return double(v) <= MaskFill::kBelow;
}

QString fillWords(float fill)
{
    if (std::isinf(fill))
        return u"−inf"_s;
    return u"the dtype's lowest (%1)"_s.arg(NumberText::compact(double(fill), 5));
}

QString span(std::int64_t first, std::int64_t last)
{
    return first == last ? QString::number(first) : u"%1..%2"_s.arg(first).arg(last);
}

// The rows and columns from `from` on: the table left when its padding is set aside.
class InnerRows final : public TableRows
{
public:
    InnerRows(const TableRows &table, std::int64_t from)
        : m_table(table)
        , m_from(from)
    { }

    std::int64_t rows() const override { return m_table.rows() - m_from; }
    std::int64_t cols() const override { return m_table.cols() - m_from; }
    StoredType storedType() const override { return m_table.storedType(); }
    double textRounding() const override { return m_table.textRounding(); }
    QString name() const override { return m_table.name(); }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        const std::int64_t width = m_table.cols();
        std::vector<float> whole(static_cast<std::size_t>(width));
        for (std::int64_t r = 0; r < count; ++r) {
            if (!m_table.read(m_from + row0 + r, 1, whole.data(), error))
                return false;
            std::copy(whole.begin() + m_from, whole.end(), out + r * cols());
        }
        return true;
    }

private:
    const TableRows &m_table;
    std::int64_t m_from;
};

// The inner table's reference over the whole table: the padding's rows and columns hold the fill.
class PaddedReference final : public TableReference
{
public:
    PaddedReference(std::shared_ptr<const TableReference> inner, std::int64_t padding, float fill)
        : m_inner(std::move(inner))
        , m_padding(padding)
        , m_fill(fill)
    { }

    std::int64_t cols() const override { return m_inner->cols() + m_padding; }
    bool compared(std::int64_t row) const override { return row < m_padding || m_inner->compared(row - m_padding); }
    std::int64_t position(std::int64_t row) const override
    {
        return row < m_padding ? 0 : m_inner->position(row - m_padding);
    }
    bool holdsInfinities() const override { return std::isinf(m_fill) || m_inner->holdsInfinities(); }
    void forEachTile(const Block &block, const TileSink &sink) const override
    {
        RowMatrixXf cells = RowMatrixXf::Constant(block.rows, block.cols, m_fill);
        const std::int64_t row0 = std::max(block.row0, m_padding), col0 = std::max(block.col0, m_padding);
        const Block inner {row0 - m_padding, block.rowEnd() - row0, col0 - m_padding, block.colEnd() - col0};
        if (!inner.isEmpty()) {
            RowMatrixXf values(inner.rows, inner.cols);
            m_inner->fill(inner, values);
            cells.block(row0 - block.row0, col0 - block.col0, inner.rows, inner.cols) = values;
        }
        sink({block.row0, block.rows, block.col0, block.cols, cells.data(), block.cols});
    }

private:
    std::shared_ptr<const TableReference> m_inner;
    std::int64_t m_padding;
    float m_fill;
};

} // namespace

std::optional<Padding> padding(const TableSample &sample)
{
    const std::int64_t cols = sample.cols();
    if (sample.tableRows != cols || sample.size() < 4)
        return std::nullopt;
    const auto wholeRow = [&](std::int64_t i) {
        const auto row = sample.values.row(i);
        return std::all_of(row.begin(), row.end(), isFill);
    };
    std::int64_t p = 0;
    while (p < sample.size() && sample.rows[std::size_t(p)] == p && wholeRow(p))
        ++p;
    // Three rows at least beyond the padding, as a table needs.
    if (p < 1 || p + 3 > cols)
        return std::nullopt;
    const float fill = sample.values(0, 0);
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        for (std::int64_t c = 0; c < cols; ++c) {
            const float v = sample.values(i, c);
            const bool masked = row < p || c < p || c > row;
            if (masked ? v != fill : !std::isfinite(v) || isFill(v))
                return std::nullopt;
        }
    }
    return Padding {p, fill};
}

bool transposedCausal(const TableSample &sample)
{
    if (sample.tableRows != sample.cols() || sample.cols() < 3)
        return false;
    for (std::int64_t i = 0; i < sample.size(); ++i) {
        const std::int64_t row = sample.rows[std::size_t(i)];
        for (std::int64_t c = 0; c < sample.cols(); ++c) {
            const float v = sample.values(i, c);
            if (c < row ? !isFill(v) : !std::isfinite(v) || isFill(v))
                return false;
        }
    }
    return true;
}

std::variant<TableMatch, QString>
padded(const TableRows &table, const Padding &padding,
       const std::function<std::variant<TableMatch, QString>(const TableRows &)> &read)
{
    const InnerRows inner(table, padding.rows);
    auto reading = read(inner);
    auto *m = std::get_if<TableMatch>(&reading);
    if (!m)
        return reading;
    if (m->reference)
        m->reference = std::make_shared<PaddedReference>(m->reference, padding.rows, padding.fill);
    m->notes.prepend(u"rows and columns %1 hold a mask's fill, %2, in every cell: a left padding of %3 token%4 "
                     "(its keys masked for every query, its queries' rows masked whole), set aside; the table from "
                     "row and column %5 on is what is read"_s.arg(span(0, padding.rows - 1), fillWords(padding.fill))
                         .arg(padding.rows)
                         .arg(padding.rows == 1 ? QString() : u"s"_s)
                         .arg(padding.rows));
    return reading;
}

std::optional<TableMatch>
transposed(const TableRows &table, const std::function<std::variant<TableMatch, QString>(const TableRows &)> &identify)
{
    const std::int64_t n = table.rows();
    if (n != table.cols() || n > kMaxTransposed)
        return std::nullopt;
    auto flipped = std::make_shared<RowMatrixXf>(n, n);
    std::vector<float> row(static_cast<std::size_t>(n));
    QString error;
    for (std::int64_t r = 0; r < n; ++r) {
        if (!table.read(r, 1, row.data(), error))
            return std::nullopt;
        for (std::int64_t c = 0; c < n; ++c)
            (*flipped)(c, r) = row[std::size_t(c)];
    }
    const MatrixRows swapped(std::move(flipped), table.storedType(), table.name(), table.textRounding());
    auto identified = identify(swapped);
    const auto *found = std::get_if<TableMatch>(&identified);
    TableMatch m;
    m.verdict = CheckVerdict::Mistake;
    m.unreferenced = CheckDiagnosis::transposedUnreferenced();
    m.deviations = u"every cell: the rows are the keys and the columns the queries"_s;
    const QString where = u"every key before the query holds a mask's fill and the keys at and after it hold "
                          "finite values: a causal mask with the rows and columns exchanged (a bias indexed [key, "
                          "query] where attention adds it as [query, key])"_s;
    if (!found || !found->reference || found->verdict == CheckVerdict::Unknown) {
        m.diagnosis = where + u"; its transpose is no table this check knows either"_s;
        return m;
    }
    m = *found;
    m.mistakes.prepend(CheckMistakes::kTransposed);
    m.verdict = CheckVerdict::Mistake;
    m.diagnosis = where + u". Transposed, it reads as %1: %2"_s.arg(found->table, found->diagnosis);
    m.deviations = u"every cell: the rows are the keys and the columns the queries"_s;
    m.reference.reset();
    m.correctAgainst.clear();
    m.unreferenced = CheckDiagnosis::transposedUnreferenced();
    return m;
}

TableMatch strayInfinity(const TableSample &sample, StoredType stored)
{
    TableMatch m;
    m.verdict = CheckVerdict::Mistake;
    m.unreferenced = CheckDiagnosis::noReference();
    m.diagnosis = CheckDiagnosis::infinityRefused(sample.infiniteRow, sample.infiniteColumn, stored)
        + u": neither a causal mask (every key after the query a mask's fill), nor one transposed, nor a left "
          "padding's rows and columns"_s;
    return m;
}

} // namespace posenc::MaskRegion
