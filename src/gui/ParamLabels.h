#pragma once

#include "core/ParamError.h"

#include <QString>

namespace posenc::ParamLabels {

// The window's name for a parameter or figure option key: the label of its control
// ("d-model" is "d_model", "dropout-mode" is "dropout mode").
QString label(const QString &key);

// `error` as the window words it: "d_model: must be an integer in [1, 1048576]; got 0".
QString text(const ParamError &error);

} // namespace posenc::ParamLabels
