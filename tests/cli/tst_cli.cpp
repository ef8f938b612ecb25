// The `posenc table` contract of docs/ARCHITECTURE.md, Command line: values against a
// float64 reference, --positions and --dims against the whole table, exit codes 2 / 3 / 4
// with their messages, and no partial file ever.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <cstring>
#include <vector>

#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tst_cli {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

double frequency(qint64 pair, qint64 d, double base)
{
    return std::exp(-2.0 * static_cast<double>(pair) * std::log(base) / static_cast<double>(d));
}

// Runs `posenc --screenshot` of a small window into `shot`, offscreen.
Run screenshotInto(const QString &shot, const QString &config)
{
    return posenc({u"--d-model"_s, u"32"_s, u"--max-len"_s, u"64"_s, u"--screenshot"_s, shot},
                  windowEnvironment(config));
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void peMatchesFloat64Reference_data();
    void peMatchesFloat64Reference();
    void positionsEqualRowsOfWholeTable_data();
    void positionsEqualRowsOfWholeTable();
    void dimsSelectColumns();
    void csvHoldsTheSameValues();
    void invalidUsageExits2_data();
    void invalidUsageExits2();
    void unwritablePathExits3();
    void overBudgetExits4();
    void writtenInRunsWithinTheBudget_data();
    void writtenInRunsWithinTheBudget();
    void existingFileIsReplacedOnlyWithForce();
    void windowOpensWithTheParameterFlags();
    void windowRefusesInvalidParametersWithoutAScreen();
    void windowNamesASettingsFifoAsItOpens();
    void windowOpensASessionWithFlagsOverridingIt();
    void aFileArgumentOpensInTheWindow();
    void aWordIsAnUnknownCommand();
    void screenshotRefusedByTheDiskNamesTheCause();
    void screenshotOnAFullDiskSaysNoSpaceLeft();
    void screenshotInAReadOnlyDirectoryLeavesNothing();

private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }
};

void TestCli::peMatchesFloat64Reference_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<int>("d");
    QTest::newRow("interleaved d=64") << u"interleaved"_s << 64;
    QTest::newRow("interleaved d=7") << u"interleaved"_s << 7;
    QTest::newRow("split d=64") << u"split"_s << 64;
    QTest::newRow("split d=7") << u"split"_s << 7;
}

void TestCli::peMatchesFloat64Reference()
{
    QFETCH(QString, layout);
    QFETCH(int, d);
    const QString file = path(u"pe_%1_%2.npy"_s.arg(layout).arg(d));
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, QString::number(d), u"--max-len"_s,
                            u"300"_s, u"--layout"_s, layout});
    QCOMPARE(run.exitCode, 0);
    const Table t = readNpy(file);
    QCOMPARE(t.rows, 300);
    QCOMPARE(t.cols, d);
    const qint64 h = (d + 1) / 2;
    double worst = 0.0;
    for (qint64 p = 0; p < t.rows; ++p) {
        for (qint64 j = 0; j < d; ++j) {
            const bool isCos = layout == u"interleaved"_s ? (j % 2 == 1) : (j >= h);
            const qint64 pair = layout == u"interleaved"_s ? j / 2 : (j >= h ? j - h : j);
            const double angle = static_cast<double>(p) * frequency(pair, d, 10000.0);
            worst = std::max(worst, std::abs(t.at(p, j) - (isCos ? std::cos(angle) : std::sin(angle))));
        }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(u"max error %1"_s.arg(worst)));
}

void TestCli::positionsEqualRowsOfWholeTable_data()
{
    QTest::addColumn<QString>("quantity");
    for (const char *q : {"pe", "embedding", "input", "output", "mask", "similarity", "error"})
        QTest::newRow(q) << QString::fromLatin1(q);
}

void TestCli::positionsEqualRowsOfWholeTable()
{
    QFETCH(QString, quantity);
    const QStringList params
        = {u"--d-model"_s, u"33"_s, u"--max-len"_s, u"700"_s, u"--seed"_s, u"7"_s, u"--dropout"_s, u"0.3"_s};
    const QString whole = path(u"whole_%1.npy"_s.arg(quantity));
    const QString part = path(u"part_%1.npy"_s.arg(quantity));
    QCOMPARE(posenc(QStringList {u"table"_s, quantity, u"-o"_s, whole} + params).exitCode, 0);
    QCOMPARE(
        posenc(QStringList {u"table"_s, quantity, u"-o"_s, part, u"--positions"_s, u"517:700"_s} + params).exitCode, 0);
    const Table w = readNpy(whole);
    const Table p = readNpy(part);
    QCOMPARE(p.rows, 183);
    QCOMPARE(p.cols, w.cols);
    for (qint64 r = 0; r < p.rows; ++r)
        QVERIFY(std::memcmp(&p.values[static_cast<std::size_t>(r * p.cols)],
                            &w.values[static_cast<std::size_t>((517 + r) * w.cols)],
                            static_cast<std::size_t>(p.cols) * 4)
                == 0);
}

