#pragma once

// What the lesson window's tests (tst_lessons, tst_lessondetour) share: a menu by name, the texts of
// actions, parameters of the user's own and a lesson's.
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

namespace LessonWindowTesting {

using namespace posenc;
using namespace Qt::StringLiterals;

inline QMenu *menuNamed(const MainWindow &window, const QString &objectName)
{
    return window.menuBar()->findChild<QMenu *>(objectName);
}

inline QStringList texts(const QList<QAction *> &actions)
{
    QStringList list;
    for (const QAction *action : actions)
        list.append(action->text());
    return list;
}

// Parameters of the user's own, unlike every shipped lesson's.
inline Params ownParams()
{
    Params own;
    own.dModel = 96;
    own.maxLen = 300;
    own.dropout = 0.25;
    own.seed = 7;
    return own;
}

// Waits until the lesson panel of `window` shows its text for the lesson and parameters last given,
// which it computes off the GUI thread: QVERIFY(textShown(window)).
[[nodiscard]] inline bool textShown(const MainWindow &window)
{
    return QTest::qWaitFor([&window] { return window.lessons()->panel()->isTextReady(); }, 60000);
}

inline Params lessonParams(const Lesson &lesson)
{
    const auto params = lesson.params();
    return std::holds_alternative<Params>(params) ? std::get<Params>(params) : Params {};
}

} // namespace LessonWindowTesting
