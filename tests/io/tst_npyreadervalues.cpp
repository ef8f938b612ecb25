// The .npy reader's values: every dtype, byte order and memory order against cells written in
// the test; numpy-written fixtures; round trips through our own writer; row selections; few reads.
#include "NpyRead.h"
#include "ReaderFiles.h"
#include "support/TestMain.h"

#include "io/NpyReader.h"
#include "io/NpyWriter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <limits>
#include <random>

namespace tst_npyreadervalues {
using namespace Qt::StringLiterals;
using posenc::ReadError;
using posenc::RowMatrixXf;
using posenc::RowSelection;
using namespace ReaderFiles;
using NpyRead::kName;
using NpyRead::read;

namespace {

RowMatrixXf matrix(int rows, int cols, std::initializer_list<float> values)
{
    RowMatrixXf m(rows, cols);
    auto it = values.begin();
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            m(r, c) = *it++;
    return m;
}

// Cells compared by bit pattern, so that NaN, -0 and denormals must match exactly.
bool sameBits(const RowMatrixXf &a, const RowMatrixXf &b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return false;
    if (a.cols() == 0)
        return true; // a matrix of 2^62 empty rows has no cell to visit
    for (Eigen::Index r = 0; r < a.rows(); ++r)
        for (Eigen::Index c = 0; c < a.cols(); ++c)
            if (std::bit_cast<quint32>(a(r, c)) != std::bit_cast<quint32>(b(r, c)))
                return false;
    return true;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A source that counts what is read: how many reads, and how far into the file.
class CountingSource : public posenc::MemoryByteSource
{
public:
    using MemoryByteSource::MemoryByteSource;
    qint64 furthest = 0;
    int reads = 0;

protected:
    bool readInside(qint64 offset, qint64 length, char *destination) override
    {
        furthest = std::max(furthest, offset + length);
        ++reads;
        return MemoryByteSource::readInside(offset, length, destination);
    }
};

// The fixtures' cells: v(r, c) = (4 r + c - 5) / 4 (see tests/data/make_fixtures.py).
float fixtureCell(int r, int c)
{
    return float(4 * r + c - 5) / 4.0f;
}

} // namespace

class TestNpyReaderValues : public QObject
{
    Q_OBJECT

private slots:
    void convertsValues_data();
    void convertsValues();
    void readsNumpyFixtures_data();
    void readsNumpyFixtures();
    void roundTripsThroughWriter_data();
    void roundTripsThroughWriter();
    void selectsRows_data();
    void selectsRows();
    void readsShortFortranColumnsInFewReads_data();
    void readsShortFortranColumnsInFewReads();
    void inspectReadsNoData();
};

void TestNpyReaderValues::convertsValues_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<RowMatrixXf>("expected");
    const float inf = std::numeric_limits<float>::infinity();
    const float halfDenormal = 5.9604644775390625e-08f; // 2^-24
    // binary16 bit patterns with values worked out by hand.
    const std::vector<quint16> half = {0x3c00, 0xc000, 0x7bff, 0x0001, 0x0400, 0x3555, 0x7c00, 0xfc00, 0x8000};
    const RowMatrixXf halfValues
        = matrix(3, 3, {1.0f, -2.0f, 65504.0f, halfDenormal, 6.103515625e-05f, 0.333251953125f, inf, -inf, -0.0f});
    QTest::newRow("<f2") << npy(dict("<f2", "(3, 3)"), words(half)) << halfValues;
    QTest::newRow(">f2") << npy(dict(">f2", "(3, 3)"), words(half, true)) << halfValues;
    const std::vector<quint32> single = {0x3f800000, 0xc0490fdb, 0x00000001, 0x7f7fffff};
    const RowMatrixXf singleValues = matrix(2, 2, {1.0f, -3.14159274f, 1.4e-45f, 3.40282347e38f});
    QTest::newRow("<f4") << npy(dict("<f4", "(2, 2)"), words(single)) << singleValues;
    QTest::newRow(">f4") << npy(dict(">f4", "(2, 2)"), words(single, true)) << singleValues;
    QTest::newRow("=f4 is native, little-endian here") << npy(dict("=f4", "(2, 2)"), words(single)) << singleValues;
    // 0.1 in double rounds to the float nearest 0.1; 1e300 overflows float32 to infinity.
    const std::vector<quint64> dbl
        = {0x3fb999999999999aull, 0xc000000000000000ull, 0x7e37e43c8800759cull, 0x0000000000000001ull};
    const RowMatrixXf dblValues = matrix(1, 4, {0.1f, -2.0f, inf, 0.0f});
    QTest::newRow("<f8") << npy(dict("<f8", "(1, 4)"), words(dbl)) << dblValues;
    QTest::newRow(">f8") << npy(dict(">f8", "(1, 4)"), words(dbl, true)) << dblValues;
    QTest::newRow("|i1") << npy(dict("|i1", "(1, 3)"), words<quint8>({0x80, 0xff, 0x7f}))
                         << matrix(1, 3, {-128.0f, -1.0f, 127.0f});
    QTest::newRow("|u1") << npy(dict("|u1", "(1, 3)"), words<quint8>({0x80, 0xff, 0x00}))
                         << matrix(1, 3, {128.0f, 255.0f, 0.0f});
    QTest::newRow(">i2") << npy(dict(">i2", "(1, 2)"), words<quint16>({0xfffe, 0x0102}, true))
                         << matrix(1, 2, {-2.0f, 258.0f});
    QTest::newRow("<u2") << npy(dict("<u2", "(1, 2)"), words<quint16>({0xffff, 0x0102}))
                         << matrix(1, 2, {65535.0f, 258.0f});
    QTest::newRow(">i4") << npy(dict(">i4", "(1, 2)"), words<quint32>({0x80000000u, 0x01000001u}, true))
                         << matrix(1, 2, {-2147483648.0f, 16777216.0f}); // 2^24 + 1 rounds to even
    QTest::newRow("<u4") << npy(dict("<u4", "(1, 1)"), words<quint32>({0xffffffffu})) << matrix(1, 1, {4294967296.0f});
    QTest::newRow("<i8") << npy(dict("<i8", "(1, 2)"), words<quint64>({0xffffffffffffffffull, 1ull << 40}))
                         << matrix(1, 2, {-1.0f, 1099511627776.0f});
    QTest::newRow(">u8") << npy(dict(">u8", "(1, 1)"), words<quint64>({0xffffffffffffffffull}, true))
                         << matrix(1, 1, {18446744073709551616.0f});
    QTest::newRow("|b1") << npy(dict("|b1", "(1, 3)"), words<quint8>({0, 1, 2})) << matrix(1, 3, {0.0f, 1.0f, 1.0f});
    // Column-major: the file holds column 0 (1, 4), then column 1 (2, 5), then column 2 (3, 6).
    QTest::newRow("fortran order <f4") << npy(
        dict("<f4", "(2, 3)", "True"),
        words<quint32>({0x3f800000, 0x40800000, 0x40000000, 0x40a00000, 0x40400000, 0x40c00000}))
                                       << matrix(2, 3, {1, 2, 3, 4, 5, 6});
    QTest::newRow("fortran order >i2") << npy(dict(">i2", "(2, 3)", "True"), words<quint16>({1, 4, 2, 5, 3, 6}, true))
                                       << matrix(2, 3, {1, 2, 3, 4, 5, 6});
    QTest::newRow("version 2.0") << npy(dict("<f4", "(2, 2)"), words(single), 2, 0) << singleValues;
    QTest::newRow("version 3.0") << npy(dict("<f4", "(2, 2)"), words(single), 3, 0) << singleValues;
    QTest::newRow("Python 2 long dimensions") << npy(dict("<f4", "(2L, 2L)"), words(single)) << singleValues;
    QTest::newRow("double quotes, no trailing comma")
        << npy("{\"descr\": \"<f4\", \"shape\": (2, 2), \"fortran_order\": False}   \n", words(single)) << singleValues;
    QTest::newRow("0 rows") << npy(dict("<f4", "(0, 5)")) << RowMatrixXf(0, 5);
    QTest::newRow("0 columns, many rows")
        << npy(dict("<f4", "(4611686018427387904, 0)")) << RowMatrixXf(4611686018427387904, 0);
}

void TestNpyReaderValues::convertsValues()
{
    QFETCH(QByteArray, bytes);
    QFETCH(RowMatrixXf, expected);

    const auto result = read(bytes);

    QVERIFY2(result.ok(), qPrintable(result.error().toString()));
    QVERIFY(sameBits(result.value(), expected));
}

void TestNpyReaderValues::readsNumpyFixtures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("offset"); // integer and bool kinds hold 4 v + offset
    QTest::newRow("f4, C order") << u"f4_c.npy"_s << 0;
    QTest::newRow("f8, Fortran order, big-endian") << u"f8_fortran_big.npy"_s << 0;
    QTest::newRow("f2, little-endian") << u"f2_little.npy"_s << 0;
    QTest::newRow("f2, Fortran order, big-endian") << u"f2_fortran_big.npy"_s << 0;
    QTest::newRow("i2, big-endian") << u"i2_big.npy"_s << 1;
    QTest::newRow("i8, little-endian") << u"i8_little.npy"_s << 1;
    QTest::newRow("u1") << u"u1.npy"_s << 2;
    QTest::newRow("b1") << u"b1.npy"_s << 3;
    QTest::newRow("format 2.0") << u"f4_v2.npy"_s << 0;
    QTest::newRow("format 3.0") << u"f4_v3.npy"_s << 0;
}

