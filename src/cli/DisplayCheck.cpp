#include "DisplayCheck.h"

#include <QByteArray>

#include <cstdio>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc::DisplayCheck {

namespace {

struct Held
{
    QtMsgType type;
    int line;
    QByteArray category;
    QByteArray file;
    QByteArray function;
    QString message;
};

QtMessageHandler g_previous = nullptr;
QList<Held> g_held;

void pass(const Held &held)
{
    QMessageLogContext context(held.file.constData(), held.line, held.function.constData(), held.category.constData());
    if (g_previous)
        g_previous(held.type, context, held.message);
}

void handler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (isNoPlatformMessage(type, message)) {
        QStringList causes;
        for (const Held &held : g_held)
            causes.append(held.message);
        const QString cause = causes.isEmpty() ? u"Qt could not open a platform"_s : causes.constFirst();
        const QByteArray text = (u"posenc: "_s + noDisplayMessage(cause) + u'\n').toLocal8Bit();
        std::fputs(text.constData(), stderr);
        std::fflush(stderr);
        // Not exit(): the application object is half made, its destructors must not run.
        std::_Exit(2);
    }
    // The platform's own account of the failure, held until it is known whether one follows.
    if (QByteArray(context.category ? context.category : "").startsWith("qt.qpa.")) {
        g_held.append({type, context.line, context.category, context.file, context.function, message});
        return;
    }
    if (g_previous)
        g_previous(type, context, message);
}

} // namespace

QString noDisplayMessage(const QString &cause)
{
    return u"cannot open the window: %1. Without a display, draw a figure with 'posenc export FIGURE -o FILE' "
           "or write a table with 'posenc table QUANTITY -o FILE' (see posenc --help)"_s.arg(cause);
}

std::optional<QString> missing()
{
    const QString platform = qEnvironmentVariable("QT_QPA_PLATFORM");
    const bool x11 = !qEnvironmentVariableIsEmpty("DISPLAY");
    const bool wayland = !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
    if (platform.isEmpty() && !x11 && !wayland)
        return u"no display: neither DISPLAY nor WAYLAND_DISPLAY is set"_s;
    if (platform.startsWith(u"xcb"_s) && !x11)
        return u"no display: QT_QPA_PLATFORM is xcb and DISPLAY is not set"_s;
    return std::nullopt;
}

bool isNoPlatformMessage(QtMsgType type, const QString &message)
{
    return type == QtFatalMsg && message.contains(u"no Qt platform plugin could be initialized"_s);
}

ExitWithoutDisplay::ExitWithoutDisplay()
{
    g_held.clear();
    g_previous = qInstallMessageHandler(handler);
}

ExitWithoutDisplay::~ExitWithoutDisplay()
{
    qInstallMessageHandler(g_previous);
    for (const Held &held : std::as_const(g_held))
        pass(held);
    g_held.clear();
}

} // namespace posenc::DisplayCheck
