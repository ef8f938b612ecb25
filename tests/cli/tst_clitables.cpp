// `posenc table column-stats` and `posenc table row-norms` as scripts meet them: the PE's
// statistics at L = 2^20 against geometric series summed here, s*E's and the norms against
// float64 statistics of the tables `posenc table` writes itself, and their refusals.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <complex>
#include <limits>

namespace tst_clitables {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

double frequency(qint64 pair, qint64 d)
{
    return std::exp(-2.0 * static_cast<double>(pair) * std::log(10000.0) / static_cast<double>(d));
}

// Mean and mean square over p < L of sin / cos(p w), from sum z^p = (1 - z^L) / (1 - z).
std::pair<double, double> moments(double w, qint64 L, bool isCos)
{
    using C = std::complex<long double>;
    const auto geometric = [L](long double angle) {
        const C z = std::polar(1.0L, angle);
        return (C(1.0L) - std::pow(z, static_cast<long double>(L))) / (C(1.0L) - z) / static_cast<long double>(L);
    };
    const C first = geometric(w);
    const long double doubled = geometric(2.0L * w).real();
    return {static_cast<double>(isCos ? first.real() : first.imag()),
            static_cast<double>(isCos ? 0.5L * (1.0L + doubled) : 0.5L * (1.0L - doubled))};
}

} // namespace

class TestCliTables : public QObject
{
    Q_OBJECT

private slots:
    void columnStatsMatchTheClosedFormsAtLargeL();
    void columnStatsOfEmbeddingsMatchTheTable();
    void rowNormsMatchTheTables();
    void eachTableRefusesTheOtherAxis();
    void ropeCosIsTheRotaryTable();
    void alibiBiasAt65536IsOverBudgetButABlockIsWritten();
    void alibiBiasCsvWritesMinusInfinity();
    void alibiSlopesNameTheirColumns();
    void bucketTablesAreWholeNumbers();
    void maxLenFollowsTheGrid_data();
    void maxLenFollowsTheGrid();
    void noTableHoldsAnUndefinedNumber_data();
    void noTableHoldsAnUndefinedNumber();

private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }
};

void TestCliTables::columnStatsMatchTheClosedFormsAtLargeL()
{
    const QString file = path(u"stats.npy"_s);
    const qint64 d = 64, L = qint64(1) << 20;
    const Run run = posenc({u"table"_s, u"column-stats"_s, u"-o"_s, file, u"--d-model"_s, QString::number(d),
                            u"--max-len"_s, QString::number(L)});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table t = readNpy(file);
    QCOMPARE(t.rows, d);
    QCOMPARE(t.cols, 6);
    for (qint64 j = 0; j < d; ++j) {
        const auto [mean, square] = moments(frequency(j / 2, d), L, j % 2 == 1);
        const double std = std::sqrt(std::max(0.0, square - mean * mean));
        QVERIFY2(std::abs(t.at(j, 0) - mean) < 1e-6 && std::abs(t.at(j, 1) - std) < 1e-6
                     && std::abs(t.at(j, 2) - std::sqrt(square)) < 1e-6,
                 qPrintable(u"column %1: %2 %3 %4 vs %5 %6 %7"_s.arg(j)
                                .arg(t.at(j, 0))
                                .arg(t.at(j, 1))
                                .arg(t.at(j, 2))
                                .arg(mean)
                                .arg(std)
                                .arg(std::sqrt(square))));
        // s*E: sigma s = 8 per cell, over a million draws.
        QVERIFY(std::abs(t.at(j, 4) / 8.0 - 1.0) < 0.01);
        QVERIFY(std::abs(t.at(j, 3)) < 0.05);
    }
}

