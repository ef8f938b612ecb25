#pragma once

// The window the tests of the window open, one fixture for all of them: its parameters, and shown,
// exposed and settled.
#include "gui/FigureView.h"
#include "gui/MainWindow.h"

#include <QTest>

namespace WindowFixture {

// d_model 40 and max_len 60, everything else the defaults: every view draws in a moment.
inline posenc::Params small()
{
    posenc::Params p;
    p.dModel = 40;
    p.maxLen = 60;
    return p;
}

// Whether every view of `window` drew what its figure computed last.
inline bool allSettled(const posenc::MainWindow &window)
{
    for (const posenc::FigureView *view : window.views())
        if (!view->isSettled())
            return false;
    return true;
}

// Shows `window` and waits until it is exposed: QVERIFY(WindowFixture::shown(window)).
[[nodiscard]] inline bool shown(QWidget &window)
{
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

} // namespace WindowFixture
