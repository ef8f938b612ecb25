#pragma once

#include "check/rope/RopeRowPositions.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// Patterns of the positions a RoPE table's rows were read at (RopeRowPositions::regions), each a
// mistake's or a correct input's: every row at one position, runs restarting at 0, positions scaled.
namespace posenc::RopeRowPositions {

// The one position every read row holds, where at least two rows are read and no row holds another
// (unread rows aside: the stream's).
std::optional<std::int64_t> onePosition(const std::vector<Region> &regions);
// Whether the rows are runs each from position 0, the first at its own rows (packed documents).
bool restartsAtZero(const std::vector<Region> &regions);
QString restartWords(const std::vector<Region> &regions);
// The whole number s >= 2 where every row read r holds position s r, and its words.
std::optional<std::int64_t> scaleOf(const std::vector<Region> &regions);
QString scaledWords(std::int64_t scale, const RopeFit::Hypothesis &correct);

} // namespace posenc::RopeRowPositions
