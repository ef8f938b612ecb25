#pragma once

#include "core/Engine.h"

#include <QStringList>

#include <memory>

namespace posenc {

// One change of the parameters, worked out once for every view (docs/ARCHITECTURE.md,
// "Recompute triggers"): the engine of the new parameters, which the views share so that its
// sources are built once, and the keys whose values changed, compared as values.
struct ParamsChange
{
    std::shared_ptr<const Engine> engine;
    QStringList keys;

    // The change from `before` to the parameters of `after`.
    static ParamsChange between(const Params &before, std::shared_ptr<const Engine> after);
    // Whether any of the keys a figure `reads` (FigureModel::reads) changed.
    bool touches(const QStringList &reads) const;
};

} // namespace posenc
