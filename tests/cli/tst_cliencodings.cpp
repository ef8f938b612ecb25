// --encoding sinusoidal|learned|none on the command line, in sessions and in presets: a learned
// table shaped as RoBERTa's (padding rows 0 and 1, position p at row p + 2) read from .npy and
// .safetensors gives the PE rows from its offset on; none gives X = s*E; a bad value exits 2
// naming the flag and the allowed values.
#include "CliRun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

constexpr int kRows = 66; // 64 positions after 2 padding rows
constexpr int kCols = 12;

// Cell (r, c) of the table: r + c / 100, with a padding row that stands out (-7).
float cell(int r, int c)
{
    return r < 2 ? -7.0f : static_cast<float>(r) + static_cast<float>(c) / 100.0f;
}

QByteArray littleEndian(quint64 value, int bytes)
{
    QByteArray out;
    for (int i = 0; i < bytes; ++i)
        out.append(char((value >> (8 * i)) & 0xff));
    return out;
}

QByteArray tableBytes()
{
    QByteArray data;
    for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kCols; ++c) {
            const float v = cell(r, c);
            quint32 bits = 0;
            std::memcpy(&bits, &v, 4);
            data += littleEndian(bits, 4);
        }
    return data;
}

QByteArray npyFile()
{
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + QByteArray::number(kRows) + ", "
        + QByteArray::number(kCols) + "), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    return QByteArray("\x93NUMPY\x01\x00", 8) + littleEndian(quint64(header.size()), 2) + header + tableBytes();
}

QByteArray safetensorsFile()
{
    const QByteArray data = tableBytes();
    const QByteArray json = R"({"embeddings.position_embeddings.weight":{"dtype":"F32","shape":[)"
        + QByteArray::number(kRows) + "," + QByteArray::number(kCols) + R"(],"data_offsets":[0,)"
        + QByteArray::number(data.size()) + "]}}";
    return littleEndian(quint64(json.size()), 8) + json + data;
}

} // namespace

class TestCliEncodings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void learnedTableFromItsOffset_data();
    void learnedTableFromItsOffset();
    void learnedTableSetsWidthAndLength();
    void noneInputIsScaledEmbeddings();
    void noneRefusesThePositionTable();
    void encodingInASession();
    void badEncodingExitsTwo_data();
    void badEncodingExitsTwo();
    void helpNamesTheFamilies();

private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }
};

void TestCliEncodings::initTestCase()
{
    QVERIFY(m_dir.isValid());
    for (const auto &[name, bytes] :
         {std::pair {u"roberta.npy"_s, npyFile()}, std::pair {u"roberta.safetensors"_s, safetensorsFile()}}) {
        QFile file(path(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(bytes), bytes.size());
    }
}

void TestCliEncodings::learnedTableFromItsOffset_data()
{
    QTest::addColumn<QString>("table");
    QTest::newRow("npy") << path(u"roberta.npy"_s);
    QTest::newRow("safetensors") << path(u"roberta.safetensors"_s) + u":embeddings.position_embeddings.weight"_s;
}

void TestCliEncodings::learnedTableFromItsOffset()
{
    QFETCH(QString, table);
    const QString out = path(u"pe.npy"_s);
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, out, u"--force"_s, u"--encoding"_s, u"learned"_s,
                            u"--position-table"_s, table, u"--position-offset"_s, u"2"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.out.isEmpty() && run.err.isEmpty());
    const Table pe = readNpy(out);
    // Without --max-len, every row past the padding is a position.
    QCOMPARE(pe.rows, qint64(kRows - 2));
    QCOMPARE(pe.cols, qint64(kCols));
    for (int p = 0; p < pe.rows; ++p)
        for (int c = 0; c < kCols; ++c)
            QCOMPARE(pe.at(p, c), cell(p + 2, c));
}

