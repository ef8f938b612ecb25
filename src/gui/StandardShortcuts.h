#pragma once

#include <QKeySequence>
#include <QList>

namespace posenc::StandardShortcuts {

// The platform's keys for a standard action, or `fallback` where the platform gives none: under
// qt6ct, for one, QKeySequence::Quit has no key, and Quit would have no shortcut.
QList<QKeySequence> orFallback(const QList<QKeySequence> &platform, const QKeySequence &fallback);
QList<QKeySequence> of(QKeySequence::StandardKey key, const QKeySequence &fallback);

} // namespace posenc::StandardShortcuts
