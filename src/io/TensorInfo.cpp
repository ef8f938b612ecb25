#include "io/TensorInfo.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace posenc {

QString TensorInfo::shapeText(bool tuple) const
{
    QStringList dims;
    for (std::size_t i = 0; i < shape.size() && i < kShownDims; ++i)
        dims.append(QString::number(shape[i]));
    if (shape.size() > kShownDims)
        dims.append(u"\u2026 (%1 dims)"_s.arg(shape.size()));
    if (!tuple)
        return u'[' + dims.join(u", "_s) + u']';
    return u'(' + dims.join(u", "_s) + (shape.size() == 1 ? u",)"_s : u")"_s);
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
