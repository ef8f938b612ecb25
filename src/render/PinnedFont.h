#pragma once

#include <QFont>
#include <QString>

namespace posenc::PinnedFont {

// The family every figure is drawn in: DejaVu Sans, loaded once from the files of Debian's
// fonts-dejavu-core that the build found, so that a figure has the same glyphs and metrics
// on every machine, on screen and exported. The application's default family when the files
// are missing (a warning says so once). Needs a QGuiApplication.
QString family();

// `font` in the pinned family, unhinted: hinting snaps glyphs to the pixels of one
// resolution, so a figure laid out on screen and drawn at 300 dpi would place text apart.
QFont apply(QFont font);

} // namespace posenc::PinnedFont
