#include "ParamOverlay.h"

#include "ParamText.h"

namespace posenc::ParamOverlay {

QList<ParamError> set(Params &params, const ParamTexts &texts)
{
    QList<ParamError> errors;
    for (const QString &key : ParamText::valueKeys()) {
        const auto text = texts.constFind(key);
        if (text == texts.cend())
            continue;
        if (auto error = ParamText::set(params, key, *text))
            errors.append(*error);
    }
    return errors;
}

std::variant<Params, QList<ParamError>> over(const Params &base, const ParamTexts &texts)
{
    Params params = base;
    QList<ParamError> errors = set(params, texts);
    if (errors.isEmpty())
        errors = params.validate();
    if (!errors.isEmpty())
        return errors;
    return params;
}

} // namespace posenc::ParamOverlay
