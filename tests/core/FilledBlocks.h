#pragma once

// Blocks of the positional table (its values and its float32-angle error) and of the embeddings,
// filled into NaN-filled matrices, so that a cell the table forgot to write shows.
#include "core/Embeddings.h"
#include "core/PositionalTable.h"

#include <QString>

#include <limits>

namespace testing {

inline posenc::RowMatrixXf fillBlock(const posenc::PositionalTable &table, const posenc::Block &block)
{
    posenc::RowMatrixXf out(block.rows, block.cols);
    out.setConstant(std::numeric_limits<float>::quiet_NaN());
    table.fill(block, out);
    return out;
}

inline posenc::RowMatrixXf fillBlock(const posenc::Embeddings &embeddings, const posenc::Block &block)
{
    posenc::RowMatrixXf out(block.rows, block.cols);
    out.setConstant(std::numeric_limits<float>::quiet_NaN());
    embeddings.fill(block, out);
    return out;
}

// The float32-angle error (PositionalTable::forEachErrorRow) of a block, into `out`.
inline void fillErrorInto(const posenc::PositionalTable &table, const posenc::Block &block, posenc::BlockRef out)
{
    table.forEachErrorRow(block, [&](std::int64_t position, const float *values) {
        for (std::int64_t c = 0; c < block.cols; ++c)
            out(position - block.row0, c) = values[c];
    });
}

inline posenc::RowMatrixXf fillErrorBlock(const posenc::PositionalTable &table, const posenc::Block &block)
{
    posenc::RowMatrixXf out(block.rows, block.cols);
    out.setConstant(std::numeric_limits<float>::quiet_NaN());
    fillErrorInto(table, block, out);
    return out;
}

inline QString layoutName(posenc::Layout layout)
{
    return layout == posenc::Layout::Interleaved ? QStringLiteral("interleaved") : QStringLiteral("split");
}

} // namespace testing
