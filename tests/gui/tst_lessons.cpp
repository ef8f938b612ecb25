// The lessons in the window: every shipped lesson is sound (its parameters valid, its figures
// registered and their states accepted, its layout known) and opens as it says; the side panel's
// numbers follow the controls; the start panel shows on a first start only; the Lessons and Help
// menus list the lessons, and the shortcuts dialog every shortcut the window has. The detour a
// lesson makes from the user's workspace: tst_lessondetour.
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
#include "render/KeptPanels.h"
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
#include <QTextDocument>

#include <cstring>

namespace tst_lessons {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace LessonWindowTesting;

class TestLessons : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void everyLessonIsSound_data();
    void everyLessonIsSound();
    void openingALessonSetsItsParametersViewsAndPanel_data();
    void openingALessonSetsItsParametersViewsAndPanel();
    void aLessonOpenedAfterAnotherIsAllItsOwn();
    void theRowsADropoutFigureNamesAreInView_data();
    void theRowsADropoutFigureNamesAreInView();
    void theViewsKeepThePanelsTheTextRefersTo_data();
    void theViewsKeepThePanelsTheTextRefersTo();
    void theNumbersFollowTheControls();
    void thePanelComputesItsTextOffTheGuiThread();
    void aLessonNamesTheModelItWasOpenedFor_data();
    void aLessonNamesTheModelItWasOpenedFor();
    void aLessonOpenedInTheWindowNamesTheModelTheCommandLineNames_data();
    void aLessonOpenedInTheWindowNamesTheModelTheCommandLineNames();
    void previousNextAndReset();
    void aSessionSavedDuringALessonReopensIt();
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
    QVERIFY(WindowFixture::shown(window));
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
    QVERIFY(textShown(window));
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

// Each lesson opened while another is open, one after the other in one window: its parameters, its
// views, its panels kept and its text are its own, none the lesson before it left (that lesson no
// longer follows the parameters the new one sets, LessonController::show).
void TestLessons::aLessonOpenedAfterAnotherIsAllItsOwn()
{
    MainWindow window(Params {}, nullptr);
    QVERIFY(WindowFixture::shown(window));
    for (const Lesson &lesson : Lessons::all()) {
        QVERIFY(window.lessons()->open(lesson.name));
        QCOMPARE(window.lessons()->current()->name, lesson.name);
        QVERIFY(window.controlPanel()->params() == lessonParams(lesson));
        QVERIFY(textShown(window));
        const LessonModel model = window.lessons()->model();
        const QJsonArray views = lesson.viewState(model.configName).value(u"views"_s).toArray();
        for (int i = 0; i < window.views().size() && i < views.size(); ++i) {
            FigureView *shown = window.views()[i];
            QCOMPARE(shown->figure().name(), views[i].toObject().value(u"figure"_s).toString());
            QCOMPARE(shown->keptPanels(), lesson.keptPanels(model, shown->figure().name()));
        }
        QTextDocument expected;
        expected.setHtml(lesson.explain(model, true).html);
        QCOMPARE(window.lessons()->panel()->explanationText(), expected.toPlainText());
    }
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
    QVERIFY(WindowFixture::shown(window));
    QVERIFY(window.lessons()->open(name));
    const FigureView *view = window.views()[Lessons::find(name)->mainView];
    QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
    const auto positions = view->state().range(u"positions"_s);
    QVERIFY(positions);
    for (const std::int64_t row : view->params().specialRows())
        QVERIFY2(positions->lower <= double(row) && double(row) <= positions->upper,
                 qPrintable(u"row %1 not in %2 .. %3"_s.arg(row).arg(positions->lower).arg(positions->upper)));
}

void TestLessons::theViewsKeepThePanelsTheTextRefersTo_data()
{
    everyLessonIsSound_data();
}

// A panel the lesson's text refers to is drawn in its view of a 1366 x 768 window, as on its slide
// (Lesson::keptPanels): left-padding's window gave up the position-effect view's third panel,
// whose temperature and chunks its text quotes. Left, the views give up what their room asks.
void TestLessons::theViewsKeepThePanelsTheTextRefersTo()
{
    QFETCH(QString, name);
    const Lesson &lesson = *Lessons::find(name);
    MainWindow window(Params {}, nullptr);
    window.resize(1366, 768);
    QVERIFY(WindowFixture::shown(window));
    QVERIFY(window.lessons()->open(name));
    QVERIFY(textShown(window));
    QTRY_VERIFY_WITH_TIMEOUT(WindowFixture::allSettled(window), 60000);
    const LessonModel model = window.lessons()->model();
    for (FigureView *view : window.views()) {
        if (!view->isVisibleTo(&window))
            continue;
        for (const QString &panel : lesson.keptPanels(model, view->figure().name()))
            QVERIFY2(KeptPanels::drawn(view->plot(), panel), qPrintable(view->figure().name() + u": "_s + panel));
    }
}

void TestLessons::aLessonNamesTheModelItWasOpenedFor_data()
{
    QTest::addColumn<QString>("preset");
    for (const QString &name : Presets::names())
        QTest::newRow(qPrintable(name)) << name;
}

// A lesson opened for a preset (posenc --lesson NAME --preset P) names that preset, in its text and
// in the controls, not the first preset whose parameters it holds: fairseq's init (three keys) is
// Whisper's too, and T5-base's are FLAN-T5's. Edited by hand away from it, it names none.
void TestLessons::aLessonNamesTheModelItWasOpenedFor()
{
    QFETCH(QString, preset);
    const Lesson &lesson = *Lessons::find(u"sum-vs-concat"_s);
    const ModelChoice choice = ModelChoice::ofPreset(*Presets::find(preset));
    const auto params = ParamOverlay::over(Params {}, LessonModels::textsFor(lesson, choice));
    QVERIFY(std::holds_alternative<Params>(params));
    MainWindow window(Params {}, nullptr);
    window.lessons()->show(lesson, std::get<Params>(params), std::nullopt, choice);
    QCOMPARE(window.lessons()->model().name, choice.name);
    ControlPanel *controls = window.controlPanel();
    QVERIFY(controls->activePreset() >= 0);
    QCOMPARE(controls->presets()[controls->activePreset()].name, preset);
    if (!choice.texts.contains(u"d-model"_s))
        return; // a preset of the embeddings alone holds any d_model
    // d_model edited by hand to the next it takes (a 2-D sinusoid's splits in four).
    const qint64 d = controls->params().dModel;
    for (const int step : {2, 4, 8, 64}) {
        if (controls->params().dModel == d)
            controls->findChild<QSpinBox *>(u"dModelSpin"_s)->setValue(int(d + step));
    }
    QVERIFY(controls->params().dModel != d);
    QCOMPARE(window.lessons()->model().name, QString());
    QCOMPARE(controls->activePreset(), -1);
}

void TestLessons::aLessonOpenedInTheWindowNamesTheModelTheCommandLineNames_data()
{
    QTest::addColumn<QString>("name");
    for (const Lesson &lesson : Lessons::all())
        QTest::newRow(qPrintable(lesson.name)) << lesson.name;
}

// A lesson opened in the window is read for its own model, as posenc lessons NAME reads it: a
// lesson of its own parameters names no model. The window named what-dropout-does' "fairseq
// embedding init" and why-sqrt-d's "Transformer base", the first presets its parameters hold,
// where posenc lessons says "this model".
void TestLessons::aLessonOpenedInTheWindowNamesTheModelTheCommandLineNames()
{
    QFETCH(QString, name);
    const Lesson &lesson = *Lessons::find(name);
    MainWindow window(Params {}, nullptr);
    QVERIFY(window.lessons()->open(name));
    const auto own = LessonModels::defaultOf(lesson);
    QCOMPARE(window.lessons()->model().name, own ? own->name : QString());
    QVERIFY(textShown(window));
    if (!own)
        QVERIFY2(!window.lessons()->panel()->explanationText().contains(u"embedding init's"_s),
                 qPrintable(window.lessons()->panel()->explanationText()));
}

void TestLessons::theNumbersFollowTheControls()
{
    MainWindow window(Params {}, nullptr);
    QVERIFY(window.lessons()->open(u"why-sqrt-d"_s));
    QVERIFY(textShown(window));
    const LessonPanel *panel = window.lessons()->panel();
    // d 512, s sqrt(d), sigma d^-1/2: sqrt(2/512) = 0.0625, sqrt(2 * 512) = 32, and the ratio sqrt(2).
    QVERIFY2(panel->explanationText().contains(u"√(2/d) = 0.0625"_s), qPrintable(panel->explanationText()));
    QVERIFY(panel->explanationText().contains(u"√(2d) = 32"_s));
    QVERIFY(panel->explanationText().contains(u"‖s·Ep‖ / ‖PEp‖ = 1.41"_s));
    Params p = window.controlPanel()->params();
    p.dModel = 128;
    p.init = InitKind::Normal;
    window.controlPanel()->applyParams(p);
    QVERIFY(textShown(window));
    // d 128: sqrt(2/128) = 0.125, sqrt(256) = 16; sigma 1 with s sqrt(128): sqrt(2 * 128) = 16.
    QVERIFY2(panel->explanationText().contains(u"√(2/d) = 0.125"_s), qPrintable(panel->explanationText()));
    QVERIFY(panel->explanationText().contains(u"√(2d) = 16"_s));
    QVERIFY(panel->explanationText().contains(u"‖s·Ep‖ / ‖PEp‖ = 16"_s));
    QVERIFY(panel->explanationText().contains(u"σ = 1:"_s));
}

// The panel's text is computed off the GUI thread (LessonPanel): at d_model 2^20 its numbers took
// the GUI thread a second. A model given returns at once, the text shown before it still shown; the
// text for it arrives, the one Lesson::explain renders; of two models given in turn, only the
// last one's is shown.
void TestLessons::thePanelComputesItsTextOffTheGuiThread()
{
    const Lesson &lesson = *Lessons::find(u"sum-vs-concat"_s);
    LessonModel small;
    small.params = lessonParams(lesson);
    LessonModel wide = small, other = small;
    wide.params.dModel = std::int64_t(1) << 20;
    other.params.dModel = 64;
    const auto plain = [&lesson](const LessonModel &model) {
        QTextDocument document;
        document.setHtml(lesson.explain(model, true).html);
        return document.toPlainText();
    };
    LessonPanel panel;
    int shown = 0;
    connect(&panel, &LessonPanel::textShown, &panel, [&shown] { ++shown; });
    panel.showLesson(lesson, small);
    QTRY_VERIFY_WITH_TIMEOUT(panel.isTextReady(), 60000);
    const QString before = panel.explanationText();
    QCOMPARE(before, plain(small));
    panel.setModel(wide);
    QCOMPARE(panel.explanationText(), before);
    QVERIFY(!panel.isTextReady());
    QTRY_VERIFY_WITH_TIMEOUT(panel.isTextReady(), 120000);
    QCOMPARE(panel.explanationText(), plain(wide));
    QVERIFY(panel.explanationText() != before);
    shown = 0;
    panel.setModel(wide);
    panel.setModel(other);
    QTRY_VERIFY_WITH_TIMEOUT(panel.isTextReady(), 120000);
    QCOMPARE(panel.explanationText(), plain(other));
    QCOMPARE(shown, 1);
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
    QVERIFY(textShown(second));
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

POSENC_TEST_MAIN(TestLessons)
} // namespace tst_lessons
#include "tst_lessons.moc"
