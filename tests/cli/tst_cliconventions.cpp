// The command line's conventions (docs/ARCHITECTURE.md, Command line), as a shell user meets them:
// `-o -` writes to standard output in the --format given; CSV files name their columns in a
// '#' line; long work shows a progress line on a terminal only, --quiet silences it, and Ctrl+C
// stops it leaving nothing; without a display the window exits 2 saying what to do instead;
// a bad option is one line pointing at --help; -V is the version.
#include "CliRun.h"
#include "Terminal.h"
#include "support/TestMain.h"

#include "support/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <tuple>

#include <unistd.h>

namespace tst_cliconventions {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

const QStringList kSmall = {u"--d-model"_s, u"12"_s, u"--max-len"_s, u"30"_s, u"--dropout"_s, u"0.2"_s};

// About 15 s of one core (X's statistics over 2^33 cells): long enough to be watched, stopped
// long before it ends.
const QStringList kLongTable
    = {u"table"_s, u"column-stats"_s, u"--d-model"_s, u"8192"_s, u"--max-len"_s, u"1048576"_s, u"--threads"_s, u"1"_s};

// The environment of a process with no display at all.
QProcessEnvironment withoutDisplay()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &name : {u"QT_QPA_PLATFORM"_s, u"DISPLAY"_s, u"WAYLAND_DISPLAY"_s})
        environment.remove(name);
    return environment;
}

} // namespace

class TestCliConventions : public QObject
{
    Q_OBJECT

private slots:
    void standardOutputCarriesTheTable_data();
    void standardOutputCarriesTheTable();
    void standardOutputCarriesTheFigure_data();
    void standardOutputCarriesTheFigure();
    void standardOutputNeedsAFormat_data();
    void standardOutputNeedsAFormat();
    void formatWinsOverTheExtension();
    void csvStartsWithAHeaderNamingTheColumns_data();
    void csvStartsWithAHeaderNamingTheColumns();
    void progressShowsOnATerminalOnlyAndCtrlCStopsTheWork();
    void ctrlCWhileWritingLeavesNothing();
    void checkShowsItsIdentifyStepAndCtrlCStopsIt();
    void progressLineSendsNoEscapesWhereAsked_data();
    void progressLineSendsNoEscapesWhereAsked();
    void withoutADisplayTheWindowExits2_data();
    void withoutADisplayTheWindowExits2();
    void aBadOptionIsOneLinePointingAtHelp_data();
    void aBadOptionIsOneLinePointingAtHelp();
    void capitalVIsTheVersion_data();
    void capitalVIsTheVersion();
    void versionTakesNoArguments();
    void unknownCommandListsEveryCommand();
    void oneExitCodePerKindOfMistake_data();
    void oneExitCodePerKindOfMistake();
    void jsonSaysItsFormatAndVersion_data();
    void jsonSaysItsFormatAndVersion();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
};

void TestCliConventions::standardOutputCarriesTheTable_data()
{
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<QString>("format");
    for (const QString &format : {u"npy"_s, u"csv"_s}) {
        QTest::newRow(qPrintable(u"output "_s + format)) << u"output"_s << format;
        QTest::newRow(qPrintable(u"row-norms "_s + format)) << u"row-norms"_s << format;
    }
}

// Before: "-o -" was refused, and no command could write to a pipe.
void TestCliConventions::standardOutputCarriesTheTable()
{
    QFETCH(QString, quantity);
    QFETCH(QString, format);
    const QString file = path(u"table."_s + format);
    QCOMPARE(posenc(QStringList {u"table"_s, quantity, u"-o"_s, file, u"--force"_s} + kSmall).exitCode, 0);
    const BinaryRun piped
        = posencBytes(QStringList {u"table"_s, quantity, u"-o"_s, u"-"_s, u"--format"_s, format} + kSmall);
    QCOMPARE(piped.exitCode, 0);
    QCOMPARE(piped.err, QString());
    QVERIFY(!piped.out.isEmpty());
    QCOMPARE(piped.out, TestFiles::readAll(file));
}

void TestCliConventions::standardOutputCarriesTheFigure_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("png") << u"png"_s;
    QTest::newRow("svg") << u"svg"_s;
    QTest::newRow("pdf") << u"pdf"_s;
}

