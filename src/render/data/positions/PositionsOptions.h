#pragma once

#include "render/data/FigureOption.h"
#include "render/data/FigureState.h"

#include "core/Params.h"

#include <cstdint>

// The options the positions' figures share (docs/ARCHITECTURE.md, Positions in practice): --row,
// the batch row a figure draws closely, and --compare, the ids and mask the document-distance
// figure sets beside the reference's.
namespace posenc::PositionsOptions {

inline constexpr char16_t kRow[] = u"row";
inline constexpr char16_t kCompare[] = u"compare";

FigureOption row();
// The row drawn: the option's, else the first with padding or documents, else 0.
std::int64_t rowOf(const Params &params, const FigureState &state);
QString defaultRow(const Params &params);
// --row within [0, B), naming the figure.
QList<ParamError> checkRow(const Params &params, const FigureState &state, const QString &figure);

FigureOption compare();
// The choice drawn beside the reference: the option's, else the parameters' where it is not the
// reference, else restarted-without-block-mask.
IdsChoice compareOf(const Params &params, const FigureState &state);
QString defaultCompare(const Params &params);

} // namespace posenc::PositionsOptions
