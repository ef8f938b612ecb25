#include "io/TensorInfo.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace posenc {

QString TensorInfo::shapeText(bool tuple) const
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    if (!tuple)
        return u'[' + dims.join(u", "_s) + u']';
    return u'(' + dims.join(u", "_s) + (dims.size() == 1 ? u",)"_s : u")"_s);
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
