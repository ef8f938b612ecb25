#include "TableRows.h"

#include <algorithm>
#include <cmath>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

QString nonFiniteWords(float value, StoredType stored)
{
    if (std::isnan(value))
        return u"NaN"_s;
    if (stored == StoredType::Float64 || stored == StoredType::Text)
        return u"an infinity or a number past float32's range (|x| > 3.4e38), which posenc reads in"_s;
    return u"an infinity"_s;
}

void TableRows::addCellRounding(std::int64_t, std::int64_t, std::int64_t, std::int64_t, float *) const { }

MatrixRows::MatrixRows(std::shared_ptr<const RowMatrixXf> values, StoredType stored, QString name, double textRounding,
                       std::vector<std::int8_t> cellRounding)
    : m_values(std::move(values))
    , m_stored(stored)
    , m_name(std::move(name))
    , m_textRounding(textRounding)
    , m_cellRounding(std::move(cellRounding))
{
    if (m_cellRounding.size() != std::size_t(m_values->size()))
        m_cellRounding.clear();
}

void MatrixRows::addCellRounding(std::int64_t row0, std::int64_t count, std::int64_t col0, std::int64_t cols,
                                 float *extra) const
{
    if (m_cellRounding.empty())
        return;
    for (std::int64_t r = 0; r < count; ++r) {
        const std::int8_t *exponents = m_cellRounding.data() + (row0 + r) * this->cols() + col0;
        for (std::int64_t c = 0; c < cols; ++c) {
            if (exponents[c] != kNoCellRounding)
                extra[r * cols + c] += float(0.5 * std::pow(10.0, double(exponents[c])) - m_textRounding);
        }
    }
}

bool MatrixRows::read(std::int64_t row0, std::int64_t count, float *out, QString &error) const
{
    if (row0 < 0 || count < 0 || row0 > rows() || count > rows() - row0) {
        error = u"rows %1..%2 were asked for; the table has %3"_s.arg(row0).arg(row0 + count - 1).arg(rows());
        return false;
    }
    const float *from = m_values->data() + row0 * cols();
    std::copy(from, from + count * cols(), out);
    return true;
}

} // namespace posenc
