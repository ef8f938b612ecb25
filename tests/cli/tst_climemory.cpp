// Memory on the command line: a request the budget allows but the machine cannot hold exits 4
// with its cells and GiB instead of aborting on std::bad_alloc, and posenc bench keeps to the
// budget and to its own arguments. Nothing here allocates more than the test's own few MiB:
// requests beyond the machine are refused before allocating, and the one that allocates runs
// under an address-space limit that makes the allocation fail at once.
#include "CliRun.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <vector>

namespace tst_climemory {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// The machine's memory in bytes, as /proc/meminfo's MemTotal gives it, read here on its own.
double memTotalBytes()
{
    QFile meminfo(u"/proc/meminfo"_s);
    if (!meminfo.open(QIODevice::ReadOnly))
        return 0.0;
    for (const QByteArray &line : meminfo.readAll().split('\n')) {
        if (line.startsWith("MemTotal:"))
            return line.mid(9).trimmed().split(' ').value(0).toDouble() * 1024.0;
    }
    return 0.0;
}

// A power of two n such that an n x n float32 table is at least twice the machine's memory.
qint64 sideBeyondMemory()
{
    qint64 side = 1024;
    while (double(side) * double(side) * 4.0 < 2.0 * memTotalBytes())
        side *= 2;
    return side;
}

// A memory budget in GiB well above the machine's memory.
QString budgetBeyondMemory()
{
    return QString::number(std::ceil(8.0 * memTotalBytes() / double(1 << 30)));
}

} // namespace

class TestCliMemory : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void beyondTheMachinesMemoryExits4_data();
    void beyondTheMachinesMemoryExits4();
    void aBudgetBelowTheMachineAdvisesRaisingIt();
    void aTinyBudgetIsABudget();
    void repeatedDimsCountAgainstTheBudget();
    void failedAllocationExits4();
    void windowStartOutOfMemoryExits4();
    void benchKeepsToTheBudget_data();
    void benchKeepsToTheBudget();
    void benchRefusesAStrayArgument();

private:
    QString path(const QString &name) const { return m_dir->filePath(name); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCliMemory::init()
{
    QVERIFY(memTotalBytes() > 0.0);
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestCliMemory::beyondTheMachinesMemoryExits4_data()
{
    const QString side = QString::number(sideBeyondMemory());
    const QString budget = budgetBeyondMemory();
    QTest::addColumn<QStringList>("arguments");
    // The audit's `table pe --d-model 131072 --max-len 131072 --memory-budget 100` and `table
    // similarity --max-len 200000 --memory-budget 1000`, sized for this machine.
    // To standard output, which takes a table whole: a file is written in runs of rows that fit
    // (writtenInRunsWithinTheBudget).
    QTest::newRow("table pe") << QStringList {
        u"table"_s,     u"pe"_s, u"-o"_s,        u"-"_s, u"--format"_s,        u"npy"_s,
        u"--d-model"_s, side,    u"--max-len"_s, side,   u"--memory-budget"_s, budget};
    QTest::newRow("table similarity") << QStringList {u"table"_s,           u"similarity"_s, u"-o"_s,        u"-"_s,
                                                      u"--format"_s,        u"npy"_s,        u"--max-len"_s, side,
                                                      u"--memory-budget"_s, budget};
    QTest::newRow("bench") << QStringList {u"bench"_s, u"--d-model"_s,       side,  u"--max-len"_s,
                                           side,       u"--memory-budget"_s, budget};
}

// Before: std::bad_alloc, SIGABRT. Now: exit 4, the cells and GiB asked for, and the budget
// named as above the machine's memory.
void TestCliMemory::beyondTheMachinesMemoryExits4()
{
    QFETCH(QStringList, arguments);
    for (QString &argument : arguments) {
        if (argument.startsWith(u"x."_s))
            argument = path(argument);
    }
    const Run run = posenc(arguments);
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(u" cells"_s) && run.err.contains(u"GiB"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"of memory this machine has"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"above the machine's memory"_s), qPrintable(run.err));
    // The audit: the advice went on "...or raise --memory-budget", which cannot help here.
    QVERIFY2(!run.err.contains(u"raise --memory-budget"_s), qPrintable(run.err));
    QVERIFY(!QFile::exists(path(u"x.npy"_s)));
}

// Below the machine's memory, raising the budget is still the way on.
void TestCliMemory::aBudgetBelowTheMachineAdvisesRaisingIt()
{
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, u"-"_s, u"--format"_s, u"npy"_s, u"--d-model"_s, u"1024"_s,
                            u"--max-len"_s, u"1024"_s, u"--memory-budget"_s, u"0.001"_s});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(u"ask for fewer rows with --positions, write it to a file (-o FILE: in runs of rows that "
                              "fit), or raise --memory-budget"_s),
             qPrintable(run.err));
    // Not one row of 8192 columns fits 1 KiB: only fewer columns, or a larger budget, can help.
    const Run row = posenc({u"table"_s, u"pe"_s, u"-o"_s, path(u"x.npy"_s), u"--d-model"_s, u"8192"_s, u"--max-len"_s,
                            u"16"_s, u"--memory-budget"_s, u"0.000001"_s});
    QCOMPARE(row.exitCode, 4);
    QVERIFY2(row.err.contains(u"choose fewer columns with --dims, or raise --memory-budget"_s), qPrintable(row.err));
    QVERIFY(!QFile::exists(path(u"x.npy"_s)));
}

