#include "ParamInputs.h"

#include "ParamTable.h"

using namespace Qt::StringLiterals;

namespace posenc::ParamInputs {

QStringList unreadKeys(Quantity quantity)
{
    const QStringList &reads = Quantities::spec(quantity).reads;
    QStringList unread;
    for (const QString &key : ParamTable::flagKeys()) {
        if (!reads.contains(key))
            unread.append(key);
    }
    return unread;
}

QStringList differingKeys(const Params &a, const Params &b)
{
    return ParamTable::changedKeys(a, b);
}

bool differ(const Params &a, const Params &b, const QList<Quantity> &quantities)
{
    for (const QString &key : differingKeys(a, b)) {
        for (const Quantity q : quantities) {
            if (Quantities::spec(q).reads.contains(key))
                return true;
        }
    }
    return false;
}

} // namespace posenc::ParamInputs
