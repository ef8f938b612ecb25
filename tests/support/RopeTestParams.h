#pragma once

// RoPE parameters for the tests that draw every registered figure: a figure of the rotary family
// alone is drawn from these, the others from the tests' own.
#include "core/Params.h"
#include "render/FigureDescriptor.h"

#include <QStringList>

#include <algorithm>

namespace RopeTestParams {

// Whether `figure` shows the rotary family only.
inline bool showsRope(const posenc::FigureDescriptor &figure)
{
    return figure.model().families() == QList<posenc::Encoding> {posenc::Encoding::Rope};
}

// `p` under encoding rope: a head of 64 columns (at most d_model), theta 10000 and a llama3
// scaling by 4 from a quarter of max_len, so that its bands, contexts and critical dimension are
// all drawn.
inline posenc::Params rope(posenc::Params p)
{
    p.encoding = posenc::Encoding::Rope;
    p.rope.headDim = std::min<std::int64_t>(64, p.dModel - p.dModel % 2);
    p.rope.type = posenc::RopeType::Llama3;
    p.rope.factor = 4.0;
    p.rope.originalMaxLen = std::max<std::int64_t>(p.maxLen / 4, 1);
    return p;
}

// The same on the command line, for a table of `maxLen` positions and d_model >= 64.
inline QStringList ropeFlags(std::int64_t maxLen)
{
    return {QStringLiteral("--encoding"),         QStringLiteral("rope"),
            QStringLiteral("--head-dim"),         QStringLiteral("64"),
            QStringLiteral("--rope-type"),        QStringLiteral("llama3"),
            QStringLiteral("--rope-factor"),      QStringLiteral("4"),
            QStringLiteral("--original-max-len"), QString::number(std::max<std::int64_t>(maxLen / 4, 1))};
}

} // namespace RopeTestParams
