#include "io/ReadError.h"

#include "core/OneLine.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString ReadError::toString() const
{
    // A path or a reason holding a line end (a file named so, a value quoted) is still one line.
    return oneLine(QString(path + u": "_s + reason));
}

} // namespace posenc