void TestCliEncodings::learnedTableSetsWidthAndLength()
{
    // X = s*E + P[p + 2]: the embeddings' own table, plus the learned rows.
    const QString x = path(u"x.npy"_s);
    const QString e = path(u"e.npy"_s);
    const QStringList common = {u"--force"_s,
                                u"--encoding"_s,
                                u"learned"_s,
                                u"--position-table"_s,
                                path(u"roberta.npy"_s),
                                u"--position-offset"_s,
                                u"2"_s,
                                u"--max-len"_s,
                                u"20"_s,
                                u"--seed"_s,
                                u"3"_s};
    QCOMPARE(posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, x} + common).exitCode, 0);
    QCOMPARE(posenc(QStringList {u"table"_s, u"embedding"_s, u"-o"_s, e} + common).exitCode, 0);
    const Table tx = readNpy(x);
    const Table te = readNpy(e);
    QCOMPARE(tx.rows, qint64(20));
    QCOMPARE(tx.cols, qint64(kCols)); // d_model from the table's columns
    for (int p = 0; p < 20; ++p)
        for (int c = 0; c < kCols; ++c)
            QCOMPARE(tx.at(p, c), te.at(p, c) + cell(p + 2, c));
    // A length past the table's rows is refused, naming both numbers.
    const Run longer = posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, path(u"long.npy"_s)} + common.mid(0, 7)
                              + QStringList {u"--max-len"_s, u"65"_s});
    QCOMPARE(longer.exitCode, 2);
    QVERIFY2(longer.err.contains(u"--position-table"_s) && longer.err.contains(u"66 rows"_s)
                 && longer.err.contains(u"67"_s),
             qPrintable(longer.err));
    QVERIFY(!QFile::exists(path(u"long.npy"_s)));
}

void TestCliEncodings::noneInputIsScaledEmbeddings()
{
    const QString x = path(u"none_x.npy"_s);
    const QString e = path(u"none_e.npy"_s);
    const QStringList common = {u"--force"_s,   u"--encoding"_s, u"none"_s,   u"--d-model"_s, u"24"_s,
                                u"--max-len"_s, u"50"_s,         u"--seed"_s, u"9"_s};
    QCOMPARE(posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, x} + common).exitCode, 0);
    QCOMPARE(posenc(QStringList {u"table"_s, u"embedding"_s, u"-o"_s, e} + common).exitCode, 0);
    const Table tx = readNpy(x);
    const Table te = readNpy(e);
    QCOMPARE(tx.rows, qint64(50));
    QVERIFY(tx.values == te.values);
    // No position term: its table is refused with the reason.
    const Run pe = posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, path(u"none_pe.npy"_s)} + common);
    QCOMPARE(pe.exitCode, 2);
    QVERIFY2(pe.err.contains(u"no position term"_s), qPrintable(pe.err));
}

void TestCliEncodings::noneRefusesThePositionTable()
{
    // A learned encoding without its table names the flag it needs.
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, path(u"nt.npy"_s), u"--encoding"_s, u"learned"_s});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(u"--position-table"_s) && run.err.contains(u"needed by encoding learned"_s),
             qPrintable(run.err));
}

void TestCliEncodings::encodingInASession()
{
    const QString session = path(u"learned.json"_s);
    QFile file(session);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "posenc-session", "version": 1, "params": {"encoding": "learned", "position-table": ")"
               + path(u"roberta.npy"_s).toUtf8() + R"(", "position-offset": "2", "max-len": "8"}})");
    file.close();
    const QString out = path(u"session_pe.npy"_s);
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, session});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table pe = readNpy(out);
    QCOMPARE(pe.rows, qint64(8));
    QCOMPARE(pe.at(0, 0), cell(2, 0));
    // A flag after the session overrides its encoding.
    const Run none = posenc(
        {u"table"_s, u"input"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, session, u"--encoding"_s, u"none"_s});
    QVERIFY2(none.exitCode == 0, qPrintable(none.err));
}

void TestCliEncodings::badEncodingExitsTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown family") << QStringList {u"--encoding"_s, u"rotary"_s}
                                    << u"--encoding: must be one of sinusoidal, learned, none, rope; got 'rotary'"_s;
    QTest::newRow("negative offset") << QStringList {u"--position-offset"_s, u"-1"_s}
                                     << u"--position-offset: must be an integer in [0, 1048576]; got -1"_s;
}

void TestCliEncodings::badEncodingExitsTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    for (const QString &command : {u"table"_s, u"export"_s}) {
        const QString out = path(command == u"table"_s ? u"bad.npy"_s : u"bad.png"_s);
        const QString what = command == u"table"_s ? u"pe"_s : u"heatmap"_s;
        const Run run = posenc(QStringList {command, what, u"-o"_s, out} + arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(!QFile::exists(out));
    }
}

void TestCliEncodings::helpNamesTheFamilies()
{
    const Run run = posenc({u"table"_s, u"--help"_s});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains(u"--encoding sinusoidal|learned|none|rope"_s));
    QVERIFY(run.out.contains(u"--position-table FILE[:TENSOR]"_s));
    QVERIFY(run.out.contains(u"--position-offset N"_s));
}

QTEST_GUILESS_MAIN(TestCliEncodings)
#include "tst_cliencodings.moc"
