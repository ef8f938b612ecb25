// The GUI monkey's means (tests/monkey/monkey.cpp): what a hostile user types, keys and mouse
// buttons sent as the window system would, and the GUI thread's stack taken during a stall.
#pragma once

#include <QEvent>
#include <QObject>
#include <QPoint>
#include <QStringList>
#include <QTimer>

#include <pthread.h>

class QWidget;

namespace monkey {

// What a hostile user types into a field.
const QStringList &hostileTexts();

// Runs `what` from the event loop, after the timer's slot that asks for it has returned: what it
// opens with exec() (a message box of QFileDialog, Qt's About Qt) then holds no timer of the
// monkey's, which Qt does not fire again while its slot runs.
template<typename Fn> void later(QObject *context, Fn what)
{
    QTimer::singleShot(0, context, std::move(what));
}

// Keys and mouse buttons as the window system delivers them, without QTest's checks, which abort
// on a widget that a moment's work hid.
void press(QWidget *w, int key, const QString &text = {});
void type(QWidget *w, const QString &text);
void mouse(QWidget *w, QEvent::Type type, QPoint at, Qt::MouseButtons buttons);

// The line edit inside a spin box or a combo box: typed into through its owner.
bool isInner(QWidget *w);

// The GUI thread's stack, taken by a signal when the watchdog sees a gap under way, and written
// out by the heartbeat that ends it: what the event loop was away doing. installStackSampler()
// on the GUI thread; sampleStack(thread) from the watchdog; stackText() on the GUI thread.
void installStackSampler();
// On a crash (SIGSEGV, SIGABRT, SIGBUS, SIGFPE), the crashing thread's stack to standard output,
// then the signal's own ending: the log says where.
void installCrashReport();
void sampleStack(pthread_t thread);
QString stackText();
// The calling thread's stack, as stackText() words it: where a Qt warning was printed from.
QString stackHere();

} // namespace monkey
