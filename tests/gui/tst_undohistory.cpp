// Edit > Undo and Redo as a user meets them: a slider dragged through many values is one step,
// undone to where the drag began and redone to where it ended; a figure or an option chosen in a
// view is a step; zoom is not; the actions carry Ctrl+Z and Ctrl+Shift+Z and say what they undo.
#include "gui/ControlPanel.h"
#include "gui/FigureView.h"
#include "gui/LessonController.h"
#include "gui/MainWindow.h"
#include "gui/SessionController.h"
#include "gui/UndoHistory.h"
#include "support/TestMain.h"
#include "support/WindowFixture.h"
#include "support/WindowViews.h"

#include "render/FigurePlot.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

namespace tst_undohistory {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace WindowViews;
using namespace WindowFixture;

namespace {

QString quantityOf(const MainWindow &window)
{
    const auto *box = heatmapView(window)->findChild<QComboBox *>(u"quantityBox"_s);
    return box ? box->currentData().toString() : QString();
}

} // namespace

class TestUndoHistory : public QObject
{
    Q_OBJECT

private slots:
    void aDragIsOneStepUndoneAndRedone();
    void aViewsOptionIsAStepAndZoomIsNot();
    void theActionsHaveTheirKeysAndSayWhatTheyUndo();
    void undoingALessonsOpeningClosesIt();
};

void TestUndoHistory::aDragIsOneStepUndoneAndRedone()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QUndoStack *stack = window.history()->stack();
    QCOMPARE(stack->count(), 0); // the window as it opens is where Undo stops
    auto *spin = window.findChild<QSpinBox *>(u"dModelSpin"_s);
    QVERIFY(spin);
    for (const int d : {42, 44, 46, 48, 50, 52})
        spin->setValue(d);
    QTRY_COMPARE(window.controlPanel()->params().dModel, std::int64_t(52));
    QTRY_COMPARE(stack->count(), 1);
    QCOMPARE(stack->undoText(), u"d-model 40 → 52"_s);
    stack->undo();
    QCOMPARE(window.controlPanel()->params().dModel, std::int64_t(40));
    QCOMPARE(spin->value(), 40);
    QTRY_VERIFY(window.isUpToDate()); // the views follow
    QCOMPARE(heatmapView(window)->engine()->params().dModel, std::int64_t(40));
    // Undoing applies the old values as an edit would, but is no new step: Redo is still there,
    // whenever the history settles (now, as its timer would).
    window.history()->settle();
    QCOMPARE(stack->count(), 1);
    QVERIFY(stack->canRedo());
    stack->redo();
    QCOMPARE(window.controlPanel()->params().dModel, std::int64_t(52));
    // A new change after an undo replaces what could be redone.
    stack->undo();
    spin->setValue(64);
    QTRY_COMPARE(stack->count(), 1);
    QTRY_VERIFY(!stack->canRedo());
    QCOMPARE(stack->undoText(), u"d-model 40 → 64"_s);
}

void TestUndoHistory::aViewsOptionIsAStepAndZoomIsNot()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
    QUndoStack *stack = window.history()->stack();
    auto *box = heatmapView(window)->findChild<QComboBox *>(u"quantityBox"_s);
    QVERIFY(box);
    box->setCurrentIndex(box->findData(u"mask"_s));
    QTRY_COMPARE(stack->count(), 1);
    QCOMPARE(stack->undoText(), u"the views"_s);
    // Zoom: not a step, though the views' state holds its ranges.
    const QJsonObject before = window.sessions()->viewState();
    QCPAxis *axis = heatmapView(window)->plot()->axisRect()->axis(QCPAxis::atLeft);
    axis->setRange(10.0, 20.0);
    QTRY_VERIFY(window.sessions()->viewState() != before);
    window.history()->settle();
    QCOMPARE(stack->count(), 1);
    stack->undo();
    QTRY_COMPARE(quantityOf(window), u"pe"_s);
    stack->redo();
    QTRY_COMPARE(quantityOf(window), u"mask"_s);
}

void TestUndoHistory::theActionsHaveTheirKeysAndSayWhatTheyUndo()
{
    MainWindow window(small(), nullptr);
    window.show();
    auto *undo = window.findChild<QAction *>(u"undoAction"_s);
    auto *redo = window.findChild<QAction *>(u"redoAction"_s);
    QVERIFY(undo && redo);
    QVERIFY(!undo->isEnabled() && !redo->isEnabled());
    QVERIFY(!undo->shortcuts().isEmpty() && !redo->shortcuts().isEmpty());
    if (QKeySequence::keyBindings(QKeySequence::Undo).isEmpty())
        QCOMPARE(undo->shortcuts().constFirst(), QKeySequence(u"Ctrl+Z"_s));
    if (QKeySequence::keyBindings(QKeySequence::Redo).isEmpty())
        QCOMPARE(redo->shortcuts().constFirst(), QKeySequence(u"Ctrl+Shift+Z"_s));
    window.findChild<QSpinBox *>(u"maxLenSpin"_s)->setValue(80);
    QTRY_VERIFY(undo->isEnabled());
    QCOMPARE(undo->text(), u"&Undo max-len 60 → 80"_s);
    undo->trigger();
    QCOMPARE(window.controlPanel()->params().maxLen, std::int64_t(60));
    QVERIFY(redo->isEnabled());
}

// Opening a lesson is one step: Undo closes its panel and brings back the parameters from before
// it, Redo opens it again with its own.
void TestUndoHistory::undoingALessonsOpeningClosesIt()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QUndoStack *stack = window.history()->stack();
    LessonController *lessons = window.lessons();
    QVERIFY(lessons->open(u"frequencies"_s));
    QVERIFY(lessons->current());
    const std::int64_t lessonD = window.controlPanel()->params().dModel;
    QVERIFY(lessonD != 40);
    QTRY_COMPARE(stack->count(), 1);
    QCOMPARE(stack->undoText(), u"lesson frequencies"_s);
    stack->undo();
    QVERIFY(!lessons->current());
    QVERIFY(!lessons->dock()->isVisibleTo(&window));
    QCOMPARE(window.controlPanel()->params().dModel, std::int64_t(40));
    stack->redo();
    QVERIFY(lessons->current());
    QCOMPARE(lessons->current()->name, u"frequencies"_s);
    QVERIFY(lessons->dock()->isVisibleTo(&window));
    QCOMPARE(window.controlPanel()->params().dModel, lessonD);
    // Leaving it is a step too, undone into the lesson.
    lessons->leave();
    QTRY_COMPARE(stack->count(), 2);
    QCOMPARE(window.controlPanel()->params().dModel, std::int64_t(40));
    stack->undo();
    QVERIFY(lessons->current());
    QCOMPARE(window.controlPanel()->params().dModel, lessonD);
}

POSENC_TEST_MAIN(TestUndoHistory)
} // namespace tst_undohistory
#include "tst_undohistory.moc"
