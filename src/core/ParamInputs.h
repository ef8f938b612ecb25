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

// The parameter keys that the table of `quantity` never reads, whatever the other parameters.
// The list names exclusions, so that a parameter added later counts as read until it is listed
// here: a figure may then be computed once too often, never left stale. tst_paraminputs checks
// each exclusion against the engine's tables.
QStringList unreadKeys(Quantity quantity);

// The keys of `a` and `b` that differ (ParamText's text of each, and the matrix's identity).
QStringList differingKeys(const Params &a, const Params &b);

// Whether a table of any of `quantities` can differ between `a` and `b`.
bool differ(const Params &a, const Params &b, const QList<Quantity> &quantities);

} // namespace posenc::ParamInputs
