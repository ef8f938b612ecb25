#include "io/NpyWriter.h"
#include "support/TestMain.h"

#include "support/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>

namespace tst_npywriter {
using namespace Qt::StringLiterals;
using namespace TestFiles;
using posenc::RowMatrixXf;

namespace {

// What an independent reader finds in a .npy file, byte by byte.
struct ParsedNpy
{
    int major = 0;
    int minor = 0;
    qint64 headerLength = 0;
    QByteArray dict;
    QByteArray padding;
    qint64 dataOffset = 0;
    QByteArray data;
};

std::optional<ParsedNpy> parseNpy(const QByteArray &bytes, QString &why)
{
    if (!bytes.startsWith(QByteArray("\x93NUMPY", 6)) || bytes.size() < 10) {
        why = u"no .npy magic"_s;
        return std::nullopt;
    }
    ParsedNpy npy;
    npy.major = quint8(bytes[6]);
    npy.minor = quint8(bytes[7]);
    const int lengthBytes = npy.major == 1 ? 2 : 4;
    for (int i = 0; i < lengthBytes; ++i)
        npy.headerLength |= qint64(quint8(bytes[8 + i])) << (8 * i);
    npy.dataOffset = 8 + lengthBytes + npy.headerLength;
    if (npy.dataOffset > bytes.size()) {
        why = u"header length %1 past the end of a %2-byte file"_s.arg(npy.headerLength).arg(bytes.size());
        return std::nullopt;
    }
    const QByteArray header = bytes.mid(8 + lengthBytes, npy.headerLength);
    const qsizetype dictEnd = header.lastIndexOf('}') + 1;
    if (!header.endsWith('\n') || dictEnd == 0) {
        why = u"header is not a dict followed by '\\n'"_s;
        return std::nullopt;
    }
    npy.dict = header.left(dictEnd);
    npy.padding = header.mid(dictEnd, header.size() - dictEnd - 1);
    npy.data = bytes.mid(npy.dataOffset);
    return npy;
}

QByteArray expectedDict(qint64 rows, qint64 cols)
{
    return "{'descr': '<f4', 'fortran_order': False, 'shape': (" + QByteArray::number(rows) + ", "
        + QByteArray::number(cols) + "), }";
}

quint32 littleEndianWord(const QByteArray &data, qsizetype index)
{
    const auto byte = [&](int i) { return quint32(quint8(data[index * 4 + i])); };
    return byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
}

// Every float32 bit pattern is equally likely: NaNs with payloads, denormals, infinities.
RowMatrixXf randomBits(qint64 rows, qint64 cols, quint32 seed)
{
    std::mt19937 generator(seed);
    RowMatrixXf m(rows, cols);
    for (qint64 r = 0; r < rows; ++r)
        for (qint64 c = 0; c < cols; ++c)
            m(r, c) = std::bit_cast<float>(quint32(generator()));
    return m;
}

bool hasNumpy()
{
    QProcess python;
    python.start(u"/usr/bin/python3"_s, {u"-c"_s, u"import numpy"_s});
    return python.waitForFinished(60000) && python.exitStatus() == QProcess::NormalExit && python.exitCode() == 0;
}

} // namespace

class TestNpyWriter : public QObject
{
    Q_OBJECT

private slots:
    void header_data();
    void header();
    void wrapHeaderVersion_data();
    void wrapHeaderVersion();
    void writesTable_data();
    void writesTable();
    void keepsSpecialValues_data();
    void keepsSpecialValues();
    void reportsUnwritablePath();
    void numpyLoadsTheFile_data();
    void numpyLoadsTheFile();

private:
    void verifyFile(const QString &path, const posenc::ConstBlockRef &table);
};

void TestNpyWriter::header_data()
{
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<qint64>("cols");
    QTest::addColumn<qsizetype>("expectedSize");
    // Sizes by hand: 10 fixed bytes + dict + '\n', padded up to the next multiple of 64.
    QTest::newRow("3x5") << qint64(3) << qint64(5) << qsizetype(128);
    QTest::newRow("1x1") << qint64(1) << qint64(1) << qsizetype(128);
    QTest::newRow("0 rows") << qint64(0) << qint64(5) << qsizetype(128);
    QTest::newRow("0 columns") << qint64(5) << qint64(0) << qsizetype(128);
    QTest::newRow("1x4096") << qint64(1) << qint64(4096) << qsizetype(128);
    QTest::newRow("16384x1") << qint64(16384) << qint64(1) << qsizetype(128);
    QTest::newRow("1048576x8192") << qint64(1048576) << qint64(8192) << qsizetype(128);
    QTest::newRow("largest int64 rows") << std::numeric_limits<qint64>::max() << qint64(1) << qsizetype(128);
}

void TestNpyWriter::header()
{
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    QFETCH(qsizetype, expectedSize);

    const QByteArray preamble = posenc::npyHeader(rows, cols);

    QString why;
    const auto npy = parseNpy(preamble, why);
    QVERIFY2(npy, qPrintable(why));
    QCOMPARE(npy->major, 1);
    QCOMPARE(npy->minor, 0);
    QCOMPARE(npy->dict, expectedDict(rows, cols));
    QCOMPARE(npy->padding, QByteArray(npy->padding.size(), ' '));
    QCOMPARE((10 + npy->headerLength) % 64, 0);
    QCOMPARE(npy->dataOffset, preamble.size());
    QCOMPARE(preamble.size(), expectedSize);
}

void TestNpyWriter::wrapHeaderVersion_data()
{
    QTest::addColumn<qsizetype>("dictSize");
    QTest::addColumn<int>("expectedMajor");
    QTest::addColumn<qsizetype>("expectedSize");
    QTest::newRow("small") << qsizetype(100) << 1 << qsizetype(128);
    QTest::newRow("largest 1.0 header") << qsizetype(65524) << 1 << qsizetype(65536);
    // numpy pads an already aligned header with 64 spaces, so this one no longer fits 1.0.
    QTest::newRow("aligned, needs 2.0") << qsizetype(65525) << 2 << qsizetype(65600);
    QTest::newRow("large") << qsizetype(70000) << 2 << qsizetype(70016);
}

void TestNpyWriter::wrapHeaderVersion()
{
    QFETCH(qsizetype, dictSize);
    QFETCH(int, expectedMajor);
    QFETCH(qsizetype, expectedSize);
    const QByteArray dict = '{' + QByteArray(dictSize - 2, 'x') + '}';

    const QByteArray preamble = posenc::wrapNpyHeader(dict);

    QString why;
    const auto npy = parseNpy(preamble, why);
    QVERIFY2(npy, qPrintable(why));
    QCOMPARE(npy->major, expectedMajor);
    QCOMPARE(npy->minor, 0);
    QCOMPARE(npy->dict, dict);
    QCOMPARE(npy->padding, QByteArray(npy->padding.size(), ' '));
    QCOMPARE(npy->dataOffset % 64, 0);
    QCOMPARE(preamble.size(), expectedSize);
}

void TestNpyWriter::writesTable_data()
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
    // The writer converts in chunks of 2^18 floats: cross their boundaries in every way.
    QTest::newRow("many chunks") << qint64(700) << qint64(1000) << false;
    QTest::newRow("row longer than a chunk") << qint64(3) << qint64(300001) << false;
    QTest::newRow("block over many chunks") << qint64(333) << qint64(1001) << true;
}

