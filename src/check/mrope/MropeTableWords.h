#pragma once

#include "check/TableHypothesis.h"
#include "check/mrope/MropeTableFit.h"
#include "check/mrope/MropeTableReference.h"
#include "core/Params.h"
#include "core/mrope/MropePrompt.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

// The words of M-RoPE's table check (docs/ARCHITECTURE.md, Checking a table): the models a split
// and rope_theta are published as, what a table's own rows read as, the reference a table is
// compared with, and a port's mistake with where it shows.
namespace posenc::MropeTableWords {

// The models whose M-RoPE ships at a split and theta (resources/presets, each from its config).
QString publishedAs(const std::vector<std::int64_t> &section, bool interleaved, double theta, std::int64_t pairs);

// The sampled rows' ids where they change kind (text, vision), at most eight. In a table of float32
// angles (`float32Angles`, torch's inv_freq @ position_ids and cos), a row whose read ids differ is
// a vision row only where those angles' rounding tells them from one id (t, t, t), which w's slowest
// pairs cannot for ids one apart (an exact table's reading already takes one id where its float32
// values are one id's: MropeTableFit's rowIds).
QString idsNote(const TableEvidence &e, const MropeTableFit::Reading &r, bool float32Angles);

// A reading's split, rope_theta and rotary_dim, in words.
QString readingWords(const MropeTableFit::Reading &r);

// "rows 5-28, 32-63" of the spans `which` picks, at most three named.
QString spanRows(const MropeLayout &layout, const std::function<bool(const MropeLayout::Span &)> &which);
bool isVision(const MropeLayout::Span &s);
// A Qwen2.5-VL video whose t ids (k · second_per_grid · tokens_per_second) are not its grid index k.
bool videoTimeMoves(const MropeLayout::Span &s);

// The declared reference of a table of `rows` rows placed at `at` (after `padding` rows of left
// padding, or at a window of positions), in words.
QString referenceWords(const Params &p, const MropeLayout &layout, std::int64_t rows, std::int64_t padding,
                       const MropeRowIds &at);

// The mistake a port makes, named with where it shows; `first` the cache position of row 0.
QString mistakeWords(const QString &id, const Params &p, const MropeLayout &layout, std::int64_t rows,
                     std::int64_t first);

} // namespace posenc::MropeTableWords