void TestNpyReaderValues::readsNumpyFixtures()
{
    QFETCH(QString, file);
    QFETCH(int, offset);
    const QString path = QFINDTESTDATA(u"../data/npy/"_s + file);
    QVERIFY(!path.isEmpty());
    posenc::FileByteSource source(path);
    QVERIFY(source.open());

    const auto result = posenc::NpyReader::readMatrix(source, RowSelection::all());

    QVERIFY2(result.ok(), qPrintable(result.error().toString()));
    QCOMPARE(result->rows(), 3);
    QCOMPARE(result->cols(), 4);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) {
            const int k = 4 * r + c;
            const float expected = offset == 0 ? fixtureCell(r, c)
                : offset == 1                  ? float(k - 5)
                : offset == 2                  ? float(k)
                                               : float(k % 2);
            QCOMPARE(result.value()(r, c), expected);
        }
    }
}

void TestNpyReaderValues::roundTripsThroughWriter_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::newRow("1x1") << 1 << 1;
    QTest::newRow("7x13") << 7 << 13;
    QTest::newRow("0x5") << 0 << 5;
    // More elements than one chunk of the reader (2^18) and rows that straddle chunks.
    QTest::newRow("300x1001") << 300 << 1001;
    QTest::newRow("2x300001") << 2 << 300001;
}