void TestNpyWriter::writesTable()
{
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    QFETCH(bool, isBlock);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"table.npy"_s);
    const RowMatrixXf parent = isBlock ? randomBits(rows + 3, cols + 7, quint32(rows * 31 + cols))
                                       : randomBits(rows, cols, quint32(rows * 31 + cols));
    const posenc::ConstBlockRef table
        = isBlock ? posenc::ConstBlockRef(parent.block(2, 3, rows, cols)) : posenc::ConstBlockRef(parent);
    QCOMPARE(table.outerStride(), isBlock ? cols + 7 : cols);

    const auto error = posenc::writeNpy(path, table);

    QVERIFY2(!error, qPrintable(error ? error->toString() : QString()));
    verifyFile(path, table);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList {u"table.npy"_s});
}

void TestNpyWriter::keepsSpecialValues_data()
{
    QTest::addColumn<quint32>("bits");
    QTest::newRow("+0") << quint32(0x00000000);
    QTest::newRow("-0") << quint32(0x80000000);
    QTest::newRow("smallest denormal") << quint32(0x00000001);
    QTest::newRow("largest negative denormal") << quint32(0x807fffff);
    QTest::newRow("FLT_MIN") << quint32(0x00800000);
    QTest::newRow("FLT_MAX") << quint32(0x7f7fffff);
    QTest::newRow("-FLT_MAX") << quint32(0xff7fffff);
    QTest::newRow("+inf") << quint32(0x7f800000);
    QTest::newRow("-inf") << quint32(0xff800000);
    QTest::newRow("quiet NaN") << quint32(0x7fc00000);
    QTest::newRow("negative NaN") << quint32(0xffc00000);
    QTest::newRow("NaN with payload") << quint32(0x7fc12345);
    QTest::newRow("signalling NaN") << quint32(0x7f800001);
    QTest::newRow("byte order marker") << quint32(0x01020304);
}