void TestCliTables::columnStatsOfEmbeddingsMatchTheTable()
{
    const QStringList params = {u"--d-model"_s, u"24"_s,        u"--max-len"_s, u"300"_s,       u"--seed"_s,
                                u"5"_s,         u"--compose"_s, u"concat"_s,    u"--pe-dims"_s, u"8"_s};
    const QString stats = path(u"concat_stats.npy"_s), embedding = path(u"concat_e.npy"_s);
    QCOMPARE(
        posenc(QStringList {u"table"_s, u"column-stats"_s, u"-o"_s, stats, u"--dims"_s, u"3,20"_s} + params).exitCode,
        0);
    QCOMPARE(posenc(QStringList {u"table"_s, u"embedding"_s, u"-o"_s, embedding} + params).exitCode, 0);
    const Table s = readNpy(stats);
    const Table e = readNpy(embedding);
    QCOMPARE(s.rows, 2);
    QCOMPARE(e.cols, 16);
    // Column 3 holds s*E only; column 20 (PE column 4) the PE only.
    double sum = 0.0, squares = 0.0;
    for (qint64 p = 0; p < 300; ++p) {
        sum += e.at(p, 3);
        squares += double(e.at(p, 3)) * e.at(p, 3);
    }
    const double mean = sum / 300.0, rms = std::sqrt(squares / 300.0);
    QVERIFY(std::abs(s.at(0, 3) - mean) < 1e-5 * rms);
    QVERIFY(std::abs(s.at(0, 4) - std::sqrt(rms * rms - mean * mean)) < 1e-5 * rms);
    QVERIFY(std::abs(s.at(0, 5) - rms) < 1e-5 * rms);
    QCOMPARE(s.at(0, 0), 0.0f);
    QCOMPARE(s.at(1, 3), 0.0f);
    const auto [peMean, peSquare] = moments(frequency(2, 8), 300, false);
    QVERIFY(std::abs(s.at(1, 0) - peMean) < 1e-6 && std::abs(s.at(1, 2) - std::sqrt(peSquare)) < 1e-6);
}

void TestCliTables::rowNormsMatchTheTables()
{
    const QStringList params = {u"--d-model"_s, u"17"_s, u"--max-len"_s, u"90"_s, u"--dropout"_s, u"0.4"_s};
    const QString norms = path(u"norms.npy"_s);
    QCOMPARE(posenc(QStringList {u"table"_s, u"row-norms"_s, u"-o"_s, norms, u"--positions"_s, u"10:90"_s} + params)
                 .exitCode,
             0);
    const Table n = readNpy(norms);
    QCOMPARE(n.rows, 80);
    QCOMPARE(n.cols, 5);
    QList<Table> tables;
    for (const QString &quantity : {u"pe"_s, u"embedding"_s, u"input"_s, u"output"_s}) {
        const QString file = path(quantity + u".npy"_s);
        QCOMPARE(posenc(QStringList {u"table"_s, quantity, u"-o"_s, file} + params).exitCode, 0);
        tables.append(readNpy(file));
    }
    for (qint64 r = 0; r < 80; ++r) {
        double norm[4] = {};
        for (int q = 0; q < 4; ++q) {
            for (qint64 c = 0; c < 17; ++c)
                norm[q] += double(tables[q].at(10 + r, c)) * tables[q].at(10 + r, c);
            norm[q] = std::sqrt(norm[q]);
        }
        const double expected[5] = {norm[0], norm[1], norm[1] / norm[0], norm[2], norm[3]};
        for (int k = 0; k < 5; ++k)
            QVERIFY2(
                std::abs(n.at(r, k) - expected[k]) <= 1e-5 * expected[k] + 1e-6,
                qPrintable(u"position %1, column %2: %3 vs %4"_s.arg(10 + r).arg(k).arg(n.at(r, k)).arg(expected[k])));
    }
}

void TestCliTables::eachTableRefusesTheOtherAxis()
{
    const QString file = path(u"refused.npy"_s);
    const Run stats = posenc({u"table"_s, u"column-stats"_s, u"-o"_s, file, u"--positions"_s, u"0:10"_s});
    QCOMPARE(stats.exitCode, 2);
    QVERIFY2(stats.err.contains(u"--positions"_s) && stats.err.contains(u"--dims"_s), qPrintable(stats.err));
    const Run norms = posenc({u"table"_s, u"row-norms"_s, u"-o"_s, file, u"--dims"_s, u"0:10"_s});
    QCOMPARE(norms.exitCode, 2);
    QVERIFY2(norms.err.contains(u"--dims"_s) && norms.err.contains(u"--positions"_s), qPrintable(norms.err));
    const Run outside = posenc({u"table"_s, u"column-stats"_s, u"-o"_s, file, u"--dims"_s, u"600"_s});
    QCOMPARE(outside.exitCode, 2);
    QVERIFY(!QFile::exists(file));
}

