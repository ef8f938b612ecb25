// A lesson is a detour from the user's work (docs/ARCHITECTURE.md, Lessons, The window): the
// workspace from before the first lesson comes back when the lessons end, a change made in a lesson
// is asked about before it is lost, and a session or a start in a lesson keeps that rule.
#include "core/ParamOverlay.h"
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
#include "io/Preset.h"
#include "render/FigureRegistry.h"
#include "render/data/FigureText.h"
#include "support/MessageBoxes.h"
#include "support/TestMain.h"
#include "support/WindowFixture.h"

#include "LessonWindowTesting.h"
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

namespace tst_lessondetour {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace LessonWindowTesting;
class TestLessonDetour : public QObject
{
    Q_OBJECT

private slots:
    void theDropoutViewsSayWhosePAsTheExportDoes_data();
    void theDropoutViewsSayWhosePAsTheExportDoes();
    void init();
    void leavingBringsBackTheWorkspaceFromBefore();
    void theWindowRemembersTheUsersParametersDuringALesson();
    void closingAfterAChangeInALessonAsks();
    void leaveLessonIsOnCtrlW();
    void aCloseDuringLeaveLessonsQuestionCloses();
    void aSessionOpenedFromAFileIsTheNewWorkspace();
    void aWindowStartedInALessonLeavesToTheGivenWorkspace();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
};

void TestLessonDetour::init()
{
    // The last test's settings write their file as they go: before their directory does, or
    // they would make it again and leave it behind.
    m_settings.reset();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(u"posenc.ini"_s), QSettings::IniFormat);
}

void TestLessonDetour::leavingBringsBackTheWorkspaceFromBefore()
{
    MainWindow window(ownParams(), nullptr);
    QVERIFY(WindowFixture::shown(window));
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

void TestLessonDetour::theWindowRemembersTheUsersParametersDuringALesson()
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
void TestLessonDetour::closingAfterAChangeInALessonAsks()
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
void TestLessonDetour::leaveLessonIsOnCtrlW()
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
void TestLessonDetour::aCloseDuringLeaveLessonsQuestionCloses()
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

void TestLessonDetour::aSessionOpenedFromAFileIsTheNewWorkspace()
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

void TestLessonDetour::aWindowStartedInALessonLeavesToTheGivenWorkspace()
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

void TestLessonDetour::theDropoutViewsSayWhosePAsTheExportDoes_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("own");
    // The Transformer's preset names its "dropout" (section 5.4's P_drop); MAE's code drops nothing
    // at its input (models_mae.py has no dropout before its blocks).
    QTest::newRow("transformer-base") << u"transformer-base"_s << true;
    QTest::newRow("mae-vit-b-16") << u"mae-vit-b-16"_s << false;
}

// The window's dropout views say whose p they show as posenc export --lesson does
// (LessonModels::dropoutOwner, FigureText::kDropoutOwner): "the lesson's" under a model that drops
// nothing at its input, which only the export said before; none for the model's own p, and none
// once the lesson is left with its views kept.
void TestLessonDetour::theDropoutViewsSayWhosePAsTheExportDoes()
{
    QFETCH(QString, preset);
    QFETCH(bool, own);
    const Lesson &lesson = *Lessons::find(u"dropout-on-sum"_s);
    const ModelChoice choice = ModelChoice::ofPreset(*Presets::find(preset));
    const auto params = ParamOverlay::over(Params {}, LessonModels::textsFor(lesson, choice));
    QVERIFY(std::holds_alternative<Params>(params));
    MainWindow window(Params {}, nullptr);
    window.lessons()->show(lesson, std::get<Params>(params), std::nullopt, choice);
    QCOMPARE(LessonModels::dropoutOwner(window.lessons()->model()).isEmpty(), own);
    const QString key = QString::fromUtf16(FigureText::kDropoutOwner);
    qsizetype marked = 0;
    for (const FigureView *view : window.dashboard()->views()) {
        if (!view->figure().model().option(key))
            continue;
        ++marked;
        QCOMPARE(view->state().option(key), own ? QString() : u"the lesson's"_s);
    }
    QVERIFY(marked > 0); // dropout-compare, the lesson's main view
    window.lessons()->leave(LessonController::Leaving::Keep);
    for (const FigureView *view : window.dashboard()->views())
        QCOMPARE(view->state().option(key), QString());
}

POSENC_TEST_MAIN(TestLessonDetour)
} // namespace tst_lessondetour
#include "tst_lessondetour.moc"
