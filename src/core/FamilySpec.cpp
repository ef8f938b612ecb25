#include "FamilySpec.h"

#include "FamiliesDistance.h"
#include "positions/BatchLayout.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

Params familyUnder(const Params &params, Encoding family)
{
    Params p = params;
    p.encoding = family;
    return p;
}

std::int64_t familiesDefaultQuery(const Params &params)
{
    return (params.maxLen - 1) / 2;
}

std::int64_t familiesKeyBack(const Params &params, std::int64_t wish)
{
    const std::int64_t query = familiesDefaultQuery(params);
    std::int64_t drawn = query;
    if (!BatchLayout::attendsBothWays(params) && params.batch.window && *params.batch.window <= query)
        drawn = *params.batch.window - 1;
    return std::min(wish, drawn);
}

std::optional<std::int64_t> familiesQuotedBack(const Params &params, FamiliesDistance which)
{
    const bool far = which == FamiliesDistance::Far;
    const std::int64_t back = familiesKeyBack(params, far ? 100 : 1000);
    if (back > (far ? 1 : 10))
        return back;
    return std::nullopt;
}

LessonNumbers::Number atFamiliesDistance(const Params &params, FamiliesDistance which,
                                         const std::function<LessonNumbers::Number(std::int64_t)> &at)
{
    if (const std::optional<std::int64_t> back = familiesQuotedBack(params, which))
        return at(*back);
    const int nearer = which == FamiliesDistance::Far ? 1 : 10;
    return LessonNumbers::none(
        u"not here: the families figure draws no key more than %1 before its query"_s.arg(nearer));
}

bool FamilySpec::borrowsRow(Encoding family, const QString &key) const
{
    for (const BorrowedRows &b : borrows) {
        if (b.family == family && (key.isEmpty() || b.keys.isEmpty() || b.keys.contains(key)))
            return true;
    }
    return false;
}

namespace Families {

const QList<FamilySpec> &all()
{
    // Made on first use, in the list's order: no registration at static initialisation, which a
    // static library's link could drop.
    static const QList<FamilySpec> list = [] {
        QList<FamilySpec> specs;
#define POSENC_FAMILY(Name, member)                                                                                    \
    specs.append(make##Name##Family());                                                                                \
    specs.back().encoding = Encoding::Name;
#include "FamilyList.h"
#undef POSENC_FAMILY
        return specs;
    }();
    return list;
}

const FamilySpec &spec(Encoding encoding)
{
    return all()[static_cast<qsizetype>(encoding)];
}

std::optional<Encoding> fromWord(const QString &word)
{
    for (const FamilySpec &family : all()) {
        if (family.word == word)
            return family.encoding;
    }
    return std::nullopt;
}

QString word(Encoding encoding)
{
    return spec(encoding).word;
}

QString wordList(const std::function<bool(const FamilySpec &)> &which, const QString &separator)
{
    QStringList words;
    for (const FamilySpec &family : all()) {
        if (which(family))
            words.append(family.word);
    }
    if (!separator.isEmpty() || words.size() < 2)
        return words.join(separator);
    return words.mid(0, words.size() - 1).join(u", "_s) + u" or "_s + words.back();
}

std::optional<ParamSpec> tableRow(const FamilySpec &family)
{
    for (const ParamSpec &row : family.rows()) {
        if (row.kind == ParamKind::Matrix)
            return row;
    }
    return std::nullopt;
}

std::optional<Encoding> holdingTable(const QString &key)
{
    for (const FamilySpec &family : all()) {
        if (const auto row = tableRow(family); row && row->key == key)
            return family.encoding;
    }
    return std::nullopt;
}

std::optional<Encoding> owning(Quantity quantity)
{
    // Each manifest names its family before its quantities, so the list read with both macros
    // gives every family's quantities after it.
    std::optional<Encoding> family;
#define POSENC_FAMILY(Name, member) family = Encoding::Name;
#define POSENC_FAMILY_QUANTITY(Name)                                                                                   \
    if (quantity == Quantity::Name)                                                                                    \
        return family;
#include "FamilyList.h"
#undef POSENC_FAMILY_QUANTITY
#undef POSENC_FAMILY
    return std::nullopt;
}

QString insteadOfTerm(Encoding encoding)
{
    switch (spec(encoding).kind) {
    case FamilyKind::Term:
        break;
    case FamilyKind::Rotation:
        return u"it rotates queries and keys"_s;
    case FamilyKind::ScoreBias:
        return u"it acts on the attention scores"_s;
    }
    return {};
}

void copyGroup(Params &to, const Params &from, Encoding family)
{
    switch (family) {
#define POSENC_FAMILY(Name, member)                                                                                    \
    case Encoding::Name:                                                                                               \
        to.member = from.member;                                                                                       \
        break;
#include "FamilyList.h"
#undef POSENC_FAMILY
    }
}

FamilySpec fromWords(const FamilyWords &words, FamilyKind kind)
{
    FamilySpec spec;
    spec.word = words.text(u"word"_s);
    spec.kind = kind;
    spec.help = words.text(u"help"_s);
    spec.formula = words.text(u"formula"_s);
    if (words.has(u"heading"_s))
        spec.heading = words.text(u"heading"_s);
    if (words.has(u"describeSource"_s))
        spec.describeSource = words.text(u"describeSource"_s);
    if (words.has(u"describeKeys"_s))
        spec.describeKeys = words.meanings(u"describeKeys"_s);
    return spec;
}

} // namespace Families

} // namespace posenc
