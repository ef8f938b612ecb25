#pragma once

#include "core/Params.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace posenc {

// What lies under the mouse in a view: a position, and in table views a column and a value.
struct HoverPoint
{
    std::int64_t position = 0;
    bool hasPosition = true; // false where the mouse points at a column only
    std::optional<std::int64_t> column; // a column of X (or of the PE table in the curves view)
    bool columnIsPe = false; // the column counts PE columns (curves) rather than X columns
    std::optional<double> value;
    QString valueName; // what the value is: "PE", "‖PE_p‖", ...
};

// The status-bar line for a hover point: position, column, pair index, frequency,
// wavelength and value.
namespace HoverReadout {

QString format(const Params &params, const HoverPoint &point);
// The PE column a column of X carries, if any (concat keeps the PE in the last columns).
std::optional<std::int64_t> peColumnOf(const Params &params, std::int64_t column, bool columnIsPe);

} // namespace HoverReadout

} // namespace posenc
