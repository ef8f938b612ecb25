// The lessons in the window: every shipped lesson is sound (its parameters valid, its figures
// registered and their states accepted, its layout known) and opens as it says; the side panel's
// numbers follow the controls; the start panel shows on a first start only; the Lessons and Help
// menus list the lessons, and the shortcuts dialog every shortcut the window has. A lesson is a
// detour: leaving it brings back the parameters and views from before it, and the window
// remembers those, not the lesson's, when it closes during one.
#include "gui/ControlPanel.h"
#include "gui/Dashboard.h"
#include "gui/FigureView.h"
#include "gui/LessonController.h"
#include "gui/LessonPanel.h"
#include "gui/MainWindow.h"
#include "gui/SessionController.h"
#include "gui/Settings.h"
#include "gui/ShortcutsDialog.h"
#include "gui/StartPanel.h"
#include "io/LessonModels.h"
#include "render/FigureRegistry.h"
#include "support/MessageBoxes.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QMenu *menuNamed(const MainWindow &window, const QString &objectName)
{
    return window.menuBar()->findChild<QMenu *>(objectName);
}

QStringList texts(const QList<QAction *> &actions)
{
    QStringList list;
    for (const QAction *action : actions)
        list.append(action->text());
    return list;
}

// Parameters of the user's own, unlike every shipped lesson's.
Params ownParams()
{
    Params own;
    own.dModel = 96;
    own.maxLen = 300;
    own.dropout = 0.25;
    own.seed = 7;
    return own;
}

Params lessonParams(const Lesson &lesson)
{
    const auto params = lesson.params();
    return std::holds_alternative<Params>(params) ? std::get<Params>(params) : Params {};
}

} // namespace

class TestLessons : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void everyLessonIsSound_data();
    void everyLessonIsSound();
    void openingALessonSetsItsParametersViewsAndPanel_data();
    void openingALessonSetsItsParametersViewsAndPanel();
    void theRowsADropoutFigureNamesAreInView_data();
    void theRowsADropoutFigureNamesAreInView();
    void theNumbersFollowTheControls();
    void previousNextAndReset();
    void aSessionSavedDuringALessonReopensIt();
    void leavingBringsBackTheWorkspaceFromBefore();
    void theWindowRemembersTheUsersParametersDuringALesson();
    void closingAfterAChangeInALessonAsks();
    void leaveLessonIsOnCtrlW();
    void aCloseDuringLeaveLessonsQuestionCloses();
    void aSessionOpenedFromAFileIsTheNewWorkspace();
    void aWindowStartedInALessonLeavesToTheGivenWorkspace();
    void thePanelClosesOnlyWithItsLesson();
    void startPanelOnAFirstStartOnly();
    void startPanelOpensALessonInOneClick();
    void lessonsMenuListsEveryLessonByTitle();
    void helpMenuHasTheLessonsTheShortcutsAndAbout();
    void shortcutsDialogListsEveryShortcutOfTheWindow();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
};

void TestLessons::init()
{
    // The last test's settings write their file as they go: before their directory does, or
    // they would make it again and leave it behind.
    m_settings.reset();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(u"posenc.ini"_s), QSettings::IniFormat);
}

void TestLessons::everyLessonIsSound_data()
{
    QTest::addColumn<QString>("name");
    QVERIFY(Lessons::errors().isEmpty());
    QVERIFY(Lessons::all().size() >= 8);
    for (const Lesson &lesson : Lessons::all())
        QTest::newRow(qPrintable(lesson.name)) << lesson.name;
}

