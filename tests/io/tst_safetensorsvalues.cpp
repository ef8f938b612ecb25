// The .safetensors reader's values: F16, BF16, F32 and F64 against bit patterns worked out by hand;
// choosing a tensor by name; the listing; what the spec allows; a fixture written after the
// format's spec; row selections.
#include "ReaderFiles.h"
#include "SafetensorsRead.h"
#include "support/TestMain.h"

#include "io/SafetensorsReader.h"

#include <QTest>

#include <bit>
#include <optional>

namespace tst_safetensorsvalues {
using namespace Qt::StringLiterals;
using posenc::ReadError;
using posenc::RowSelection;
using namespace ReaderFiles;
using SafetensorsRead::entry;
using SafetensorsRead::kName;
using SafetensorsRead::read;

class TestSafetensorsValues : public QObject
{
    Q_OBJECT

private slots:
    void convertsValues_data();
    void convertsValues();
    void choosesTensorByName();
    void listsTensorsInDataOrder();
    void acceptsWhatTheSpecAllows_data();
    void acceptsWhatTheSpecAllows();
    void readsFixture();
    void selectsRows();
};

void TestSafetensorsValues::convertsValues_data()
{
    QTest::addColumn<QByteArray>("dtype");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<std::vector<quint32>>("expectedBits");
    const quint32 inf = 0x7f800000, negInf = 0xff800000;
    // binary16: 1, -2, 65504, 2^-24, 2^-14, 0x3555, inf, -inf, -0.
    QTest::newRow("F16") << QByteArray("F16")
                         << words<quint16>({0x3c00, 0xc000, 0x7bff, 0x0001, 0x0400, 0x3555, 0x7c00, 0xfc00, 0x8000})
                         << std::vector<quint32> {0x3f800000, 0xc0000000, 0x477fe000, 0x33800000, 0x38800000,
                                                  0x3eaaa000, inf,        negInf,     0x80000000};
    // bfloat16 is the upper half of a float32: 1, -2, 3.140625, inf, NaN (kept), the smallest
    // denormal, -0, the largest finite, 1/3 truncated.
    QTest::newRow("BF16") << QByteArray("BF16")
                          << words<quint16>({0x3f80, 0xc000, 0x4049, 0x7f80, 0x7fc1, 0x0001, 0x8000, 0x7f7f, 0x3eaa})
                          << std::vector<quint32> {0x3f800000, 0xc0000000, 0x40490000, inf,       0x7fc10000,
                                                   0x00010000, 0x80000000, 0x7f7f0000, 0x3eaa0000};
    QTest::newRow("F32") << QByteArray("F32")
                         << words<quint32>({0x3f800000, 0xc0490fdb, 0x00000001, 0x7f7fffff, 0xffc00000, 0, 1, 2, 3})
                         << std::vector<quint32> {0x3f800000, 0xc0490fdb, 0x00000001, 0x7f7fffff, 0xffc00000,
                                                  0,          1,          2,          3};
    // 0.1 rounds to the nearest float32; 1e300 overflows to inf; 2^-1074 underflows to 0.
    QTest::newRow("F64") << QByteArray("F64")
                         << words<quint64>({0x3fb999999999999aull, 0xc000000000000000ull, 0x7e37e43c8800759cull, 1ull,
                                            0x8000000000000000ull, 0x3ff0000000000000ull, 0x4000000000000000ull,
                                            0x4008000000000000ull, 0x4010000000000000ull})
                         << std::vector<quint32> {0x3dcccccd, 0xc0000000, inf,        0,         0x80000000,
                                                  0x3f800000, 0x40000000, 0x40400000, 0x40800000};
}

void TestSafetensorsValues::convertsValues()
{
    QFETCH(QByteArray, dtype);
    QFETCH(QByteArray, data);
    QFETCH(std::vector<quint32>, expectedBits);
    const QByteArray bytes = safetensors("{\"t\":{\"dtype\":\"" + dtype + "\",\"shape\":[3,3],\"data_offsets\":[0,"
                                             + QByteArray::number(data.size()) + "]}}",
                                         data);

    const auto result = read(bytes, u"t"_s);

    QVERIFY2(result.ok(), qPrintable(result.error().toString()));
    QCOMPARE(result->rows(), 3);
    QCOMPARE(result->cols(), 3);
    for (int i = 0; i < 9; ++i)
        QCOMPARE(std::bit_cast<quint32>(result.value()(i / 3, i % 3)), expectedBits[std::size_t(i)]);
}

void TestSafetensorsValues::choosesTensorByName()
{
    const QByteArray bytes = safetensors(
        "{" + entry("wte", "F32", "[2,2]", "[0,16]") + ',' + entry("wpe", "F32", "[1,2]", "[16,24]") + "}",
        words<quint32>({0x3f800000, 0x40000000, 0x40400000, 0x40800000, 0x40a00000, 0x40c00000}));
    const auto wte = read(bytes, u"wte"_s);
    const auto wpe = read(bytes, u"wpe"_s);
    QVERIFY(wte.ok() && wpe.ok());
    QCOMPARE(wte->rows(), 2);
    QCOMPARE(wte.value()(1, 1), 4.0f);
    QCOMPARE(wpe->rows(), 1);
    QCOMPARE(wpe.value()(0, 0), 5.0f);
    QCOMPARE(wpe.value()(0, 1), 6.0f);
}

void TestSafetensorsValues::listsTensorsInDataOrder()
{
    const QByteArray bytes
        = safetensors("{\"__metadata__\":{\"format\":\"pt\"}," + entry("z", "BF16", "[2,3]", "[0,12]") + ','
                          + entry("ids", "I64", "[3]", "[20,44]") + ',' + entry("a", "F64", "[1]", "[12,20]") + "}",
                      zeros(44));
    posenc::MemoryByteSource source(bytes, kName);
    const auto file = posenc::SafetensorsReader::inspect(source);
    QVERIFY2(file.ok(), qPrintable(file.error().toString()));
    const auto infos = file->infos();
    QCOMPARE(infos.size(), std::size_t(3));
    QCOMPARE(infos[0].name, u"z"_s);
    QCOMPARE(infos[0].dtype, u"BF16"_s);
    QCOMPARE(infos[0].shapeText(false), u"[2, 3]"_s);
    QVERIFY(infos[0].element.has_value());
    QCOMPARE(infos[1].name, u"a"_s);
    QCOMPARE(infos[2].name, u"ids"_s);
    QVERIFY(!infos[2].element.has_value()); // listed, but no matrix loads from I64
    QCOMPARE(file->dataStart, bytes.size() - 44);
}

void TestSafetensorsValues::acceptsWhatTheSpecAllows_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<std::optional<QString>>("tensor");
    QTest::addColumn<qint64>("rows");
    const QByteArray a = entry("a", "F32", "[2,2]", "[0,16]");
    QTest::newRow("header padded with spaces")
        << safetensors('{' + a + "}     ", zeros(16)) << std::optional<QString>(u"a"_s) << qint64(2);
    QTest::newRow("metadata") << safetensors("{\"__metadata__\":{\"format\":\"pt\"}," + a + '}', zeros(16))
                              << std::optional<QString>(u"a"_s) << qint64(2);
    QTest::newRow("only tensor chosen without a name")
        << safetensors('{' + a + '}', zeros(16)) << std::optional<QString>() << qint64(2);
    // The spec allows any string as a name; "FILE:" chooses "".
    QTest::newRow("tensor named "
                  " beside another")
        << safetensors('{' + entry("", "F32", "[1,2]", "[0,8]") + ',' + entry("b", "F32", "[2,2]", "[8,24]") + '}',
                       zeros(24))
        << std::optional<QString>(u""_s) << qint64(1);
    QTest::newRow("only tensor, named "
                  "")
        << safetensors('{' + entry("", "F32", "[3,2]", "[0,24]") + '}', zeros(24)) << std::optional<QString>(u""_s)
        << qint64(3);
    QTest::newRow("name with a colon") << safetensors('{' + entry("enc:w", "F32", "[2,2]", "[0,16]") + '}', zeros(16))
                                       << std::optional<QString>(u"enc:w"_s) << qint64(2);
    QTest::newRow("newer dtypes beside a matrix")
        << safetensors('{' + entry("f4", "F4", "[2,3]", "[0,3]") + ',' + entry("f6", "F6_E2M3", "[4]", "[3,6]") + ','
                           + entry("c", "C64", "[1]", "[6,14]") + ',' + entry("e", "F8_E8M0", "[2]", "[14,16]") + ','
                           + entry("a", "F32", "[2,2]", "[16,32]") + '}',
                       zeros(32))
        << std::optional<QString>(u"a"_s) << qint64(2);
    QTest::newRow("empty tensor beside another") << safetensors(
        '{' + entry("e", "F16", "[0,5]", "[0,0]") + ',' + entry("a", "F32", "[2,2]", "[0,16]") + '}', zeros(16))
                                                 << std::optional<QString>(u"e"_s) << qint64(0);
    QTest::newRow("name with spaces and unicode")
        << safetensors('{' + entry("h\xc3\xa9 l", "F32", "[2,2]", "[0,16]") + '}', zeros(16))
        << std::optional<QString>(u"h\u00e9 l"_s) << qint64(2);
}

