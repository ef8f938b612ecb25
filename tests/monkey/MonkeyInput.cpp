// The GUI monkey's means: hostile texts, synthetic input, the stalled thread's stack.
#include "MonkeyInput.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMouseEvent>
#include <QWidget>

#include <atomic>
#include <csignal>
#include <cstdlib>

#include <cxxabi.h>
#include <execinfo.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace monkey {

// What a hostile user types into a field.
const QStringList &hostileTexts()
{
    static const QStringList texts = {QString(),
                                      u"0"_s,
                                      u"-1"_s,
                                      u"1"_s,
                                      u"2"_s,
                                      u"3"_s,
                                      u"0.5"_s,
                                      u"1e-308"_s,
                                      u"5e-324"_s,
                                      u"1e308"_s,
                                      u"-1e308"_s,
                                      u"1e400"_s,
                                      u"nan"_s,
                                      u"NaN"_s,
                                      u"inf"_s,
                                      u"-inf"_s,
                                      u"abc"_s,
                                      u"0x10"_s,
                                      u"99999999999999999999"_s,
                                      u"16777216"_s,
                                      u"16777217"_s,
                                      u"1048576"_s,
                                      u"1048577"_s,
                                      u"65536"_s,
                                      u"4096"_s,
                                      u"1e6"_s,
                                      u"1e15"_s,
                                      u"1e16"_s,
                                      u"1,2,3"_s,
                                      u"1,,2"_s,
                                      u"0:99999999999"_s,
                                      u"-5:3"_s,
                                      u" 7 "_s,
                                      u"\u00bd"_s,
                                      u"\U0001F600"_s,
                                      u"1e-3"_s,
                                      u"0.999999999999"_s,
                                      u"1.0000001"_s,
                                      u"unset"_s,
                                      u"auto"_s,
                                      u"sqrt"_s,
                                      u"none"_s,
                                      QString(3000, u'9'),
                                      QString(20000, u'a'),
                                      u"1;rm -rf"_s};
    return texts;
}

void press(QWidget *w, int key, const QString &text)
{
    QKeyEvent down(QEvent::KeyPress, key, Qt::NoModifier, text);
    QApplication::sendEvent(w, &down);
    QKeyEvent up(QEvent::KeyRelease, key, Qt::NoModifier, text);
    QApplication::sendEvent(w, &up);
}

void type(QWidget *w, const QString &text)
{
    for (const QChar c : text)
        press(w, c.isDigit() ? Qt::Key_0 + c.digitValue() : Qt::Key_unknown, QString(c));
}

void mouse(QWidget *w, QEvent::Type type, QPoint at, Qt::MouseButtons buttons)
{
    QMouseEvent event(type, at, w->mapToGlobal(at), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons,
                      Qt::NoModifier);
    QApplication::sendEvent(w, &event);
}

bool isInner(QWidget *w)
{
    return qobject_cast<QLineEdit *>(w) && w->parentWidget()
        && (qobject_cast<QAbstractSpinBox *>(w->parentWidget()) || qobject_cast<QComboBox *>(w->parentWidget()));
}

namespace {

constexpr int kMaxFrames = 48;
void *g_frames[kMaxFrames];
std::atomic<int> g_frameCount {0};

void takeStack(int)
{
    g_frameCount.store(backtrace(g_frames, kMaxFrames));
}

void reportCrash(int signal)
{
    static const char line[] = "CRASH: the monkey's process received a fatal signal; its stack:\n";
    [[maybe_unused]] const auto written = ::write(1, line, sizeof(line) - 1);
    void *frames[kMaxFrames];
    backtrace_symbols_fd(frames, backtrace(frames, kMaxFrames), 1);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

} // namespace

void installCrashReport()
{
    for (const int signal : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE})
        std::signal(signal, reportCrash);
}

void installStackSampler()
{
    backtrace(g_frames, 1); // loads what backtrace needs now, not in the handler
    std::signal(SIGUSR1, takeStack);
}

void sampleStack(pthread_t thread)
{
    pthread_kill(thread, SIGUSR1);
}

namespace {

QString stackOf(void *const *frames, int n)
{
    if (n <= 0)
        return {};
    char **symbols = backtrace_symbols(frames, n);
    QStringList lines;
    for (int i = 2; i < n && symbols; ++i) { // the handler's own frames first
        QString line = QString::fromLocal8Bit(symbols[i]);
        const qsizetype open = line.indexOf(u'('), plus = line.indexOf(u'+', open);
        if (open >= 0 && plus > open + 1) {
            const QByteArray mangled = line.mid(open + 1, plus - open - 1).toLatin1();
            int status = 0;
            if (char *name = abi::__cxa_demangle(mangled.constData(), nullptr, nullptr, &status)) {
                line = QString::fromLatin1(name).left(160);
                std::free(name);
            }
        }
        lines.append(u"    "_s + line);
    }
    std::free(symbols);
    return lines.join(u'\n');
}

} // namespace

QString stackText()
{
    return stackOf(g_frames, g_frameCount.exchange(0));
}

QString stackHere()
{
    void *frames[kMaxFrames];
    return stackOf(frames, backtrace(frames, kMaxFrames));
}

} // namespace monkey
