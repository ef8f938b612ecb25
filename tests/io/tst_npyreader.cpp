// The .npy reader: a table of malformed and hostile files, each with its own message; values of
// every dtype, byte order and memory order against cells written in the test; numpy-written
// fixtures; round trips through our own writer; row selections.
#include "ReaderFiles.h"

#include "io/NpyReader.h"
#include "io/NpyWriter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <limits>
#include <random>

using namespace Qt::StringLiterals;
using posenc::ReadError;
using posenc::RowMatrixXf;
using posenc::RowSelection;
using namespace ReaderFiles;

Q_DECLARE_METATYPE(RowMatrixXf)

namespace {

const QString kName = u"test.npy"_s;

posenc::ReadResult<RowMatrixXf> read(const QByteArray &bytes, const RowSelection &selection = RowSelection::all())
{
    return posenc::NpyReader::readMatrix(bytes, kName, selection);
}

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

// The fixtures' cells: v(r, c) = (4 r + c - 5) / 4 (see tests/data/make_fixtures.py).
float fixtureCell(int r, int c)
{
    return float(4 * r + c - 5) / 4.0f;
}

} // namespace

class TestNpyReader : public QObject
{
    Q_OBJECT

private slots:
    void refusesMalformed_data();
    void refusesMalformed();
    void convertsValues_data();
    void convertsValues();
    void readsNumpyFixtures_data();
    void readsNumpyFixtures();
    void roundTripsThroughWriter_data();
    void roundTripsThroughWriter();
    void selectsRows_data();
    void selectsRows();
    void refusesSelectionOutsideMatrix();
    void inspectReadsNoData();
};

