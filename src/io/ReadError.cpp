#include "io/ReadError.h"

#include "core/OneLine.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString ReadError::toString() const
{
    // A path or a reason holding a line end (a file named so, a value quoted) is still one line.
    // An empty name is shown as one, '', so that the line does not begin with a bare colon.
    return oneLine(QString((path.isEmpty() ? u"''"_s : path) + u": "_s + reason));
}

} // namespace posenc
