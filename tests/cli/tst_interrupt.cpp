// Ctrl+C during a command's work (src/cli/Interrupt.h): while an InterruptCancels lives, SIGINT
// sets its flag instead of ending the process, and the handler from before comes back when the last
// one that lives at once ends, in whatever order they end (the Python module runs commands on
// several threads, each with its own).
#include "cli/Interrupt.h"

#include <QTest>

#include <csignal>
#include <memory>

using namespace posenc;

namespace {

// The handler SIGINT has now.
void (*currentHandler())(int)
{
    struct sigaction now
    {
    };
    sigaction(SIGINT, nullptr, &now);
    return now.sa_handler;
}

// A handler of the test's own, standing for the one the process had (Python's).
volatile std::sig_atomic_t g_ownCalls = 0;
void ownHandler(int)
{
    g_ownCalls = g_ownCalls + 1;
}

} // namespace

class TestInterrupt : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void aSignalSetsTheFlagAndTheHandlerComesBack();
    void overlappingLivesGiveBackTheFirstHandler_data();
    void overlappingLivesGiveBackTheFirstHandler();
};

void TestInterrupt::init()
{
    std::signal(SIGINT, ownHandler);
    g_ownCalls = 0;
}

void TestInterrupt::cleanup()
{
    std::signal(SIGINT, SIG_DFL);
}

void TestInterrupt::aSignalSetsTheFlagAndTheHandlerComesBack()
{
    {
        const InterruptCancels cancels;
        QVERIFY(!cancels.interrupted());
        QVERIFY(currentHandler() != ownHandler);
        std::raise(SIGINT);
        QVERIFY(cancels.interrupted());
        QVERIFY(cancels.flag()->load());
        QCOMPARE(int(g_ownCalls), 0);
    }
    QVERIFY(currentHandler() == ownHandler);
    std::raise(SIGINT);
    QCOMPARE(int(g_ownCalls), 1);
}

void TestInterrupt::overlappingLivesGiveBackTheFirstHandler_data()
{
    QTest::addColumn<bool>("firstEndsFirst");
    QTest::newRow("the first ends first") << true;
    QTest::newRow("the last ends first") << false;
}

void TestInterrupt::overlappingLivesGiveBackTheFirstHandler()
{
    QFETCH(bool, firstEndsFirst);
    auto first = std::make_unique<InterruptCancels>();
    auto second = std::make_unique<InterruptCancels>();
    QVERIFY(!second->interrupted()); // a second one does not clear what the first holds, nor set it
    if (firstEndsFirst) {
        first.reset();
        QVERIFY(currentHandler() != ownHandler); // the second still lives: Ctrl+C cancels it
        second.reset();
    } else {
        second.reset();
        first.reset();
    }
    QVERIFY(currentHandler() == ownHandler);
    // A later command installs and gives back again, its flag clear.
    {
        const InterruptCancels again;
        QVERIFY(!again.interrupted());
    }
    QVERIFY(currentHandler() == ownHandler);
}

QTEST_GUILESS_MAIN(TestInterrupt)
#include "tst_interrupt.moc"