void TestCli::dimsSelectColumns()
{
    const QString whole = path(u"dims_whole.npy"_s);
    const QString part = path(u"dims_part.npy"_s);
    QCOMPARE(
        posenc({u"table"_s, u"input"_s, u"-o"_s, whole, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"50"_s}).exitCode, 0);
    QCOMPARE(posenc({u"table"_s, u"input"_s, u"-o"_s, part, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"50"_s,
                     u"--dims"_s, u"63,0,10:12"_s})
                 .exitCode,
             0);
    const Table w = readNpy(whole);
    const Table p = readNpy(part);
    QCOMPARE(p.cols, 4);
    const int columns[] = {63, 0, 10, 11};
    for (qint64 r = 0; r < p.rows; ++r)
        for (int i = 0; i < 4; ++i)
            QCOMPARE(p.at(r, i), w.at(r, columns[i]));
}

void TestCli::csvHoldsTheSameValues()
{
    const QString npy = path(u"same.npy"_s);
    const QString csv = path(u"same.csv"_s);
    const QStringList params = {u"--d-model"_s, u"9"_s, u"--max-len"_s, u"20"_s};
    QCOMPARE(posenc(QStringList {u"table"_s, u"output"_s, u"-o"_s, npy} + params).exitCode, 0);
    QCOMPARE(posenc(QStringList {u"table"_s, u"output"_s, u"-o"_s, csv} + params).exitCode, 0);
    const Table t = readNpy(npy);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.size(), 22); // the header, 20 rows and the empty text after the last newline
    QVERIFY(lines.first().startsWith("output_0,"));
    for (qint64 r = 0; r < t.rows; ++r) {
        const QList<QByteArray> fields = lines[r + 1].split(',');
        QCOMPARE(fields.size(), 9);
        for (qint64 c = 0; c < t.cols; ++c)
            QCOMPARE(std::strtof(fields[c].constData(), nullptr), t.at(r, c));
    }
}

void TestCli::invalidUsageExits2_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    const auto row
        = [](const char *name, const QStringList &args, const QString &named) { QTest::newRow(name) << args << named; };
    row("d = 0", {u"--d-model"_s, u"0"_s}, u"--d-model"_s);
    row("d negative", {u"--d-model"_s, u"-4"_s}, u"--d-model"_s);
    row("L = 0", {u"--max-len"_s, u"0"_s}, u"--max-len"_s);
    row("base 1", {u"--base"_s, u"1"_s}, u"--base"_s);
    row("base nan", {u"--base"_s, u"nan"_s}, u"--base"_s);
    row("base inf", {u"--base"_s, u"inf"_s}, u"--base"_s);
    row("p > 1", {u"--dropout"_s, u"1.5"_s}, u"--dropout"_s);
    row("p < 0, echoed as given", {u"--dropout"_s, u"-0.1"_s},
        u"--dropout: must be a probability in [0, 1]; got -0.1\n"_s);
    row("p nan", {u"--dropout"_s, u"nan"_s}, u"--dropout"_s);
    row("scale text", {u"--scale"_s, u"big"_s}, u"--scale"_s);
    row("scale inf", {u"--scale"_s, u"inf"_s}, u"--scale"_s);
    row("sigma negative", {u"--init"_s, u"-1"_s}, u"--init"_s);
    row("special out of range", {u"--special"_s, u"0,5000"_s}, u"--special"_s);
    row("seq-len 0", {u"--seq-len"_s, u"0"_s}, u"--seq-len"_s);
    row("seq-len past max-len", {u"--seq-len"_s, u"5000"_s}, u"--seq-len"_s);
    row("pe-dims past d", {u"--compose"_s, u"concat"_s, u"--pe-dims"_s, u"600"_s}, u"--pe-dims"_s);
    row("layout unknown", {u"--layout"_s, u"diagonal"_s}, u"--layout"_s);
    row("positions reversed", {u"--positions"_s, u"10:5"_s}, u"--positions"_s);
    row("positions past the end", {u"--positions"_s, u"0:2000"_s}, u"--positions"_s);
    row("dims past the end", {u"--dims"_s, u"512"_s}, u"--dims"_s);
    row("unknown option", {u"--colour"_s, u"red"_s}, u"colour"_s);
    row("threads 0", {u"--threads"_s, u"0"_s}, u"--threads"_s);
}

