#include "io/BufferRows.h"

#include <QStringList>

#include <bit>
#include <cstring>

using namespace Qt::StringLiterals;

namespace posenc::BufferRows {

namespace {

class StridedRows final : public TableRows
{
public:
    StridedRows(const char *data, std::int64_t rows, std::int64_t cols, std::int64_t rowStride, std::int64_t colStride,
                ElementType element, StoredType stored, QString name, std::shared_ptr<const void> owner,
                std::optional<std::vector<std::int64_t>> shape = std::nullopt)
        : m_data(data)
        , m_rows(rows)
        , m_cols(cols)
        , m_rowStride(rowStride)
        , m_colStride(colStride)
        , m_element(element)
        , m_stored(stored)
        , m_name(std::move(name))
        , m_owner(std::move(owner))
        , m_shape(std::move(shape))
    { }

    const std::optional<std::vector<std::int64_t>> &shape() const { return m_shape; }

    std::int64_t rows() const override { return m_rows; }
    std::int64_t cols() const override { return m_cols; }
    StoredType storedType() const override { return m_stored; }
    QString name() const override { return m_name; }

    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        if (row0 < 0 || count < 0 || row0 > m_rows || count > m_rows - row0) {
            error = u"rows %1..%2 were asked for; the table has %3"_s.arg(row0).arg(row0 + count - 1).arg(m_rows);
            return false;
        }
        const std::int64_t bytes = m_element.bytes;
        const bool packedRow = m_colStride == bytes;
        const bool native
            = m_element == ElementType {ElementType::Kind::Float, 4, std::endian::native == std::endian::big};
        // Rows one after the other: the whole run at once.
        if (packedRow && m_rowStride == m_cols * bytes) {
            const char *first = m_data + row0 * m_rowStride;
            if (native)
                std::memcpy(out, first, std::size_t(count * m_cols) * sizeof(float));
            else
                m_element.toFloat(first, count * m_cols, out);
            return true;
        }
        thread_local std::vector<char> t_row;
        if (!packedRow)
            t_row.resize(std::size_t(m_cols * bytes));
        for (std::int64_t r = 0; r < count; ++r) {
            const char *row = m_data + (row0 + r) * m_rowStride;
            float *to = out + r * m_cols;
            if (!packedRow) {
                // Gathered into a row of this thread's, then converted as a packed one.
                for (std::int64_t c = 0; c < m_cols; ++c)
                    std::memcpy(t_row.data() + c * bytes, row + c * m_colStride, std::size_t(bytes));
                row = t_row.data();
            }
            if (native)
                std::memcpy(to, row, std::size_t(m_cols) * sizeof(float));
            else
                m_element.toFloat(row, m_cols, to);
        }
        return true;
    }
    // Packed native float32 rows, one after the other: compared where they lie.
    const float *rowsInPlace(std::int64_t row0, std::int64_t count) const override
    {
        const bool native
            = m_element == ElementType {ElementType::Kind::Float, 4, std::endian::native == std::endian::big};
        if (!native || m_colStride != 4 || m_rowStride != m_cols * 4 || row0 < 0 || count < 0 || row0 > m_rows
            || count > m_rows - row0 || reinterpret_cast<std::uintptr_t>(m_data) % alignof(float) != 0)
            return nullptr;
        return reinterpret_cast<const float *>(m_data + row0 * m_rowStride);
    }

private:
    const char *m_data;
    std::int64_t m_rows;
    std::int64_t m_cols;
    std::int64_t m_rowStride;
    std::int64_t m_colStride;
    ElementType m_element;
    StoredType m_stored;
    QString m_name;
    std::shared_ptr<const void> m_owner;
    std::optional<std::vector<std::int64_t>> m_shape;
};

// An array that is no table, as rows of its last dimension (a scalar one row of one value, for the
// check to refuse with the shapes it reads), where its leading dimensions step as one run of rows.
ReadResult<std::shared_ptr<const TableRows>> openArray(const ArrayView &view, const QString &name,
                                                       std::shared_ptr<const void> owner)
{
    const std::size_t n = view.shape.size();
    const std::int64_t cols = n == 0 ? 1 : view.shape.back();
    const std::int64_t colStride = n == 0 ? 0 : view.strides.back();
    // Row r at data + r * rowStride: the leading dimensions of more than one element, each a whole
    // number of the next's steps (a dimension of 1 steps nowhere, whatever its stride says).
    std::vector<std::pair<std::int64_t, std::int64_t>> leading; // (size, stride)
    std::int64_t rows = 1;
    for (std::size_t k = 0; k + 1 < n; ++k) {
        rows *= view.shape[k];
        if (view.shape[k] > 1)
            leading.emplace_back(view.shape[k], view.strides[k]);
    }
    for (std::size_t k = 0; k + 1 < leading.size(); ++k) {
        if (leading[k].second != leading[k + 1].second * leading[k + 1].first)
            return ReadError {
                name,
                u"the array of shape %1 is no table, and its leading dimensions do not lie as one run "
                "of rows (a transposed view): give numpy.ascontiguousarray of it"_s.arg(shapeText(view.shape)),
                ReadError::Kind::Choice};
    }
    const std::int64_t rowStride = leading.empty() ? 0 : leading.back().second;
    if (!view.data && rows * cols != 0)
        return ReadError {name, u"the array has no data"_s, ReadError::Kind::Choice};
    return std::shared_ptr<const TableRows>(std::make_shared<StridedRows>(
        view.data, rows, cols, rowStride, colStride, view.element, view.stored, name, std::move(owner), view.shape));
}

} // namespace

QString shapeText(const std::vector<std::int64_t> &shape)
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    return u"("_s + dims.join(u", "_s) + (shape.size() == 1 ? u",)"_s : u")"_s);
}

ReadResult<std::shared_ptr<const TableRows>> open(const ArrayView &view, const QString &name,
                                                  std::shared_ptr<const void> owner)
{
    if (view.shape.size() != view.strides.size())
        return ReadError {name, u"the array's strides do not match its shape"_s, ReadError::Kind::Choice};
    // Dimensions of 1 dropped from the left while more than two remain, as a file's (TableFile).
    std::vector<std::int64_t> dims = view.shape;
    std::vector<std::int64_t> strides = view.strides;
    for (std::size_t i = 0; dims.size() > 2 && i < dims.size();) {
        if (dims[i] == 1) {
            dims.erase(dims.begin() + std::ptrdiff_t(i));
            strides.erase(strides.begin() + std::ptrdiff_t(i));
        } else {
            ++i;
        }
    }
    for (const std::int64_t d : dims) {
        if (d < 0)
            return ReadError {name, u"the array has a negative dimension"_s, ReadError::Kind::Choice};
    }
    if (dims.size() != 2)
        return openArray(view, name, std::move(owner));
    // An empty array has no element to point at.
    if (!view.data && dims[0] * dims[1] != 0)
        return ReadError {name, u"the array has no data"_s, ReadError::Kind::Choice};
    return std::shared_ptr<const TableRows>(std::make_shared<StridedRows>(
        view.data, dims[0], dims[1], strides[0], strides[1], view.element, view.stored, name, std::move(owner)));
}

std::optional<std::vector<std::int64_t>> arrayShape(const TableRows &rows)
{
    const auto *strided = dynamic_cast<const StridedRows *>(&rows);
    return strided ? strided->shape() : std::nullopt;
}

} // namespace posenc::BufferRows
