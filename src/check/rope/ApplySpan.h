#pragma once

#include "check/rope/ApplyCheck.h"

#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// Which of --apply's columns a rotation turns (docs/ARCHITECTURE.md, Checking a rotation): HF's
// partial rotary (modeling_gpt_neox.py, modeling_phi.py: q_rot = q[..., :rotary_dim] turned,
// q_pass = q[..., rotary_dim:] passed) read from the columns Y leaves as X had them.
namespace posenc::ApplySpan {

// Where the columns that pass through unchanged put the rotated ones.
enum class Placement { Whole, First, Last, Scattered, None };

struct Span
{
    Placement placement = Placement::Whole;
    std::int64_t col0 = 0;
    std::int64_t width = 0;
};

// The rotary width 2h of a half-layout part whose slowest pairs Y's format leaves as they were, or
// nothing for another pattern (ApplySpan.cpp).
std::optional<std::int64_t> slowPairsWidth(const std::vector<bool> &pass);

// The rotated columns of a head whose columns `pass` through unchanged where true.
Span spanOf(const std::vector<bool> &pass);

// The partial rotary's own mistakes added to `result` and their lines: the rotated part's place
// (rotary-part-misplaced), the rotary_dim declared (rotary-dim), and frequencies whose exponent runs
// over head_dim (rotary-dim-exponent).
QStringList partialLines(ApplyCheck::Result &result, const Span &span, const ApplyCheck::Declared &declared);

} // namespace posenc::ApplySpan
