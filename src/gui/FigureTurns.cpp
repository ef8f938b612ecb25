#include "FigureTurns.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTimer>

#include <deque>

namespace posenc {

namespace {

struct Turn
{
    QPointer<QObject> view;
    std::function<void()> show;
};

// The GUI thread's queue and the timer that takes one turn off it at a time. A timer of 0 ms
// started while the timers run fires on a later pass of the event loop, after what came due
// meanwhile (the input, a repaint).
struct Turns
{
    std::deque<Turn> queue;
    QPointer<QTimer> timer;

    void schedule()
    {
        if (!timer) {
            timer = new QTimer(QCoreApplication::instance());
            timer->setSingleShot(true);
            timer->setInterval(0);
            QObject::connect(timer, &QTimer::timeout, timer, [this] { next(); });
        }
        if (!timer->isActive())
            timer->start();
    }

    void next()
    {
        while (!queue.empty() && !queue.front().view)
            queue.pop_front();
        if (queue.empty())
            return;
        const std::function<void()> show = std::move(queue.front().show);
        queue.pop_front();
        show();
        // Started after `show`, the next view's turn follows what came due during this one.
        if (!queue.empty())
            schedule();
    }
};

Turns &turns()
{
    static Turns instance;
    return instance;
}

} // namespace

void FigureTurns::queue(QObject *view, std::function<void()> show)
{
    Turns &t = turns();
    for (Turn &turn : t.queue) {
        if (turn.view == view) {
            turn.show = std::move(show);
            return;
        }
    }
    t.queue.push_back({view, std::move(show)});
    t.schedule();
}

void FigureTurns::drop(const QObject *view)
{
    std::erase_if(turns().queue, [view](const Turn &turn) { return turn.view == view || !turn.view; });
}

bool FigureTurns::isQueued(const QObject *view)
{
    for (const Turn &turn : turns().queue)
        if (turn.view == view)
            return true;
    return false;
}

} // namespace posenc
