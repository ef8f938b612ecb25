#include "QtMessageFilter.h"

#include <QGuiApplication>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// QPlatformWindow's defaults for what a windowing system does; the offscreen platform has no
// windowing system, so a window's ordinary life (showing it, a menu, a dialog) reaches them.
const QStringList kOffscreenNotices = {
    u"This plugin does not support propagateSizeHints()"_s,
    u"This plugin does not support raise()"_s,
    u"This plugin does not support lower()"_s,
    u"This plugin does not support grabbing the keyboard"_s,
    u"This plugin does not support grabbing the mouse"_s,
};

QtMessageHandler previousHandler = nullptr;

void filter(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QString platform
        = qobject_cast<QGuiApplication *>(QCoreApplication::instance()) ? QGuiApplication::platformName() : QString();
    if (isOffscreenPlatformNotice(type, message, platform))
        return;
    if (previousHandler)
        previousHandler(type, context, message);
}

} // namespace

bool isOffscreenPlatformNotice(QtMsgType type, const QString &message, const QString &platform)
{
    return type == QtWarningMsg && platform == u"offscreen"_s && kOffscreenNotices.contains(message);
}

void installQtMessageFilter()
{
    previousHandler = qInstallMessageHandler(filter);
}

} // namespace posenc