void TestCliConventions::standardOutputCarriesTheFigure()
{
    QFETCH(QString, format);
    const QStringList figure = {u"export"_s, u"heatmap"_s, u"--width"_s, u"400"_s, u"--height"_s, u"300"_s};
    const QString file = path(u"figure."_s + format);
    QCOMPARE(posenc(figure + QStringList {u"-o"_s, file, u"--force"_s} + kSmall).exitCode, 0);
    const BinaryRun piped = posencBytes(figure + QStringList {u"-o"_s, u"-"_s, u"--format"_s, format} + kSmall);
    QCOMPARE(piped.exitCode, 0);
    QCOMPARE(piped.err, QString());
    const QByteArray written = TestFiles::readAll(file);
    if (format == u"pdf"_s) {
        // A PDF records when it was made: the same page, not the same bytes.
        QVERIFY(piped.out.startsWith("%PDF"));
        QCOMPARE(TestFiles::mediaBox(piped.out), TestFiles::mediaBox(written));
    } else {
        QCOMPARE(piped.out, written);
    }
    if (format == u"png"_s)
        QCOMPARE(QImage::fromData(piped.out).size(), QSize(400, 300));
}

void TestCliConventions::standardOutputNeedsAFormat_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    QTest::newRow("table without --format") << QStringList {u"table"_s, u"pe"_s, u"-o"_s, u"-"_s} << u"--format"_s;
    QTest::newRow("export without --format")
        << QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, u"-"_s} << u"--format"_s;
    QTest::newRow("a figure's format for a table")
        << QStringList {u"table"_s, u"pe"_s, u"-o"_s, u"-"_s, u"--format"_s, u"png"_s} << u"npy, csv or safetensors"_s;
    QTest::newRow("a table's format for a figure")
        << QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s} << u"png, svg or pdf"_s;
}

void TestCliConventions::standardOutputNeedsAFormat()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    const BinaryRun run = posencBytes(arguments + kSmall);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(named), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

void TestCliConventions::formatWinsOverTheExtension()
{
    const QString file = path(u"values.txt"_s);
    QCOMPARE(posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, file, u"--format"_s, u"csv"_s, u"--force"_s} + kSmall)
                 .exitCode,
             0);
    QVERIFY(TestFiles::readAll(file).startsWith("pe_0,pe_1,"));
}

void TestCliConventions::csvStartsWithAHeaderNamingTheColumns_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("header");
    QTest::addColumn<int>("rows");
    QTest::newRow("pe, chosen columns") << QStringList {u"pe"_s, u"--dims"_s, u"5,0,7:9"_s} << u"pe_5,pe_0,pe_7,pe_8"_s
                                        << 30;
    QTest::newRow("output, every column") << QStringList {u"output"_s}
                                          << u"output_0,output_1,output_2,output_3,output_4,output_5,output_6,output_7,"
                                             "output_8,output_9,output_10,output_11"_s
                                          << 30;
    QTest::newRow("similarity, positions") << QStringList {u"similarity"_s, u"--positions"_s, u"3:5"_s}
                                           << u"similarity_0,similarity_1,similarity_2,similarity_3,similarity_4,"
                                              "similarity_5,similarity_6,similarity_7,similarity_8,similarity_9,"
                                              "similarity_10,similarity_11,similarity_12,similarity_13,"
                                              "similarity_14,similarity_15,similarity_16,similarity_17,"
                                              "similarity_18,similarity_19,similarity_20,similarity_21,"
                                              "similarity_22,similarity_23,similarity_24,similarity_25,"
                                              "similarity_26,similarity_27,similarity_28,similarity_29"_s
                                           << 2;
    QTest::newRow("column-stats") << QStringList {u"column-stats"_s}
                                  << u"pe_mean,pe_std,pe_rms,embedding_mean,embedding_std,embedding_rms"_s << 12;
    QTest::newRow("row-norms") << QStringList {u"row-norms"_s}
                               << u"pe_norm,embedding_norm,embedding_over_pe,input_norm,output_norm"_s << 30;
}

