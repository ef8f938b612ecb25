#pragma once

#include "core/Params.h"
#include "render/HoverPoint.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace posenc {

// The status-bar line for a hover point: position, column, pair index, frequency,
// wavelength and value.
namespace HoverReadout {

QString format(const Params &params, const HoverPoint &point);
// The PE column a column of X carries, if any (concat keeps the PE in the last columns).
std::optional<std::int64_t> peColumnOf(const Params &params, std::int64_t column, bool columnIsPe);

} // namespace HoverReadout

} // namespace posenc