// `posenc table rope-cos` writes HF's cos table of the rotary embedding: column c holds pair c mod
// 32 (rotate_half), each cell within 1e-6 of float64 cos(p 10000^(-2i/64)); interleaved holds
// each pair twice in a row.
void TestCliTables::ropeCosIsTheRotaryTable()
{
    for (const QString &layout : {u"half"_s, u"interleaved"_s}) {
        const QString file = path(u"rope-cos-"_s + layout + u".npy"_s);
        const Run run = posenc({u"table"_s, u"rope-cos"_s, u"-o"_s, file, u"--encoding"_s, u"rope"_s, u"--head-dim"_s,
                                u"64"_s, u"--max-len"_s, u"3000"_s, u"--rope-layout"_s, layout});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const Table t = readNpy(file);
        QCOMPARE(t.rows, 3000);
        QCOMPARE(t.cols, 64);
        double worst = 0.0;
        for (qint64 p = 0; p < t.rows; ++p) {
            for (qint64 c = 0; c < t.cols; ++c) {
                const qint64 pair = layout == u"half"_s ? c % 32 : c / 2;
                const double expected
                    = std::cos(static_cast<double>(p) * std::pow(10000.0, -2.0 * double(pair) / 64.0));
                worst = std::max(worst, std::abs(double(t.at(p, c)) - expected));
            }
        }
        QVERIFY2(worst <= 1e-6, qPrintable(u"%1: largest |error| %2"_s.arg(layout).arg(worst)));
    }
    // Under another encoding there is no such table.
    const Run refused
        = posenc({u"table"_s, u"rope-cos"_s, u"-o"_s, path(u"no.npy"_s), u"--encoding"_s, u"sinusoidal"_s});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(u"rope"_s), qPrintable(refused.err));
}

// An L x L table at L = 65536 is 2^32 cells, 16 GiB of float32: refused within the memory budget
// (exit 4, cells and GiB); a block of it is computed alone and equals -m(i - j), m = 2^-8/16 * 3
// for head 3 of 16 (get_slopes: 2^(-k/2)).
void TestCliTables::alibiBiasAt65536IsOverBudgetButABlockIsWritten()
{
    const QStringList params
        = {u"--encoding"_s, u"alibi"_s, u"--heads"_s, u"16"_s, u"--head"_s, u"3"_s, u"--max-len"_s, u"65536"_s};
    // To standard output, which takes a table whole (a file would be written in runs of rows).
    const Run refused
        = posenc(QStringList {u"table"_s, u"alibi-bias"_s, u"-o"_s, u"-"_s, u"--format"_s, u"npy"_s} + params);
    QCOMPARE(refused.exitCode, 4);
    QVERIFY2(refused.err.contains(u"65536 x 65536"_s) && refused.err.contains(u"cells"_s)
                 && refused.err.contains(u"GiB"_s),
             qPrintable(refused.err));
    QVERIFY(refused.out.isEmpty());
    const QString block = path(u"alibi-block.npy"_s);
    const Run run = posenc(QStringList {u"table"_s, u"alibi-bias"_s, u"-o"_s, block, u"--positions"_s, u"65000:65536"_s,
                                        u"--dims"_s, u"64000:65536"_s}
                           + params);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table t = readNpy(block);
    QCOMPARE(t.rows, 536);
    QCOMPARE(t.cols, 1536);
    const double m = std::pow(2.0, -1.5);
    for (qint64 r = 0; r < t.rows; ++r)
        for (qint64 c = 0; c < t.cols; ++c) {
            const qint64 i = 65000 + r;
            const qint64 j = 64000 + c;
            const float expected = j > i ? -std::numeric_limits<float>::infinity() : float(-m * double(i - j));
            if (t.at(r, c) != expected)
                QFAIL(qPrintable(u"(%1, %2): %3, expected %4"_s.arg(i).arg(j).arg(t.at(r, c)).arg(expected)));
        }
}

