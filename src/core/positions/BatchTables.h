#pragma once

#include "core/Block.h"
#include "core/Params.h"

#include <QString>

// A batch's table read from a file as runs (docs/ARCHITECTURE.md, Positions in practice): an
// attention mask, whose cells must be 0 or 1, or each token's document, whose cells must be
// integers. The first cell that is neither is kept for the row's message (BatchRowRanges).
namespace posenc::BatchTables {

BatchTable fromMatrix(const RowMatrixXf &values, bool zeroOrOne, const QString &source);

} // namespace posenc::BatchTables
