#pragma once

#include "core/ParamError.h"
#include "core/Params.h"

#include <QString>

#include <optional>

// The checks of the batch's rows (docs/ARCHITECTURE.md, Positions in practice): each row's range in
// words, with the live max_len and cache, and the problem of its value against the others: lengths
// that do not fit the row, documents that overflow it, a mask that is not 0 and 1 or disagrees with
// the documents' padding, a cache beyond max_len or beside packed documents.
namespace posenc::BatchRowRanges {

QString allowed(const QString &key, const Params &params);
std::optional<ParamError> problem(const Params &params, const QString &key);

} // namespace posenc::BatchRowRanges
