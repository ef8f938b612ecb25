// A table written as .safetensors (posenc table -o FILE.safetensors) is the format as
// huggingface/safetensors defines it ("Format" in its docs): 8 bytes of little-endian header
// length, a JSON object naming each tensor's dtype, shape and data_offsets (begin, end) relative
// to the data, the data little-endian and C order. The header is read here byte by byte, and the
// file again by the program's own hardened reader, which checks every offset against the file.
#include "io/SafetensorsReader.h"
#include "io/SafetensorsWriter.h"
#include "support/TestMain.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstring>

namespace tst_safetensorswriter {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

RowMatrixXf table(std::int64_t rows, std::int64_t cols)
{
    RowMatrixXf t(rows, cols);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            t(r, c) = float(r) - float(c) / 8.0f;
    return t;
}

QByteArray written(const RowMatrixXf &t, const QString &name, WorkProgress *progress = nullptr)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!writeSafetensorsTo(buffer, t, name, progress))
        return {};
    return bytes;
}

} // namespace

class TestSafetensorsWriter : public QObject
{
    Q_OBJECT

private slots:
    void theFormatByteByByte_data();
    void theFormatByteByByte();
    void theReaderReadsItBack();
    void rowsAreCounted();
};

void TestSafetensorsWriter::theFormatByteByByte_data()
{
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<qint64>("cols");
    QTest::addColumn<QString>("name");
    QTest::newRow("pe 5 x 3") << qint64(5) << qint64(3) << u"pe"_s;
    QTest::newRow("rope-cos 7 x 8") << qint64(7) << qint64(8) << u"rope-cos"_s;
    QTest::newRow("one cell") << qint64(1) << qint64(1) << u"t5-bucket"_s;
    QTest::newRow("a name to escape") << qint64(2) << qint64(2) << u"a \"quoted\" name"_s;
}

void TestSafetensorsWriter::theFormatByteByByte()
{
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    QFETCH(QString, name);
    const RowMatrixXf t = table(rows, cols);
    const QByteArray bytes = written(t, name);
    QVERIFY(bytes.size() >= 8);
    quint64 length = 0;
    for (int i = 0; i < 8; ++i)
        length |= quint64(quint8(bytes[i])) << (8 * i);
    // The data starts at a multiple of 8, as the reference writer aligns it.
    QCOMPARE((8 + length) % 8, quint64(0));
    QJsonParseError error;
    const QJsonDocument header = QJsonDocument::fromJson(bytes.mid(8, qsizetype(length)), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject tensors = header.object();
    QCOMPARE(tensors.keys(), QStringList {name});
    const QJsonObject tensor = tensors[name].toObject();
    QCOMPARE(tensor[u"dtype"_s].toString(), u"F32"_s);
    QCOMPARE(tensor[u"shape"_s].toArray(), (QJsonArray {rows, cols}));
    const qint64 dataBytes = rows * cols * 4;
    QCOMPARE(tensor[u"data_offsets"_s].toArray(), (QJsonArray {0, dataBytes}));
    QCOMPARE(bytes.size(), qsizetype(8 + length + quint64(dataBytes)));
    // Little-endian float32, C order: cell (r, c) at (r * cols + c) * 4.
    for (qint64 r = 0; r < rows; ++r) {
        for (qint64 c = 0; c < cols; ++c) {
            quint32 bits = 0;
            for (int i = 0; i < 4; ++i)
                bits |= quint32(quint8(bytes[qsizetype(8 + length) + (r * cols + c) * 4 + i])) << (8 * i);
            float value = 0;
            std::memcpy(&value, &bits, 4);
            QCOMPARE(value, t(r, c));
        }
    }
}

void TestSafetensorsWriter::theReaderReadsItBack()
{
    const RowMatrixXf t = table(64, 12);
    const QByteArray bytes = written(t, u"rope-sin"_s);
    const auto read = SafetensorsReader::readMatrix(bytes, u"t.safetensors"_s, u"rope-sin"_s, RowSelection::all());
    QVERIFY2(read, qPrintable(read.error().toString()));
    QVERIFY(read.value() == t);
    // The only tensor needs no name.
    QVERIFY(SafetensorsReader::readMatrix(bytes, u"t.safetensors"_s, std::nullopt, RowSelection::all()));
}

void TestSafetensorsWriter::rowsAreCounted()
{
    WorkProgress progress;
    QVERIFY(!written(table(300, 5), u"pe"_s, &progress).isEmpty());
    QCOMPARE(progress.total(), std::int64_t(300));
    QCOMPARE(progress.fraction(), 1.0);
}

POSENC_TEST_GUILESS_MAIN(TestSafetensorsWriter)
} // namespace tst_safetensorswriter
#include "tst_safetensorswriter.moc"
