#pragma once

#include "check/TableMatch.h"
#include "check/rope/RopeFit.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

// A declared RoPE table at another attention factor (docs/ARCHITECTURE.md, Checking a table, "A
// declared reference"): its angles the declaration's, its amplitude another than the declared one
// beyond what the cells pin it to, as a port that takes a config's attention_factor for a multiplier
// of its own mscale gives (sgl-project/sglang PR #33558: 1.4852 squared to 2.2058). Read at the
// table's precision: a half-precision cache's amplitude is known only to its rounding.
namespace posenc::RopeDeclaredFactor {

// "the attention factor is 1.589 (read from the cells to ±0.001) where 1.7 is declared (...)": the
// factor `read`, known to `slack` (relative), in the digits that pins, against `declared` of a table
// of `type`.
QString words(double read, double slack, double declared, RopeType type);

// Whether the amplitude `read` (known to `slack`) differs from `declared`.
bool differs(double read, double slack, double declared);

// The declared factor left out: `fit` (the declared hypothesis, deviating) at amplitude 1 explains
// every sampled cell (keras-hub#2981, exllamav3#259), where the declared factor is not 1. Then `fit`
// is that hypothesis, attention-factor-missing named.
void missing(const RopeFit::FitInput &input, RopeFit::Fit &fit);

// `fit` (the declared hypothesis, deviating) at the amplitude the table's own reading `found`
// measured, where that explains every sampled cell: the match `matchOf` gives of it, attention-factor
// (attention-factor-missing at amplitude 1) named with both values; else nothing.
std::optional<TableMatch> named(const RopeFit::FitInput &input, RopeFit::Fit fit, const RopeFit::Fit &found,
                                const std::function<TableMatch(const RopeFit::Fit &)> &matchOf);

// `fit` (the declared hypothesis, deviating) at the amplitude the cells hold, read as the median of
// each sampled cell over its unit-amplitude reference (cells where |cos| or |sin| is at least 1/2),
// where that explains every sampled cell: the table is the declared one times a constant, whatever
// the table's own reading (an amplitude of 2.2 no published form has). attention-factor named with
// both values, as named() does; else nothing.
std::optional<TableMatch> uniform(const RopeFit::FitInput &input, const RopeFit::Fit &fit,
                                  const std::function<TableMatch(const RopeFit::Fit &)> &matchOf);

// The declared hypothesis `fit` (deviating, no mistake named) against the table's own reading `found`
// (explaining every sampled cell, row 0 at position `rowZero`): the other function at the reading's
// positions (RopeFunctionReplaced: cos-replaced, and position-offset where they are not the
// declared), or the declared angles at the reading's amplitude (named()); else nothing.
std::optional<TableMatch> fromReading(const RopeFit::FitInput &input, RopeFit::Fit fit, const RopeFit::Fit &found,
                                      std::int64_t rowZero,
                                      const std::function<TableMatch(const RopeFit::Fit &)> &matchOf);

} // namespace posenc::RopeDeclaredFactor
