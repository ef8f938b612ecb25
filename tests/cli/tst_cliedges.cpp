// Hostile and edge inputs the command line met (issue 62, "nothing breaks on the edges"): each gets
// one line naming the stream, the file or the parameter, with the documented exit code. Each case
// names what happened before its rule: position ids NaN read as -1 and 1.5 as 2, a range given for
// a value that does not read that the run does not allow.
#include "CliRun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <limits>
#include <vector>

using namespace Qt::StringLiterals;

namespace {

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
};

QTEST_GUILESS_MAIN(TestCliEdges)
#include "tst_cliedges.moc"
