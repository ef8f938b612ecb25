#pragma once

#include "Params.h"
#include "Quantity.h"

#include <QList>
#include <QStringList>

// Which parameters a quantity's table reads: what decides that a figure computed from it must
// be computed again (docs/ARCHITECTURE.md, "Recompute triggers").
namespace posenc::ParamInputs {

// The key of the loaded matrix, beside ParamText's keys: two matrices differ by identity.
inline constexpr char16_t kEmbeddingsKey[] = u"embeddings";

// The parameter keys that the table of `quantity` never reads: every key its row of the
// quantity table does not declare. tst_paraminputs checks the declarations against the engine's
// tables: an undeclared key changes none of its cells, and each declared key changes some.
QStringList unreadKeys(Quantity quantity);

// Whether a table of any of `quantities` reads any of `keys` (the keys that changed,
// ParamTable::changedKeys): what the window's views, undo and the tests ask of a change.
bool anyReads(const QList<Quantity> &quantities, const QStringList &keys);

// Whether a table of any of `quantities` can differ between `a` and `b`.
bool differ(const Params &a, const Params &b, const QList<Quantity> &quantities);

} // namespace posenc::ParamInputs
