#pragma once

#include "check/CellTolerance.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "check/TableSample.h"

#include <QString>

#include <memory>
#include <optional>

// A table that is its reference with the sign of a block of cells flipped (docs/ARCHITECTURE.md,
// Checking a table, "A declared reference"; issue 56): rows of some columns each exactly -x where
// the reference holds x. A sine taken at +p where the code means -p gives it: speechbrain's
// RelPosEncXL.make_pe wrote sin(p) for the negative offsets' sin(-p) (speechbrain#3070, fixed by
// speechbrain#3073). No faithful computation of the reference negates a cell: a mistake, the block
// named by its rows and columns (CheckMistakes::kSignFlipped).
namespace posenc::TableSignFlip {

struct Flip
{
    // The reference with the block negated, which every row is then streamed against.
    std::shared_ptr<const TableRows> negated;
    // Where the block lies: "rows 256..510 (255 of 511) and columns 0, 2, 4, ... 510 (256 of 512)".
    QString where;
    // What may have negated it, from what the block holds: where every negated column is 0 in the
    // reference's row 0 (a sine's column, odd in the position), a sine taken at +p where -p is meant
    // (speechbrain#3070); where one is not (a cosine's, even in p: cos(-p) = cos(p)), no sign of the
    // position, the values themselves negated.
    QString cause;
    // Whether the reference is a square map of whole numbers odd in the offset, negated in every
    // cell: the map of the other difference (DeBERTa's buckets of j − i for i − j), the mistake
    // relative-position-reversed beside the sign.
    bool mirrored = false;
};

// The block of `table` whose cells are `reference`'s negated, where the sampled rows (`mine`, and
// `theirs` the reference's same rows) hold a cell that is neither the reference's nor its negation
// in none, negated cells in at least two, and every row with a negated cell negated in the same
// columns (a rectangle once the rows are put together); the rows are then read whole, a row of the
// block being one whose cells in those columns are all negated. Nothing otherwise.
std::optional<Flip> read(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                         const TableSample &mine, const TableSample &theirs, const CellTolerance &tolerance);

} // namespace posenc::TableSignFlip