// Before: a CSV file was numbers alone, then its first line named the columns behind '# ', which
// pandas took for the first column's name ("# pe_0"). Now the first line is the names alone, as
// pandas.read_csv names the columns by it; the rows after it are the .npy table's values.
void TestCliConventions::csvStartsWithAHeaderNamingTheColumns()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, header);
    QFETCH(int, rows);
    const QString csv = path(u"named.csv"_s);
    const QString npy = path(u"named.npy"_s);
    QCOMPARE(posenc(QStringList {u"table"_s} + arguments + QStringList {u"-o"_s, csv, u"--force"_s} + kSmall).exitCode,
             0);
    QCOMPARE(posenc(QStringList {u"table"_s} + arguments + QStringList {u"-o"_s, npy, u"--force"_s} + kSmall).exitCode,
             0);
    const QList<QByteArray> lines = TestFiles::readAll(csv).split('\n');
    QCOMPARE(QString::fromUtf8(lines.first()), header);
    QCOMPARE(lines.size(), rows + 2); // the header, the rows and the empty text after the last newline
    const Table table = readNpy(npy);
    QCOMPARE(table.rows, rows);
    const qsizetype columns = header.count(u',') + 1;
    QCOMPARE(table.cols, columns);
    for (qint64 r = 0; r < table.rows; ++r) {
        const QList<QByteArray> fields = lines[r + 1].split(',');
        QCOMPARE(fields.size(), columns);
        for (qint64 c = 0; c < table.cols; ++c)
            QCOMPARE(std::strtof(fields[c].constData(), nullptr), table.at(r, c));
    }
}

// Before: column-stats at d 8192 x L 2^20 ran 12 s saying nothing, and --quiet was an unknown
// option. Now, started together: on a terminal the line comes and counts the seconds; with
// --quiet on a terminal, and on a pipe, nothing comes; Ctrl+C stops each at once, exit 130, no file.
void TestCliConventions::progressShowsOnATerminalOnlyAndCtrlCStopsTheWork()
{
    Terminal watched, quiet;
    QVERIFY(watched.isValid() && quiet.isValid());
    QProcess onTerminal, quietOnTerminal, onPipe;
    watched.becomeStandardErrorOf(onTerminal);
    quiet.becomeStandardErrorOf(quietOnTerminal);
    QVERIFY(QDir(m_dir.path()).mkpath(u"interrupted"_s));
    const QString files[]
        = {path(u"interrupted/watched.npy"_s), path(u"interrupted/quiet.npy"_s), path(u"interrupted/piped.npy"_s)};
    QProcess *processes[] = {&onTerminal, &quietOnTerminal, &onPipe};
    for (int i = 0; i < 3; ++i) {
        QStringList arguments = kLongTable + QStringList {u"-o"_s, files[i]};
        if (i == 1)
            arguments << u"--quiet"_s;
        processes[i]->start(QStringLiteral(POSENC_EXECUTABLE), arguments);
        QVERIFY(processes[i]->waitForStarted());
    }
    // The line counts whole seconds: at "2 s" every process has run past the second after which
    // a line shows.
    QTRY_VERIFY_WITH_TIMEOUT(watched.read().contains(", 2 s"), 60000);
    const QByteArray line = watched.read();
    QVERIFY2(line.contains("posenc table: column-stats: ") && line.contains("(Ctrl+C stops)"), line.constData());
    QVERIFY2(quiet.read().isEmpty(), quiet.read().constData());
    QCOMPARE(onPipe.readAllStandardError(), QByteArray());
    for (QProcess *process : processes) {
        QCOMPARE(process->state(), QProcess::Running);
        QCOMPARE(::kill(static_cast<pid_t>(process->processId()), SIGINT), 0);
    }
    for (QProcess *process : processes) {
        QVERIFY(process->waitForFinished(60000));
        QCOMPARE(process->exitStatus(), QProcess::NormalExit);
        QCOMPARE(process->exitCode(), 130);
    }
    QVERIFY2(watched.read().contains("interrupted; nothing was written"), watched.read().constData());
    QVERIFY(onPipe.readAllStandardError().contains("interrupted; nothing was written"));
    for (const QString &file : files)
        QVERIFY(!QFile::exists(file));
    QCOMPARE(QDir(path(u"interrupted"_s)).entryList(QDir::Files | QDir::Hidden), QStringList());
}

