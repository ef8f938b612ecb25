// The .npy reader's refusals: a table of malformed and hostile files, each with its own message;
// row selections outside the matrix; byte ranges outside the file.
#include "NpyRead.h"
#include "ReaderFiles.h"
#include "support/TestMain.h"

#include "io/NpyReader.h"

#include <QTest>

#include <limits>

namespace tst_npyreaderrefusals {
using namespace Qt::StringLiterals;
using posenc::ReadError;
using posenc::RowSelection;
using namespace ReaderFiles;
using NpyRead::kName;
using NpyRead::read;

class TestNpyReaderRefusals : public QObject
{
    Q_OBJECT

private slots:
    void refusesMalformed_data();
    void refusesMalformed();
    void refusesSelectionOutsideMatrix();
    void byteSourceRefusesRangesOutside();
};

void TestNpyReaderRefusals::refusesMalformed_data()
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
    row("bad magic", "\x93NUMPZ\x01\x00" + good, u"not a .npy file: it does not start with the magic \\x93NUMPY"_s);
    row("too short for the preamble", QByteArray("\x93NUMPY\x01", 7),
        u"the file is too short for a .npy file (7 bytes; the preamble alone needs 10)"_s);
    row("version 4.0", npy(good, f4, 4, 0),
        u"unsupported .npy format version 4.0 (this reader knows 1.0, 2.0 and 3.0)"_s);
    row("version 1.1", npy(good, f4, 1, 1),
        u"unsupported .npy format version 1.1 (this reader knows 1.0, 2.0 and 3.0)"_s);
    row("version 0.0", npy(good, f4, 0, 0),
        u"unsupported .npy format version 0.0 (this reader knows 1.0, 2.0 and 3.0)"_s);
    row("2.0 preamble cut short", QByteArray("\x93NUMPY\x02\x00\x10\x00", 10),
        u"the file is too short for a .npy 2.0 file (10 bytes; the preamble needs 12)"_s);
    row("header length past the end (1.0)", npy(QByteArray(110, ' '), {}, 1, 0, 65535),
        u"header length 65535 runs past the end of the file (120 bytes)"_s);
    row("huge header length (2.0)", npy(QByteArray(108, ' '), {}, 2, 0, 4294967295),
        u"header length 4294967295 runs past the end of the file (120 bytes)"_s);
    const QByteArray longHeader
        = "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 0), }" + QByteArray(1100000, ' ') + '\n';
    row("header over the limit", npy(longHeader, {}, 2, 0),
        u"header length %1 is over the limit of 1048576 bytes"_s.arg(longHeader.size()));
    row("header not a dict", npy("[('descr', '<f4')]\n"),
        u"the header is not a Python dict: it starts with byte 0x5b, not '{'"_s);
    row("header is not text", npy("\x01\x02\x03\n"),
        u"the header is not a Python dict: it starts with byte 0x01, not '{'"_s);
    row("no newline at the end", npy(good.chopped(1) + ' ', f4), u"the header does not end with a newline"_s);
    row("text after the dict", npy(good.chopped(1) + " x\n", f4),
        u"the header has byte 0x78 at byte 60, after the dict that ends at byte 59; only spaces and a final newline "
        "may follow it"_s);
    row("CRLF after the dict", npy(good.chopped(1) + "\r\n", f4),
        u"the header has byte 0x0d at byte 59, after the dict that ends at byte 59; only spaces and a final newline "
        "may follow it"_s);
    row("NUL padding after the dict", npy(good.chopped(1) + QByteArray("  \0\n", 4), f4),
        u"the header has byte 0x00 at byte 61, after the dict that ends at byte 59; only spaces and a final newline "
        "may follow it"_s);
    row("two newlines after the dict", npy(good + '\n', f4),
        u"the header has byte 0x0a at byte 60, after the dict that ends at byte 59; only spaces and a final newline "
        "may follow it"_s);
    row("missing shape", npy("{'descr': '<f4', 'fortran_order': False}\n"), u"the header has no 'shape' key"_s);
    row("missing descr", npy("{'fortran_order': False, 'shape': (1, 1)}\n", zeros(4)),
        u"the header has no 'descr' key"_s);
    row("missing fortran_order", npy("{'descr': '<f4', 'shape': (1, 1)}\n", zeros(4)),
        u"the header has no 'fortran_order' key"_s);
    row("extra key", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), 'extra': 1}\n", f4),
        u"the header has an unknown key 'extra' (a .npy header has descr, fortran_order and shape)"_s);
    row("Latin-1 key in a 1.0 header", npy("{'d\xe9scr': '<f4', 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"the header has an unknown key 'd\u00e9scr' (a .npy header has descr, fortran_order and shape)"_s);
    row("UTF-8 key in a 3.0 header",
        npy("{'d\xc3\xa9scr': '<f4', 'fortran_order': False, 'shape': (3, 4)}\n", f4, 3, 0),
        u"the header has an unknown key 'd\u00e9scr' (a .npy header has descr, fortran_order and shape)"_s);
    row("repeated key", npy("{'descr': '<f4', 'shape': (3, 4), 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"the header repeats the key 'shape'"_s);
    row("descr not a string", npy("{'descr': 4, 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"'descr' must be a string such as '<f4'"_s);
    row("structured dtype", npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"structured dtypes (a list of fields in 'descr') are not supported"_s);
    row("object dtype", npy(dict("|O", "(3, 4)"), zeros(96)),
        u"object arrays (dtype '|O') hold pickled Python objects and are refused"_s);
    const QString supported = u" (.npy matrices load from f2, f4, f8, c8, c16, i1..i8, u1..u8 and b1)"_s;
    // numpy's complex256: c8 and c16 are read as their real and imaginary parts (tst_clishapes).
    row("complex dtype of 32 bytes", npy(dict("<c32", "(3, 4)"), zeros(384)), u"unsupported dtype '<c32'"_s + supported);
    row("complex in Fortran order",
        npy("{'descr': '<c8', 'fortran_order': True, 'shape': (3, 4)}\n", zeros(96)),
        u"a complex array (dtype '<c8') in Fortran order is not read; save np.ascontiguousarray of it"_s);
    // A complex array's size said with the file's shape, not the parts' 2 it is read with.
    row("complex data truncated", npy(dict("<c8", "(3, 4)"), zeros(40)),
        u"the data is truncated: shape (3, 4) of <c8 needs 96 bytes after the header; the file has 40"_s);
    row("complex vector, trailing bytes", npy(dict("<c16", "(5,)"), zeros(88)),
        u"8 trailing bytes after the data of shape (5,) of <c16"_s);
    row("unknown dtype", npy(dict("<x4", "(3, 4)"), f4), u"unsupported dtype '<x4'"_s + supported);
    row("dtype without byte order", npy(dict("|f4", "(3, 4)"), f4),
        u"dtype '|f4' has no byte order, which only 1-byte types may omit"_s);
    row("float of 3 bytes", npy(dict("<f3", "(3, 4)"), zeros(36)), u"unsupported dtype '<f3'"_s + supported);
    row("fortran_order not a bool", npy(dict("<f4", "(3, 4)", "0"), f4), u"'fortran_order' must be True or False"_s);
    row("shape a list", npy(dict("<f4", "[3, 4]"), f4),
        u"'shape' must be a tuple of integers such as (3, 4); byte 50 of the header is not"_s);
    row("shape (5) is not a tuple", npy(dict("<f4", "(5)"), zeros(20)),
        u"'shape' (5) is an integer in Python, not a tuple: a 1-tuple is written (5,)"_s);
    row("shape of floats", npy(dict("<f4", "(3.0, 4)"), f4),
        u"'shape' must be a tuple of integers such as (3, 4); byte 52 of the header is not"_s);
    row("negative dimension", npy(dict("<f4", "(3, -4)"), f4), u"the shape has a negative dimension -4"_s);
    row("dimension -0", npy(dict("<f4", "(-0, 3)")),
        u"the shape has a dimension written -0: a dimension has no sign, and numpy refuses it"_s);
    row("65 dimensions", npy(dict("<f4", '(' + QByteArray("1, ").repeated(65) + ')'), zeros(4)),
        u"the shape has more than 64 dimensions (numpy's limit)"_s);
    row("huge dimension", npy(dict("<f4", "(99999999999999999999, 1)"), f4),
        u"the shape has a dimension too large for a 64-bit size: 99999999999999999999"_s);
    row("shape product overflows", npy(dict("<f4", "(4294967296, 4294967296, 4)"), f4),
        u"the shape (4294967296, 4294967296, 4) has more elements than a 64-bit size can count"_s);
    row("byte count overflows", npy(dict("<f8", "(2305843009213693952,)"), f4),
        u"the shape (2305843009213693952,) of <f8 needs more bytes than a 64-bit size can count"_s);
    row("truncated data", npy(good, zeros(40)),
        u"the data is truncated: shape (3, 4) of <f4 needs 48 bytes after the header; the file has 40"_s);
    row("huge shape, tiny file", npy(dict("<f4", "(100000, 100000)"), zeros(8)),
        u"the data is truncated: shape (100000, 100000) of <f4 needs 40000000000 bytes after the header; the file "
        "has 8"_s);
    row("trailing bytes", npy(good, zeros(56)), u"8 trailing bytes after the data of shape (3, 4) of <f4"_s);
    row("quote in the wrong place", npy("{'descr: <f4, 'shape': (1,)}\n"),
        u"expected ':' after the key 'descr: <f4, ' at byte 15 of the header"_s);
    row("line break in a string", npy("{'descr\n"),
        u"the header has an escape or a line break inside a string, at byte 7"_s);
    row("string cut by the end", npy("{'descr"), u"the header has a string that is never closed, from byte 1"_s);
    row("escape in a string", npy("{'des\\x63r': '<f4', 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"the header has an escape or a line break inside a string, at byte 5"_s);
    row("missing comma", npy("{'descr': '<f4' 'fortran_order': False, 'shape': (3, 4)}\n", f4),
        u"expected ',' or '}' at byte 16 of the header"_s);
    row("3.0 header not UTF-8", npy("{'descr': '<f4\xff', 'fortran_order': False, 'shape': (3, 4)}\n", f4, 3, 0),
        u"the header is not valid UTF-8"_s);
    row("3-D array where a matrix is needed", npy(dict("<f4", "(2, 3, 2)"), f4),
        u"the array is 3-D, shape (2, 3, 2); a matrix [rows, columns] is 2-D"_s, true);
    row("1-D array where a matrix is needed", npy(dict("<f4", "(12,)"), f4),
        u"the array is 1-D, shape (12,); a matrix [rows, columns] is 2-D"_s, true);
    row("0-D array where a matrix is needed", npy(dict("<f4", "()"), zeros(4)),
        u"the array is 0-D, shape (); a matrix [rows, columns] is 2-D"_s, true);
    row("10-D array: its shape shortened", npy(dict("<f4", "(1, 1, 1, 1, 1, 1, 1, 1, 3, 4)"), f4),
        u"the array is 10-D, shape (1, 1, 1, 1, 1, 1, 1, 1, \u2026 (10 dims)); a matrix [rows, columns] is 2-D"_s,
        true);
}

void TestNpyReaderRefusals::refusesMalformed()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    QFETCH(bool, isChoice);

    const auto result = read(bytes);

    QVERIFY(!result.ok());
    QCOMPARE(result.error().reason, message);
    QCOMPARE(result.error().path, kName);
    QVERIFY(result.error().toString().startsWith(kName + u": "_s));
    QCOMPARE(result.error().kind, isChoice ? ReadError::Kind::Choice : ReadError::Kind::File);
}

void TestNpyReaderRefusals::refusesSelectionOutsideMatrix()
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
    const auto none = read(npy(dict("<f4", "(0, 4)")), RowSelection::listed({0}));
    QVERIFY(!none.ok());
    QCOMPARE(none.error().reason, u"row 0 was asked for, but the matrix has no rows"_s);
}

// The message of a range outside the source names its length: offset + length may not fit 64 bits.
void TestNpyReaderRefusals::byteSourceRefusesRangesOutside()
{
    posenc::MemoryByteSource source(QByteArrayView("abc"), kName);
    char out[4];
    QVERIFY(!source.read(1, std::numeric_limits<qint64>::max(), out));
    QCOMPARE(source.errorString(), u"9223372036854775807 bytes from byte 1 are outside the file (3 bytes)"_s);
    QVERIFY(!source.read(2, 2, out));
    QCOMPARE(source.errorString(), u"2 bytes from byte 2 are outside the file (3 bytes)"_s);
}

POSENC_TEST_GUILESS_MAIN(TestNpyReaderRefusals)
} // namespace tst_npyreaderrefusals
#include "tst_npyreaderrefusals.moc"