void TestCli::invalidUsageExits2()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    const QString file = path(u"invalid.npy"_s);
    const Run run = posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, file} + arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(named), qPrintable(run.err));
    QVERIFY(!QFile::exists(file));

    QCOMPARE(posenc({u"table"_s, u"nothing"_s, u"-o"_s, file}).exitCode, 2);
    QCOMPARE(posenc({u"table"_s, u"pe"_s}).exitCode, 2);
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"-o"_s, path(u"x.txt"_s)}).exitCode, 2);
    QVERIFY(!QFile::exists(file));
}

void TestCli::unwritablePathExits3()
{
    QFile blocker(path(u"afile"_s));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const QString file = path(u"afile/pe.npy"_s);
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, u"8"_s, u"--max-len"_s, u"8"_s});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains(file), qPrintable(run.err));
    const QStringList left = QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden);
    for (const QString &name : left)
        QVERIFY2(!name.startsWith(u"pe.npy"_s) && !name.contains(u"afile."_s), qPrintable(name));
}

// Standard output takes a table whole: over the budget, exit 4 with its cells and GiB. A file is
// written in runs of rows that fit, unless the disk has no room for it (exit 3, nothing written).
void TestCli::overBudgetExits4()
{
    const QStringList huge = {u"table"_s, u"pe"_s, u"--d-model"_s, u"65536"_s, u"--max-len"_s, u"16777216"_s};
    const Run run = posenc(huge + QStringList {u"-o"_s, u"-"_s, u"--format"_s, u"npy"_s});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(u"1099511627776 cells"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"GiB"_s), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
    // 4 TiB: more than the disk holds.
    const QString file = path(u"huge.npy"_s);
    const Run disk = posenc(huge + QStringList {u"-o"_s, file});
    QCOMPARE(disk.exitCode, 3);
    QVERIFY2(disk.err.contains(u"GiB free; nothing was written"_s), qPrintable(disk.err));
    QVERIFY(!QFile::exists(file));
}

// A table over the memory budget written to a file in runs of rows (64 MiB of similarity under a
// budget of 10 MiB) holds the same bytes as the table written whole, in each format.
void TestCli::writtenInRunsWithinTheBudget_data()
{
    QTest::addColumn<QString>("extension");
    QTest::newRow("npy") << u"npy"_s;
    QTest::newRow("csv") << u"csv"_s;
    QTest::newRow("safetensors") << u"safetensors"_s;
}

void TestCli::writtenInRunsWithinTheBudget()
{
    QFETCH(QString, extension);
    const QStringList table = {u"table"_s, u"similarity"_s, u"--max-len"_s, u"4096"_s, u"--d-model"_s, u"64"_s};
    const QString runs = path(u"runs."_s + extension), whole = path(u"whole."_s + extension);
    const Run inRuns = posenc(table + QStringList {u"-o"_s, runs, u"--memory-budget"_s, u"0.01"_s});
    QVERIFY2(inRuns.exitCode == 0, qPrintable(inRuns.err));
    const Run atOnce = posenc(table + QStringList {u"-o"_s, whole, u"--memory-budget"_s, u"1"_s});
    QVERIFY2(atOnce.exitCode == 0, qPrintable(atOnce.err));
    QFile a(runs), b(whole);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QVERIFY(a.size() > 4096 * 4096);
    QVERIFY(a.readAll() == b.readAll());
    // --whole: the table whole within the budget, or refused, as a program reading it back wants.
    const QString refused = path(u"refused."_s + extension);
    const Run wholeRun = posenc(table + QStringList {u"-o"_s, refused, u"--memory-budget"_s, u"0.01"_s, u"--whole"_s});
    QCOMPARE(wholeRun.exitCode, 4);
    QVERIFY2(wholeRun.err.contains(u"ask for fewer rows with --positions, or raise --memory-budget"_s),
             qPrintable(wholeRun.err));
    QVERIFY(!QFile::exists(refused));
}

