#include "ParamsChange.h"

#include "core/ParamTable.h"

#include <algorithm>

namespace posenc {

ParamsChange ParamsChange::between(const Params &before, std::shared_ptr<const Engine> after)
{
    ParamsChange change;
    change.keys = ParamTable::changedKeys(before, after->params());
    change.engine = std::move(after);
    return change;
}

bool ParamsChange::touches(const QStringList &reads) const
{
    return std::any_of(keys.begin(), keys.end(), [&reads](const QString &key) { return reads.contains(key); });
}

} // namespace posenc
