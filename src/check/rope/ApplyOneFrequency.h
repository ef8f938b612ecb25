#pragma once

#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"

// An --apply check whose angles are one frequency's at every pair (docs/ARCHITECTURE.md, Checking a
// rotation; issue 56): each row's pairs all turned by one angle, p w at row p. transformers'
// inv_freq = 1 / base^(arange(0, dim, 2) / dim) (modeling_rope_utils.py,
// _compute_default_rope_parameters) gives every pair its own frequency; all of them equal is the
// exponent lost, base^0 = 1 at every pair: LeetCUDA's rope.cu (xlite-dev/LeetCUDA#289, fixed by
// #290) took powf(theta, token_idx / (N * 2)) in integer division. No table's layout shows in such
// angles (both columns of any pairing turn alike), so no layout swap is read from them.
namespace posenc::ApplyOneFrequency {

inline const QString kFrequenciesEqual = QStringLiteral("rope-frequencies-equal");

// Where every sampled row's pairs turn by one angle, p w at row p (its --position-ids, else its
// index): the verdict and diagnosis said in `result` (mistake rope-frequencies-equal against a
// reference declared in full, whose frequencies differ pair by pair; unknown undeclared), true;
// false, `result` as it was, otherwise.
bool name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared);

} // namespace posenc::ApplyOneFrequency
