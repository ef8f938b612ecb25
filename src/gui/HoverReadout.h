#pragma once

#include "core/DropoutMask.h"
#include "core/Engine.h"
#include "render/HoverPoint.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace posenc {

// The status-bar line for a hover point. On a cell of the tables it reads every part of the cell
// at once: the position term in its family's words, s·E, X, the mask bit and Y, each computed for that one cell
// through the engine (a handful of single-cell blocks: microseconds, on the GUI thread).
namespace HoverReadout {

// The parts of the model input and output at one cell (position p, column j of X).
struct Cell
{
    std::int64_t position = 0;
    std::int64_t column = 0; // of X
    std::optional<std::int64_t> peColumn; // of the PE table, where X's column holds the PE
    std::optional<std::int64_t> embeddingColumn; // of E, where X's column holds s·E
    // The position term's part: its value, and its family's words of the cell (the sinusoid's pair,
    // frequency and angle p·w as the table forms it; the learned table's row; the patch of a grid).
    float pe = 0.0f;
    QStringList termWords;
    // The embedding's part: E unscaled, s and s·E.
    float embedding = 0.0f;
    double scale = 0.0;
    float scaledEmbedding = 0.0f;
    float x = 0.0f;
    float mask = 1.0f; // the keep bit of the variant: 1 kept, 0 dropped
    float y = 0.0f;
    DropoutMask::RowRule rule = DropoutMask::RowRule::Dropout;
};

// The column of X that `column` of a hover point stands for: PE columns (curves, the PE table)
// sit in the last k columns of X in concat.
std::int64_t xColumnOf(const Params &params, std::int64_t column, bool columnIsPe);
// The PE column a column of X carries, if any (concat keeps the PE in the last columns).
std::optional<std::int64_t> peColumnOf(const Params &params, std::int64_t xColumn);

// The parts of the cell (position, column of X); nothing outside the tables.
std::optional<Cell> cell(const Engine &engine, std::int64_t position, std::int64_t column);

QString format(const Engine &engine, const HoverPoint &point);

} // namespace HoverReadout

} // namespace posenc
