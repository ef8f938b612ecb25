#pragma once

// ALiBi, T5 and DeBERTa parameters for the tests that draw every registered figure: a figure of
// those families alone is drawn from these, the others from the tests' own.
#include "core/Params.h"
#include "render/FigureDescriptor.h"

#include <QStringList>

#include <optional>

namespace RelativeTestParams {

// The family `figure` is drawn from when it shows only ALiBi, T5 or DeBERTa: its first.
inline std::optional<posenc::Encoding> familyOf(const posenc::FigureDescriptor &figure)
{
    using posenc::Encoding;
    const QList<Encoding> families = figure.model().families();
    for (const Encoding family : families)
        if (family != Encoding::Alibi && family != Encoding::T5 && family != Encoding::Deberta)
            return std::nullopt;
    return families.isEmpty() ? std::nullopt : std::optional(families.front());
}

// `p` under `family`: 12 ALiBi heads, head 10 (past the power of two, so the interleave is drawn),
// T5's and DeBERTa's defaults.
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
    switch (family) {
    case posenc::Encoding::Alibi:
        return {QStringLiteral("--encoding"), QStringLiteral("alibi"),  QStringLiteral("--heads"),
                QStringLiteral("12"),         QStringLiteral("--head"), QStringLiteral("10")};
    case posenc::Encoding::Deberta:
        return {QStringLiteral("--encoding"), QStringLiteral("deberta")};
    default:
        return {QStringLiteral("--encoding"), QStringLiteral("t5")};
    }
}

} // namespace RelativeTestParams
