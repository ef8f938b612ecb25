// The window as a screen reader and a keyboard meet it: every control the Tab key reaches has an
// accessible name (its label as a buddy, its text, or a name of its own); the plots take Tab
// focus, arrow keys pan, + and - zoom, 0 resets, and Shift with the arrows moves a cursor over
// the cells whose readout the status bar shows.
#include "gui/FigureView.h"
#include "gui/MainWindow.h"
#include "support/TestShots.h"
#include "support/WindowViews.h"

#include <QAccessible>
#include <QApplication>
#include <QLabel>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;
using namespace WindowViews;

namespace {

Params small()
{
    Params p;
    p.dModel = 40;
    p.maxLen = 60;
    return p;
}

QString accessibleName(QWidget *widget)
{
    QAccessibleInterface *face = QAccessible::queryAccessibleInterface(widget);
    return face ? face->text(QAccessible::Name).trimmed() : QString();
}

} // namespace

class TestAccessibility : public QObject
{
    Q_OBJECT

private slots:
    void everyControlInTheFocusChainHasAName();
    void theKeyboardZoomsAHeatmapAndReadsACell();
};

void TestAccessibility::everyControlInTheFocusChainHasAName()
{
    MainWindow window(small(), nullptr);
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QStringList unnamed;
    int reached = 0;
    QWidget *start = window.nextInFocusChain();
    QWidget *w = start;
    do {
        if (w->isVisible() && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus) && w->window() == &window) {
            ++reached;
            if (accessibleName(w).isEmpty())
                unnamed.append(QString::fromLatin1(w->metaObject()->className()) + u" "_s + w->objectName());
        }
        w = w->nextInFocusChain();
    } while (w && w != start);
    qInfo("%d controls in the focus chain", reached);
    QVERIFY(reached > 20);
    // The plots are in it, named after their figures.
    QStringList plots;
    for (FigureView *view : window.views())
        plots.append(accessibleName(view->plot()));
    QVERIFY2(plots.contains(u"Heatmap plot"_s), qPrintable(plots.join(u", "_s)));
    QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(u"\n"_s)));
}

// The workflow without a mouse: Tab to the heatmap, zoom in with +, pan with the arrows, step a
// cursor over the cells with Shift and the arrows while the status bar reads each cell, 0 back.
void TestAccessibility::theKeyboardZoomsAHeatmapAndReadsACell()
{
    MainWindow window(small(), nullptr);
    window.resize(1500, 950);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTRY_VERIFY(window.isSettled());
    FigureView *view = heatmapView(window);
    QCustomPlot *plot = view->plot();
    // Tab reaches the plot.
    QWidget *w = window.focusWidget() ? window.focusWidget() : &window;
    for (int i = 0; i < 200 && QApplication::focusWidget() != plot; ++i)
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : w, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), plot);
    QCPAxis *positions = plot->axisRect()->axis(QCPAxis::atLeft);
    QCPAxis *columns = plot->axisRect()->axis(QCPAxis::atBottom);
    const QCPRange whole = positions->range();
    QTest::keyClick(plot, Qt::Key_Plus);
    QVERIFY(std::abs(positions->range().size() - 0.8 * whole.size()) < 1e-9 * whole.size());
    QCOMPARE(positions->range().center(), whole.center());
    const QCPRange zoomed = positions->range();
    QTest::keyClick(plot, Qt::Key_Down);
    QVERIFY(positions->range().size() == zoomed.size() || std::abs(positions->range().size() - zoomed.size()) < 1e-9);
    QVERIFY(positions->range().center() != zoomed.center());
    QTRY_VERIFY(window.isSettled());
    // The readout follows a keyboard cursor, a cell a step.
    auto *readout = window.findChild<QLabel *>(u"hoverReadout"_s);
    QVERIFY(readout);
    QTest::keyClick(plot, Qt::Key_Right, Qt::ShiftModifier);
    QTRY_VERIFY(!readout->text().isEmpty());
    const QString first = readout->text();
    QVERIFY2(first.contains(u"PE"_s), qPrintable(first));
    QTest::keyClick(plot, Qt::Key_Right, Qt::ShiftModifier);
    QTRY_VERIFY(readout->text() != first); // the next column
    QTRY_VERIFY(window.isSettled());
    qInfo("%s", qPrintable(TestShots::save(window.grab(), u"keyboard-cell"_s)));
    QTest::keyClick(plot, Qt::Key_0);
    QTRY_COMPARE(positions->range(), whole);
    QVERIFY(columns->range().size() > 0);
}

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
