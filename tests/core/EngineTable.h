#pragma once

#include "core/Engine.h"
#include "core/Quantity.h"

#include <QList>

#include <limits>

namespace testing {

// A block of a quantity computed by Engine::compute into a NaN-filled matrix, so that a
// cell the engine forgot to write shows.
inline posenc::RowMatrixXf computeTable(const posenc::Engine &engine, posenc::Quantity quantity,
                                        const posenc::Block &block, int threads = 0)
{
    posenc::RowMatrixXf out(block.rows, block.cols);
    out.setConstant(std::numeric_limits<float>::quiet_NaN());
    const bool done = engine.compute(quantity, block, out, posenc::ComputeOptions {threads, nullptr});
    Q_ASSERT(done);
    Q_UNUSED(done);
    return out;
}

// Every quantity the engine computes.
inline const QList<posenc::Quantity> &allQuantities()
{
    using posenc::Quantity;
    static const QList<Quantity> all = {Quantity::Pe,   Quantity::Embedding,  Quantity::Input, Quantity::Output,
                                        Quantity::Mask, Quantity::Similarity, Quantity::Error};
    return all;
}

} // namespace testing
