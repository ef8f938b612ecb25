#include "FamilyInference.h"

#include "FamilySpec.h"
#include "ParamTable.h"

using namespace Qt::StringLiterals;

namespace posenc::FamilyInference {

namespace {

Params withFamily(Params params, Encoding family)
{
    params.encoding = family;
    return params;
}

} // namespace

QList<Encoding> families()
{
    QList<Encoding> all;
    for (const FamilySpec &family : Families::all())
        all.append(family.encoding);
    return all;
}

QString word(Encoding family)
{
    return Families::word(family);
}

QList<Encoding> familiesOf(const Clue &clue, const Params &params)
{
    QList<Encoding> fitting;
    for (const Encoding family : families()) {
        if (clue.fits(withFamily(params, family)))
            fitting.append(family);
    }
    return fitting;
}

std::optional<Clue> parameterClue(const QString &key, const QString &what)
{
    // A family's row says which family it is, with the families that read it too; a shared row
    // says nothing of the family.
    const ParamSpec *row = ParamTable::find(key);
    if (!row || !row->family)
        return std::nullopt;
    const Encoding family = *row->family;
    return Clue {what,
                 [family, key](const Params &params) {
                     return params.encoding == family || Families::spec(params.encoding).borrowsRow(family, key);
                 },
                 family};
}

Clue quantityClue(Quantity quantity, const QString &what)
{
    return {what, [quantity](const Params &params) { return !Quantities::spec(quantity).missing(params); }};
}

Outcome infer(const Params &params, const QList<Clue> &clues)
{
    const auto fitsAll = [&](Encoding family) {
        const Params candidate = withFamily(params, family);
        for (const Clue &clue : clues) {
            if (!clue.fits(candidate))
                return false;
        }
        return true;
    };
    if (fitsAll(params.encoding))
        return {params.encoding, {}};
    QList<Encoding> candidates;
    for (const Encoding family : families()) {
        if (fitsAll(family))
            candidates.append(family);
    }
    if (candidates.size() == 1)
        return {candidates.front(), {}};
    // Of several, the one whose own parameter was given (RoPE's for --head-dim, which M-RoPE and
    // 2-D RoPE read too).
    QList<Encoding> owners;
    for (const Clue &clue : clues) {
        if (clue.owner && candidates.contains(*clue.owner) && !owners.contains(*clue.owner))
            owners.append(*clue.owner);
    }
    if (owners.size() == 1)
        return {owners.front(), {}};
    return {std::nullopt, candidates};
}

} // namespace posenc::FamilyInference
