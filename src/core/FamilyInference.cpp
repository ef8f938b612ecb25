#include "FamilyInference.h"

#include "ParamTable.h"
#include "ParamText.h"

using namespace Qt::StringLiterals;

namespace posenc::FamilyInference {

namespace {

const QString kEncodingKey = u"encoding"_s;

Params withFamily(Params params, Encoding family)
{
    params.encoding = family;
    return params;
}

} // namespace

QList<Encoding> families()
{
    // Each word set on the parameters, so that the families are the row's, in its order.
    QList<Encoding> all;
    for (const QString &choice : ParamTable::find(kEncodingKey)->choices) {
        Params params;
        if (!ParamText::set(params, kEncodingKey, choice))
            all.append(params.encoding);
    }
    return all;
}

QString word(Encoding family)
{
    return ParamText::get(withFamily(Params(), family), kEncodingKey);
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
    const ParamSpec *row = ParamTable::find(key);
    if (!row || !row->idle)
        return std::nullopt;
    Clue clue {what, [row](const Params &params) {
                   const auto idle = row->idle(params);
                   return !idle || idle->code != IdleReason::Code::OtherEncoding;
               }};
    // A key every family reads says nothing of the family.
    if (familiesOf(clue, Params()).size() == families().size())
        return std::nullopt;
    return clue;
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
    return {std::nullopt, candidates};
}

} // namespace posenc::FamilyInference
