#pragma once

#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"

#include <QString>

#include <optional>

// An --apply check against the reference declared in full whose Y no faithful computation of it
// makes (docs/ARCHITECTURE.md, Checking a rotation). A rotation keeps each pair's length (times the
// attention factor) at every position. Where Y is X mixed pair by pair by [[cos, sin], [sin, cos]]
// at the reference's angles, the minus sign of rotate_half (transformers' modeling_llama.py
// rotate_half: cat(-x2, x1), used by apply_rotary_pos_emb as q * cos + rotate_half(q) * sin) or of
// rotate_every_two (modeling_gptj.py: stack(-x[..., 1::2], x[..., ::2])) is lost: no pair turns,
// each changes length by sin(2 angle) x_a x_b, and the mistake is rotation-sign-lost
// (transformers#16298, modeling_flax_gptj.py's rotate_every_two). Y whose pairs change length
// otherwise, where no pairing turns them, is no rotation either: a mistake that says so.
namespace posenc::ApplyLengths {

inline const QString kSignLost = QStringLiteral("rotation-sign-lost");

// The pairing the declared reference turns, read over the sample: rotate_half's or
// rotate_every_two's pairs of its first rotary_dim columns, as its layout says; nothing where no
// reference is declared or its rotary_dim does not fit X.
std::optional<ApplyPairs::Reading> declaredReading(const RowMatrixXf &x, const RowMatrixXf &y,
                                                   const std::vector<std::int64_t> &rows,
                                                   const ApplyCheck::Declared &declared);

// Against the reference declared in full: where every sampled cell of Y (but one in a hundred) is
// X mixed by [[cos, sin], [sin, cos]] at the reference's angles and attention factor, the columns
// it does not turn X's, within the rounding `u` a faithful computation allows (ApplyPairs::
// turnedSlack), and every cell but one in a hundred of those that tell the two apart is so,
// `result` is the mistake rotation-sign-lost, said. Whether it named it.
bool nameSignLost(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, double u,
                  const ApplyCheck::Declared &declared);

// Y that no pairing turns (ApplyNotTurned::nameNoRotation: unknown, or Y all 0), then against the
// declared reference its pairs' lengths (declaredReading, name).
void nameNoRotation(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y,
                    const std::vector<std::int64_t> &rows, double u, const ApplyCheck::Declared &declared);

// `result` a mistake where it is still unknown and unnamed, a reference is declared and at least
// one sampled pair of `r` in ten changes length (against the median amplitude of its pairs); left
// as it is otherwise.
void name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared);

} // namespace posenc::ApplyLengths
