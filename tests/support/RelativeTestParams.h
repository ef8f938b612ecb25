#pragma once

// Parameters of the families whose figures the tests that draw every registered figure cannot
// draw from their own parameters: the families that bias the attention scores (ALiBi, T5,
// DeBERTa, Sandwich, any family of that kind the list gives), the vision families M-RoPE and
// 2-D RoPE, and NoPE (its figure of order without positions). A figure of those families alone is
// drawn from these, the others from the tests' own.
#include "core/FamilySpec.h"
#include "core/Params.h"
#include "render/FigureDescriptor.h"

#include <QStringList>

#include <optional>

namespace RelativeTestParams {

// Whether a figure of `family` alone is drawn from these parameters.
inline bool drawnHere(posenc::Encoding family)
{
    return posenc::Families::spec(family).kind == posenc::FamilyKind::ScoreBias || family == posenc::Encoding::Mrope
        || family == posenc::Encoding::Rope2d || family == posenc::Encoding::None;
}

// The family `figure` is drawn from when it shows only such families: its first.
inline std::optional<posenc::Encoding> familyOf(const posenc::FigureDescriptor &figure)
{
    const QList<posenc::Encoding> families = figure.model().families();
    for (const posenc::Encoding family : families)
        if (!drawnHere(family))
            return std::nullopt;
    return families.isEmpty() ? std::nullopt : std::optional(families.front());
}

// `p` under `family`: 12 ALiBi heads, head 10 (past the power of two, so the interleave is drawn),
// M-RoPE and 2-D RoPE with a head of 32 within the tests' d_model and M-RoPE's section scaled to
// its 16 pairs, the other families' defaults.
inline posenc::Params relative(posenc::Params p, posenc::Encoding family)
{
    p.encoding = family;
    p.alibi.heads = 12;
    p.alibi.head = 10;
    if (family == posenc::Encoding::Mrope || family == posenc::Encoding::Rope2d)
        p.rope.headDim = 32;
    p.mrope.section = {4, 6, 6};
    return p;
}

// The same on the command line.
inline QStringList relativeFlags(posenc::Encoding family)
{
    switch (family) {
    case posenc::Encoding::Alibi:
        return {QStringLiteral("--encoding"), QStringLiteral("alibi"),  QStringLiteral("--heads"),
                QStringLiteral("12"),         QStringLiteral("--head"), QStringLiteral("10")};
    case posenc::Encoding::Mrope:
        return {QStringLiteral("--encoding"), QStringLiteral("mrope"),           QStringLiteral("--head-dim"),
                QStringLiteral("32"),         QStringLiteral("--mrope-section"), QStringLiteral("4,6,6")};
    case posenc::Encoding::Rope2d:
        return {QStringLiteral("--encoding"), QStringLiteral("rope-2d"), QStringLiteral("--head-dim"),
                QStringLiteral("32")};
    default:
        return {QStringLiteral("--encoding"), posenc::Families::word(family)};
    }
}

} // namespace RelativeTestParams
