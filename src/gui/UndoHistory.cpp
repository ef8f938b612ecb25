#include "UndoHistory.h"

#include "ControlPanel.h"
#include "LessonController.h"
#include "SessionController.h"

#include "core/ParamTable.h"
#include "core/ParamText.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The views' state without their ranges (arrays: zoom and pan), which are not steps.
QJsonObject withoutRanges(QJsonObject view)
{
    QJsonArray views;
    for (const QJsonValue &value : view.value(u"views"_s).toArray()) {
        QJsonObject figure = value.toObject();
        for (const QString &key : figure.keys())
            if (figure.value(key).isArray())
                figure.remove(key);
        views.append(figure);
    }
    if (view.contains(u"views"_s))
        view.insert(u"views"_s, views);
    return view;
}

} // namespace

class UndoHistory::Step : public QUndoCommand
{
public:
    Step(UndoHistory *history, Snapshot before, Snapshot after)
        : QUndoCommand(describe(before, after))
        , m_history(history)
        , m_before(std::move(before))
        , m_after(std::move(after))
    { }

    void undo() override { m_history->apply(m_before); }
    // Pushed once the change is on screen: only a redo after an undo applies it.
    void redo() override
    {
        if (m_done)
            m_history->apply(m_after);
        m_done = true;
    }

private:
    UndoHistory *m_history;
    Snapshot m_before, m_after;
    bool m_done = false;
};

UndoHistory::UndoHistory(ControlPanel *controls, SessionController *sessions, LessonController *lessons,
                         QObject *parent)
    : QObject(parent)
    , m_controls(controls)
    , m_sessions(sessions)
    , m_lessons(lessons)
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &UndoHistory::settle);
    m_last = current();
}

void UndoHistory::noteChange()
{
    if (!m_applying)
        m_settle.start();
}

void UndoHistory::settle()
{
    m_settle.stop();
    if (m_applying)
        return;
    Snapshot now = current();
    if (same(now, m_last))
        return;
    Snapshot before = std::exchange(m_last, now);
    m_stack.push(new Step(this, std::move(before), std::move(now)));
}

void UndoHistory::restart()
{
    m_settle.stop();
    m_stack.clear();
    m_last = current();
}

UndoHistory::Snapshot UndoHistory::current() const
{
    Snapshot snapshot;
    snapshot.params = m_controls->params();
    snapshot.view = m_sessions->viewState();
    if (const Lesson *lesson = m_lessons->current())
        snapshot.lesson = lesson->name;
    return snapshot;
}

bool UndoHistory::same(const Snapshot &a, const Snapshot &b)
{
    return a.lesson == b.lesson && withoutRanges(a.view) == withoutRanges(b.view)
        && ParamTable::changedKeys(a.params, b.params).isEmpty();
}

void UndoHistory::apply(const Snapshot &snapshot)
{
    m_applying = true;
    m_settle.stop();
    // The lesson first: opening one sets its own parameters and views, which the step's replace.
    const Lesson *shown = m_lessons->current();
    if (snapshot.lesson != (shown ? shown->name : QString())) {
        if (snapshot.lesson.isEmpty())
            m_lessons->close();
        else
            m_lessons->open(snapshot.lesson);
    }
    m_controls->applyParams(snapshot.params);
    m_sessions->setViewState(snapshot.view);
    m_last = current();
    m_applying = false;
}

// "d_model 512 → 520", "d_model, max_len", or "the views".
QString UndoHistory::describe(const Snapshot &before, const Snapshot &after)
{
    if (before.lesson != after.lesson)
        return after.lesson.isEmpty() ? tr("leave lesson %1").arg(before.lesson) : tr("lesson %1").arg(after.lesson);
    const QStringList changed = ParamTable::changedKeys(before.params, after.params);
    if (changed.size() == 1)
        return tr("%1 %2 → %3")
            .arg(changed.front(), ParamText::get(before.params, changed.front()),
                 ParamText::get(after.params, changed.front()));
    if (!changed.isEmpty())
        return changed.join(u", "_s);
    return tr("the views");
}

} // namespace posenc
