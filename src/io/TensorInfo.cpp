#include "io/TensorInfo.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace posenc {

QString TensorInfo::shapeText(bool tuple) const
{
    // A complex array's shape as its file gives it, without its parts' last dimension of 2.
    const std::size_t rank = complex && !shape.empty() ? shape.size() - 1 : shape.size();
    QStringList dims;
    for (std::size_t i = 0; i < rank && i < kShownDims; ++i)
        dims.append(QString::number(shape[i]));
    if (rank > kShownDims)
        dims.append(u"\u2026 (%1 dims)"_s.arg(rank));
    if (!tuple)
        return u'[' + dims.join(u", "_s) + u']';
    return u'(' + dims.join(u", "_s) + (rank == 1 ? u",)"_s : u")"_s);
}

std::int64_t RowSelection::rowCount(std::int64_t matrixRows) const
{
    switch (mode) {
    case Mode::All:
        return matrixRows;
    case Mode::First:
        return count;
    case Mode::Listed:
        return static_cast<std::int64_t>(rows.size());
    }
    return 0;
}

} // namespace posenc
