#pragma once

// Parameters of the families that bias the attention scores (ALiBi, T5, DeBERTa, Sandwich, any
// family of that kind the list gives) for the tests that draw every registered figure: a figure of
// those families alone is drawn from these, the others from the tests' own.
#include "core/FamilySpec.h"
#include "core/Params.h"
#include "render/FigureDescriptor.h"

#include <QStringList>

#include <optional>

namespace RelativeTestParams {

// The family `figure` is drawn from when it shows only families that bias the scores: its first.
inline std::optional<posenc::Encoding> familyOf(const posenc::FigureDescriptor &figure)
{
    const QList<posenc::Encoding> families = figure.model().families();
    for (const posenc::Encoding family : families)
        if (posenc::Families::spec(family).kind != posenc::FamilyKind::ScoreBias)
            return std::nullopt;
    return families.isEmpty() ? std::nullopt : std::optional(families.front());
}

// `p` under `family`: 12 ALiBi heads, head 10 (past the power of two, so the interleave is drawn),
// the other families' defaults.
inline posenc::Params relative(posenc::Params p, posenc::Encoding family)
{
    p.encoding = family;
    p.alibi.heads = 12;
    p.alibi.head = 10;
    return p;
}

// The same on the command line.
inline QStringList relativeFlags(posenc::Encoding family)
{
    if (family == posenc::Encoding::Alibi)
        return {QStringLiteral("--encoding"), QStringLiteral("alibi"),  QStringLiteral("--heads"),
                QStringLiteral("12"),         QStringLiteral("--head"), QStringLiteral("10")};
    return {QStringLiteral("--encoding"), posenc::Families::word(family)};
}

} // namespace RelativeTestParams
