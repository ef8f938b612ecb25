#pragma once

#include "check/rope/ApplyCheck.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <functional>

// `posenc check --apply X Y` against a reference declared in full (docs/ARCHITECTURE.md, Checking
// a rotation): the frequencies the check fitted are compared by the table check's own comparator
// (TableHypothesis::nameDeclaredParameter: RoPE's reads the fitted inv_freq as RopeInvFreq::expect
// does a dumped one), and the attention factor with the reference's; the pairing and the
// rotary_dim are compared by the check itself (ApplyPairs::layoutMistakes, the partial rotary's).
namespace posenc::ApplyReference {

// The attention factor Y is multiplied by where the reference declares another one; where Y's is
// 1 and the reference's is not, as the table check names it.
inline const QString kAttentionFactor = QStringLiteral("attention-factor");
inline const QString kAttentionFactorMissing = QStringLiteral("attention-factor-missing");
// The fitted frequencies differ from the reference's and no parameter of it, set as they have it,
// explains the rows.
inline const QString kFrequencies = QStringLiteral("rope-frequencies-differ");

// The ids it names besides the comparator's.
QStringList mistakeIds();

// Whether frequencies at these parameters explain as many sampled rows as the fitted ones.
using Explains = std::function<bool(const Params &)>;

// `result` (frequencies fitted, attention factor read) against `reference`: each parameter that
// differs appended to its mistakes with a line in `lines`; none, and its correctAgainst names the
// reference. `explained`: the reference's frequencies explain as many sampled rows as the fitted
// ones (then they are not compared: the rows cannot tell them apart). Frequencies the comparator
// names nothing in (a YaRN original length, its betas) are named by the fewest of the reference's
// parameters that differ from the fit's (one, else two) which, set as the fit has them, `explains`
// the rows, each with both values. `within`: the relative uncertainty of the attention factor read.
void compare(ApplyCheck::Result &result, const Params &reference, bool explained, double within, QStringList &lines,
             const Explains &explains);

} // namespace posenc::ApplyReference
