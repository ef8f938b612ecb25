#include "ParamsChange.h"

#include "core/ParamInputs.h"
#include "core/ParamTable.h"

namespace posenc {

ParamsChange ParamsChange::between(const Params &before, std::shared_ptr<const Engine> after)
{
    ParamsChange change;
    change.keys = ParamTable::changedKeys(before, after->params());
    change.engine = std::move(after);
    return change;
}

bool ParamsChange::touches(const QList<Quantity> &quantities) const
{
    return ParamInputs::anyReads(quantities, keys);
}

} // namespace posenc