void TestNpyWriter::keepsSpecialValues()
{
    QFETCH(quint32, bits);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"special.npy"_s);
    RowMatrixXf table(2, 3);
    table.setConstant(1.0f);
    table(0, 1) = std::bit_cast<float>(bits);
    table(1, 2) = std::bit_cast<float>(bits);

    QVERIFY(!posenc::writeNpy(path, table));

    verifyFile(path, table);
    const QByteArray bytes = readAll(path);
    QCOMPARE(littleEndianWord(bytes.mid(128), 1), bits);
    QCOMPARE(littleEndianWord(bytes.mid(128), 5), bits);
}

void TestNpyWriter::reportsUnwritablePath()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile parent(dir.filePath(u"afile"_s));
    QVERIFY(parent.open(QIODevice::WriteOnly));
    parent.close();
    const QString path = dir.filePath(u"afile/x.npy"_s);

    const auto error = posenc::writeNpy(path, randomBits(3, 4, 1));

    QVERIFY(error);
    QVERIFY(error->toString().startsWith(path + u": "_s));
    QVERIFY(!error->reason.isEmpty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList {u"afile"_s});
}

void TestNpyWriter::numpyLoadsTheFile_data()
{
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<qint64>("cols");
    QTest::addColumn<bool>("isBlock");
    QTest::newRow("3x5") << qint64(3) << qint64(5) << false;
    QTest::newRow("0 rows") << qint64(0) << qint64(5) << false;
    QTest::newRow("block 6x9") << qint64(6) << qint64(9) << true;
}

void TestNpyWriter::numpyLoadsTheFile()
{
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    QFETCH(bool, isBlock);
    if (!hasNumpy())
        QSKIP("numpy is not installed for /usr/bin/python3");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"table.npy"_s);
    const RowMatrixXf parent = isBlock ? randomBits(rows + 4, cols + 4, 7) : randomBits(rows, cols, 7);
    const posenc::ConstBlockRef table
        = isBlock ? posenc::ConstBlockRef(parent.block(1, 2, rows, cols)) : posenc::ConstBlockRef(parent);
    QVERIFY(!posenc::writeNpy(path, table));

    const QString script = u"import sys, numpy as np\n"
                           "a = np.load(sys.argv[1])\n"
                           "print(a.dtype.str, a.shape[0], a.shape[1], a.flags.c_contiguous)\n"
                           "print(a.astype('<f4').tobytes().hex())\n"_s;
    QProcess python;
    python.start(u"/usr/bin/python3"_s, {u"-c"_s, script, path});
    QVERIFY(python.waitForFinished(60000));
    QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    const QList<QByteArray> lines = python.readAllStandardOutput().split('\n');

    QByteArray expectedHex;
    for (qint64 r = 0; r < rows; ++r)
        for (qint64 c = 0; c < cols; ++c) {
            const quint32 bits = std::bit_cast<quint32>(table(r, c));
            for (int i = 0; i < 4; ++i)
                expectedHex += QByteArray(1, char(bits >> (8 * i))).toHex();
        }
    QVERIFY(lines.size() >= 2);
    QCOMPARE(lines[0], "<f4 " + QByteArray::number(rows) + ' ' + QByteArray::number(cols) + " True");
    QCOMPARE(lines[1], expectedHex);
}

void TestNpyWriter::verifyFile(const QString &path, const posenc::ConstBlockRef &table)
{
    const QByteArray bytes = readAll(path);
    QString why;
    const auto npy = parseNpy(bytes, why);
    QVERIFY2(npy, qPrintable(why));
    QCOMPARE(npy->major, 1);
    QCOMPARE(npy->minor, 0);
    QCOMPARE(npy->dict, expectedDict(table.rows(), table.cols()));
    QCOMPARE(npy->padding, QByteArray(npy->padding.size(), ' '));
    QCOMPARE(npy->dataOffset % 64, 0);
    QCOMPARE(qint64(npy->data.size()), qint64(table.rows()) * table.cols() * 4);
    qsizetype index = 0;
    for (Eigen::Index r = 0; r < table.rows(); ++r)
        for (Eigen::Index c = 0; c < table.cols(); ++c, ++index)
            if (littleEndianWord(npy->data, index) != std::bit_cast<quint32>(table(r, c)))
                QFAIL(qPrintable(u"cell (%1, %2) differs"_s.arg(r).arg(c)));
}

POSENC_TEST_GUILESS_MAIN(TestNpyWriter)
} // namespace tst_npywriter
#include "tst_npywriter.moc"
