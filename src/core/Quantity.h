#pragma once

#include "Params.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace posenc {

// What a table or a figure can show (docs/ARCHITECTURE.md, Command line).
enum class Quantity {
    Pe, // the sinusoidal table that enters X: [L, d], or [L, k] in concat
    Embedding, // the scaled token embeddings s*E: [L, d], or [L, d - k] in concat
    Input, // X = s*E + PE (or the concatenation): [L, d]
    Output, // Y = dropout(X) for the chosen variant: [L, d]
    Mask, // the keep mask of that variant, 1 kept, 0 dropped: [L, d]
    Similarity, // S = PE . PE^T: [L, L]
    Error, // float32-angle PE minus exact PE: [L, d], or [L, k] in concat
};

struct Shape
{
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    friend bool operator==(const Shape &, const Shape &) = default;
};

namespace Quantities {
QStringList names();
QString name(Quantity quantity);
std::optional<Quantity> fromName(const QString &name);
Shape shape(Quantity quantity, const Params &params);
} // namespace Quantities

} // namespace posenc
