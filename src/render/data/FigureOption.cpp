#include "FigureOption.h"

using namespace Qt::StringLiterals;

namespace posenc {

std::optional<ParamError> FigureOption::refusal(const QString &text) const
{
    switch (kind) {
    case Kind::Choice:
        if (choices.contains(canonical(text)))
            return std::nullopt;
        return ParamError {key, u"one of %1"_s.arg(choices.join(u", "_s)), QString(), ParamError::quoted(text)};
    case Kind::Switch:
        if (text == u"true"_s || text == u"false"_s)
            return std::nullopt;
        return ParamError {key, u"true or false"_s, QString(), ParamError::quoted(text)};
    case Kind::Text:
        return std::nullopt;
    }
    return std::nullopt;
}

QString FigureOption::canonical(const QString &text) const
{
    for (const auto &[alias, choice] : aliases) {
        if (alias == text)
            return choice;
    }
    return text;
}

} // namespace posenc