void TestLessons::everyLessonIsSound()
{
    QFETCH(QString, name);
    const Lesson *lesson = Lessons::find(name);
    QVERIFY(lesson);
    const auto params = lesson->params();
    QVERIFY(std::holds_alternative<Params>(params));
    // Its views as they open for its own model: a "{model}" config is that model's.
    const auto own = LessonModels::defaultOf(*lesson);
    const QJsonObject view = lesson->viewState(own ? own->configName : QString());
    const auto arrangement = Dashboard::arrangementFrom(view.value(u"layout"_s).toString());
    QVERIFY2(arrangement, qPrintable(view.value(u"layout"_s).toString()));
    const QJsonArray views = view.value(u"views"_s).toArray();
    // Every view of the window is named, so that four views show what the lesson chose.
    QCOMPARE(views.size(), 4);
    QVERIFY(lesson->mainView >= 0 && lesson->mainView < Dashboard::viewCount(*arrangement));
    for (int i = 0; i < views.size(); ++i) {
        const QJsonObject json = views[i].toObject();
        const FigureDescriptor *figure = FigureRegistry::find(json.value(u"figure"_s).toString());
        QVERIFY2(figure, qPrintable(u"view %1: %2"_s.arg(i).arg(json.value(u"figure"_s).toString())));
        const FigureState state = FigureState::fromJson(json);
        // Nothing of the view is left out as unreadable: each key is an option or a range.
        QCOMPARE(state.options.size() + state.view.size(), json.size() - 1);
        const QList<ParamError> problems = FigureRegistry::check(*figure, std::get<Params>(params), state);
        QVERIFY2(problems.isEmpty(),
                 qPrintable(u"view %1: %2 %3"_s.arg(i).arg(problems.value(0).key, problems.value(0).sentence())));
    }
    QVERIFY(!view.contains(u"maximized"_s) || view.value(u"maximized"_s).toInt() == -1);
}

void TestLessons::openingALessonSetsItsParametersViewsAndPanel_data()
{
    everyLessonIsSound_data();
}