// Before: Ctrl+C once the table was computed, while its file was being written, killed the
// process by the signal: no message, no exit 130. Now the write stops at its next chunk, the
// temporary file goes, and the command says so.
void TestCliConventions::ctrlCWhileWritingLeavesNothing()
{
    QVERIFY(QDir(m_dir.path()).mkpath(u"writing"_s));
    const QDir dir(path(u"writing"_s));
    // 8M cells of CSV, about 90 MB: the writing takes a second or more, the computing a moment.
    QProcess process;
    process.start(QStringLiteral(POSENC_EXECUTABLE),
                  {u"table"_s, u"pe"_s, u"--max-len"_s, u"4096"_s, u"--d-model"_s, u"2048"_s, u"-o"_s,
                   dir.filePath(u"pe.csv"_s)});
    QVERIFY(process.waitForStarted());
    // The writing starts when the process opens its temporary file there (QSaveFile's may have
    // no name in the directory: O_TMPFILE), which its descriptors show.
    const QByteArray where = dir.absolutePath().toUtf8() + '/';
    const auto writing = [&] {
        const QString fds = u"/proc/%1/fd"_s.arg(process.processId());
        for (const QString &fd : QDir(fds).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)) {
            char target[4096];
            const ssize_t n = ::readlink(qPrintable(fds + u'/' + fd), target, sizeof(target));
            if (n > 0 && QByteArray(target, n).startsWith(where))
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(writing() || process.state() == QProcess::NotRunning, 60000);
    QCOMPARE(process.state(), QProcess::Running);
    QCOMPARE(::kill(static_cast<pid_t>(process.processId()), SIGINT), 0);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 130);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(err.contains(u"posenc table: interrupted; nothing was written"_s), qPrintable(err));
    QCOMPARE(dir.entryList(QDir::Files | QDir::Hidden), QStringList());
}

// Before: `posenc check` of a table whose RoPE search runs long (rope-cos of an unpublished theta,
// one column moved: no form explains every cell) said nothing for the seconds of its identify
// step, and Ctrl+C waited for the search to end. Now the line names the step and counts the time,
// and Ctrl+C ends the search at its next candidate: exit 130, "interrupted", no report.
void TestCliConventions::checkShowsItsIdentifyStepAndCtrlCStopsIt()
{
    // 4096 columns: the search takes some 7 s of processor time (its sample's cost grows with the
    // columns, not the rows), well past the line's first second, and is interrupted there; at 512
    // it came to 0.8 s and could end before the line showed.
    constexpr qint64 rows = 1024, cols = 4096;
    std::vector<float> values(std::size_t(rows * cols));
    for (qint64 p = 0; p < rows; ++p) {
        for (qint64 j = 0; j < cols; ++j) {
            const double w = std::pow(123456.0, -2.0 * double(j % (cols / 2)) / double(cols));
            values[std::size_t(p * cols + j)] = float(std::cos(double(p) * w) + (j == 5 ? 1e-3 : 0.0));
        }
    }
    const QString table = path(u"searched.npy"_s);
    QVERIFY(writeNpy(table, rows, cols, values));
    Terminal terminal;
    QVERIFY(terminal.isValid());
    QProcess process;
    terminal.becomeStandardErrorOf(process);
    process.start(QStringLiteral(POSENC_EXECUTABLE), {u"check"_s, table});
    QVERIFY(process.waitForStarted());
    // The line names the table by the path given, and shows after its first second.
    const QByteArray step = "posenc check: identifying " + table.toUtf8();
    QTRY_VERIFY_WITH_TIMEOUT(terminal.read().contains(step) || process.state() != QProcess::Running, 60000);
    QCOMPARE(process.state(), QProcess::Running);
    QCOMPARE(::kill(static_cast<pid_t>(process.processId()), SIGINT), 0);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 130);
    const QByteArray shown = terminal.read();
    QVERIFY2(shown.contains("posenc check: interrupted"), shown.constData());
    QVERIFY2(!shown.contains("comparing the rows"), shown.constData()); // stopped in the search
    QCOMPARE(process.readAllStandardOutput(), QByteArray());
}

void TestCliConventions::progressLineSendsNoEscapesWhereAsked_data()
{
    QTest::addColumn<QString>("variable");
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("escapes");
    QTest::newRow("TERM=xterm: erased by an escape") << u"TERM"_s << u"xterm"_s << true;
    QTest::newRow("TERM=dumb") << u"TERM"_s << u"dumb"_s << false;
    QTest::newRow("NO_COLOR=1") << u"NO_COLOR"_s << u"1"_s << false;
}

