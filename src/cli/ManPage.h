#pragma once

#include "HelpPage.h"

#include <QString>

// The man page posenc.1 (docs/ARCHITECTURE.md, Command line, "One source for every help text"),
// written by `posenc help --generate man` from the help pages of the window, every command and the
// parameters; the build writes it and the package installs it.
namespace posenc::ManPage {

// The environment variables posenc reads (posenc help environment).
HelpPage environmentPage();

// The whole page, in the man macros: ASCII, every '-' a roff minus.
QString text();

// `text` as a roff text line: backslashes and minus signs escaped, characters past ASCII as
// \[uXXXX], and a line that would start with a control character protected by \&.
QString escaped(const QString &text);

} // namespace posenc::ManPage
