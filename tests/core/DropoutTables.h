#pragma once

// Whole tables of the engine's quantities, the input's two parts, the dropout parameters the
// dropout tests share (seed 2024), and the message naming a cell that differs.
#include "EngineTable.h"
#include "Reference.h"

#include "core/Engine.h"

#include <QString>

namespace testing {

inline posenc::RowMatrixXf wholeTable(const posenc::Engine &engine, posenc::Quantity quantity, int threads = 0)
{
    const posenc::Shape s = engine.shape(quantity);
    return computeTable(engine, quantity, posenc::Block {0, s.rows, 0, s.cols}, threads);
}

struct Parts
{
    posenc::RowMatrixXf embedding;
    posenc::RowMatrixXf positional;
};

inline Parts partsOf(const posenc::Engine &engine)
{
    const std::int64_t rows = engine.params().maxLen;
    const std::int64_t cols = engine.params().dModel;
    Parts parts {posenc::RowMatrixXf(rows, cols), posenc::RowMatrixXf(rows, cols)};
    engine.inputParts(posenc::Block {0, rows, 0, cols}, parts.embedding, parts.positional);
    return parts;
}

inline posenc::Params dropoutParams(double p, std::int64_t rows, std::int64_t cols)
{
    posenc::Params params;
    params.maxLen = rows;
    params.dModel = cols;
    params.dropout = p;
    params.seed = 2024;
    return params;
}

inline QString cellText(std::int64_t r, std::int64_t c, const QString &what, float expected, float got)
{
    return QStringLiteral("%1 at (%2, %3): expected %4, got %5")
        .arg(what)
        .arg(r)
        .arg(c)
        .arg(reference::numf(expected), reference::numf(got));
}

} // namespace testing