void TestNpyReaderValues::roundTripsThroughWriter()
{
    QFETCH(int, rows);
    QFETCH(int, cols);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"m.npy"_s);
    std::mt19937 generator(quint32(rows * 7 + cols));
    RowMatrixXf written(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            written(r, c) = std::bit_cast<float>(quint32(generator())); // every bit pattern, NaNs too
    QVERIFY(!posenc::writeNpy(path, written));

    posenc::FileByteSource source(path);
    QVERIFY(source.open());
    const auto back = posenc::NpyReader::readMatrix(source, RowSelection::all());

    QVERIFY2(back.ok(), qPrintable(back.error().toString()));
    QVERIFY(sameBits(back.value(), written));
    QVERIFY(sameBits(read(readFile(path)).value(), written));
}

void TestNpyReaderValues::selectsRows_data()
{
    QTest::addColumn<bool>("fortran");
    QTest::addColumn<int>("selectionIndex");
    for (const bool fortran : {false, true}) {
        const char *order = fortran ? "Fortran" : "C";
        QTest::addRow("%s order, first 3", order) << fortran << 0;
        QTest::addRow("%s order, listed with repeats", order) << fortran << 1;
        QTest::addRow("%s order, all", order) << fortran << 2;
    }
}

void TestNpyReaderValues::selectsRows()
{
    QFETCH(bool, fortran);
    QFETCH(int, selectionIndex);
    // A 600 x 700 matrix with cell (r, c) = r * 1000 + c (exact in float32), in either order.
    const int rows = 600, cols = 700;
    std::vector<quint32> cells;
    for (int i = 0; i < rows * cols; ++i) {
        const int r = fortran ? i % rows : i / cols;
        const int c = fortran ? i / rows : i % cols;
        cells.push_back(std::bit_cast<quint32>(float(r * 1000 + c)));
    }
    const QByteArray bytes = npy(dict("<f4", "(600, 700)", fortran ? "True" : "False"), words(cells));
    const std::vector<RowSelection> selections
        = {RowSelection::first(3), RowSelection::listed({599, 0, 17, 17, 16, 598, 599}), RowSelection::all()};
    const RowSelection &selection = selections[std::size_t(selectionIndex)];

    const auto result = read(bytes, selection);

    QVERIFY2(result.ok(), qPrintable(result.error().toString()));
    QCOMPARE(result->rows(), selection.rowCount(rows));
    QCOMPARE(result->cols(), cols);
    for (Eigen::Index i = 0; i < result->rows(); ++i) {
        const std::int64_t r = selection.mode == RowSelection::Mode::Listed ? selection.rows[std::size_t(i)] : i;
        for (int c = 0; c < cols; ++c)
            if (result.value()(i, c) != float(r * 1000 + c))
                QFAIL(qPrintable(u"row %1 (file row %2), column %3 differs"_s.arg(i).arg(r).arg(c)));
    }
}

