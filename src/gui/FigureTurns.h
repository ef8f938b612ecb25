#pragma once

#include <QObject>

#include <functional>

namespace posenc {

// The window's views show their results one per turn of the event loop (issue 62). Filling a
// figure and fitting it to its room (FigureLayoutLoop) takes up to tens of ms of the GUI thread;
// the views of a lesson's page or of the four-view grid finish their jobs together, and their
// results, all delivered in one turn, took the sum of their fittings in one span: 60-90 ms for
// four, over 100 ms on a loaded machine. Queued here, each view's result waits for the views'
// before it, and the event loop runs (input, timers, paints) between two of them. What a view
// shows is the same; only when changes.
class FigureTurns
{
public:
    // Runs `show` on a later turn of the event loop, after what other views queued before, each on a
    // turn of its own. A view that queues again before its turn keeps its place and runs its latest
    // `show` only (a preview overtaken by its full result is never drawn). Nothing runs for a view
    // destroyed meanwhile.
    static void queue(QObject *view, std::function<void()> show);
    // What `view` queued and has not run is dropped (its result is stale: another was asked for).
    static void drop(const QObject *view);
    static bool isQueued(const QObject *view);
};

} // namespace posenc
