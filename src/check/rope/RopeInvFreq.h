#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Params.h"

#include <QList>

#include <optional>
#include <vector>

// A RoPE inverse-frequency vector as a model holds it (`inv_freq`, rotary_dim / 2 values, the
// buffer every `*RotaryEmbedding` registers; docs/ARCHITECTURE.md, Checking a table, "Shapes"):
// what it computes and, against a declared reference, the parameter that differs. The reference
// is RopeFrequencies' (transformers' modeling_rope_utils.py `_compute_*_parameters`, in double);
// the tolerance that of a faithful computation at the vector's precision: HF's float32
// `1 / base ** (arange(0, dim, 2) / dim)` (the exponent and the power each rounded: (|ln w| + 8)
// units of float32), then the stored format's rounding.
namespace posenc::RopeInvFreq {

// The word of the vector in `--json`'s "encoding".
inline const QString kTable = QStringLiteral("rope-inv-freq");

// Whether `v` can be an inverse-frequency vector: finite, positive but for a tail of zeros
// (proportional RoPE's), at most 1 at pair 0.
bool plausible(const std::vector<double> &v);

// Undeclared: a published model's vector (correct), the formula of a rope_type at other
// parameters (variant, the nearest published form named), or unknown.
TableMatch identify(const std::vector<double> &v, StoredType stored);

// Against `declared` (encoding rope): correct, or a mistake naming the parameter that explains
// the vector (rope-theta, rope-type, rope-factor, rotary-dim, longrope-factor-set; a yarn
// declaration's beta-fast and beta-slow, RopeYarnBetas) with both values, rope-type and rope-factor
// both where a factor is on one side only; unnamed when nothing explains it, the worst pair shown.
TableMatch expect(const std::vector<double> &v, StoredType stored, const Params &declared);

// The ids of the mistakes it names.
QStringList mistakeIds();

// The values worth trying for a number read as `value` (a base, a factor): `value` to 1, 2, ..., 12
// significant digits, each an exact power of ten either way (5e5 is 500000), the fewest digits
// first, then `value` itself.
QList<double> roundings(double value);

} // namespace posenc::RopeInvFreq