// Before: a dumb terminal (Emacs' shell, some CI logs) got "\x1b[K" with every redraw.
void TestCliConventions::progressLineSendsNoEscapesWhereAsked()
{
    QFETCH(QString, variable);
    QFETCH(QString, value);
    QFETCH(bool, escapes);
    Terminal terminal;
    QVERIFY(terminal.isValid());
    QProcess process;
    terminal.becomeStandardErrorOf(process);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"NO_COLOR"_s);
    environment.insert(u"TERM"_s, u"xterm"_s);
    environment.insert(variable, value);
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(POSENC_EXECUTABLE), kLongTable + QStringList {u"-o"_s, path(u"escapes.npy"_s)});
    QVERIFY(process.waitForStarted());
    // Two draws at least, so that one was erased by the next.
    QTRY_VERIFY_WITH_TIMEOUT(terminal.read().count("(Ctrl+C stops)") >= 2, 60000);
    QCOMPARE(::kill(static_cast<pid_t>(process.processId()), SIGINT), 0);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 130);
    const QByteArray shown = terminal.read();
    QVERIFY2(shown.contains("posenc table: column-stats: "), shown.constData());
    QCOMPARE(shown.contains('\x1b'), escapes);
    QVERIFY(!QFile::exists(path(u"escapes.npy"_s)));
}

void TestCliConventions::withoutADisplayTheWindowExits2_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("display");
    QTest::addColumn<QString>("cause");
    QTest::newRow("no DISPLAY") << QStringList {} << QString() << u"neither DISPLAY nor WAYLAND_DISPLAY"_s;
    QTest::newRow("a display that is not there") << QStringList {} << u":77"_s << u"could not connect to display :77"_s;
    QTest::newRow("--screenshot \"\"") << QStringList {u"--screenshot"_s, QString()} << QString()
                                       << u"--screenshot: a file name"_s;
}

// Before: each of these aborted (SIGABRT, exit 134) in Qt's platform plugin.
void TestCliConventions::withoutADisplayTheWindowExits2()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, display);
    QFETCH(QString, cause);
    QProcessEnvironment environment = withoutDisplay();
    environment.insert(u"XDG_CONFIG_HOME"_s, path(u"config"_s));
    if (!display.isEmpty())
        environment.insert(u"DISPLAY"_s, display);
    const Run run = posenc(arguments, environment);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(cause), qPrintable(run.err));
    if (arguments.isEmpty())
        QVERIFY2(run.err.contains(u"posenc export"_s) && run.err.contains(u"posenc table"_s), qPrintable(run.err));
    QCOMPARE(run.err.count(u'\n'), 1);
}

void TestCliConventions::aBadOptionIsOneLinePointingAtHelp_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    QTest::newRow("window") << QStringList {u"--bogus"_s} << u"bogus"_s;
    QTest::newRow("unknown command") << QStringList {u"draw"_s} << u"draw"_s;
    QTest::newRow("table") << QStringList {u"table"_s, u"pe"_s, u"--bogus"_s} << u"bogus"_s;
    QTest::newRow("export") << QStringList {u"export"_s, u"heatmap"_s, u"--bogus"_s} << u"bogus"_s;
}

// Before: `posenc --bogus` printed the whole 60-line help to standard error.
void TestCliConventions::aBadOptionIsOneLinePointingAtHelp()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    const Run run = posenc(arguments, withoutDisplay());
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.err.count(u'\n'), 1);
    QVERIFY2(run.err.contains(named) && run.err.contains(u"--help"_s), qPrintable(run.err));
    QCOMPARE(run.out, QString());
}

void TestCliConventions::capitalVIsTheVersion_data()
{
    QTest::addColumn<QString>("option");
    QTest::newRow("-V") << u"-V"_s;
    QTest::newRow("-v, as before") << u"-v"_s;
    QTest::newRow("--version") << u"--version"_s;
}

void TestCliConventions::capitalVIsTheVersion()
{
    QFETCH(QString, option);
    const Run run = posenc({option}, withoutDisplay());
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith(u"posenc "_s) && run.out.count(u'\n') == 1, qPrintable(run.out));
    QCOMPARE(run.err, QString());
}

// Before: `posenc --version extra` printed the version and exited 0.
void TestCliConventions::versionTakesNoArguments()
{
    const Run run = posenc({u"--version"_s, u"extra"_s}, withoutDisplay());
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(u"'extra'"_s), qPrintable(run.err));
    QCOMPARE(run.out, QString());
}

// Before: "unknown command" named five commands of seven.
void TestCliConventions::unknownCommandListsEveryCommand()
{
    const Run run = posenc({u"draw"_s}, withoutDisplay());
    QCOMPARE(run.exitCode, 2);
    for (const QString &command :
         {u"export"_s, u"table"_s, u"check"_s, u"describe"_s, u"lessons"_s, u"presets"_s, u"bench"_s, u"help"_s})
        QVERIFY2(run.err.contains(command), qPrintable(command + u" not in: "_s + run.err));
}

