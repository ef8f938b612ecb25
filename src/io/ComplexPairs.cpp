#include "io/ComplexPairs.h"

#include <QString>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ComplexPairs {

namespace {

class PairRows final : public TableRows
{
public:
    PairRows(std::shared_ptr<const TableRows> raw, std::int64_t l, std::int64_t k)
        : m_raw(std::move(raw))
        , m_l(l)
        , m_k(k)
    { }

    std::int64_t rows() const override { return m_l; }
    std::int64_t cols() const override { return 2 * m_k; }
    StoredType storedType() const override { return m_raw->storedType(); }
    QString name() const override
    {
        return u"%1 (%2 x %3 complex pairs, read as cat(real, imaginary))"_s.arg(m_raw->name()).arg(m_l).arg(m_k);
    }

    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        if (row0 < 0 || count < 0 || row0 > m_l || count > m_l - row0) {
            error = u"rows %1..%2 were asked for; the table has %3"_s.arg(row0).arg(row0 + count - 1).arg(m_l);
            return false;
        }
        // The pairs of a row are its 2K values interleaved (re, im, re, im, ...): read into `out`,
        // then each row parted through a row of this thread's.
        if (!m_raw->read(row0 * m_k, count * m_k, out, error))
            return false;
        thread_local std::vector<float> t_row;
        t_row.resize(std::size_t(2 * m_k));
        for (std::int64_t r = 0; r < count; ++r) {
            float *row = out + r * 2 * m_k;
            for (std::int64_t c = 0; c < m_k; ++c) {
                t_row[std::size_t(c)] = row[2 * c];
                t_row[std::size_t(m_k + c)] = row[2 * c + 1];
            }
            std::copy(t_row.begin(), t_row.end(), row);
        }
        return true;
    }

private:
    std::shared_ptr<const TableRows> m_raw;
    std::int64_t m_l, m_k;
};

} // namespace

std::optional<std::pair<std::int64_t, std::int64_t>> pairsOf(const std::vector<std::int64_t> &shape)
{
    std::vector<std::int64_t> dims;
    std::copy_if(shape.begin(), shape.end(), std::back_inserter(dims), [](std::int64_t d) { return d != 1; });
    if (dims.size() != 3 || shape.back() != 2 || dims[1] < 2)
        return std::nullopt;
    return std::pair {dims[0], dims[1]};
}

bool oneModulus(const TableRows &raw, std::int64_t k)
{
    constexpr std::int64_t kRowsRead = 64;
    if (k < 1 || raw.cols() != 2)
        return false;
    const std::int64_t count = std::min(raw.rows(), kRowsRead * k);
    std::vector<float> values(std::size_t(2 * count));
    QString error;
    if (count < 1 || !raw.read(0, count, values.data(), error))
        return false;
    const double first = std::hypot(double(values[0]), double(values[1]));
    if (!std::isfinite(first) || first <= 0.0)
        return false;
    for (std::int64_t i = 0; i < count; ++i) {
        const double modulus = std::hypot(double(values[std::size_t(2 * i)]), double(values[std::size_t(2 * i + 1)]));
        if (!(std::abs(modulus - first) <= 0.02 * first))
            return false;
    }
    return true;
}

std::shared_ptr<const TableRows> asTable(std::shared_ptr<const TableRows> raw, std::int64_t l, std::int64_t k)
{
    return std::make_shared<PairRows>(std::move(raw), l, k);
}

} // namespace posenc::ComplexPairs