void TestCli::existingFileIsReplacedOnlyWithForce()
{
    const QString file = path(u"existing.npy"_s);
    QFile old(file);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("the user's old file");
    old.close();
    const auto oldFileIsIntact = [&] {
        if (!old.open(QIODevice::ReadOnly))
            return false;
        const bool same = old.readAll() == QByteArray("the user's old file");
        old.close();
        return same;
    };
    const QStringList table {u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, u"4"_s, u"--max-len"_s, u"3"_s};
    // Without --force the file the user has is kept, and the refusal says how to replace it.
    const Run kept = posenc(table);
    QCOMPARE(kept.exitCode, 3);
    QVERIFY2(kept.err.contains(file) && kept.err.contains(u"--force"_s), qPrintable(kept.err));
    QVERIFY(oldFileIsIntact());
    // A refused request leaves the old file as it was, with --force too.
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"-o"_s, file, u"--force"_s, u"--d-model"_s, u"0"_s}).exitCode, 2);
    QVERIFY(oldFileIsIntact());
    QCOMPARE(posenc(table + QStringList {u"--force"_s}).exitCode, 0);
    QCOMPARE(readNpy(file).rows, 3);
}

void TestCli::windowOpensWithTheParameterFlags()
{
    // The real window, offscreen, with its settings in a temporary directory; --screenshot
    // saves it once every view has drawn in full detail, then quits.
    const QProcessEnvironment environment = windowEnvironment(path(u"config"_s));
    const QString shot = path(u"window.png"_s);
    const Run run = posenc({u"--d-model"_s, u"64"_s, u"--max-len"_s, u"200"_s, u"--screenshot"_s, shot}, environment);
    QCOMPARE(run.exitCode, 0);
    // At a desktop screen's size, whatever the screen (offscreen's is 800 x 600), unless told.
    QCOMPARE(QImage(shot).size(), QSize(1920, 1080));
    QCOMPARE(posenc({u"--size"_s, u"1366x768"_s, u"--screenshot"_s, shot}, environment).exitCode, 0);
    QCOMPARE(QImage(shot).size(), QSize(1366, 768));
    // The parameters were remembered on close, and --reset-settings forgets them.
    QDirIterator files(path(u"config"_s), {u"*.conf"_s}, QDir::Files, QDirIterator::Subdirectories);
    QVERIFY(files.hasNext());
    QFile conf(files.next());
    QVERIFY(conf.open(QIODevice::ReadOnly));
    QVERIFY(conf.readAll().contains("d-model=64"));
    conf.close();
    QCOMPARE(posenc({u"--reset-settings"_s, u"--screenshot"_s, shot}, environment).exitCode, 0);
    QVERIFY(conf.open(QIODevice::ReadOnly));
    QVERIFY(conf.readAll().contains("d-model=512"));
}

// A FIFO in place of the settings file blocked the window for ever (issue 62, break 5); the window
// now starts without it and says so on standard error as it opens. Before: the line stayed in a
// buffer until the window closed.
void TestCli::windowNamesASettingsFifoAsItOpens()
{
    const QString config = path(u"fifo-config"_s);
    QVERIFY(QDir().mkpath(config + u"/PosEnc Explorer"_s));
    QCOMPARE(::mkfifo(QFile::encodeName(config + u"/PosEnc Explorer/posenc.conf"_s).constData(), 0600), 0);
    const QString shot = path(u"fifo.png"_s);
    const Run run = screenshotInto(shot, config);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(QFile::exists(shot));
    QProcess window;
    window.setProcessEnvironment(windowEnvironment(config));
    window.start(QStringLiteral(POSENC_EXECUTABLE), {u"--d-model"_s, u"32"_s, u"--max-len"_s, u"64"_s});
    QVERIFY(window.waitForStarted());
    const auto stop = qScopeGuard([&window] {
        window.kill();
        window.waitForFinished(60000);
    });
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += window.readAllStandardError()).contains("not reading the settings"), 60000);
    QVERIFY2(said.contains("is not a regular file (a pipe, a socket or a device)"), said.constData());
    QCOMPARE(window.state(), QProcess::Running);
}