void TestLessons::openingALessonSetsItsParametersViewsAndPanel()
{
    QFETCH(QString, name);
    const Lesson &lesson = *Lessons::find(name);
    MainWindow window(Params {}, nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy opened(window.lessons(), &LessonController::opened);
    QVERIFY(window.lessons()->open(name));
    QCOMPARE(opened.size(), 1);
    QCOMPARE(window.lessons()->current()->name, name);
    QVERIFY(window.controlPanel()->params() == lessonParams(lesson));
    const QJsonObject view = lesson.session.view;
    const Dashboard::Arrangement arrangement = *Dashboard::arrangementFrom(view.value(u"layout"_s).toString());
    QCOMPARE(window.dashboard()->arrangement(), arrangement);
    const QJsonArray views = view.value(u"views"_s).toArray();
    for (int i = 0; i < window.views().size(); ++i) {
        FigureView *shown = window.views()[i];
        QCOMPARE(shown->figure().name(), views[i].toObject().value(u"figure"_s).toString());
        QCOMPARE(shown->isVisibleTo(&window), i < Dashboard::viewCount(arrangement));
        QVERIFY(shown->params() == lessonParams(lesson));
        QVERIFY2(shown->problems().isEmpty(), qPrintable(shown->problems().value(0).sentence()));
    }
    QVERIFY(window.lessons()->dock()->isVisibleTo(&window));
    const LessonPanel *panel = window.lessons()->panel();
    QCOMPARE(panel->findChild<QLabel *>(u"lessonQuestion"_s)->text(), lesson.question.toHtmlEscaped());
    const QString explanation = panel->explanationText();
    QVERIFY(explanation.size() > 200);
    QVERIFY2(!explanation.contains(u'{'), qPrintable(explanation));
    // Its own model is named, as posenc lessons NAME names it (the window's controls hold the
    // parameters a lesson's kept encoding leaves unread at their defaults).
    if (const auto own = LessonModels::defaultOf(lesson))
        QVERIFY2(explanation.contains(own->name), qPrintable(own->name + u": "_s + explanation));
    // The lesson's main figure is the one Export figure acts on.
    QCOMPARE(window.focusWidget(), window.views()[lesson.mainView]->plot());
}

void TestLessons::theRowsADropoutFigureNamesAreInView_data()
{
    QTest::addColumn<QString>("name");
    for (const Lesson &lesson : Lessons::all()) {
        const auto main = lesson.view().figure(lesson.mainView);
        if (main && main->name == u"dropout-compare"_s)
            QTest::newRow(qPrintable(lesson.name)) << lesson.name;
    }
}

// The dropout figures' titles name the special rows ("[SEP] at 63"): a lesson shows each of them,
// dropout-on-sum's [SEP] at the end of its 64 positions too.
void TestLessons::theRowsADropoutFigureNamesAreInView()
{
    QFETCH(QString, name);
    MainWindow window(Params {}, nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.lessons()->open(name));
    const FigureView *view = window.views()[Lessons::find(name)->mainView];
    QTRY_VERIFY(view->isSettled());
    const auto positions = view->state().range(u"positions"_s);
    QVERIFY(positions);
    for (const std::int64_t row : view->params().specialRows())
        QVERIFY2(positions->lower <= double(row) && double(row) <= positions->upper,
                 qPrintable(u"row %1 not in %2 .. %3"_s.arg(row).arg(positions->lower).arg(positions->upper)));
}

void TestLessons::theNumbersFollowTheControls()
{
    MainWindow window(Params {}, nullptr);
    QVERIFY(window.lessons()->open(u"why-sqrt-d"_s));
    const LessonPanel *panel = window.lessons()->panel();
    // d 512, s sqrt(d), sigma d^-1/2: sqrt(2/512) = 0.0625, sqrt(2 * 512) = 32, and the ratio sqrt(2).
    QVERIFY2(panel->explanationText().contains(u"√(2/d) = 0.0625"_s), qPrintable(panel->explanationText()));
    QVERIFY(panel->explanationText().contains(u"√(2d) = 32"_s));
    QVERIFY(panel->explanationText().contains(u"‖s·Ep‖ / ‖PEp‖ = 1.41"_s));
    Params p = window.controlPanel()->params();
    p.dModel = 128;
    p.init = InitKind::Normal;
    window.controlPanel()->applyParams(p);
    // d 128: sqrt(2/128) = 0.125, sqrt(256) = 16; sigma 1 with s sqrt(128): sqrt(2 * 128) = 16.
    QVERIFY2(panel->explanationText().contains(u"√(2/d) = 0.125"_s), qPrintable(panel->explanationText()));
    QVERIFY(panel->explanationText().contains(u"√(2d) = 16"_s));
    QVERIFY(panel->explanationText().contains(u"‖s·Ep‖ / ‖PEp‖ = 16"_s));
    QVERIFY(panel->explanationText().contains(u"σ = 1:"_s));
}

void TestLessons::previousNextAndReset()
{
    MainWindow window(Params {}, nullptr);
    LessonController *lessons = window.lessons();
    const QList<Lesson> &all = Lessons::all();
    QVERIFY(!lessons->previousAction()->isEnabled());
    lessons->nextAction()->trigger(); // no lesson yet: the first
    QCOMPARE(lessons->current()->name, all[0].name);
    QVERIFY(!lessons->previousAction()->isEnabled());
    lessons->nextAction()->trigger();
    QCOMPARE(lessons->current()->name, all[1].name);
    lessons->previousAction()->trigger();
    QCOMPARE(lessons->current()->name, all[0].name);
    QVERIFY(lessons->lessonActions()[0]->isChecked());
    QVERIFY(!lessons->lessonActions()[1]->isChecked());
    // Reset sets the lesson's parameters and views again after the user moved them.
    Params moved = window.controlPanel()->params();
    moved.dModel = 48;
    window.controlPanel()->applyParams(moved);
    window.dashboard()->setArrangement(Dashboard::Arrangement::Grid);
    lessons->panel()->findChild<QPushButton *>(u"lessonReset"_s)->click();
    QVERIFY(window.controlPanel()->params() == lessonParams(all[0]));
    QCOMPARE(Dashboard::toString(window.dashboard()->arrangement()), all[0].session.view.value(u"layout"_s).toString());
    lessons->lessonActions().back()->trigger();
    QVERIFY(!lessons->nextAction()->isEnabled());
}

// A lecturer's own lesson is a session with a lesson block: saved while a lesson is open, it
// opens with its panel again; a plain session closes the panel, whose lesson no longer applies.
void TestLessons::aSessionSavedDuringALessonReopensIt()
{
    MainWindow first(Params {}, nullptr);
    QVERIFY(first.lessons()->open(u"relative-position"_s));
    Params changed = first.controlPanel()->params();
    changed.dModel = 64;
    first.controlPanel()->applyParams(changed);
    const QString withLesson = m_dir->filePath(u"mine.json"_s);
    QVERIFY(first.sessions()->save(withLesson));

    MainWindow second(Params {}, nullptr);
    QVERIFY(second.sessions()->open(withLesson));
    QVERIFY(second.lessons()->current());
    QCOMPARE(second.lessons()->current()->name, u"relative-position"_s);
    QVERIFY(second.lessons()->dock()->isVisibleTo(&second));
    QCOMPARE(second.controlPanel()->params().dModel, 64);
    // d 64: S(0) = d/2 = 32, the number of these parameters.
    QVERIFY2(second.lessons()->panel()->explanationText().contains(u"d/2 = 32"_s),
             qPrintable(second.lessons()->panel()->explanationText()));

    first.lessons()->close();
    const QString plain = m_dir->filePath(u"plain.json"_s);
    QVERIFY(first.sessions()->save(plain));
    QVERIFY(second.sessions()->open(plain));
    QVERIFY(!second.lessons()->current());
    QVERIFY(!second.lessons()->dock()->isVisibleTo(&second));
    QVERIFY(second.sessions()->current().lesson.isEmpty());
}

void TestLessons::leavingBringsBackTheWorkspaceFromBefore()
{
    MainWindow window(ownParams(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    LessonController *lessons = window.lessons();
    window.dashboard()->setArrangement(Dashboard::Arrangement::SideBySide);
    window.views()[1]->setFigure(*FigureRegistry::find(u"similarity"_s));
    const QJsonObject views = window.sessions()->viewState();
    QVERIFY(!lessons->leaveAction()->isEnabled());
    QVERIFY(!lessons->home());

    // Through a lesson, the next one and a change of the user's within it.
    QVERIFY(lessons->open(u"why-sqrt-d"_s));
    QVERIFY(lessons->leaveAction()->isEnabled());
    QVERIFY(!(window.controlPanel()->params() == ownParams()));
    QVERIFY(window.sessions()->viewState() != views);
    lessons->nextAction()->trigger();
    Params moved = window.controlPanel()->params();
    moved.dModel = 48;
    window.controlPanel()->applyParams(moved);
    QVERIFY(lessons->home() && lessons->home()->params == ownParams());

    // Changed in the lesson: Leave lesson asks, and Cancel stays in it.
    QSignalSpy left(lessons, &LessonController::left);
    lessons->panel()->findChild<QPushButton *>(u"lessonLeave"_s)->click();
    QMessageBox *question = nullptr;
    QTRY_VERIFY((question = MessageBoxes::openBox("leaveLessonQuestion")));
    question->findChild<QPushButton *>(u"leaveCancel"_s)->click();
    QVERIFY(lessons->current());
    QCOMPARE(window.controlPanel()->params().dModel, 48);
    QCOMPARE(left.size(), 0);
    QTRY_VERIFY(!MessageBoxes::openBox("leaveLessonQuestion"));
    // Back to mine.
    lessons->leaveAction()->trigger();
    QTRY_VERIFY((question = MessageBoxes::openBox("leaveLessonQuestion")));
    question->findChild<QPushButton *>(u"leaveRestore"_s)->click();
    QCOMPARE(left.size(), 1);
    QCOMPARE(left.front().front().toBool(), true);
    QVERIFY(!lessons->current());
    QVERIFY(!lessons->dock()->isVisibleTo(&window));
    QVERIFY(window.controlPanel()->params() == ownParams());
    QCOMPARE(window.sessions()->viewState(), views);
    QCOMPARE(window.views()[1]->figure().name(), u"similarity"_s);
    for (const FigureView *view : window.views())
        QVERIFY(view->params() == ownParams());
    QVERIFY(!lessons->leaveAction()->isEnabled());
    QVERIFY(!lessons->home());
    QVERIFY(!std::any_of(lessons->lessonActions().begin(), lessons->lessonActions().end(),
                         [](const QAction *action) { return action->isChecked(); }));
    // Nothing to leave now.
    lessons->leave();
    QCOMPARE(left.size(), 1);
    QVERIFY(window.controlPanel()->params() == ownParams());

    // Unchanged, a lesson is left at once, without a question.
    QVERIFY(lessons->open(u"frequencies"_s));
    lessons->leaveAction()->trigger();
    QVERIFY(!lessons->current());
    QVERIFY(!MessageBoxes::openBox("leaveLessonQuestion"));
    QVERIFY(window.controlPanel()->params() == ownParams());

    // Keep these: what the lesson shows, changed, is the user's from then on.
    QVERIFY(lessons->open(u"why-sqrt-d"_s));
    moved = window.controlPanel()->params();
    moved.dModel = 40;
    window.controlPanel()->applyParams(moved);
    const QJsonObject lessonViews = window.sessions()->viewState();
    lessons->leaveAction()->trigger();
    QTRY_VERIFY((question = MessageBoxes::openBox("leaveLessonQuestion")));
    question->findChild<QPushButton *>(u"leaveKeep"_s)->click();
    QVERIFY(!lessons->current());
    QCOMPARE(left.back().front().toBool(), false);
    QVERIFY(window.controlPanel()->params() == moved);
    QCOMPARE(window.sessions()->viewState(), lessonViews);
    QVERIFY(lessons->rememberedParams() == moved);
}

// The panel goes with its lesson: it cannot be closed or hidden alone, which would leave the
// lesson open, holding the parameters from before it, without showing it.
void TestLessons::thePanelClosesOnlyWithItsLesson()
{
    MainWindow window(Params {}, nullptr);
    window.show();
    QVERIFY(window.lessons()->open(u"why-sqrt-d"_s));
    QDockWidget *dock = window.lessons()->dock();
    QVERIFY(!dock->features().testFlag(QDockWidget::DockWidgetClosable));
    QVERIFY(!dock->toggleViewAction()->isVisible());
    for (const QMenu *menu : window.menuBar()->findChildren<QMenu *>())
        QVERIFY(!menu->actions().contains(dock->toggleViewAction()));
    window.lessons()->leave();
    QVERIFY(!dock->isVisibleTo(&window));
}

void TestLessons::theWindowRemembersTheUsersParametersDuringALesson()
{
    {
        MainWindow window(ownParams(), m_settings.get());
        window.show();
        QVERIFY(window.lessons()->open(u"masked-dropout"_s));
        QVERIFY(window.close());
    }
    QVERIFY(Settings::loadParams(*m_settings).params == ownParams());
    // Out of the lesson, the parameters shown are the user's: those are remembered.
    {
        MainWindow window(ownParams(), m_settings.get());
        window.show();
        QVERIFY(window.lessons()->open(u"masked-dropout"_s));
        window.lessons()->leave();
        Params moved = window.controlPanel()->params();
        moved.dModel = 40;
        window.controlPanel()->applyParams(moved);
        QVERIFY(window.close());
    }
    QCOMPARE(Settings::loadParams(*m_settings).params.dModel, 40);
    // A value typed and not entered when the window closes is remembered as the field shows it.
    {
        MainWindow window(ownParams(), m_settings.get());
        window.show();
        auto *spin = window.controlPanel()->findChild<QSpinBox *>(u"dModelSpin"_s);
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, u"300"_s);
        QCOMPARE(window.controlPanel()->params().dModel, ownParams().dModel);
        QVERIFY(window.close());
    }
    QCOMPARE(Settings::loadParams(*m_settings).params.dModel, 300);
}

// Parameters changed in a lesson are the user's: closing the window asks, as Leave lesson does,
// and what is remembered is what the user answered; Cancel keeps the window and the lesson.
void TestLessons::closingAfterAChangeInALessonAsks()
{
    const auto closeChanged = [&](const char *button) {
        auto window = std::make_unique<MainWindow>(ownParams(), m_settings.get());
        window->show();
        QVERIFY(window->lessons()->open(u"masked-dropout"_s));
        Params moved = window->controlPanel()->params();
        moved.dModel = 40;
        window->controlPanel()->applyParams(moved);
        QVERIFY(!window->close());
        QMessageBox *question = nullptr;
        QTRY_VERIFY((question = MessageBoxes::openBox("leaveLessonQuestion")));
        // Asked again while the question is open: the same one question.
        QVERIFY(!window->close());
        window->lessons()->leaveAction()->trigger();
        QCOMPARE(MessageBoxes::openBoxes("leaveLessonQuestion").size(), 1);
        const bool titleBar = std::strcmp(button, "titleBar") == 0;
        if (titleBar)
            question->close(); // its title bar's close, which clicks no button
        else
            question->findChild<QPushButton *>(QString::fromLatin1(button))->click();
        if (titleBar || std::strcmp(button, "leaveCancel") == 0) {
            QVERIFY(window->isVisible());
            QVERIFY(window->lessons()->current());
            QCOMPARE(window->controlPanel()->params().dModel, 40);
            QTRY_VERIFY(!MessageBoxes::openBox("leaveLessonQuestion"));
            // The close asked for is over: leaving the lesson later keeps the window.
            window->lessons()->leaveAction()->trigger();
            QTRY_VERIFY((question = MessageBoxes::openBox("leaveLessonQuestion")));
            question->findChild<QPushButton *>(u"leaveKeep"_s)->click();
            QVERIFY(!window->lessons()->current());
            QVERIFY(window->isVisible());
            return;
        }
        QVERIFY(!window->isVisible());
        QVERIFY(!window->lessons()->current());
    };
    Settings::saveParams(*m_settings, Params {});
    closeChanged("leaveCancel");
    QVERIFY(Settings::loadParams(*m_settings).params == Params {}); // nothing saved: not closed
    closeChanged("titleBar");
    QVERIFY(Settings::loadParams(*m_settings).params == Params {});
    closeChanged("leaveRestore");
    QVERIFY(Settings::loadParams(*m_settings).params == ownParams());
    closeChanged("leaveKeep");
    QCOMPARE(Settings::loadParams(*m_settings).params.dModel, 40);
}

// Leave lesson is on Ctrl+W: a lesson unchanged is left at once. A value typed in a field and
// not yet entered is a change: the key, pressed in that field, asks first and the value stays.
void TestLessons::leaveLessonIsOnCtrlW()
{
    MainWindow window(ownParams(), nullptr);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    LessonController *lessons = window.lessons();
    QVERIFY(lessons->open(u"frequencies"_s));
    QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier);
    QTRY_VERIFY(!lessons->current());
    QVERIFY(window.controlPanel()->params() == ownParams());

    QVERIFY(lessons->open(u"frequencies"_s));
    const double lessonBase = window.controlPanel()->params().sinusoidal.base;
    auto *base = window.controlPanel()->findChild<QLineEdit *>(u"baseEdit"_s);
    base->setFocus();
    base->selectAll();
    QTest::keyClicks(base, u"500"_s);
    QCOMPARE(window.controlPanel()->params().sinusoidal.base, lessonBase); // typed, not entered
    QTest::keyClick(base, Qt::Key_W, Qt::ControlModifier);
    QMessageBox *question = nullptr;
    QTRY_VERIFY((question = MessageBoxes::openBox("leaveLessonQuestion")));
    QCOMPARE(window.controlPanel()->params().sinusoidal.base, 500.0);
    question->findChild<QPushButton *>(u"leaveKeep"_s)->click();
    QVERIFY(!lessons->current());
    QCOMPARE(window.controlPanel()->params().sinusoidal.base, 500.0);
}

// A close asked for while Leave lesson's question is open closes the window once it is answered.
void TestLessons::aCloseDuringLeaveLessonsQuestionCloses()
{
    MainWindow window(ownParams(), m_settings.get());
    window.show();
    QVERIFY(window.lessons()->open(u"masked-dropout"_s));
    Params moved = window.controlPanel()->params();
    moved.dModel = 40;
    window.controlPanel()->applyParams(moved);
    window.lessons()->leaveAction()->trigger();
    QMessageBox *question = nullptr;
    QTRY_VERIFY((question = MessageBoxes::openBox("leaveLessonQuestion")));
    QVERIFY(!window.close());
    QCOMPARE(MessageBoxes::openBoxes("leaveLessonQuestion").size(), 1);
    question->findChild<QPushButton *>(u"leaveRestore"_s)->click();
    QVERIFY(!window.isVisible());
    QVERIFY(Settings::loadParams(*m_settings).params == ownParams());
}

void TestLessons::aSessionOpenedFromAFileIsTheNewWorkspace()
{
    const QString plain = m_dir->filePath(u"plain.json"_s);
    const QString withLesson = m_dir->filePath(u"lesson.json"_s);
    Params sessionParams = ownParams();
    sessionParams.dModel = 200;
    {
        MainWindow writer(sessionParams, nullptr);
        QVERIFY(writer.sessions()->save(plain));
        QVERIFY(writer.lessons()->open(u"relative-position"_s));
        QVERIFY(writer.sessions()->save(withLesson));
    }
    const Params relative = lessonParams(*Lessons::find(u"relative-position"_s));

    // A plain session opened during a lesson ends it: its parameters are the user's now.
    MainWindow window(ownParams(), m_settings.get());
    LessonController *lessons = window.lessons();
    QVERIFY(lessons->open(u"why-sqrt-d"_s));
    QVERIFY(window.sessions()->open(plain));
    QVERIFY(!lessons->current());
    QVERIFY(!lessons->home());
    QVERIFY(window.controlPanel()->params() == sessionParams);
    QVERIFY(!lessons->leaveAction()->isEnabled());

    // A session that carries a lesson, opened outside one, leaves to what was there before it.
    QVERIFY(window.sessions()->open(withLesson));
    QCOMPARE(lessons->current()->name, u"relative-position"_s);
    QVERIFY(window.controlPanel()->params() == relative);
    QVERIFY(lessons->home() && lessons->home()->params == sessionParams);
    // Opened during a lesson, it keeps the workspace from before the first.
    QVERIFY(lessons->open(u"why-sqrt-d"_s));
    QVERIFY(window.sessions()->open(withLesson));
    QVERIFY(lessons->home()->params == sessionParams);
    lessons->leaveAction()->trigger();
    QVERIFY(window.controlPanel()->params() == sessionParams);
}

void TestLessons::aWindowStartedInALessonLeavesToTheGivenWorkspace()
{
    // As posenc --lesson starts: the window on the lesson's parameters, the remembered ones given.
    const Lesson &lesson = *Lessons::find(u"frequencies"_s);
    MainWindow window(lessonParams(lesson), m_settings.get());
    const LessonController::Workspace home {ownParams(), window.sessions()->viewState()};
    window.lessons()->show(lesson, lessonParams(lesson), home);
    QVERIFY(window.controlPanel()->params() == lessonParams(lesson));
    QVERIFY(window.lessons()->rememberedParams() == ownParams());
    // The next lesson keeps it.
    window.lessons()->nextAction()->trigger();
    QVERIFY(window.lessons()->home()->params == ownParams());
    window.lessons()->leave();
    QVERIFY(window.controlPanel()->params() == ownParams());
    QCOMPARE(window.sessions()->viewState(), home.view);
    QVERIFY(window.lessons()->rememberedParams() == ownParams());
}

void TestLessons::startPanelOnAFirstStartOnly()
{
    {
        MainWindow first(Params {}, m_settings.get());
        first.show();
        QVERIFY(first.lessons()->openStartPanelAtStart());
        StartPanel *panel = first.lessons()->startPanel();
        QVERIFY(panel);
        QTRY_VERIFY(panel->isVisible());
        for (const Lesson &lesson : Lessons::all())
            QVERIFY(panel->findChild<QLabel *>(u"lesson-"_s + lesson.name));
        QVERIFY(!panel->showAtStart());
        panel->reject();
    }
    {
        MainWindow second(Params {}, m_settings.get());
        second.show();
        QVERIFY(!second.lessons()->openStartPanelAtStart());
        QVERIFY(!second.lessons()->startPanel());
        // Asked for again, and told to come back at every start.
        second.lessons()->startPanelAction()->trigger();
        StartPanel *panel = second.lessons()->startPanel();
        QVERIFY(panel);
        panel->findChild<QCheckBox *>(u"showAtStart"_s)->setChecked(true);
        panel->reject();
    }
    {
        MainWindow third(Params {}, m_settings.get());
        QVERIFY(third.lessons()->openStartPanelAtStart());
        QVERIFY(third.lessons()->startPanel()->showAtStart());
        third.lessons()->startPanel()->reject();
    }
    // Without settings (a test, the benchmark), never unless asked.
    MainWindow bare(Params {}, nullptr);
    QVERIFY(!bare.lessons()->openStartPanelAtStart());
    QVERIFY(bare.lessons()->openStartPanelAtStart(true));
}

void TestLessons::startPanelOpensALessonInOneClick()
{
    MainWindow window(Params {}, m_settings.get());
    window.show();
    StartPanel *panel = window.lessons()->openStartPanel();
    QPointer<StartPanel> watched(panel);
    const Lesson &lesson = Lessons::all().at(3);
    auto *entry = panel->findChild<QLabel *>(u"lesson-"_s + lesson.name);
    QVERIFY(entry);
    QVERIFY(entry->text().contains(lesson.question.toHtmlEscaped()));
    // A click on the question's link.
    emit entry->linkActivated(lesson.name);
    QCOMPARE(window.lessons()->current()->name, lesson.name);
    QTRY_VERIFY(!watched);
}

void TestLessons::lessonsMenuListsEveryLessonByTitle()
{
    MainWindow window(Params {}, nullptr);
    QMenu *menu = menuNamed(window, u"lessonsMenu"_s);
    QVERIFY(menu);
    const QStringList shown = texts(menu->actions());
    for (const Lesson &lesson : Lessons::all())
        QVERIFY2(shown.contains(lesson.title), qPrintable(lesson.title));
    for (QAction *action : menu->actions()) {
        if (action->text() == Lessons::all().at(2).title)
            action->trigger();
    }
    QCOMPARE(window.lessons()->current()->name, Lessons::all().at(2).name);
}

void TestLessons::helpMenuHasTheLessonsTheShortcutsAndAbout()
{
    MainWindow window(Params {}, nullptr);
    QMenu *help = menuNamed(window, u"helpMenu"_s);
    QVERIFY(help);
    QMenu *lessons = help->findChild<QMenu *>(u"helpLessonsMenu"_s);
    QVERIFY(lessons);
    QCOMPARE(texts(help->actions()).first(), lessons->title());
    for (const Lesson &lesson : Lessons::all())
        QVERIFY(texts(lessons->actions()).contains(lesson.title));
    QAction *shortcuts = help->findChild<QAction *>(u"shortcutsAction"_s);
    QVERIFY(shortcuts && help->actions().contains(shortcuts));
    QVERIFY(texts(help->actions()).contains(u"&About PosEnc Explorer"_s));
    shortcuts->trigger();
    QTRY_VERIFY(window.findChild<ShortcutsDialog *>());
}

void TestLessons::shortcutsDialogListsEveryShortcutOfTheWindow()
{
    MainWindow window(Params {}, nullptr);
    // A shortcut the window gains later is listed too: the list is read, not written down.
    auto *late = new QAction(u"&Something new…"_s, &window);
    late->setShortcut(QKeySequence(u"Ctrl+Shift+F9"_s));
    window.addAction(late);
    const QList<ShortcutsDialog::Entry> entries = ShortcutsDialog::entries(&window);
    QStringList expected;
    for (const QAction *action : window.findChildren<QAction *>()) {
        if (action->shortcuts().isEmpty())
            continue;
        // Every key of the action, as Leave lesson's Ctrl+W and, on some platforms, Ctrl+F4.
        QStringList all;
        for (const QKeySequence &key : action->shortcuts())
            all.append(key.toString(QKeySequence::NativeText));
        const QString keys = all.join(u", "_s);
        const auto listed = std::find_if(entries.begin(), entries.end(),
                                         [&](const ShortcutsDialog::Entry &e) { return e.keys.startsWith(keys); });
        QVERIFY2(listed != entries.end(), qPrintable(keys + u" "_s + action->text()));
        expected.append(keys);
    }
    QVERIFY(expected.contains(u"Ctrl+E"_s)); // Export figure
    QVERIFY(expected.contains(u"F1"_s)); // the lessons
    // Leave lesson: every key of the platform's Close, Ctrl+W among them.
    const QList<QKeySequence> leaveKeys = window.lessons()->leaveAction()->shortcuts();
    QCOMPARE(leaveKeys, QKeySequence::keyBindings(QKeySequence::Close));
    QVERIFY(leaveKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_W)));
    QVERIFY(expected.contains(u"Ctrl+Shift+F9"_s));
    const auto something = std::find_if(entries.begin(), entries.end(),
                                        [](const ShortcutsDialog::Entry &e) { return e.keys == u"Ctrl+Shift+F9"_s; });
    QCOMPARE(something->what, u"Something new"_s);
    // The views' Home, a shortcut object rather than an action.
    QVERIFY(std::any_of(entries.begin(), entries.end(),
                        [](const ShortcutsDialog::Entry &e) { return e.keys == u"Home"_s; }));
    // Nothing else, and each once.
    for (const ShortcutsDialog::Entry &entry : entries)
        QVERIFY2(expected.contains(entry.keys) || entry.keys == u"Home"_s, qPrintable(entry.keys));
    ShortcutsDialog dialog(&window);
    const auto *table = dialog.findChild<QTableWidget *>(u"shortcutsTable"_s);
    QCOMPARE(table->rowCount(), entries.size());
    for (int row = 0; row < table->rowCount(); ++row) {
        QCOMPARE(table->item(row, 0)->text(), entries[row].keys);
        QCOMPARE(table->item(row, 1)->text(), entries[row].what);
    }
}

QTEST_MAIN(TestLessons)
#include "tst_lessons.moc"
