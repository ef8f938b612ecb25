#pragma once

// ALiBi, T5, DeBERTa, M-RoPE and 2-D RoPE parameters for the tests that draw every registered
// figure: a figure of those families alone is drawn from these, the others from the tests' own.
#include "core/Params.h"
#include "render/FigureDescriptor.h"

#include <QStringList>

#include <optional>

namespace RelativeTestParams {

// The family `figure` is drawn from when it shows only ALiBi, T5, DeBERTa, M-RoPE or 2-D RoPE: its
// first.
inline std::optional<posenc::Encoding> familyOf(const posenc::FigureDescriptor &figure)
{
    using posenc::Encoding;
    const QList<Encoding> families = figure.model().families();
    for (const Encoding family : families)
        if (family != Encoding::Alibi && family != Encoding::T5 && family != Encoding::Deberta
            && family != Encoding::Mrope && family != Encoding::Rope2d)
            return std::nullopt;
    return families.isEmpty() ? std::nullopt : std::optional(families.front());
}

// `p` under `family`: 12 ALiBi heads, head 10 (past the power of two, so the interleave is drawn),
// T5's and DeBERTa's defaults; M-RoPE and 2-D RoPE with a head of 32 within the tests' d_model,
// M-RoPE's section scaled to its 16 pairs.
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
    case posenc::Encoding::Deberta:
        return {QStringLiteral("--encoding"), QStringLiteral("deberta")};
    case posenc::Encoding::Mrope:
        return {QStringLiteral("--encoding"), QStringLiteral("mrope"),           QStringLiteral("--head-dim"),
                QStringLiteral("32"),         QStringLiteral("--mrope-section"), QStringLiteral("4,6,6")};
    case posenc::Encoding::Rope2d:
        return {QStringLiteral("--encoding"), QStringLiteral("rope-2d"), QStringLiteral("--head-dim"),
                QStringLiteral("32")};
    default:
        return {QStringLiteral("--encoding"), QStringLiteral("t5")};
    }
}

} // namespace RelativeTestParams