// Fortran order with short columns: several columns to a read, not a seek and a read per column,
// which made a (1, 1000000) matrix ten times slower to read than in C order.
void TestNpyReaderValues::readsShortFortranColumnsInFewReads_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<RowSelection>("selection");
    QTest::newRow("1 row, all") << 1 << RowSelection::all();
    QTest::newRow("3 rows, listed") << 3 << RowSelection::listed({2, 0, 2});
    QTest::newRow("3 rows, the middle one") << 3 << RowSelection::listed({1});
}

void TestNpyReaderValues::readsShortFortranColumnsInFewReads()
{
    QFETCH(int, rows);
    QFETCH(RowSelection, selection);
    const int cols = 1'000'000;
    QByteArray cells(qsizetype(rows) * cols, Qt::Uninitialized);
    for (int c = 0; c < cols; ++c)
        for (int r = 0; r < rows; ++r)
            cells[qsizetype(c) * rows + r] = char((c * 7 + r) % 251);
    const QByteArray bytes = npy(dict("|u1", "(" + QByteArray::number(rows) + ", 1000000)", "True"), cells);
    CountingSource source(bytes, kName);

    const auto result = posenc::NpyReader::readMatrix(source, selection);

    QVERIFY2(result.ok(), qPrintable(result.error().toString()));
    QVERIFY2(source.reads <= 4 + rows * cols / (1 << 18) + 1, qPrintable(u"%1 reads"_s.arg(source.reads)));
    for (Eigen::Index i = 0; i < result->rows(); ++i) {
        const std::int64_t r = selection.mode == RowSelection::Mode::Listed ? selection.rows[std::size_t(i)] : i;
        for (int c = 0; c < cols; ++c)
            if (result.value()(i, c) != float((c * 7 + r) % 251))
                QFAIL(qPrintable(u"row %1 (file row %2), column %3 differs"_s.arg(i).arg(r).arg(c)));
    }
}

void TestNpyReaderValues::inspectReadsNoData()
{
    // Inspecting must read the preamble and header only.
    const QByteArray bytes = npy(dict("<f4", "(3, 4)"), zeros(48));
    CountingSource source(bytes, kName);
    const auto array = posenc::NpyReader::inspect(source);
    QVERIFY(array.ok());
    QCOMPARE(array->dataOffset, bytes.size() - 48);
    QCOMPARE(source.furthest, array->dataOffset);
    QCOMPARE(array->info.shapeText(true), u"(3, 4)"_s);
    QCOMPARE(array->info.dtype, u"<f4"_s);
}

POSENC_TEST_GUILESS_MAIN(TestNpyReaderValues)
} // namespace tst_npyreadervalues
#include "tst_npyreadervalues.moc"
