// Hostile and edge inputs the command line met (issue 62, "nothing breaks on the edges"): each gets
// one line naming the stream, the file or the parameter, with the documented exit code. Each case
// names what happened before its rule: an exit 0 over output that was never written, a closed
// standard input read as Qt's own event descriptor, position ids NaN read as -1 and 1.5 as 2.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <cstring>
#include <limits>
#include <unistd.h>
#include <vector>

namespace tst_cliedges {
using namespace Qt::StringLiterals;

namespace {

struct Ran
{
    int exitCode = -1;
    QString err;
};

// The real executable, its standard output sent to `output` (a file, /dev/full) or, with
// `closeStream` set, the stream of that descriptor closed before it starts.
Ran posencWith(const QStringList &arguments, const QString &output, int closeStream = -1, const QByteArray &input = {})
{
    QProcess process;
    if (!output.isEmpty())
        process.setStandardOutputFile(output);
    if (closeStream >= 0)
        process.setChildProcessModifier([closeStream] { ::close(closeStream); });
    process.start(QStringLiteral(POSENC_EXECUTABLE), arguments);
    if (!process.waitForStarted(60000))
        return {};
    if (closeStream != STDIN_FILENO)
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(300000) || process.exitStatus() != QProcess::NormalExit)
        return {};
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardError())};
}

// A little-endian .npy of `shape` whose data are `bytes` as given, in numpy's dtype `descr`.
bool writeArray(const QString &path, const QByteArray &descr, const QByteArray &shape, const QByteArray &bytes)
{
    QByteArray dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    dict.append(QByteArray((64 - (10 + dict.size() + 1) % 64) % 64, ' ')).append('\n');
    QByteArray file("\x93NUMPY\x01\x00", 8);
    file.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict).append(bytes);
    QFile out(path);
    return out.open(QIODevice::WriteOnly) && out.write(file) == file.size();
}

template<typename T> QByteArray bytesOf(const std::vector<T> &values)
{
    return QByteArray(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(T)));
}

} // namespace

