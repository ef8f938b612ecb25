#pragma once

#include "HelpPage.h"

#include <QString>

// The user guide's reference of the command line (docs/GUIDE.md, between its reference markers),
// written by `posenc help --generate guide` from the same help pages as --help and the man page:
// each command's, the parameters' and the environment's, in Markdown. tst_helptexts checks that
// the guide holds it as the program writes it.
namespace posenc::GuideReference {

// The opening and closing lines around the reference in docs/GUIDE.md.
QString beginMarker();
QString endMarker();

// A page in Markdown: its heading at `level`, its usage in a code block, its paragraphs, its items
// as tables and its examples as a sh block.
QString page(const HelpPage &help, const QString &title, int level);

// The whole reference.
QString markdown();

} // namespace posenc::GuideReference