void TestNpyReader::refusesMalformed_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("isChoice");
    const QByteArray f4 = zeros(48);
    const auto row = [](const char *name, const QByteArray &bytes, const QString &message, bool choice = false) {
        QTest::newRow(name) << bytes << message << choice;
    };
    const QByteArray good = dict("<f4", "(3, 4)");

    row("empty file", {}, u"not a .npy file: it does not start with the magic \\x93NUMPY"_s);
    row("bad magic", "\x93NUMPZ\x01\x00" + good, u"not a .npy file: it does not start with the magic"_s);
    row("too short for the preamble", QByteArray("\x93NUMPY\x01", 7),
        u"too short for a .npy file (7 bytes; the preamble alone needs 10)"_s);
    row("version 4.0", npy(good, f4, 4, 0), u"unsupported .npy format version 4.0"_s);
    row("version 1.1", npy(good, f4, 1, 1), u"unsupported .npy format version 1.1"_s);
    row("version 0.0", npy(good, f4, 0, 0), u"unsupported .npy format version 0.0"_s);
    row("2.0 preamble cut short", QByteArray("\x93NUMPY\x02\x00\x10\x00", 10),
        u"too short for a .npy 2.0 file (10 bytes; the preamble needs 12)"_s);
    row("header length past the end (1.0)", npy(QByteArray(110, ' '), {}, 1, 0, 65535),
        u"header length 65535 runs past the end of the file (120 bytes)"_s);
    row("huge header length (2.0)", npy(QByteArray(108, ' '), {}, 2, 0, 4294967295),
        u"header length 4294967295 runs past the end of the file (120 bytes)"_s);
    const QByteArray longHeader
        = "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 0), }" + QByteArray(1100000, ' ') + '\n';
    row("header over the limit", npy(longHeader, {}, 2, 0),
        u"header length %1 is over the limit of 1048576 bytes"_s.arg(longHeader.size()));
    row("header not a dict", npy("[('descr', '<f4')]\n"), u"the header is not a Python dict"_s);
    row("header is not text", npy("\x01\x02\x03\n"), u"the header is not a Python dict"_s);
    row("no newline at the end", npy(good.chopped(1) + ' ', f4), u"the header does not end with a newline"_s);
    row("text after the dict", npy(good.chopped(1) + " x\n", f4), u"the header has text after the dict"_s);
    row("missing shape", npy("{'descr': '<f4', 'fortran_order': False}\n"), u"the header has no 'shape' key"_s);
    row("missing descr", npy("{'fortran_order': False, 'shape': (1, 1)}\n", zeros(4)),
        u"the header has no 'descr' key"_s);
    row("missing fortran_order", npy("{'descr': '<f4', 'shape': (1, 1)}\n", zeros(4)),
        u"the header has no 'fortran_order' key"_s);
    row("extra key", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), 'extra': 1}\n", f4),
        u"the header has an unknown key 'extra'"_s);
    row("repeated key", npy("{'descr': '<f4', 'shape': (3, 4), 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"the header repeats the key 'shape'"_s);
    row("descr not a string", npy("{'descr': 4, 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"'descr' must be a string such as '<f4'"_s);
    row("structured dtype", npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"structured dtypes (a list of fields in 'descr') are not supported"_s);
    row("object dtype", npy(dict("|O", "(3, 4)"), zeros(96)),
        u"object arrays (dtype '|O') hold pickled Python objects and are refused"_s);
    row("complex dtype", npy(dict("<c8", "(3, 4)"), zeros(96)), u"unsupported dtype '<c8'"_s);
    row("unknown dtype", npy(dict("<x4", "(3, 4)"), f4), u"unsupported dtype '<x4'"_s);
    row("dtype without byte order", npy(dict("|f4", "(3, 4)"), f4),
        u"dtype '|f4' has no byte order, which only 1-byte types may omit"_s);
    row("float of 3 bytes", npy(dict("<f3", "(3, 4)"), zeros(36)), u"unsupported dtype '<f3'"_s);
    row("fortran_order not a bool", npy(dict("<f4", "(3, 4)", "0"), f4), u"'fortran_order' must be True or False"_s);
    row("shape a list", npy(dict("<f4", "[3, 4]"), f4), u"'shape' must be a tuple of integers such as (3, 4)"_s);
    row("shape (5) is not a tuple", npy(dict("<f4", "(5)"), zeros(20)), u"'shape' must be a tuple of integers"_s);
    row("shape of floats", npy(dict("<f4", "(3.0, 4)"), f4), u"'shape' must be a tuple of integers"_s);
    row("negative dimension", npy(dict("<f4", "(3, -4)"), f4), u"the shape has a negative dimension -4"_s);
    row("huge dimension", npy(dict("<f4", "(99999999999999999999, 1)"), f4),
        u"a dimension too large for a 64-bit size: 99999999999999999999"_s);
    row("shape product overflows", npy(dict("<f4", "(4294967296, 4294967296, 4)"), f4),
        u"the shape (4294967296, 4294967296, 4) has more elements than a 64-bit size can count"_s);
    row("byte count overflows", npy(dict("<f8", "(2305843009213693952,)"), f4),
        u"the shape (2305843009213693952,) of <f8 needs more bytes than a 64-bit size can count"_s);
    row("truncated data", npy(good, zeros(40)),
        u"the data is truncated: shape (3, 4) of <f4 needs 48 bytes after the header; the file has 40"_s);
    row("huge shape, tiny file", npy(dict("<f4", "(100000, 100000)"), zeros(8)),
        u"needs 40000000000 bytes after the header; the file has 8"_s);
    row("trailing bytes", npy(good, zeros(56)), u"8 trailing bytes after the data of shape (3, 4) of <f4"_s);
    row("quote in the wrong place", npy("{'descr: <f4, 'shape': (1,)}\n"), u"expected ':' after the key"_s);
    row("line break in a string", npy("{'descr\n"), u"an escape or a line break inside a string"_s);
    row("string cut by the end", npy("{'descr"), u"a string that is never closed, from byte 1"_s);
    row("escape in a string", npy("{'des\\x63r': '<f4', 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"an escape or a line break inside a string"_s);
    row("missing comma", npy("{'descr': '<f4' 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"expected ',' or '}'"_s);
    row("3.0 header not UTF-8", npy("{'descr': '<f4\xff', 'fortran_order': False, 'shape': (3, 4)}\n", f4, 3, 0),
        u"the header is not valid UTF-8"_s);
    row("3-D array where a matrix is needed", npy(dict("<f4", "(2, 3, 2)"), f4),
        u"the array is 3-D, shape (2, 3, 2); a matrix [rows, columns] is 2-D"_s, true);
    row("1-D array where a matrix is needed", npy(dict("<f4", "(12,)"), f4),
        u"the array is 1-D, shape (12,); a matrix [rows, columns] is 2-D"_s, true);
    row("0-D array where a matrix is needed", npy(dict("<f4", "()"), zeros(4)), u"the array is 0-D, shape ()"_s, true);
}

void TestNpyReader::refusesMalformed()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    QFETCH(bool, isChoice);

    const auto result = read(bytes);

    QVERIFY(!result.ok());
    QVERIFY2(result.error().reason.contains(message), qPrintable(result.error().toString()));
    QCOMPARE(result.error().path, kName);
    QVERIFY(result.error().toString().startsWith(kName + u": "_s));
    QCOMPARE(result.error().kind, isChoice ? ReadError::Kind::Choice : ReadError::Kind::File);
}

void TestNpyReader::convertsValues_data()
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

void TestNpyReader::convertsValues()
{
    QFETCH(QByteArray, bytes);
    QFETCH(RowMatrixXf, expected);

    const auto result = read(bytes);

    QVERIFY2(result.ok(), qPrintable(result.error().toString()));
    QVERIFY(sameBits(result.value(), expected));
}

void TestNpyReader::readsNumpyFixtures_data()
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

void TestNpyReader::readsNumpyFixtures()
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

void TestNpyReader::roundTripsThroughWriter_data()
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

void TestNpyReader::roundTripsThroughWriter()
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

void TestNpyReader::selectsRows_data()
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

void TestNpyReader::selectsRows()
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

void TestNpyReader::refusesSelectionOutsideMatrix()
{
    const QByteArray bytes = npy(dict("<f4", "(3, 4)"), zeros(48));
    const auto tooMany = read(bytes, RowSelection::first(4));
    QVERIFY(!tooMany.ok());
    QCOMPARE(tooMany.error().reason, u"the first 4 rows were asked for, but the matrix has 3"_s);
    QCOMPARE(tooMany.error().kind, ReadError::Kind::Choice);
    const auto outside = read(bytes, RowSelection::listed({0, 3}));
    QVERIFY(!outside.ok());
    QCOMPARE(outside.error().reason, u"row 3 was asked for, but the matrix has rows 0..2"_s);
    QVERIFY(!read(bytes, RowSelection::listed({-1})).ok());
}

void TestNpyReader::inspectReadsNoData()
{
    // A source that counts what is read: inspecting must read the preamble and header only.
    const QByteArray bytes = npy(dict("<f4", "(3, 4)"), zeros(48));
    class CountingSource : public posenc::MemoryByteSource
    {
    public:
        using MemoryByteSource::MemoryByteSource;
        qint64 furthest = 0;

    protected:
        bool readInside(qint64 offset, qint64 length, char *destination) override
        {
            furthest = std::max(furthest, offset + length);
            return MemoryByteSource::readInside(offset, length, destination);
        }
    };
    CountingSource source(bytes, kName);
    const auto array = posenc::NpyReader::inspect(source);
    QVERIFY(array.ok());
    QCOMPARE(array->dataOffset, bytes.size() - 48);
    QCOMPARE(source.furthest, array->dataOffset);
    QCOMPARE(array->info.shapeText(true), u"(3, 4)"_s);
    QCOMPARE(array->info.dtype, u"<f4"_s);
}

QTEST_GUILESS_MAIN(TestNpyReader)
#include "tst_npyreader.moc"