void TestCliConventions::oneExitCodePerKindOfMistake_data()
{
    // A file of two tensors, named neither: what was asked of a sound file is not there.
    QByteArray json = R"({"a":{"dtype":"F32","shape":[4,8],"data_offsets":[0,128]},)"
                      R"("b":{"dtype":"F32","shape":[4,8],"data_offsets":[128,256]}})";
    QByteArray two(8, 0);
    two[0] = char(json.size());
    two += json + QByteArray(256, 0);
    QFile file(path(u"two.safetensors"_s));
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write(two) == two.size());
    file.close();
    const QString missing = path(u"missing.npy"_s);
    const QString out = path(u"out.npy"_s);
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    for (const auto &[what, source, code] :
         {std::tuple {u"two tensors"_s, file.fileName(), 2},
          std::tuple {u"no such tensor"_s, file.fileName() + u":c"_s, 2}, std::tuple {u"no such file"_s, missing, 3}}) {
        QTest::newRow(qPrintable(what + u": check"_s)) << QStringList {u"check"_s, source} << code;
        QTest::newRow(qPrintable(what + u": table --embeddings"_s))
            << QStringList {u"table"_s, u"input"_s, u"-o"_s, out, u"--embeddings"_s, source} << code;
        QTest::newRow(qPrintable(what + u": table --position-table"_s))
            << QStringList {u"table"_s, u"pe"_s, u"-o"_s, out, u"--position-table"_s, source} << code;
        QTest::newRow(qPrintable(what + u": export --embeddings"_s))
            << QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, path(u"out.png"_s), u"--embeddings"_s, source} << code;
    }
}

// Before: a .safetensors file of two tensors exited 3 in check and 2 in table.
void TestCliConventions::oneExitCodePerKindOfMistake()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    const Run run = posenc(arguments);
    QCOMPARE(run.exitCode, exitCode);
    QCOMPARE(run.err.count(u'\n'), 1);
    QVERIFY(!QFile::exists(path(u"out.npy"_s)) && !QFile::exists(path(u"out.png"_s)));
}

void TestCliConventions::jsonSaysItsFormatAndVersion_data()
{
    const QString table = path(u"pe.npy"_s);
    QVERIFY(posenc({u"table"_s, u"pe"_s, u"-o"_s, table, u"--force"_s, u"--d-model"_s, u"16"_s}).exitCode == 0);
    QFile config(path(u"config.json"_s));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"({"model_type": "llama", "hidden_size": 512, "num_attention_heads": 8,
        "max_position_embeddings": 4096, "rope_theta": 500000})");
    config.close();
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("format");
    QTest::newRow("describe") << QStringList {u"describe"_s, u"--json"_s, u"--rope-theta"_s, u"5e5"_s}
                              << u"posenc-describe"_s;
    QTest::newRow("check") << QStringList {u"check"_s, u"--json"_s, table} << u"posenc-check"_s;
    QTest::newRow("check --config") << QStringList {u"check"_s, u"--json"_s, u"--config"_s, config.fileName()}
                                    << u"posenc-check-config"_s;
    QTest::newRow("bench") << QStringList {u"bench"_s,     u"--json"_s, u"--kernels-only"_s, u"--repeats"_s, u"1"_s,
                                           u"--max-len"_s, u"256"_s,    u"--d-model"_s,      u"64"_s}
                           << u"posenc-bench"_s;
}

// Before: no --json output said what it was or which version of its keys.
void TestCliConventions::jsonSaysItsFormatAndVersion()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, format);
    const Run run = posenc(arguments);
    QVERIFY2(run.exitCode == 0 || run.exitCode == 1, qPrintable(run.err));
    // Strict JSON: Qt's parser takes no NaN, Infinity or trailing text.
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + u": "_s + run.out.left(300)));
    QCOMPARE(document.object().value(u"format"_s).toString(), format);
    // posenc check's keys are at 2: "mistakes" holds a mistake verdict's names alone since.
    QCOMPARE(document.object().value(u"version"_s).toInt(), format == u"posenc-check"_s ? 2 : 1);
}

POSENC_TEST_GUILESS_MAIN(TestCliConventions)
} // namespace tst_cliconventions
#include "tst_cliconventions.moc"
