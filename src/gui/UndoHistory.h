#pragma once

#include "core/Params.h"

#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <QUndoStack>

namespace posenc {

class ControlPanel;
class LessonController;
class SessionController;

// Edit > Undo and Redo over the parameters and the views (docs/ARCHITECTURE.md, "Undo and redo"):
// one step per settled change. Whatever may have changed (an edit of the controls, a figure or
// an option chosen, the layout) calls noteChange(); once nothing has changed for kSettleMs the
// parameters and the views' figures, options and layout are compared with the last step's, and
// a difference becomes a step. A slider dragged through fifty values is one step; zoom and pan
// are not steps (Home undoes them), though a step restores the ranges it had. Opening or leaving a
// lesson is part of a step: undoing a lesson's opening closes its panel too.
class UndoHistory : public QObject
{
    Q_OBJECT

public:
    static constexpr int kSettleMs = 500;

    UndoHistory(ControlPanel *controls, SessionController *sessions, LessonController *lessons,
                QObject *parent = nullptr);

    QUndoStack *stack() { return &m_stack; }
    // Something may have changed: recorded once it settles.
    void noteChange();
    // Records a change now, without waiting for it to settle.
    void settle();
    // Forgets every step: what is on screen now is where Undo stops (the window as it starts).
    void restart();

private:
    struct Snapshot
    {
        Params params;
        QJsonObject view;
        QString lesson; // the lesson shown, or empty
    };
    class Step;

    Snapshot current() const;
    void apply(const Snapshot &snapshot);
    // Whether two snapshots are one step: the same lesson, parameters (ParamTable::changedKeys, a
    // matrix by its identity), figures, options and layout.
    static bool same(const Snapshot &a, const Snapshot &b);
    static QString describe(const Snapshot &before, const Snapshot &after);

    ControlPanel *m_controls;
    SessionController *m_sessions;
    LessonController *m_lessons;
    QUndoStack m_stack;
    QTimer m_settle;
    Snapshot m_last;
    bool m_applying = false;
};

} // namespace posenc
