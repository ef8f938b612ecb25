// Ctrl+C during a command's work (src/cli/Interrupt.h): while an InterruptCancels lives, SIGINT
// sets its flag instead of ending the process, and the handler from before comes back when the last
// one that lives at once ends, in whatever order they end (the Python module runs commands on
// several threads, each with its own). And a scratch file a signal ending the process takes with it
// (RemovedIfKilled, posenc bench's gigabyte tables).
#include "cli/Interrupt.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

namespace tst_interrupt {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// The handler `signal` has now.
void (*currentHandler(int signal = SIGINT))(int)
{
    struct sigaction now
    {
    };
    sigaction(signal, nullptr, &now);
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
    void aKillTakesTheScratchFileWithIt_data();
    void aKillTakesTheScratchFileWithIt();
    void aScratchFileOutlivesItsScopeUntouched();
};

void TestInterrupt::init()
{
    std::signal(SIGINT, ownHandler);
    g_ownCalls = 0;
}

void TestInterrupt::cleanup()
{
    for (const int signal : {SIGINT, SIGTERM, SIGHUP})
        std::signal(signal, SIG_DFL);
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

void TestInterrupt::aKillTakesTheScratchFileWithIt_data()
{
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGHUP") << int(SIGHUP);
    QTest::newRow("SIGINT") << int(SIGINT);
}

// The signal removes the file and its directory, then reaches the handler from before (here the
// test's own, standing for the default that ends the process).
void TestInterrupt::aKillTakesTheScratchFileWithIt()
{
    QFETCH(int, signal);
    std::signal(signal, ownHandler);
    QTemporaryDir parent;
    QVERIFY(parent.isValid());
    const QString directory = parent.filePath(u"scratch"_s);
    QVERIFY(QDir().mkdir(directory));
    const QString file = directory + u"/table.npy"_s;
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QVERIFY(out.write("0123456789") == 10);
    }
    {
        const RemovedIfKilled scratch(QFile::encodeName(file), QFile::encodeName(directory));
        QVERIFY(currentHandler(signal) != ownHandler);
        std::raise(signal);
        QCOMPARE(int(g_ownCalls), 1);
        QVERIFY(!QFile::exists(file));
        QVERIFY(!QFile::exists(directory));
    }
    QVERIFY(currentHandler(signal) == ownHandler);
}

void TestInterrupt::aScratchFileOutlivesItsScopeUntouched()
{
    std::signal(SIGTERM, ownHandler);
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString file = directory.filePath(u"table.npy"_s);
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
    }
    {
        const RemovedIfKilled scratch(QFile::encodeName(file), QFile::encodeName(directory.path()));
    }
    QVERIFY(QFile::exists(file));
    QVERIFY(currentHandler(SIGTERM) == ownHandler);
    std::raise(SIGTERM); // the scope gone, the signal reaches the handler from before only
    QCOMPARE(int(g_ownCalls), 1);
    QVERIFY(QFile::exists(file));
}

POSENC_TEST_GUILESS_MAIN(TestInterrupt)
} // namespace tst_interrupt
#include "tst_interrupt.moc"