// The causal bias's -inf is written "-inf", which numpy's loadtxt and Python's float() read.
void TestCliTables::alibiBiasCsvWritesMinusInfinity()
{
    const Run run = posenc({u"table"_s, u"alibi-bias"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s, u"--encoding"_s,
                            u"alibi"_s, u"--heads"_s, u"8"_s, u"--max-len"_s, u"3"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QStringList lines = run.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    // The header names the three columns.
    QVERIFY2(!lines[0].startsWith(u'#') && lines[0].count(u',') == 2, qPrintable(lines[0]));
    // Head 1 of 8: m = 1/2.
    QCOMPARE(lines[1], u"0,-inf,-inf"_s);
    QCOMPARE(lines[2], u"-0.5,0,-inf"_s);
    QCOMPARE(lines[3], u"-1,-0.5,0"_s);
    const Run symmetric = posenc({u"table"_s, u"alibi-bias"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s,
                                  u"--encoding"_s, u"alibi"_s, u"--alibi"_s, u"symmetric"_s, u"--max-len"_s, u"2"_s});
    QCOMPARE(symmetric.out.split(u'\n', Qt::SkipEmptyParts).mid(1), (QStringList {u"0,-0.5"_s, u"-0.5,0"_s}));
}

void TestCliTables::alibiSlopesNameTheirColumns()
{
    const Run run = posenc({u"table"_s, u"alibi-slopes"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s, u"--encoding"_s,
                            u"alibi"_s, u"--heads"_s, u"12"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QStringList lines = run.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 13);
    QCOMPARE(lines[0], u"head,slope,log2_slope,interleaved"_s);
    QCOMPARE(lines[1], u"1,0.5,-1,0"_s);
    QCOMPARE(lines[8], u"8,0.00390625,-8,0"_s);
    // Head 9 is the first of the interleave: 2^-0.5.
    QVERIFY2(lines[9].startsWith(u"9,0.70710677,-0.5,1"_s), qPrintable(lines[9]));
    // The head is named 1..H: a 0th or 13th head is no row.
    const Run refused = posenc({u"table"_s, u"alibi-slopes"_s, u"-o"_s, path(u"s.npy"_s), u"--encoding"_s, u"alibi"_s,
                                u"--heads"_s, u"12"_s, u"--positions"_s, u"0:13"_s});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(u"0 <= A < B <= 12"_s), qPrintable(refused.err));
}

// T5's and DeBERTa's buckets as whole numbers, T5's of key - query, DeBERTa's of query - key.
void TestCliTables::bucketTablesAreWholeNumbers()
{
    const Run t5 = posenc({u"table"_s, u"t5-bucket"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s, u"--encoding"_s,
                           u"t5"_s, u"--max-len"_s, u"20"_s, u"--positions"_s, u"0:1"_s});
    QVERIFY2(t5.exitCode == 0, qPrintable(t5.err));
    // Row 0: keys after the query, 16 + d below 8, then 16 + 8 + trunc(ln(d / 8) / ln 16 * 8).
    QCOMPARE(t5.out.split(u'\n', Qt::SkipEmptyParts).value(1),
             u"0,17,18,19,20,21,22,23,24,24,24,24,25,25,25,25,26,26,26,26"_s);
    const Run deberta = posenc({u"table"_s, u"deberta-bucket"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s,
                                u"--encoding"_s, u"deberta"_s, u"--max-len"_s, u"1001"_s, u"--positions"_s,
                                u"1000:1001"_s, u"--dims"_s, u"0,744,871,872"_s});
    QVERIFY2(deberta.exitCode == 0, qPrintable(deberta.err));
    // Query 1000: i - j = 1000, 256, 129, 128.
    QCOMPARE(deberta.out.split(u'\n', Qt::SkipEmptyParts).value(1), u"317,192,129,128"_s);
}

void TestCliTables::maxLenFollowsTheGrid_data()
{
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<int>("rows");
    // Before: refused until --max-len 197 was given too. Where max_len is not given it is the
    // largest up to its default (1024) that the grid allows; given, it is never changed.
    QTest::newRow("14x14 and cls") << QStringList {u"--grid"_s, u"14,14"_s, u"--cls-token"_s} << 197;
    // As a grid is written and the token named: --grid 14x14 --cls. Before: "Unknown option 'cls'",
    // and 14x14 refused.
    QTest::newRow("14x14 and --cls, as typed") << QStringList {u"--grid"_s, u"14x14"_s, u"--cls"_s} << 197;
    QTest::newRow("7x9") << QStringList {u"--grid"_s, u"7,9"_s} << 63;
    QTest::newRow("a grid larger than the default") << QStringList {u"--grid"_s, u"64,64"_s} << 1024;
    QTest::newRow("fewer rows given") << QStringList {u"--grid"_s, u"14,14"_s, u"--max-len"_s, u"50"_s} << 50;
    QTest::newRow("more rows given") << QStringList {u"--grid"_s, u"14,14"_s, u"--max-len"_s, u"197"_s} << -1;
}

void TestCliTables::maxLenFollowsTheGrid()
{
    QFETCH(QStringList, flags);
    QFETCH(int, rows);
    const Run run = posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, u"-"_s, u"--format"_s, u"csv"_s, u"--encoding"_s,
                                        u"sincos-2d"_s, u"--d-model"_s, u"8"_s}
                           + flags);
    if (rows < 0) {
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--max-len"_s), qPrintable(run.err));
        return;
    }
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out.split(u'\n', Qt::SkipEmptyParts).size(), rows + 1); // the header, then a row each
}