void TestCli::windowRefusesInvalidParametersWithoutAScreen()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"QT_QPA_PLATFORM"_s);
    environment.remove(u"DISPLAY"_s);
    const Run run = posenc({u"--d-model"_s, u"0"_s}, environment);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(u"--d-model"_s), qPrintable(run.err));
    QCOMPARE(posenc({u"--help"_s}, environment).exitCode, 0);
    // A window's size that is no size, or one too small to lay out in, names its range.
    for (const QString &size : {u"big"_s, u"1366"_s, u"12x7"_s, u"1366x-768"_s, u"99999x768"_s}) {
        const Run refused = posenc({u"--size"_s, size, u"--screenshot"_s, path(u"never.png"_s)}, environment);
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(u"--size: must be WIDTHxHEIGHT in pixels, each in [320, 8192]"_s),
                 qPrintable(refused.err));
        QVERIFY(!QFile::exists(path(u"never.png"_s)));
    }
}

// posenc --session FILE [flags]: the session's parameters, the flags over them; a corrupt
// session is refused before any screen is needed (exit 3, path and reason).
void TestCli::windowOpensASessionWithFlagsOverridingIt()
{
    QProcessEnvironment environment = windowEnvironment(path(u"session-config"_s));
    const QString session = path(u"s.json"_s);
    QFile file(session);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "posenc-session", "version": 1, "params": {"d-model": "48", "max-len": "70",)"
               R"( "base": "500"}, "view": {"heatmap": {"quantity": "input"}}})");
    file.close();
    const Run run = posenc(
        {u"--session"_s, session, u"--max-len"_s, u"90"_s, u"--screenshot"_s, path(u"session.png"_s)}, environment);
    QCOMPARE(run.exitCode, 0);
    const QByteArray remembered = rememberedSettings(path(u"session-config"_s));
    QVERIFY(!remembered.isEmpty());
    QVERIFY(remembered.contains("d-model=48"));
    QVERIFY(remembered.contains("max-len=90"));
    QVERIFY(remembered.contains("base=500"));

    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "posenc-session", "version": 2, "params": {}})");
    file.close();
    environment.remove(u"QT_QPA_PLATFORM"_s);
    environment.remove(u"DISPLAY"_s);
    const Run refused = posenc({u"--session"_s, session}, environment);
    QCOMPARE(refused.exitCode, 3);
    QVERIFY2(refused.err.contains(session) && refused.err.contains(u"version 2"_s), qPrintable(refused.err));
}

// The audit: --screenshot on a full or read-only disk left a partial PNG and said "libpng error:
// Write Error". Now the PNG is written whole or not at all, and the message names the reason: here
// a file size limit refuses the write half way, as a full disk would.
void TestCli::screenshotRefusedByTheDiskNamesTheCause()
{
    QDir().mkpath(path(u"limited"_s));
    QProcess process;
    process.setProcessEnvironment(windowEnvironment(path(u"limited-config"_s)));
    process.setChildProcessModifier([] {
        std::signal(SIGXFSZ, SIG_IGN); // the write then fails with EFBIG instead of ending the process
        const rlimit limit {16384, 16384};
        setrlimit(RLIMIT_FSIZE, &limit);
    });
    const QString shot = path(u"limited/window.png"_s);
    process.start(QStringLiteral(POSENC_EXECUTABLE),
                  {u"--d-model"_s, u"32"_s, u"--max-len"_s, u"64"_s, u"--screenshot"_s, shot});
    QVERIFY(process.waitForFinished(300000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 3);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(err.contains(shot + u": File too large"_s), qPrintable(err));
    QVERIFY2(!err.contains(u"libpng"_s), qPrintable(err));
    QCOMPARE(QDir(path(u"limited"_s)).entryList(QDir::Files | QDir::Hidden), QStringList());
}

// A real full disk: an 8 KiB tmpfs, where this process may mount one (root); skipped elsewhere.
void TestCli::screenshotOnAFullDiskSaysNoSpaceLeft()
{
    const QString directory = path(u"full"_s);
    QVERIFY(QDir().mkpath(directory));
    const QByteArray mountPoint = QFile::encodeName(directory);
    if (geteuid() != 0 || mount("tmpfs", mountPoint.constData(), "tmpfs", 0, "size=8k") != 0)
        QSKIP("cannot mount a small tmpfs here (needs root)");
    const auto unmount = qScopeGuard([&] { umount(mountPoint.constData()); });
    const QString shot = directory + u"/window.png"_s;
    const Run run = screenshotInto(shot, path(u"full-config"_s));
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains(shot + u": No space left on device"_s), qPrintable(run.err));
    QVERIFY2(!run.err.contains(u"libpng"_s), qPrintable(run.err));
    QCOMPARE(QDir(directory).entryList(QDir::Files | QDir::Hidden), QStringList());
}

