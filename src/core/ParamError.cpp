#include "ParamError.h"

#include "OneLine.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString ParamError::sentence() const
{
    // The problem may quote what was given (a prompt's segment): one line whatever it holds.
    QString text = problem.isEmpty() ? u"must be "_s + allowed : oneLine(problem);
    if (!problem.isEmpty() && !allowed.isEmpty())
        text += u"; it must be "_s + allowed;
    if (given)
        text += u"; got "_s + *given;
    return text;
}

QString ParamError::quoted(const QString &text)
{
    return quotedOneLine(text);
}

} // namespace posenc