// The audit: row-norms wrote inf or NaN with exit 0 where ||PE_p|| is 0 (embedding_over_pe divides by
// it), and `table input` wrote the NaN of an --embeddings file; check then refused posenc's own
// file. A table holds numbers, or the documented infinities, or is not written.
void TestCliTables::noTableHoldsAnUndefinedNumber_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("words");
    const QStringList rowNorms {u"row-norms"_s, u"--max-len"_s, u"3"_s};
    QTest::newRow("d_model 1: sin(0) at row 0") << rowNorms + QStringList {u"--d-model"_s, u"1"_s} << 2
                                                << u"||PE_p|| is 0 at position 0 (1 of the 3 positions asked)"_s;
    QTest::newRow("d_model 1, scale 0: 0 / 0") << rowNorms + QStringList {u"--d-model"_s, u"1"_s, u"--scale"_s, u"0"_s}
                                               << 2 << u"||PE_p|| is 0 at position 0 (1 of the 3 positions asked)"_s;
    QTest::newRow("concat, pe-dims 0") << rowNorms + QStringList {u"--compose"_s, u"concat"_s, u"--pe-dims"_s, u"0"_s}
                                       << 2 << u"--pe-dims 0 leaves the PE no column"_s;
    QTest::newRow("ALiBi adds no PE") << rowNorms + QStringList {u"--encoding"_s, u"alibi"_s} << 2
                                      << u"encoding alibi adds no PE to X"_s;
    QTest::newRow("d_model 1, past row 0: written")
        << rowNorms + QStringList {u"--d-model"_s, u"1"_s, u"--positions"_s, u"1:3"_s} << 0 << QString();
    QTest::newRow("NaN embeddings into X") << QStringList {u"input"_s, u"--embeddings"_s, u"nan.npy"_s} << 3
                                           << u"nan.npy: the row read for position 1 holds NaN in column 2"_s;
    QTest::newRow("NaN embeddings into the norms")
        << QStringList {u"row-norms"_s, u"--embeddings"_s, u"nan.npy"_s} << 3 << u"holds NaN in column 2"_s;
    QTest::newRow("NaN embeddings, the PE alone: written")
        << QStringList {u"pe"_s, u"--embeddings"_s, u"nan.npy"_s} << 0 << QString();
    QTest::newRow("ALiBi's causal -inf: documented")
        << QStringList {u"alibi-bias"_s, u"--encoding"_s, u"alibi"_s, u"--max-len"_s, u"4"_s} << 0 << QString();
}

void TestCliTables::noTableHoldsAnUndefinedNumber()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, words);
    std::vector<float> values(4 * 4, 0.25f);
    values[1 * 4 + 2] = std::numeric_limits<float>::quiet_NaN();
    QVERIFY(writeNpy(path(u"nan.npy"_s), 4, 4, values));
    for (QString &argument : arguments)
        if (argument == u"nan.npy"_s)
            argument = path(argument);
    const QString out = path(u"t.npy"_s);
    QFile::remove(out);
    const Run run = posenc(QStringList {u"table"_s} + arguments + QStringList {u"-o"_s, out});
    QCOMPARE(run.exitCode, exitCode);
    if (exitCode != 0) {
        QVERIFY2(run.err.contains(words), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY(!QFile::exists(out));
        return;
    }
    const Table table = readNpy(out);
    QVERIFY(table.rows > 0);
    for (const float v : table.values)
        QVERIFY2(std::isfinite(v) || v == -std::numeric_limits<float>::infinity(), qPrintable(run.err));
}

POSENC_TEST_MAIN(TestCliTables)
} // namespace tst_clitables
#include "tst_clitables.moc"
