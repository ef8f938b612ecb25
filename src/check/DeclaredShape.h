#pragma once

#include "check/TableMatch.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <utility>
#include <vector>

// A declared reference whose shape the table does not have, where the shape is the deviation
// (docs/ARCHITECTURE.md, A declared reference): the table is the family's table at another value of
// a parameter that decides the shape (a sinusoid's d_model, a 2-D grid's H x W, RoPE's rotary_dim in
// rope/RopeDeclaredWidth), every other parameter the declared one. The match at the value the table
// has is named first by that parameter, with the declared and the read value; a table no such value
// explains is refused as before, both shapes said.
namespace posenc::DeclaredShape {

// The ids: the parameters' keys.
inline const QString kDModel = QStringLiteral("d-model");
inline const QString kGrid = QStringLiteral("grid");

// The match at the read value, named: `ids` first among its mistakes, the verdict a mistake, and
// `said` ("d-model: the table is the sinusoid of d_model 64 ..., the declared reference's is d_model
// 128") before what the match at that value says of the cells.
TableMatch named(TableMatch atRead, const QStringList &ids, const QString &said, const QString &readValue);

// The grids (h, w) of `patches` patches other than the declared one and its transpose (of the
// declared shape: not a shape's deviation), nearest the declaration first: the square, then those
// keeping a declared side, then the rest by how square they are.
std::vector<std::pair<std::int64_t, std::int64_t>> otherGrids(std::int64_t patches, std::int64_t height,
                                                              std::int64_t width);

} // namespace posenc::DeclaredShape
