#include "io/CsvWriter.h"
#include "support/TestMain.h"

#include "support/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cfloat>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

namespace tst_csvwriter {
using namespace Qt::StringLiterals;
using namespace TestFiles;
using posenc::RowMatrixXf;

namespace {

constexpr float quietNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float infinity = std::numeric_limits<float>::infinity();

// Half the cells like a PE table (uniform in [-1, 1]), half any finite float32 bit pattern:
// denormals, huge and tiny exponents.
RowMatrixXf finiteValues(qint64 rows, qint64 cols, quint32 seed)
{
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    RowMatrixXf m(rows, cols);
    for (qint64 r = 0; r < rows; ++r)
        for (qint64 c = 0; c < cols; ++c) {
            float value = unit(generator);
            if ((r + c) % 2 == 1) {
                do
                    value = std::bit_cast<float>(quint32(generator()));
                while (!std::isfinite(value));
            }
            m(r, c) = value;
        }
    return m;
}

// The whole field must be a number, and nothing else.
bool parseFloat(const QByteArray &field, float &value)
{
    char *end = nullptr;
    value = std::strtof(field.constData(), &end);
    return !field.isEmpty() && end == field.constData() + field.size();
}

// The length of the shortest text that reads back to the same float32: the shorter of
// printf's %e and %f with the fewest digits that round-trip (fixed notation beyond 16 decimals
// is never the shorter one).
qsizetype shortestRoundTripLength(float value)
{
    char text[64];
    const auto roundTrips = [&text, value] {
        return std::bit_cast<quint32>(std::strtof(text, nullptr)) == std::bit_cast<quint32>(value);
    };
    qsizetype shortest = std::numeric_limits<qsizetype>::max();
    for (int digits = 0; digits < 9; ++digits) {
        std::snprintf(text, sizeof(text), "%.*e", digits, double(value));
        if (roundTrips()) {
            shortest = qsizetype(std::strlen(text));
            break;
        }
    }
    for (int decimals = 0; decimals <= 16; ++decimals) {
        std::snprintf(text, sizeof(text), "%.*f", decimals, double(value));
        if (roundTrips()) {
            shortest = std::min(shortest, qsizetype(std::strlen(text)));
            break;
        }
    }
    return shortest;
}

// Names for `cols` columns: c0, c1, ...
QStringList names(qint64 cols)
{
    QStringList list;
    for (qint64 c = 0; c < cols; ++c)
        list.append(QStringLiteral("c%1").arg(c));
    return list;
}

} // namespace

class TestCsvWriter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void writesTable_data();
    void writesTable();
    void shortestText_data();
    void shortestText();
    void usesShortestText();
    void reportsUnwritablePath();
};

void TestCsvWriter::initTestCase()
{
    // QCoreApplication adopts the user's locale; strtof must read '.' as the decimal point.
    std::setlocale(LC_NUMERIC, "C");
}

void TestCsvWriter::writesTable_data()
{
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<qint64>("cols");
    QTest::addColumn<bool>("isBlock");
    QTest::newRow("1x1") << qint64(1) << qint64(1) << false;
    QTest::newRow("3x5") << qint64(3) << qint64(5) << false;
    QTest::newRow("0 rows") << qint64(0) << qint64(5) << false;
    QTest::newRow("0 columns") << qint64(4) << qint64(0) << false;
    QTest::newRow("1xN") << qint64(1) << qint64(777) << false;
    QTest::newRow("Nx1") << qint64(777) << qint64(1) << false;
    QTest::newRow("block 4x5") << qint64(4) << qint64(5) << true;
    QTest::newRow("block of one column") << qint64(5) << qint64(1) << true;
    // The writer flushes about every MiB of text: cross that boundary many times.
    QTest::newRow("many chunks") << qint64(300) << qint64(1000) << false;
    QTest::newRow("row longer than a chunk") << qint64(2) << qint64(150001) << false;
    QTest::newRow("block over many chunks") << qint64(201) << qint64(999) << true;
}

void TestCsvWriter::writesTable()
{
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    QFETCH(bool, isBlock);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"table.csv"_s);
    const RowMatrixXf parent = isBlock ? finiteValues(rows + 3, cols + 7, quint32(rows * 31 + cols))
                                       : finiteValues(rows, cols, quint32(rows * 31 + cols));
    const posenc::ConstBlockRef table
        = isBlock ? posenc::ConstBlockRef(parent.block(2, 3, rows, cols)) : posenc::ConstBlockRef(parent);

    const auto error = posenc::writeCsv(path, table, names(cols));

    QVERIFY2(!error, qPrintable(error ? error->toString() : QString()));
    const QByteArray text = readAll(path);
    QCOMPARE(text.count('\n'), rows + 1);
    QVERIFY(text.endsWith('\n'));
    const QList<QByteArray> lines = text.split('\n');
    // The header: the names alone, as pandas' read_csv names the columns by it.
    QCOMPARE(lines.first(), names(cols).join(u',').toUtf8());
    for (qint64 r = 0; r < rows; ++r) {
        const QList<QByteArray> fields = cols == 0 ? QList<QByteArray>() : lines[r + 1].split(',');
        QCOMPARE(fields.size(), cols);
        for (qint64 c = 0; c < cols; ++c) {
            const QString cell = u"cell (%1, %2) '%3'"_s.arg(r).arg(c).arg(QString::fromLatin1(fields[c]));
            float value = 0;
            if (!parseFloat(fields[c], value))
                QFAIL(qPrintable(cell + u" is not a number"_s));
            if (std::bit_cast<quint32>(value) != std::bit_cast<quint32>(table(r, c)))
                QFAIL(qPrintable(cell + u" reads back to a different float"_s));
        }
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList {u"table.csv"_s});
}