class TestCliEdges : public QObject
{
    Q_OBJECT

private slots:
    // Before: exit 0 with the report lost, as if it had been read (GNU's tools say "write error").
    void outputThatCannotBeWrittenIsAnError_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("command");
        QTest::newRow("presets") << QStringList {u"presets"_s} << u"posenc presets"_s;
        QTest::newRow("describe") << QStringList {u"describe"_s, u"--encoding"_s, u"rope"_s} << u"posenc describe"_s;
        QTest::newRow("lessons") << QStringList {u"lessons"_s} << u"posenc lessons"_s;
        QTest::newRow("help") << QStringList {u"help"_s, u"check"_s} << u"posenc help"_s;
        QTest::newRow("the window's --help") << QStringList {u"--help"_s} << u"posenc"_s;
        // A check's verdict (7: an all-zero table, unknown) is the answer the lost report held.
        QTest::newRow("check") << QStringList {u"check"_s, u"zeros.csv"_s} << u"posenc check"_s;
    }
    void outputThatCannotBeWrittenIsAnError()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, command);
        if (!QFile::exists(u"/dev/full"_s))
            QSKIP("no /dev/full here");
        QTemporaryDir dir;
        QFile zeros(dir.filePath(u"zeros.csv"_s));
        QVERIFY(zeros.open(QIODevice::WriteOnly) && zeros.write("0,0\n0,0\n") == 8);
        zeros.close();
        arguments.replaceInStrings(u"zeros.csv"_s, zeros.fileName());
        const Ran full = posencWith(arguments, u"/dev/full"_s);
        QCOMPARE(full.exitCode, 3);
        QCOMPARE(full.err,
                 command + u": standard output: "_s + QString::fromLocal8Bit(std::strerror(ENOSPC)) + u"\n"_s);
        const Ran closed = posencWith(arguments, {}, STDOUT_FILENO);
        QCOMPARE(closed.exitCode, 3);
        QCOMPARE(closed.err,
                 command + u": standard output: "_s + QString::fromLocal8Bit(std::strerror(EBADF)) + u"\n"_s);
    }

    // A run that failed keeps its code and its one message, whatever became of standard output.
    void aFailedRunKeepsItsCode()
    {
        if (!QFile::exists(u"/dev/full"_s))
            QSKIP("no /dev/full here");
        const Ran usage
            = posencWith({u"describe"_s, u"--encoding"_s, u"rope"_s, u"--d-model"_s, u"0"_s}, u"/dev/full"_s);
        QCOMPARE(usage.exitCode, 2);
        QCOMPARE(usage.err.count(u'\n'), 1);
        QVERIFY2(usage.err.startsWith(u"posenc describe: --d-model:"_s), qPrintable(usage.err));
        const Ran missing = posencWith({u"check"_s, u"/nonexistent/pe.npy"_s}, u"/dev/full"_s);
        QCOMPARE(missing.exitCode, 3);
        QCOMPARE(missing.err.count(u'\n'), 1);
        QVERIFY2(missing.err.contains(u"/nonexistent/pe.npy"_s), qPrintable(missing.err));
    }

    // Before: "-: cannot open the file: standard input cannot be read: Resource temporarily
    // unavailable": the closed descriptor 0 was the next one Qt opened (its eventfd), read as the
    // table. Now a closed standard input reads as closed, and an empty one says so.
    void closedOrEmptyStandardInput()
    {
        const Ran closed = posencWith({u"check"_s, u"-"_s}, {}, STDIN_FILENO);
        QCOMPARE(closed.exitCode, 3);
        QCOMPARE(closed.err,
                 u"posenc check: -: cannot open the file: standard input cannot be read: "_s
                     + QString::fromLocal8Bit(std::strerror(EBADF)) + u"\n"_s);
        // Before: "the array has no cells, shape (0, 0) has 0 at dimension 0".
        const Ran empty = posencWith({u"check"_s, u"-"_s}, {});
        QCOMPARE(empty.exitCode, 3);
        QCOMPARE(empty.err, u"posenc check: -: the file is empty\n"_s);
    }

    // posenc check --position-ids reads ids as transformers holds them, whole numbers (torch.long).
    // Before: NaN was read as -1 and 1.5 as 2 (first difference "-1, the reference 1", a verdict
    // of unknown), uint64 2^63 + 5 as -2^63, and 2^24 + 1 as 2^24: ids the file does not hold.
    void idsThatAreNoIdsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("descr");
        QTest::addColumn<QByteArray>("shape");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const float nan = std::numeric_limits<float>::quiet_NaN();
        QTest::newRow("NaN") << QByteArray("<f4") << QByteArray("(1, 4)") << bytesOf<float>({0, nan, 2, 3}) << 3
                             << u"the id at [0, 1] is NaN; position ids are whole numbers"_s;
        QTest::newRow("an infinity") << QByteArray("<f8") << QByteArray("(4,)")
                                     << bytesOf<double>({0, 1, -std::numeric_limits<double>::infinity(), 3}) << 3
                                     << u"the id at [2] is -inf; position ids are whole numbers"_s;
        QTest::newRow("a fraction") << QByteArray("<f4") << QByteArray("(1, 4)") << bytesOf<float>({0, 1.5f, 2, 3}) << 2
                                    << u"the id at [0, 1] is 1.5, not a whole number"_s;
        QTest::newRow("2^24 + 1") << QByteArray("<i8") << QByteArray("(1, 3)")
                                  << bytesOf<std::int64_t>({0, 1, 16777217}) << 2
                                  << u"the id at [0, 2] has a magnitude of 2^24 (16777216) or more"_s;
        QTest::newRow("uint64 past int64")
            << QByteArray("<u8") << QByteArray("(1, 3)") << bytesOf<std::uint64_t>({0, 1, (std::uint64_t(1) << 63) + 5})
            << 2 << u"the id at [0, 2] has a magnitude of 2^24"_s;
        // M-RoPE's [3, B, L]: the index as the file's shape counts it.
        std::vector<float> axes(3 * 2 * 4, 0.0f);
        axes[std::size_t(1 * 8 + 1 * 4 + 2)] = nan;
        QTest::newRow("M-RoPE's h axis") << QByteArray("<f4") << QByteArray("(3, 2, 4)") << bytesOf(axes) << 3
                                         << u"the id at [1, 1, 2] is NaN"_s;
    }
    void idsThatAreNoIdsAreRefused()
    {
        QFETCH(QByteArray, descr);
        QFETCH(QByteArray, shape);
        QFETCH(QByteArray, data);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString ids = dir.filePath(u"ids.npy"_s);
        QVERIFY(writeArray(ids, descr, shape, data));
        const auto run = CliRun::posenc({u"check"_s, u"--position-ids"_s, ids});
        QCOMPARE(run.exitCode, exitCode);
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY2(run.err.startsWith(u"posenc check: --position-ids: "_s + ids + u": "_s + message),
                 qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    // Before: "--cache: must be an integer in [0, 1024] (max_len); got '1e3'" for ids of 16
    // columns, though 99 was refused as past [0, 16]: a text that does not read named the default
    // max_len's range.
    void aValueThatDoesNotReadNamesTheRangeOfTheRun()
    {
        QTemporaryDir dir;
        const QString ids = dir.filePath(u"ids.npy"_s);
        std::vector<float> arange(16);
        for (std::size_t i = 0; i < arange.size(); ++i)
            arange[i] = float(i);
        QVERIFY(writeArray(ids, "<f4", "(1, 16)", bytesOf(arange)));
        for (const QString &cache : {u"1e3"_s, u"99"_s}) {
            const auto run = CliRun::posenc({u"check"_s, u"--position-ids"_s, ids, u"--cache"_s, cache});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.startsWith(u"posenc check: --cache: must be an integer in [0, 16] (max_len); got"_s),
                     qPrintable(run.err));
        }
    }

    // A path or a value holding a line end is quoted on the message's one line. Before: "posenc
    // check: a", then "b.npy: cannot open the file" on a line of its own, and so for --output,
    // --format, FIGURE, a lesson's NAME and the bench's counts.
    void aLineEndInAPathOrValueStaysOnOneLine_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("shown");
        QTest::newRow("a table to check") << QStringList {u"check"_s, u"DIR/a\nb.npy"_s} << 3 << u"a\\nb.npy"_s;
        QTest::newRow("a session") << QStringList {u"table"_s,         u"pe"_s, u"--session"_s,
                                                   u"DIR/a\nb.json"_s, u"-o"_s, u"DIR/t.npy"_s}
                                   << 3 << u"a\\nb.json"_s;
        QTest::newRow("a directory as the output")
            << QStringList {u"table"_s, u"pe"_s, u"-o"_s, u"DIR/d\nir.npy"_s, u"--force"_s} << 3 << u"d\\nir.npy"_s;
        QTest::newRow("--output") << QStringList {u"table"_s, u"pe"_s, u"-o"_s, u"a\nb.txt"_s} << 2
                                  << u"got 'a\\nb.txt'"_s;
        QTest::newRow("--format") << QStringList {u"table"_s, u"pe"_s, u"-o"_s, u"-"_s, u"--format"_s, u"np\ny"_s} << 2
                                  << u"got 'np\\ny'"_s;
        QTest::newRow("FIGURE") << QStringList {u"export"_s, u"heat\nmap"_s, u"-o"_s, u"DIR/f.png"_s} << 2
                                << u"got 'heat\\nmap'"_s;
        QTest::newRow("a lesson") << QStringList {u"lessons"_s, u"a\nb"_s} << 2 << u"got 'a\\nb'"_s;
        QTest::newRow("bench --views") << QStringList {u"bench"_s, u"--views"_s, u"x\ny"_s} << 2 << u"got 'x\\ny'"_s;
        QTest::newRow("table --threads") << QStringList {u"table"_s,     u"pe"_s,        u"-o"_s,
                                                         u"DIR/t.npy"_s, u"--threads"_s, u"1\n2"_s}
                                         << 2 << u"got '1\\n2'"_s;
        QTest::newRow("export --dpi") << QStringList {u"export"_s,    u"heatmap"_s, u"-o"_s,
                                                      u"DIR/f.png"_s, u"--dpi"_s,   u"9\x1b"_s}
                                      << 2 << u"got '9\\x1b'"_s;
        QTest::newRow("an unknown option")
            << QStringList {u"table"_s, u"pe"_s, u"--x\ny"_s} << 2 << u"Unknown option 'x\\ny'"_s;
        QTest::newRow("an argument to a command of none")
            << QStringList {u"presets"_s, u"a\nb"_s} << 2 << u"takes no arguments; got a\\nb"_s;
        QTest::newRow("bench --repeats") << QStringList {u"bench"_s, u"--repeats"_s, u"0"_s} << 2 << u"got '0'"_s;
        // Before: the arguments echoed raw, a line end splitting the message (and an escape
        // character reaching the terminal).
        QTest::newRow("help, two topics") << QStringList {u"help"_s, u"a"_s, u"b\nc"_s} << 2 << u"got 'a b\\nc'"_s;
        QTest::newRow("help --generate and a topic")
            << QStringList {u"help"_s, u"--generate"_s, u"man"_s, u"a\nb"_s} << 2 << u"got 'a\\nb'"_s;
        QTest::newRow("--help and an argument") << QStringList {u"--help"_s, u"x\ny"_s} << 2 << u"got 'x\\ny'"_s;
        QTest::newRow("an unknown command") << QStringList {u"fo\x1bo"_s} << 2 << u"unknown command 'fo\\x1bo'"_s;
        QTest::newRow("describe, an argument") << QStringList {u"describe"_s, u"a\nb"_s} << 2 << u"argument 'a\\nb'"_s;
        QTest::newRow("bench, an argument") << QStringList {u"bench"_s, u"a\nb"_s} << 2 << u"argument 'a\\nb'"_s;
        QTest::newRow("check --config, an argument")
            << QStringList {u"check"_s, u"--config"_s, u"llama-3-1-8b"_s, u"a\nb"_s} << 2 << u"argument 'a\\nb'"_s;
        // Before: the batch's side and lengths quoted raw (a line end split the message, an escape
        // reached the terminal), a prompt's segment quoted whole (a megabyte echoed).
        QTest::newRow("--batch's side") << QStringList {u"table"_s,     u"position-ids"_s, u"-o"_s,
                                                        u"DIR/t.npy"_s, u"--batch"_s,      u"u\np:3"_s}
                                        << 2 << u"unknown side 'u\\np'"_s;
        QTest::newRow("--packed's length")
            << QStringList {u"table"_s, u"position-ids"_s, u"-o"_s, u"DIR/t.npy"_s, u"--packed"_s, u"3,\x1b,4"_s} << 2
            << u"'\\x1b' is not a document's length"_s;
        QTest::newRow("a long prompt") << QStringList {u"table"_s,     u"mrope-positions"_s, u"-o"_s,
                                                       u"DIR/t.npy"_s, u"--prompt"_s,        QString(100000, u'a')}
                                       << 2 << u"(100000 characters): unknown kind"_s;
        QTest::newRow("a model config given twice")
            << QStringList {u"DIR/c\nx.json"_s, u"--config"_s, u"llama-3-1-8b"_s} << 2 << u"c\\nx.json, --config"_s;
        QTest::newRow("a model config and a preset")
            << QStringList {u"DIR/c\nx.json"_s, u"--preset"_s, u"llama-2-7b"_s} << 2 << u"c\\nx.json, --preset"_s;
        QTest::newRow("check --config --layer-type")
            << QStringList {u"check"_s, u"--config"_s, u"llama-3-1-8b"_s, u"--layer-type"_s, u"a\nb"_s} << 2
            << u"got 'a\\nb'"_s;
    }
    void aLineEndInAPathOrValueStaysOnOneLine()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, shown);
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(u"d\nir.npy"_s)));
        QFile config(dir.filePath(u"c\nx.json"_s));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(R"({"model_type": "llama", "hidden_size": 512, "num_attention_heads": 8})");
        config.close();
        arguments.replaceInStrings(u"DIR"_s, dir.path());
        const auto run = CliRun::posenc(arguments);
        QCOMPARE(run.exitCode, exitCode);
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY2(run.err.contains(shown), qPrintable(run.err));
        QVERIFY2(run.err.size() < 2000, qPrintable(run.err.left(2000)));
    }

    // An empty value of a flag that takes a batch or a file names the flag. Before: --batch "" and
    // --packed "" read as not given (exit 0 with one row), --attention-mask "" as
    // "posenc table: : cannot open the file: an empty name", and an empty path began the line with
    // a bare colon.
    void anEmptyValueNamesItsFlag_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("shown");
        const QStringList table {u"table"_s, u"position-ids"_s, u"--max-len"_s, u"4"_s, u"-o"_s, u"DIR/t.npy"_s};
        QTest::newRow("--batch") << table + QStringList {u"--batch"_s, u""_s} << 2
                                 << u"posenc table: --batch: must be left: or right:"_s;
        QTest::newRow("--batch, blank") << table + QStringList {u"--batch"_s, u" "_s} << 2
                                        << u"posenc table: --batch: must be"_s;
        QTest::newRow("--packed") << table + QStringList {u"--packed"_s, u""_s} << 2
                                  << u"posenc table: --packed: must be"_s;
        QTest::newRow("--attention-mask") << table + QStringList {u"--attention-mask"_s, u""_s} << 2
                                          << u"posenc table: --attention-mask: must be a file's name; got ''"_s;
        QTest::newRow("--document-ids") << table + QStringList {u"--document-ids"_s, u""_s} << 2
                                        << u"posenc table: --document-ids: must be a file's name; got ''"_s;
        QTest::newRow("--embeddings") << QStringList {u"table"_s,     u"input"_s,        u"-o"_s,
                                                      u"DIR/t.npy"_s, u"--embeddings"_s, u""_s}
                                      << 2 << u"posenc table: --embeddings: must be a file's name; got ''"_s;
        QTest::newRow("--session") << table + QStringList {u"--session"_s, u""_s} << 3
                                   << u"posenc table: '': an empty name"_s;
        QTest::newRow("a table to check") << QStringList {u"check"_s, u""_s} << 3 << u"posenc check: '': "_s;
        QTest::newRow("--position-ids") << QStringList {u"check"_s, u"--position-ids"_s, u""_s} << 3
                                        << u"posenc check: --position-ids: '': "_s;
    }
    void anEmptyValueNamesItsFlag()
    {
        QFETCH(QStringList, flags);
        QFETCH(int, exitCode);
        QFETCH(QString, shown);
        QTemporaryDir dir;
        flags.replaceInStrings(u"DIR"_s, dir.path());
        const auto run = CliRun::posenc(flags);
        QCOMPARE(run.exitCode, exitCode);
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY2(run.err.startsWith(shown), qPrintable(run.err));
        QVERIFY(!QFile::exists(dir.filePath(u"t.npy"_s)));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliEdges)
} // namespace tst_cliedges
#include "tst_cliedges.moc"
