#pragma once

#include <QString>

namespace posenc {

// Qt keeps runtime files under XDG_RUNTIME_DIR; where a process has none (no login session:
// ssh, a container, CI) Qt warns on every run and falls back to a directory of its own.
// This makes that fallback quietly and safely instead: <temp>/posenc-runtime-<uid>, a
// directory owned by this user with mode 0700, as the XDG spec asks, or a fresh private one
// when that name is taken by anything else. It sets XDG_RUNTIME_DIR to it and returns it.
// When XDG_RUNTIME_DIR is already set it changes nothing and returns it.
QString ensureRuntimeDirectory();

} // namespace posenc
