#include "ScoreFromColumns.h"

#include "core/FamilySpec.h"

namespace posenc::ScoreFromColumns {

bool builds(Encoding encoding)
{
    return Families::spec(encoding).kind == FamilyKind::ScoreBias
        && (encoding == Encoding::Alibi || encoding == Encoding::T5 || encoding == Encoding::Deberta);
}

} // namespace posenc::ScoreFromColumns
