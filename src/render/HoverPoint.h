#pragma once

#include "core/Quantity.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace posenc {

// What lies under the mouse in a figure: a position, and in table figures a column and a value.
struct HoverPoint
{
    std::int64_t position = 0;
    bool hasPosition = true; // false where the mouse points at a column only
    std::optional<std::int64_t> column; // a column of X (or of the PE table in the curves view)
    bool columnIsPe = false; // the column counts PE columns (curves) rather than X columns
    std::optional<double> value;
    // What the value is: "PE", "‖PE_p‖", ...; without a value, the reading itself in words (each
    // curve of a line figure at the cursor: "Llama 4 Scout NoPE layers 1.4812; ...").
    QString valueName;
    // The table `value` is a cell of, when it is one: the readout then shows it among the cell's
    // parts instead of after them.
    std::optional<Quantity> quantity;
};

} // namespace posenc
