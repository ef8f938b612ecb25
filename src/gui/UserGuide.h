#pragma once

#include <QString>

namespace posenc::UserGuide {

// The user guide as Markdown: docs/GUIDE.md, compiled in at build time (UserGuideText.cmake), so
// that Help > User guide and the guide the package installs say the same.
QString markdown();

} // namespace posenc::UserGuide
