#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <optional>

namespace posenc {

// The window needs a display; without one `posenc` exits 2 saying what to do instead
// (docs/ARCHITECTURE.md, Command line), where Qt would abort.
namespace DisplayCheck {

// The message: the cause, and the commands that need no display.
QString noDisplayMessage(const QString &cause);

// Why the window cannot open here, from the environment alone, before Qt tries: the default or
// the xcb platform with no DISPLAY (and, for the default, no WAYLAND_DISPLAY either). Nothing
// where a display is named: it may still refuse the connection (ExitWithoutDisplay).
std::optional<QString> missing();

// While one lives (around the QApplication's construction), the failure to open the display,
// which Qt reports as a fatal message and an abort, ends the process with exit 2 and
// noDisplayMessage() instead; the platform's warnings that come before it are held back and
// named as its cause, or passed on unchanged once the display opened.
class ExitWithoutDisplay
{
public:
    ExitWithoutDisplay();
    ~ExitWithoutDisplay();
    ExitWithoutDisplay(const ExitWithoutDisplay &) = delete;
    ExitWithoutDisplay &operator=(const ExitWithoutDisplay &) = delete;
};

// Whether a fatal message is Qt's report that no platform could be opened.
bool isNoPlatformMessage(QtMsgType type, const QString &message);

} // namespace DisplayCheck

} // namespace posenc
