#pragma once

#include "core/Block.h"

#include <QString>

#include <cstdint>
#include <memory>

// The learned family's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them as
// `params.learned`.
namespace posenc {

// A learned position table: row r holds the vector the model adds at position r - offset.
struct PositionMatrix
{
    RowMatrixXf values;
    QString source; // where it came from, for display ("roberta.safetensors:embeddings.position_embeddings.weight")
};

// A position table read from a file, and the row that holds position 0 (2 for RoBERTa, XLM-R,
// BART and OPT, whose first rows belong to padding).
struct LearnedParams
{
    std::shared_ptr<const PositionMatrix> table;
    std::int64_t offset = 0;

    friend bool operator==(const LearnedParams &, const LearnedParams &) = default;
};

} // namespace posenc
