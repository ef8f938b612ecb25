#include "StandardShortcuts.h"

namespace posenc::StandardShortcuts {

QList<QKeySequence> orFallback(const QList<QKeySequence> &platform, const QKeySequence &fallback)
{
    for (const QKeySequence &keys : platform) {
        if (!keys.isEmpty())
            return platform;
    }
    return {fallback};
}

QList<QKeySequence> of(QKeySequence::StandardKey key, const QKeySequence &fallback)
{
    return orFallback(QKeySequence::keyBindings(key), fallback);
}

} // namespace posenc::StandardShortcuts
