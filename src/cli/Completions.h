#pragma once

#include <QString>

// The shells' completions of posenc (docs/ARCHITECTURE.md, Command line, "One source for every
// help text"), written by `posenc help --generate bash|zsh|fish` from the command list: each
// command, its options and the words they take (a choice's, the presets', the lessons', the
// figures' and quantities' names), a file where a path goes. The build writes them and the
// package installs them where each shell looks.
namespace posenc::Completions {

QString bash();
QString zsh();
QString fish();

} // namespace posenc::Completions
