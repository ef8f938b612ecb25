#pragma once

#include "core/ParamError.h"

#include <QString>

namespace posenc::ParamLabels {

// The window's name for a parameter or figure option key: the command line's word, as the label
// of its control shows it ("d-model" is "d_model", "dropout-mode" is "dropout mode", "scale" is
// "scale"); a key without a word of its own is shown as it is.
QString label(const QString &key);

// `error` as the window words it: "d_model: must be an integer in [1, 1048576]; got 0".
QString text(const ParamError &error);

} // namespace posenc::ParamLabels
