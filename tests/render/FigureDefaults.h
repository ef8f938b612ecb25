#pragma once

#include "render/FigureRegistry.h"

#include <QList>
#include <QString>

#include <cmath>
#include <cstdint>
#include <memory>

namespace FigureBuilds {

// The program's defaults under the figure's family (its first where it does not show the
// default one), as `posenc export FIGURE` infers it; the learned family with a smooth table of
// the default shape.
inline posenc::Params defaultParams(const posenc::FigureDescriptor &figure)
{
    using namespace posenc;
    Params p;
    const QList<Encoding> families = figure.model().families();
    if (!families.contains(p.encoding))
        p.encoding = families.front();
    if (p.encoding == Encoding::Learned) {
        RowMatrixXf values(p.maxLen, p.dModel);
        for (std::int64_t r = 0; r < p.maxLen; ++r)
            for (std::int64_t j = 0; j < p.dModel; ++j)
                values(r, j) = float(0.2 * std::cos(0.03 * double(r) * double(j % 7 + 1) + double(j)));
        p.learned.table
            = std::make_shared<const PositionMatrix>(PositionMatrix {values, QStringLiteral("learned.npy")});
    }
    return p;
}

} // namespace FigureBuilds
