#pragma once

#include "core/LessonModel.h"
#include "core/Params.h"
#include "io/Lesson.h"
#include "io/LessonModels.h"

#include <QJsonObject>
#include <QList>
#include <QMessageBox>
#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

class QAction;
class QDockWidget;
class QMainWindow;
class QSettings;

namespace posenc {

class ControlPanel;
class Dashboard;
class LessonPanel;
class LessonRoom;
class ParameterDock;
class SessionController;
class StartPanel;

// The window's lessons (docs/ARCHITECTURE.md, Lessons): opening one sets its parameters through
// the control panel, as an edit would, and its views through the session's view state; its
// side panel explains, with the numbers of the parameters as they change. A lesson is a detour:
// the parameters and views from before it are kept, leaving it brings them back, and they are
// what the window remembers when it closes during one. Also the start panel a first start shows,
// and the actions the menus list.
class LessonController : public QObject
{
    Q_OBJECT

public:
    // The user's own parameters and views, as they were before a lesson.
    struct Workspace
    {
        Params params;
        QJsonObject view;
    };

    struct Parts
    {
        QMainWindow *window = nullptr;
        ControlPanel *controls = nullptr;
        Dashboard *dashboard = nullptr;
        SessionController *sessions = nullptr;
        ParameterDock *parameters = nullptr;
    };

    // `settings` (may be null) keeps whether the start panel shows at every start.
    LessonController(Parts parts, QSettings *settings, QObject *parent = nullptr);

    // One action per lesson, by title, in the lessons' order.
    const QList<QAction *> &lessonActions() const { return m_lessonActions; }
    QAction *startPanelAction() const { return m_startPanelAction; }
    QAction *previousAction() const { return m_previousAction; }
    QAction *nextAction() const { return m_nextAction; }
    QAction *leaveAction() const { return m_leaveAction; }
    QDockWidget *dock() const { return m_dock; }
    LessonPanel *panel() const { return m_panel; }
    // How a lesson shares the window with its figure.
    LessonRoom *room() const { return m_room; }
    // The lesson shown in the side panel, if any.
    const Lesson *current() const;

    // Opens the lesson `name` with its own parameters; false for a name that is not a lesson.
    bool open(const QString &name);
    // Opens `lesson` with its own parameters; false when they are not valid.
    bool open(const Lesson &lesson);
    // Opens `lesson` with `params` (its own, some overridden by the command line), read for
    // `model` (the lesson's own where none is given). Leaving it brings back the workspace from
    // before the first lesson, or `home` when given and no lesson is open: a window that starts in
    // a lesson leaves to the remembered parameters.
    void show(const Lesson &lesson, const Params &params, const std::optional<Workspace> &home = std::nullopt,
              const std::optional<ModelChoice> &model = std::nullopt);
    // The model the open lesson is read for: the model it was opened for, or the preset chosen in
    // the controls since, named while the parameters are still its own (LessonModels::model).
    LessonModel model() const;
    // The same for `lesson` (its kept keys), before the panel shows it.
    LessonModel model(const Lesson *lesson) const;
    // Closes the side panel and forgets the lesson and the workspace from before it; the
    // parameters and views stay (a session opened from a file replaces them).
    void close();
    // How a lesson is left: with the workspace from before it back, or keeping what it shows.
    enum class Leaving { Restore, Keep };
    // Leaves the lesson: its panel closes and, with Restore, the workspace from before it comes
    // back; with Keep the parameters and views shown stay, the user's own from now on.
    void leave(Leaving how = Leaving::Restore);
    // Leave lesson: restores at once when the parameters are still the lesson's; when the user
    // changed them, asks (without blocking) whether to go back or keep them, or to stay.
    // `afterLeaving` runs once the lesson is left, not when the user chose to stay. A value typed
    // in the controls but not yet entered counts as entered.
    void requestLeave(const std::function<void()> &afterLeaving = {});
    // Whether Leave lesson would ask: a lesson is open and the user changed its parameters.
    bool leavingAsks() const;

    // The workspace from before the open lesson; none without one.
    const std::optional<Workspace> &home() const { return m_home; }
    // The parameters the window remembers when it closes: the user's own, during a lesson too.
    Params rememberedParams() const;

    // The start panel, opened without blocking; the one already open when there is one.
    StartPanel *openStartPanel();
    StartPanel *startPanel() const;
    // At the window's start: opens the start panel on a first start, or when the user asked
    // for it at every start, or when `force`. Returns whether it opened.
    bool openStartPanelAtStart(bool force = false);

    static constexpr char16_t kShowAtStartKey[] = u"lessons/showAtStart";

signals:
    void opened(const QString &name);
    // The lesson was left: `restored`, the workspace from before it is back.
    void left(bool restored);

private:
    void step(int offset);
    // A session opened from a file: its lesson, when it carries one, or none.
    void sessionOpened(const QString &path);
    // The workspace as it is now (or `home`), kept as the one to come back to unless a lesson
    // is open.
    void keepHome(const std::optional<Workspace> &home = std::nullopt);
    void updateActions();
    // The explanation for the model shown, and the views of its config when that changed.
    void followModel();
    // The controls name the preset the lesson is read for, where the parameters hold it.
    void nameModelsPreset();
    // The views keep the panels the text of the lesson just opened refers to.
    void keepPanels(const LessonText::Rendered &rendered);
    // The dropout views say whose p they show for the model the lesson is read for, as its export
    // does (LessonModels::dropoutOwner); `model` none: outside a lesson, nobody's but the user's.
    void markDropoutOwner(const std::optional<LessonModel> &model);

    Parts m_parts;
    QSettings *m_settings;
    QDockWidget *m_dock;
    LessonPanel *m_panel;
    LessonRoom *m_room;
    QList<QAction *> m_lessonActions;
    QAction *m_startPanelAction;
    QAction *m_previousAction;
    QAction *m_nextAction;
    QAction *m_leaveAction;
    QPointer<StartPanel> m_startPanel;
    QPointer<QMessageBox> m_leaveQuestion; // Leave lesson's question while it is open
    std::function<void()> m_afterLeaving; // what runs once the lesson is left after the question
    std::optional<Workspace> m_home;
    Params m_lessonParams; // as the open lesson set them: what Leave lesson compares with
    std::optional<ModelChoice> m_model; // the model the open lesson was opened for
    QString m_viewConfig; // the config its views of "{model}" draw
    bool m_showing = false; // show() is putting a lesson on screen
    bool m_keepPanels = false; // the views take the kept panels of the next text the panel shows
};

} // namespace posenc
