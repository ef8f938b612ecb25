#pragma once

#include "core/ParamTable.h"

// The batch's rows of the parameter table (docs/ARCHITECTURE.md, Positions in practice), a group
// every family shares as dropout's: the batch as lengths with a side, as packed documents, as an
// attention mask or each token's document read from a file, a decode step after a prefill, the ids
// the tokens get, and what a model reads of the absolute position besides its encoding (Llama 4's
// temperature and chunk).
namespace posenc::BatchParamRows {

QList<ParamSpec> rows();
// --ids-choice's words, in the order of IdsChoice.
const QStringList &choiceWords();
// The problem with the batch's files and texts against each other and max_len, keyed by the row
// that shows it; nothing when they agree (the rows' checks).
std::optional<ParamError> layoutProblem(const Params &params, const QString &key);

} // namespace posenc::BatchParamRows
