#pragma once

#include <QString>

namespace posenc::UserGuide {

// The user guide as Markdown: the usage part of README.md, between its user guide markers,
// compiled in at build time (UserGuideText.cmake), so that Help > User guide and the README
// say the same.
QString markdown();

} // namespace posenc::UserGuide