void TestCsvWriter::shortestText_data()
{
    QTest::addColumn<float>("value");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("0.1") << 0.1f << QByteArray("0.1");
    QTest::newRow("1") << 1.0f << QByteArray("1");
    QTest::newRow("100") << 100.0f << QByteArray("100");
    QTest::newRow("+0") << 0.0f << QByteArray("0");
    QTest::newRow("-0") << -0.0f << QByteArray("-0");
    QTest::newRow("one third") << 1.0f / 3.0f << QByteArray("0.33333334");
    QTest::newRow("2^24") << 16777216.0f << QByteArray("16777216");
    QTest::newRow("sin(1)") << 0.84147096f << QByteArray("0.84147096");
    QTest::newRow("-2.5e-7") << -2.5e-7f << QByteArray("-2.5e-07");
    // Scientific wherever it is shorter than fixed notation.
    QTest::newRow("1e-4") << 1e-4f << QByteArray("1e-04");
    QTest::newRow("1e20") << 1e20f << QByteArray("1e+20");
    QTest::newRow("smallest denormal") << std::bit_cast<float>(quint32(1)) << QByteArray("1e-45");
    QTest::newRow("FLT_MIN") << FLT_MIN << QByteArray("1.1754944e-38");
    QTest::newRow("FLT_MAX") << FLT_MAX << QByteArray("3.4028235e+38");
    QTest::newRow("-FLT_MAX") << -FLT_MAX << QByteArray("-3.4028235e+38");
    QTest::newRow("NaN") << quietNaN << QByteArray("nan");
    QTest::newRow("negative NaN") << -quietNaN << QByteArray("nan");
    QTest::newRow("NaN with payload") << std::bit_cast<float>(quint32(0xffc12345)) << QByteArray("nan");
    QTest::newRow("+inf") << infinity << QByteArray("inf");
    QTest::newRow("-inf") << -infinity << QByteArray("-inf");
}

void TestCsvWriter::shortestText()
{
    QFETCH(float, value);
    QFETCH(QByteArray, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"value.csv"_s);
    RowMatrixXf table(2, 3);
    table << 1.0f, value, 2.0f, value, -1.0f, value;

    QVERIFY(!posenc::writeCsv(path, table, {u"a"_s, u"b"_s, u"c"_s}));

    QCOMPARE(readAll(path), "a,b,c\n1," + expected + ",2\n" + expected + ",-1," + expected + '\n');
    float readBack = 0;
    QVERIFY(parseFloat(expected, readBack));
    if (std::isnan(value))
        QVERIFY(std::isnan(readBack));
    else
        QCOMPARE(std::bit_cast<quint32>(readBack), std::bit_cast<quint32>(value));
}

void TestCsvWriter::usesShortestText()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"shortest.csv"_s);
    const RowMatrixXf table = finiteValues(100, 200, 2024);

    QVERIFY(!posenc::writeCsv(path, table, names(table.cols())));

    const QList<QByteArray> lines = readAll(path).split('\n');
    QCOMPARE(lines.size(), table.rows() + 2);
    for (Eigen::Index r = 0; r < table.rows(); ++r) {
        const QList<QByteArray> fields = lines[r + 1].split(',');
        QCOMPARE(fields.size(), table.cols());
        for (Eigen::Index c = 0; c < table.cols(); ++c)
            if (fields[c].size() != shortestRoundTripLength(table(r, c)))
                QFAIL(qPrintable(u"'%1' is not the shortest text for its value"_s.arg(QString::fromLatin1(fields[c]))));
    }
}

void TestCsvWriter::reportsUnwritablePath()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile parent(dir.filePath(u"afile"_s));
    QVERIFY(parent.open(QIODevice::WriteOnly));
    parent.close();
    const QString path = dir.filePath(u"afile/x.csv"_s);

    const auto error = posenc::writeCsv(path, finiteValues(3, 4, 1), names(4));

    QVERIFY(error);
    QVERIFY(error->toString().startsWith(path + u": "_s));
    QVERIFY(!error->reason.isEmpty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList {u"afile"_s});
}

POSENC_TEST_GUILESS_MAIN(TestCsvWriter)
} // namespace tst_csvwriter
#include "tst_csvwriter.moc"
