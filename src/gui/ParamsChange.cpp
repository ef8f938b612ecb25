#include "ParamsChange.h"

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
    for (const Quantity q : quantities) {
        const QStringList &reads = Quantities::spec(q).reads;
        for (const QString &key : keys) {
            if (reads.contains(key))
                return true;
        }
    }
    return false;
}

} // namespace posenc