// The audit: `--memory-budget 1e-300`, inside the documented range (0, 1048576], was refused as "got 0".
// Any budget above 0 holds a byte at least: the table is over it, said with what the value given means
// (the least budget, a byte, which every --memory-budget below a byte and a half is), not as 9.31e-10 GiB
// alone.
void TestCliMemory::aTinyBudgetIsABudget()
{
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, path(u"x.npy"_s), u"--d-model"_s, u"4"_s, u"--max-len"_s,
                            u"4"_s, u"--memory-budget"_s, u"1e-300"_s});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(u"over the memory budget of 1 byte (9.31e-10 GiB: the least budget, which every "
                              "--memory-budget above 0 and below 1.4e-09 GiB is; nothing fits in it)"_s),
             qPrintable(run.err));
    QCOMPARE(run.err.count(u'\n'), 1);
    QVERIFY2(!run.err.contains(u"got 0"_s), qPrintable(run.err));
    QVERIFY(!QFile::exists(path(u"x.npy"_s)));
}

// The audit: `--dims 0:8,0:8,...` (16 copies) wrote 512 MiB under a 0.25 GiB budget; only the
// block the columns are taken from was checked, not the table they make.
void TestCliMemory::repeatedDimsCountAgainstTheBudget()
{
    QStringList copies;
    for (int i = 0; i < 16; ++i)
        copies << u"0:8"_s;
    // To standard output, which takes a table whole (a file would be written in runs of rows).
    const QStringList table = {u"table"_s,     u"pe"_s,      u"-o"_s,        u"-"_s, u"--format"_s,        u"npy"_s,
                               u"--max-len"_s, u"1048576"_s, u"--d-model"_s, u"8"_s, u"--memory-budget"_s, u"0.25"_s,
                               u"--dims"_s};
    const Run run = posenc(table + QStringList {copies.join(u',')});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(u"128 columns of 1048576 rows of pe"_s) && run.err.contains(u"over the memory budget"_s),
             qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
    // Once each, the same columns fit.
    const BinaryRun fits = posencBytes(table + QStringList {u"0:8"_s});
    QCOMPARE(fits.exitCode, 0);
    QCOMPARE(fits.out.size(), 128 + 1048576 * 8 * 4);
}