void TestSafetensorsValues::acceptsWhatTheSpecAllows()
{
    QFETCH(QByteArray, bytes);
    QFETCH(std::optional<QString>, tensor);
    QFETCH(qint64, rows);
    const auto result = read(bytes, tensor);
    QVERIFY2(result.ok(), qPrintable(result.error().toString()));
    QCOMPARE(qint64(result->rows()), rows);
}

void TestSafetensorsValues::readsFixture()
{
    // Written by tests/data/make_fixtures.py: v(r, c) = (4 r + c - 5) / 4 in each float dtype.
    const QString path = QFINDTESTDATA("../data/safetensors/model.safetensors");
    QVERIFY(!path.isEmpty());
    for (const QString &name : {u"wte"_s, u"wpe"_s, u"ln.bias"_s, u"head"_s}) {
        posenc::FileByteSource source(path);
        QVERIFY(source.open());
        const auto result = posenc::SafetensorsReader::readMatrix(source, name, RowSelection::all());
        QVERIFY2(result.ok(), qPrintable(result.error().toString()));
        QCOMPARE(result->rows(), 3);
        QCOMPARE(result->cols(), 4);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                QCOMPARE(result.value()(r, c), float(4 * r + c - 5) / 4.0f);
    }
    posenc::FileByteSource source(path);
    QVERIFY(source.open());
    const auto cube = posenc::SafetensorsReader::readMatrix(source, u"cube"_s, RowSelection::all());
    QVERIFY(!cube.ok());
    QVERIFY(cube.error().reason.contains(u"3-D"_s));
}

