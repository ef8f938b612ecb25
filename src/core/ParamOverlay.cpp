#include "ParamOverlay.h"

#include "ParamTable.h"
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
    // A text that is no value names the range the other parameters given allow (--cache 1e3
    // --max-len 8: [0, 8]), not the one of the defaults it was parsed against.
    for (ParamError &error : errors) {
        const ParamSpec *row = ParamTable::find(error.key);
        if (row && error.problem.isEmpty() && !error.allowed.isEmpty())
            error.allowed = row->allowed(params);
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