// The audit: std::bad_alloc while the window's arguments were read (a matrix loaded for
// --embeddings) aborted, where `table` exits 4. Here the matrix is a sparse file (no disk) of
// 1.5 GB, read under a 1 GiB address-space limit.
void TestCliMemory::windowStartOutOfMemoryExits4()
{
#if defined(POSENC_TEST_ASAN) || defined(POSENC_TEST_TSAN)
    QSKIP("a sanitizer's shadow memory needs far more address space than the limit leaves");
#endif
    constexpr qint64 rows = 375000, cols = 1024; // 1.5 GB of float32
    const QString matrix = path(u"big.npy"_s);
    {
        // The header of `rows` rows, the data left as a hole.
        QFile file(matrix);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray header = npyHeader(rows, cols);
        QCOMPARE(file.write(header), header.size());
        QVERIFY(file.resize(header.size() + rows * cols * 4));
    }
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"QT_QPA_PLATFORM"_s);
    environment.remove(u"DISPLAY"_s);
    environment.remove(u"WAYLAND_DISPLAY"_s);
    process.setProcessEnvironment(environment);
    process.setChildProcessModifier([] {
        const rlimit limit {rlim_t(1) << 30, rlim_t(1) << 30};
        setrlimit(RLIMIT_AS, &limit);
    });
    process.start(QStringLiteral(POSENC_EXECUTABLE),
                  {u"--screenshot"_s, path(u"w.png"_s), u"--embeddings"_s, matrix, u"--max-len"_s,
                   QString::number(rows), u"--memory-budget"_s, u"10"_s});
    QVERIFY(process.waitForFinished(300000));
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 4);
    QVERIFY2(err.startsWith(u"posenc: "_s) && err.contains(u"GiB"_s), qPrintable(err));
    QVERIFY(!QFile::exists(path(u"w.png"_s)));
}

// A table within the budget and the machine's memory that the system still refuses (here: a
// 2 GiB address-space limit on the process, as a busy machine would) exits 4 with its size.
void TestCliMemory::failedAllocationExits4()
{
#if defined(POSENC_TEST_ASAN) || defined(POSENC_TEST_TSAN)
    QSKIP("a sanitizer's shadow memory needs far more address space than the limit leaves");
#endif
    if (memTotalBytes() < 5.0 * double(1 << 30))
        QSKIP("a 4 GiB table is beyond this machine's memory: refused before allocating");
    QProcess process;
    process.setChildProcessModifier([] {
        const rlimit limit {rlim_t(2) << 30, rlim_t(2) << 30};
        setrlimit(RLIMIT_AS, &limit);
    });
    const QString file = path(u"x.npy"_s);
    process.start(QStringLiteral(POSENC_EXECUTABLE),
                  {u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, u"16384"_s, u"--max-len"_s, u"65536"_s,
                   u"--memory-budget"_s, u"8"_s});
    QVERIFY(process.waitForFinished(300000));
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 4);
    QVERIFY2(err.contains(u"65536 x 16384 table, 1073741824 cells of float32 (4.00 GiB)"_s), qPrintable(err));
    QVERIFY(!QFile::exists(file));
}

void TestCliMemory::benchKeepsToTheBudget_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    // The audit: `--d-model 8192 --max-len 65536 --memory-budget 1` used 4.3 GB; two 4 MiB tables
    // over a 1 MiB budget show the same refusal without the wait. Each count adds RoPE's
    // 131072 x 128 cos table (16777216 cells), which the bench times too.
    QTest::newRow("4 MiB over 1 MiB") << QStringList {u"--d-model"_s,       u"1024"_s, u"--max-len"_s, u"1024"_s,
                                                      u"--memory-budget"_s, u"0.001"_s}
                                      << u"18874368 cells of float32 (0.07 GiB), over the memory budget"_s;
    QTest::newRow("the audit's") << QStringList {u"--d-model"_s,       u"8192"_s, u"--max-len"_s, u"65536"_s,
                                                 u"--memory-budget"_s, u"1"_s}
                                 << u"1090519040 cells of float32 (4.06 GiB), over the memory budget of 1.00 GiB"_s;
    // `posenc bench --d-model 65536 --max-len 65536` aborted: the default budget (2 GiB) holds.
    QTest::newRow("default budget") << QStringList {u"--d-model"_s, u"65536"_s, u"--max-len"_s, u"65536"_s}
                                    << u"over the memory budget of 2.00 GiB"_s;
}

// Before: the bench allocated whatever --max-len and --d-model asked for and ran.
void TestCliMemory::benchKeepsToTheBudget()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = posenc(QStringList {u"bench"_s, u"--json"_s} + arguments);
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
    QCOMPARE(run.out, QString());
}

// Before: `posenc bench --json extra` ran the whole bench.
void TestCliMemory::benchRefusesAStrayArgument()
{
    const Run run = posenc({u"bench"_s, u"--json"_s, u"extra"_s});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(u"'extra'"_s), qPrintable(run.err));
    QCOMPARE(run.out, QString());
}

POSENC_TEST_GUILESS_MAIN(TestCliMemory)
} // namespace tst_climemory
#include "tst_climemory.moc"
