#include "LessonController.h"

#include "ControlPanel.h"
#include "Dashboard.h"
#include "FigureView.h"
#include "LessonPanel.h"
#include "LessonRoom.h"
#include "SessionController.h"
#include "StartPanel.h"

#include "core/ParamOverlay.h"
#include "render/data/FigureText.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSettings>

#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

LessonController::LessonController(Parts parts, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_parts(parts)
    , m_settings(settings)
    , m_dock(new QDockWidget(tr("Lesson"), parts.window))
    , m_panel(new LessonPanel)
    , m_room(new LessonRoom({parts.window, m_dock, m_panel, parts.parameters}, settings, this))
    , m_startPanelAction(new QAction(tr("&Lessons…"), this))
    , m_previousAction(new QAction(tr("&Previous lesson"), this))
    , m_nextAction(new QAction(tr("&Next lesson"), this))
    , m_leaveAction(new QAction(tr("&Leave lesson"), this))
{
    m_dock->setObjectName(u"lessonDock"_s);
    // The panel's text scrolls within it, its buttons stay in view; this scrolls it all only in a
    // dock lower than the buttons themselves.
    auto *scroll = new QScrollArea;
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_dock->setWidget(scroll);
    m_parts.window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->hide();
    // The panel goes with its lesson: Leave lesson closes both, and a lesson hidden without its
    // panel would keep the parameters from before it without showing that it does.
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    m_dock->toggleViewAction()->setVisible(false);

    auto *group = new QActionGroup(this);
    group->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    for (const Lesson &lesson : Lessons::all()) {
        auto *action = new QAction(lesson.title, group);
        action->setObjectName(u"lessonAction-"_s + lesson.name);
        action->setCheckable(true);
        action->setStatusTip(lesson.question);
        action->setToolTip(lesson.question);
        connect(action, &QAction::triggered, this, [this, name = lesson.name] { open(name); });
        m_lessonActions.append(action);
    }
    m_startPanelAction->setShortcut(QKeySequence::HelpContents);
    m_startPanelAction->setStatusTip(tr("The lessons as the questions they answer"));
    m_previousAction->setShortcut(QKeySequence(u"Alt+Left"_s));
    m_nextAction->setShortcut(QKeySequence(u"Alt+Right"_s));
    m_leaveAction->setObjectName(u"leaveLessonAction"_s);
    m_leaveAction->setShortcuts(QKeySequence::Close); // Ctrl+W, and Ctrl+F4 where the platform has it
    m_leaveAction->setStatusTip(tr("Close the lesson and bring back the parameters and views you had before it"));
    connect(m_startPanelAction, &QAction::triggered, this, &LessonController::openStartPanel);
    connect(m_previousAction, &QAction::triggered, this, [this] { step(-1); });
    connect(m_nextAction, &QAction::triggered, this, [this] { step(1); });
    connect(m_panel, &LessonPanel::previousRequested, m_previousAction, &QAction::trigger);
    connect(m_panel, &LessonPanel::nextRequested, m_nextAction, &QAction::trigger);
    connect(m_leaveAction, &QAction::triggered, this, [this] { requestLeave(); });
    connect(m_panel, &LessonPanel::leaveRequested, m_leaveAction, &QAction::trigger);
    connect(m_panel, &LessonPanel::resetRequested, this, [this] {
        if (const Lesson *lesson = current())
            open(Lesson(*lesson));
    });
    connect(m_parts.sessions, &SessionController::aboutToOpen, this, [this] { keepHome(); });
    connect(m_parts.sessions, &SessionController::opened, this, &LessonController::sessionOpened);
    connect(m_parts.controls, &ControlPanel::presetChosen, this, [this](int index) {
        if (current())
            m_model = ModelChoice::ofPreset(m_parts.controls->presets()[index]);
    });
    connect(m_parts.controls, &ControlPanel::paramsChanged, this, &LessonController::followModel);
    connect(m_panel, &LessonPanel::textShown, this, &LessonController::keepPanels);
    // A preset chosen during a lesson reads the lesson for its model, as opening the lesson with
    // it does (LessonModels::textsFor): the special rows and the cache are the model's own, and
    // neither text nor figure names a [CLS] or [SEP] it lacks.
    m_parts.controls->setPresetReading([this](const Preset &preset, const Params &now) {
        const Lesson *lesson = current();
        if (!lesson)
            return preset.applyTo(now);
        auto read = ParamOverlay::over(Params {}, LessonModels::textsFor(*lesson, ModelChoice::ofPreset(preset)));
        Params *params = std::get_if<Params>(&read);
        if (!params)
            return preset.applyTo(now);
        params->memoryBudget = now.memoryBudget;
        return read;
    });
    updateActions();
}

const Lesson *LessonController::current() const
{
    return m_panel->lesson() ? &*m_panel->lesson() : nullptr;
}

LessonModel LessonController::model() const
{
    return model(current());
}

LessonModel LessonController::model(const Lesson *lesson) const
{
    // The model given (the lesson's, or the preset chosen since, presetChosen) is named, not the
    // first preset whose parameters it holds: a preset of a few keys (fairseq's init) holds many a
    // model's, and a lesson of its own parameters (why-sqrt-d) is read for no model, as posenc
    // lessons NAME reads it. Without a lesson, the preset the controls are at.
    QList<ModelChoice> candidates;
    if (m_model)
        candidates.append(*m_model);
    const int preset = m_parts.controls->activePreset();
    if (preset >= 0 && !lesson)
        candidates.append(ModelChoice::ofPreset(m_parts.controls->presets()[preset]));
    return LessonModels::model(m_parts.controls->params(), candidates, lesson ? lesson->keep : QStringList());
}

void LessonController::nameModelsPreset()
{
    if (m_model && !m_model->preset.isEmpty())
        m_parts.controls->namePreset(m_model->preset);
}

void LessonController::followModel()
{
    const Lesson *lesson = current();
    if (!lesson || m_showing)
        return;
    const LessonModel shown = model(lesson);
    m_panel->setModel(shown);
    // A view of the model's config draws the new model's.
    if (shown.configName != m_viewConfig) {
        m_viewConfig = shown.configName;
        m_parts.sessions->setViewState(lesson->viewState(m_viewConfig));
    }
    markDropoutOwner(shown);
}

void LessonController::markDropoutOwner(const std::optional<LessonModel> &model)
{
    const QString key = QString::fromUtf16(FigureText::kDropoutOwner);
    const QString owner = model ? LessonModels::dropoutOwner(*model) : QString();
    for (FigureView *view : m_parts.dashboard->views())
        if (view->figure().model().option(key) && view->state().option(key) != owner)
            view->setOption(key, owner);
}

bool LessonController::open(const QString &name)
{
    const Lesson *lesson = Lessons::find(name);
    return lesson && open(*lesson);
}

bool LessonController::open(const Lesson &lesson)
{
    const auto params = lesson.params();
    // Shipped lessons are valid (tst_lessons checks each); one that is not changes nothing.
    if (!std::holds_alternative<Params>(params))
        return false;
    Params wanted = std::get<Params>(params);
    wanted.memoryBudget = m_parts.controls->params().memoryBudget;
    show(lesson, wanted, std::nullopt, LessonModels::defaultOf(lesson));
    return true;
}

void LessonController::show(const Lesson &lesson, const Params &params, const std::optional<Workspace> &home,
                            const std::optional<ModelChoice> &model)
{
    keepHome(home);
    m_model = model ? model : LessonModels::defaultOf(lesson);
    {
        // The lesson on screen until now does not follow the new parameters (followModel): its text
        // and views are replaced below, and rendering them for these first computed its numbers.
        const QScopedValueRollback showing(m_showing, true);
        m_parts.controls->applyParams(params);
    }
    nameModelsPreset();
    m_lessonParams = m_parts.controls->params();
    // Read with the lesson's kept keys: the panel has no lesson yet (nope-order's encoding none and
    // mrope-width's prompt made Qwen2.5-VL and SmolLM3 "this model" until a control moved).
    const LessonModel shown = this->model(&lesson);
    m_panel->showLesson(lesson, shown);
    m_viewConfig = shown.configName;
    m_parts.sessions->setViewState(lesson.viewState(m_viewConfig));
    markDropoutOwner(shown);
    // A session saved during the lesson reopens it for the preset it was read for.
    QJsonObject block = lesson.session.lesson;
    if (m_model && !m_model->preset.isEmpty())
        block.insert(u"model"_s, m_model->preset);
    m_parts.sessions->setLesson(block);
    m_dock->show();
    m_dock->raise();
    m_room->lessonShown();
    // The panels its text refers to stay in its views (keepPanels), once the panel has its text.
    m_keepPanels = true;
    // The lesson's main figure is the one Export figure and Copy figure act on.
    const QList<FigureView *> &views = m_parts.dashboard->views();
    if (lesson.mainView >= 0 && lesson.mainView < views.size())
        views[lesson.mainView]->plot()->setFocus(Qt::OtherFocusReason);
    updateActions();
    emit opened(lesson.name);
}

void LessonController::keepPanels(const LessonText::Rendered &rendered)
{
    // The panels the text of a lesson opened refers to stay in its views, as on its slide
    // (left-padding's window at 1366 x 768 gave up the position-effect view's third panel, whose
    // numbers its text quotes). Taken from the panel's rendering: its numbers are computed once,
    // off the GUI thread (LessonPanel).
    if (!std::exchange(m_keepPanels, false))
        return;
    for (FigureView *view : m_parts.dashboard->views())
        view->setKeptPanels(Lesson::keptPanels(rendered, view->figure().name()));
}

void LessonController::close()
{
    m_keepPanels = false;
    m_home.reset();
    m_model.reset();
    m_panel->clear();
    for (FigureView *view : m_parts.dashboard->views())
        view->setKeptPanels({});
    markDropoutOwner(std::nullopt);
    m_dock->hide();
    m_room->lessonsEnded();
    m_parts.sessions->setLesson({});
    updateActions();
}

void LessonController::leave(Leaving how)
{
    if (!current())
        return;
    const std::optional<Workspace> home = std::exchange(m_home, std::nullopt);
    close();
    const bool restore = how == Leaving::Restore && home;
    if (restore) {
        m_parts.controls->applyParams(home->params);
        m_parts.sessions->setViewState(home->view);
    }
    emit left(restore);
}

bool LessonController::leavingAsks() const
{
    return current() && m_home && m_parts.controls->params() != m_lessonParams;
}

void LessonController::requestLeave(const std::function<void()> &afterLeaving)
{
    if (!current())
        return;
    // A value typed but not yet entered is a change too (Ctrl+W can come from a text field).
    m_parts.controls->commitPendingEdits();
    if (!leavingAsks()) {
        leave(Leaving::Restore);
        if (afterLeaving)
            afterLeaving();
        return;
    }
    if (afterLeaving)
        m_afterLeaving = afterLeaving; // a close asked for while the question is open closes too
    if (m_leaveQuestion && m_leaveQuestion->isVisible()) { // asked already: one question, whatever asks again
        m_leaveQuestion->raise();
        m_leaveQuestion->activateWindow();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Leave lesson"),
                                tr("You changed the lesson's parameters. Go back to the parameters and views you had "
                                   "before the lesson, or keep these as yours?"),
                                QMessageBox::NoButton, m_parts.window);
    box->setObjectName(u"leaveLessonQuestion"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *restore = box->addButton(tr("&Back to mine"), QMessageBox::AcceptRole);
    restore->setObjectName(u"leaveRestore"_s);
    QPushButton *keep = box->addButton(tr("&Keep these"), QMessageBox::DestructiveRole);
    keep->setObjectName(u"leaveKeep"_s);
    box->addButton(QMessageBox::Cancel)->setObjectName(u"leaveCancel"_s);
    box->setDefaultButton(restore);
    m_leaveQuestion = box;
    // However the question ends: a close asked for during it ends with it. Closed by its title
    // bar, the question has clicked Cancel.
    connect(box, &QDialog::finished, this, [this, box, restore, keep] {
        const std::function<void()> then = std::exchange(m_afterLeaving, {});
        const QAbstractButton *button = box->clickedButton();
        if (button != restore && button != keep)
            return; // Cancel: the lesson stays, and so does the window
        leave(button == restore ? Leaving::Restore : Leaving::Keep);
        if (then)
            then();
    });
    box->open();
}

void LessonController::keepHome(const std::optional<Workspace> &home)
{
    if (!current())
        m_home = home ? *home : Workspace {m_parts.controls->params(), m_parts.sessions->viewState()};
}

Params LessonController::rememberedParams() const
{
    return current() && m_home ? m_home->params : m_parts.controls->params();
}

void LessonController::sessionOpened(const QString &path)
{
    if (m_parts.sessions->lesson().isEmpty()) {
        close();
        return;
    }
    // Its parameters and views are applied already: the panel explains them.
    const auto lesson = Lessons::fromSession(m_parts.sessions->current(), path);
    if (!std::holds_alternative<Lesson>(lesson)) {
        close();
        return;
    }
    m_lessonParams = m_parts.controls->params();
    // Its model is the one it was saved for, named while the parameters are still that model's.
    m_model = LessonModels::defaultOf(std::get<Lesson>(lesson));
    nameModelsPreset();
    const LessonModel shown = model(&std::get<Lesson>(lesson));
    m_panel->showLesson(std::get<Lesson>(lesson), shown);
    m_viewConfig = shown.configName;
    markDropoutOwner(shown);
    m_dock->show();
    m_room->lessonShown();
    updateActions();
    emit opened(std::get<Lesson>(lesson).name);
}

void LessonController::step(int offset)
{
    const QList<Lesson> &lessons = Lessons::all();
    if (lessons.isEmpty())
        return;
    qsizetype index = -1;
    if (const Lesson *lesson = current()) {
        const QString name = lesson->name;
        const auto found
            = std::find_if(lessons.begin(), lessons.end(), [&](const Lesson &l) { return l.name == name; });
        index = found == lessons.end() ? -1 : found - lessons.begin();
    }
    const qsizetype next = index < 0 ? 0 : index + offset;
    if (next >= 0 && next < lessons.size())
        open(lessons[next].name);
}

void LessonController::updateActions()
{
    const QList<Lesson> &lessons = Lessons::all();
    const Lesson *lesson = current();
    qsizetype index = -1;
    for (qsizetype i = 0; lesson && i < lessons.size(); ++i) {
        if (lessons[i].name == lesson->name)
            index = i;
    }
    for (qsizetype i = 0; i < m_lessonActions.size(); ++i)
        m_lessonActions[i]->setChecked(i == index);
    m_previousAction->setEnabled(index > 0);
    m_nextAction->setEnabled(index + 1 < lessons.size());
    m_leaveAction->setEnabled(lesson != nullptr);
    m_panel->setNeighbours(index > 0, index + 1 < lessons.size());
}

StartPanel *LessonController::startPanel() const
{
    return m_startPanel;
}

StartPanel *LessonController::openStartPanel()
{
    if (m_startPanel) {
        m_startPanel->raise();
        m_startPanel->activateWindow();
        return m_startPanel;
    }
    const bool again = m_settings && m_settings->value(QString::fromUtf16(kShowAtStartKey), false).toBool();
    auto *panel = new StartPanel(Lessons::all(), again, m_parts.window);
    panel->setAttribute(Qt::WA_DeleteOnClose);
    connect(panel, &StartPanel::lessonChosen, this, [this](const QString &name) { open(name); });
    connect(panel, &QDialog::finished, this, [this, panel] {
        if (m_settings)
            m_settings->setValue(QString::fromUtf16(kShowAtStartKey), panel->showAtStart());
    });
    m_startPanel = panel;
    panel->show();
    return panel;
}

bool LessonController::openStartPanelAtStart(bool force)
{
    const QString key = QString::fromUtf16(kShowAtStartKey);
    const bool firstStart = m_settings && !m_settings->contains(key);
    const bool asked = m_settings && m_settings->value(key, false).toBool();
    if (!force && !firstStart && !asked)
        return false;
    // Written now, so that a first start stays the only one, however this run ends.
    if (firstStart)
        m_settings->setValue(key, false);
    openStartPanel();
    return true;
}

} // namespace posenc