void TestSafetensorsValues::selectsRows()
{
    std::vector<quint16> cells; // BF16 of r * 4 + c, exact: integers below 256 fit its 8-bit significand
    for (int r = 0; r < 50; ++r)
        for (int c = 0; c < 3; ++c)
            cells.push_back(quint16(std::bit_cast<quint32>(float(r * 4 + c)) >> 16));
    const QByteArray bytes = safetensors("{" + entry("t", "BF16", "[50,3]", "[0,300]") + "}", words(cells));
    const auto result = read(bytes, u"t"_s, RowSelection::listed({49, 0, 7, 7}));
    QVERIFY2(result.ok(), qPrintable(result.error().toString()));
    const int expectedRows[] = {49, 0, 7, 7};
    for (int i = 0; i < 4; ++i)
        for (int c = 0; c < 3; ++c)
            QCOMPARE(result.value()(i, c), float(expectedRows[i] * 4 + c));
    const auto first = read(bytes, u"t"_s, RowSelection::first(5));
    QVERIFY(first.ok());
    QCOMPARE(first->rows(), 5);
    QCOMPARE(first.value()(4, 2), 18.0f);
}

POSENC_TEST_GUILESS_MAIN(TestSafetensorsValues)
} // namespace tst_safetensorsvalues
#include "tst_safetensorsvalues.moc"
