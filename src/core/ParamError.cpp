#include "ParamError.h"

#include "OneLine.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {
constexpr qsizetype kMaxQuoted = 60;

} // namespace

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
    if (text.size() <= kMaxQuoted)
        return u"'%1'"_s.arg(oneLine(text));
    QStringView kept = QStringView(text).left(kMaxQuoted);
    if (kept.back().isHighSurrogate()) // not half a character
        kept.chop(1);
    return u"'%1…' (%2 characters)"_s.arg(oneLine(kept), QString::number(text.size()));
}

} // namespace posenc
