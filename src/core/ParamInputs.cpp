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

bool anyReads(const QList<Quantity> &quantities, const QStringList &keys)
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

bool differ(const Params &a, const Params &b, const QList<Quantity> &quantities)
{
    return anyReads(quantities, ParamTable::changedKeys(a, b));
}

} // namespace posenc::ParamInputs
