#pragma once

#include "core/Engine.h"

#include <cstdint>

namespace posenc {

// A quantity of the heatmap split as Q = K + D: K the sinusoidal table (exact angles) in the
// columns and rows where Q holds it in expectation, averaged in closed form (PeWindowMeans);
// D = Q - K the rest, random or rounding, averaged cell by cell. For X and Y, D holds s*E and
// the dropout's zero-mean noise: a preview that samples rows of D samples nothing periodic.
struct QuantityParts
{
    Quantity quantity = Quantity::Pe;
    bool hasClosed = false; // K is not zero
    bool hasDirect = true; // D is not zero (false only for the exact-angle PE itself)
    std::int64_t peColumn0 = 0; // Q's column that holds PE column 0 (concat: after E's)
    std::int64_t peColumns = 0;
    std::int64_t peRowEnd = 0; // rows from here on hold no K (masked-fill's padding)

    // Whether `quantity` under `engine` splits so; closed forms are only used when the
    // caller's rows filter allows them (`closedForms`).
    static QuantityParts of(const Engine &engine, Quantity quantity, bool closedForms);
};

// Computes D = Q - K for a block: Q's float32 cells less K's float32 cells, so that K's
// closed form plus the mean of D is the mean of Q's cells to within K's float32 rounding.
class DirectPart
{
public:
    DirectPart(const Engine &engine, Quantity quantity, const QuantityParts &parts);

    void compute(const Block &block, BlockRef out) const;

private:
    const Engine &m_engine;
    Quantity m_quantity;
    QuantityParts m_parts;
    PositionalTable m_exact; // K's table: the PE with exact angles
};

} // namespace posenc