// A directory the user may not write to, or (as root, who may write anywhere) a read-only
// filesystem: nothing is left, and the message names the reason.
void TestCli::screenshotInAReadOnlyDirectoryLeavesNothing()
{
    const QString directory = path(u"read-only"_s);
    QVERIFY(QDir().mkpath(directory));
    const QByteArray mountPoint = QFile::encodeName(directory);
    const bool root = geteuid() == 0;
    if (root && mount("tmpfs", mountPoint.constData(), "tmpfs", MS_RDONLY, "size=64k") != 0)
        QSKIP("root writes into a read-only directory, and cannot mount a read-only tmpfs here");
    const auto restore = qScopeGuard([&] {
        if (root)
            umount(mountPoint.constData());
        else
            QFile::setPermissions(directory, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    });
    if (!root)
        QVERIFY(QFile::setPermissions(directory, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    const QString shot = directory + u"/window.png"_s;
    const Run run = screenshotInto(shot, path(u"read-only-config"_s));
    QCOMPARE(run.exitCode, 3);
    const QString reason = root ? u"Read-only file system"_s : u"ermission denied"_s;
    QVERIFY2(run.err.contains(shot + u": "_s) && run.err.contains(reason), qPrintable(run.err));
    QCOMPARE(QDir(directory).entryList(QDir::Files | QDir::Hidden), QStringList());
}

// `posenc FILE`, as a file manager starts it (Exec=posenc %F): a matrix named as token
// embeddings ("wte") loads as the embeddings, one named as a position table ("wpe") as the learned
// family's table, each fixing d_model, which the window remembers on close; a session opens as
// --session does, the same window to the pixel. Before, the file was not opened.
void TestCli::aFileArgumentOpensInTheWindow()
{
    const auto environment = [this](const QString &config) { return windowEnvironment(path(config)); };
    const auto remembered = [this](const QString &config) { return rememberedSettings(path(config)); };
    for (const QString &name : {u"wte.npy"_s, u"wpe.npy"_s}) {
        const QString file = path(name);
        QCOMPARE(
            posenc({u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, u"24"_s, u"--max-len"_s, u"40"_s}).exitCode, 0);
        const QString config = name + u"-config"_s;
        const Run run = posenc({file, u"--screenshot"_s, path(name + u".png"_s)}, environment(config));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        const QByteArray settings = remembered(config);
        QVERIFY2(settings.contains("\nd-model=24\n"), settings.constData());
        QVERIFY2(settings.contains(name == u"wpe.npy"_s ? "\nencoding=learned\n" : "\nencoding=sinusoidal\n"),
                 settings.constData());
    }
    // A session: as --session opens it.
    const QString session = path(u"lecture.posenc"_s);
    QFile file(session);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "posenc-session", "version": 1, "params": {"d-model": "40", "max-len": "80"}})");
    file.close();
    QCOMPARE(posenc({session, u"--screenshot"_s, path(u"by-file.png"_s)}, environment(u"a"_s)).exitCode, 0);
    QCOMPARE(
        posenc({u"--session"_s, session, u"--screenshot"_s, path(u"by-option.png"_s)}, environment(u"b"_s)).exitCode,
        0);
    // The same window but for the status bar's "Opened the session ...", which only an opening says.
    const QImage byFile(path(u"by-file.png"_s)), byOption(path(u"by-option.png"_s));
    QVERIFY(!byFile.isNull());
    QCOMPARE(byFile.size(), byOption.size());
    const QRect aboveStatusBar(0, 0, byFile.width(), byFile.height() - 40);
    QVERIFY(byFile.copy(aboveStatusBar) == byOption.copy(aboveStatusBar));
    QVERIFY(byFile != byOption);
    QVERIFY(remembered(u"a"_s).contains("\nd-model=40\n"));
}

void TestCli::aWordIsAnUnknownCommand()
{
    const Run run = posenc({u"exprot"_s});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(u"unknown command 'exprot'"_s), qPrintable(run.err));
}

POSENC_TEST_GUILESS_MAIN(TestCli)
} // namespace tst_cli
#include "tst_cli.moc"
