#include "TableRows.h"

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

MatrixRows::MatrixRows(std::shared_ptr<const RowMatrixXf> values, StoredType stored, QString name, double textRounding)
    : m_values(std::move(values))
    , m_stored(stored)
    , m_name(std::move(name))
    , m_textRounding(textRounding)
{ }

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
