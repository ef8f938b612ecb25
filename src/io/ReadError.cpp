#include "io/ReadError.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString ReadError::toString() const
{
    return path + u": "_s + reason;
}

} // namespace posenc
