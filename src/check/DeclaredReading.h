#pragma once

#include "check/TableCheck.h"
#include "check/TableMatch.h"

// What a table that deviates from a declared reference is instead (docs/ARCHITECTURE.md,
// Checking a table): the check compares with exactly what was declared, and then names the
// mistake that explains the deviation, as the undeclared check reads it.
namespace posenc::TableCheck {

// After the rows were streamed (conclude): when `declared` is a mistake whose cells deviate and no
// mistake was named, `read` is the table identified without the declaration. If it reads as the declared
// reference with a named mistake (positions from 5 of the very RoPE declared), that mistake is
// named and its diagnosis given, the deviating cells kept as a note; otherwise a note says what the
// table reads as (a variant at another theta, another model's published table).
void nameDeclaredMistake(TableMatch &declared, const TableMatch &read);

// Of two streamed candidates of a declaration (RoPE's cos and sin tables), whether `x` is the one
// to keep over `y`: no deviating cell first; of candidates that both deviate, the table word the
// undeclared check reads (`readAs`, a sin table declared "rope" compared with the sin reference);
// then fewer deviating cells, then a smaller largest error.
bool betterCandidate(const TableMatch &x, const Verification &vx, const TableMatch &y, const Verification &vy,
                     const QString &readAs);

} // namespace posenc::TableCheck
