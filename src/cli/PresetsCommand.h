#pragma once

#include "HelpPage.h"

#include <QStringList>
#include <QTextStream>

namespace posenc {

// `posenc presets`: one line per shipped preset, NAME<TAB>TITLE<TAB>SOURCE (its source in a
// line), in the presets' order.
int runPresetsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
HelpPage presetsHelp();

} // namespace posenc
