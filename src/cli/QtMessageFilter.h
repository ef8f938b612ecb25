#pragma once

#include <QString>
#include <QtGlobal>

namespace posenc {

// Qt's offscreen platform, on which export, bench and --screenshot draw, warns about window
// features it does not have ("This plugin does not support propagateSizeHints()"): notices
// about the platform, not about posenc's work. This drops exactly those, and only on the
// offscreen platform; every other message goes on to the handler installed before.
void installQtMessageFilter();

// Whether `message` of `type` is one of those notices on `platform`.
bool isOffscreenPlatformNotice(QtMsgType type, const QString &message, const QString &platform);

} // namespace posenc
