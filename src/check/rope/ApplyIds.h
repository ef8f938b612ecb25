#pragma once

#include "check/rope/ApplyCheck.h"

#include <QString>

#include <cstdint>
#include <vector>

// posenc check --apply X Y --position-ids IDS.npy (issue 59; docs/ARCHITECTURE.md, Checking a
// rotation): a forward pass's query or key of a padded or packed batch, its row r at position
// ids[r]. The frequencies are identified from rows in position order, and each row's position read
// is compared with its id; without ids, with its own row.
namespace posenc::ApplyCheck {

// The rows of X and Y the frequencies may be identified from, each list a row at every position
// from 0, at least 3: the first row of each id (the whole table where the ids are right), then the
// longest run of rows whose ids count from 0 (a document of a pack, the real tokens of a padded
// row), which a rotation wrong elsewhere leaves a RoPE table.
std::vector<std::vector<std::int64_t>> rowsByPosition(const std::vector<std::int64_t> &ids);

// The positions read (-1: unread) against the ids: every row at its id (nothing said), every row
// at its id + k (position-offset), every row at its own index where the ids are not (the rotation
// took arange(L), not the batch's ids: arange-with-padding), else the rows away from their ids
// (positions-out-of-order). The mistake is added to `result`; its line returned.
QString idLines(Result &result, const std::vector<std::int64_t> &positions, const std::vector<std::int64_t> &ids);

// The positions read (-1: unread) as runs of rows whose positions follow each other.
std::vector<PositionRun> runsOf(const std::vector<std::int64_t> &positions);

// The rows of the runs whose position was not read.
std::int64_t unreadRows(const Result &result);

// The positions read (-1: unread) where no ids were given: every row at r (nothing said), every row
// at r + k (position-offset), else the runs away from their own rows (positions-out-of-order). The
// mistake is added to `result`; its line returned.
QString positionLines(Result &result, const std::vector<std::int64_t> &positions);

// The verdict: the pairing, the rotated part, the positions and the cells; correct only where the
// frequencies are a published form's and every row is at its own index (its --position-ids).
void conclude(Result &result, const Declared &declared, const std::vector<std::int64_t> &positions, QStringList lines,
              bool reversed);

} // namespace posenc::ApplyCheck
