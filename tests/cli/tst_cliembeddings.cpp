// --embeddings FILE[:TENSOR] and --tokens of docs/ARCHITECTURE.md, Command line: the rows of a real matrix as
// token embeddings, d_model from its columns, and every refusal with its exit code (2 usage,
// 3 a malformed or missing file, 4 over the memory budget) and its message; never a partial file.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace tst_cliembeddings {
using namespace Qt::StringLiterals;
using namespace CliRun;

class TestCliEmbeddings : public QObject
{
    Q_OBJECT

private slots:
    void embeddingsAreRowsOfTheFile_data();
    void embeddingsAreRowsOfTheFile();
    void embeddingsFromSafetensorsTensor();
    void embeddingsSetDModel();
    void embeddingsRefusals_data();
    void embeddingsRefusals();

private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }
};

// The matrix of --embeddings: a PE table written by `posenc table pe`, read back as embeddings,
// must come out of `posenc table embedding --scale 1` bit for bit, row for row.
void TestCliEmbeddings::embeddingsAreRowsOfTheFile_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QList<int>>("rows"); // rows of the PE table expected, in order
    QTest::addColumn<float>("scale");
    QList<int> all;
    for (int r = 0; r < 40; ++r)
        all << r;
    QTest::newRow("max_len from the matrix") << QStringList {} << all << 1.0f;
    QTest::newRow("first max_len rows") << QStringList {u"--max-len"_s, u"10"_s} << all.mid(0, 10) << 1.0f;
    QTest::newRow("listed tokens") << QStringList {u"--tokens"_s, u"39,0,5:7"_s} << QList<int> {39, 0, 5, 6} << 1.0f;
    QTest::newRow("scaled by sqrt(d) = 4")
        << QStringList {u"--scale"_s, u"sqrt"_s, u"--max-len"_s, u"3"_s} << all.mid(0, 3) << 4.0f;
}

void TestCliEmbeddings::embeddingsAreRowsOfTheFile()
{
    QFETCH(QStringList, arguments);
    QFETCH(QList<int>, rows);
    QFETCH(float, scale);
    const QString pe = path(u"emb_pe.npy"_s);
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"--force"_s, u"-o"_s, pe, u"--d-model"_s, u"16"_s, u"--max-len"_s, u"40"_s})
                 .exitCode,
             0);
    const QString out = path(u"emb_out.npy"_s);
    QStringList args = {u"table"_s, u"embedding"_s, u"--force"_s, u"-o"_s, out, u"--embeddings"_s, pe};
    if (!arguments.contains(u"--scale"_s))
        args << u"--scale"_s << u"1"_s;
    const Run run = posenc(args + arguments);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table source = readNpy(pe);
    const Table got = readNpy(out);
    QCOMPARE(got.rows, qint64(rows.size()));
    QCOMPARE(got.cols, 16);
    for (qint64 i = 0; i < got.rows; ++i)
        for (qint64 c = 0; c < got.cols; ++c)
            QCOMPARE(got.at(i, c), scale * source.at(rows[i], c));
}

namespace {

QByteArray littleEndian(quint64 value, int bytes)
{
    QByteArray out;
    for (int i = 0; i < bytes; ++i)
        out.append(char((value >> (8 * i)) & 0xff));
    return out;
}

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray safetensorsFile(const QByteArray &json, const QByteArray &data)
{
    return littleEndian(quint64(json.size()), 8) + json + data;
}

// wte: F32 [3, 2] holding 1..6; wpe: F16 [4, 2] holding 0.5, 1.5, ..., 7.5 (bit patterns by hand).
QByteArray twoTensorSafetensors()
{
    const QByteArray json = R"({"wte":{"dtype":"F32","shape":[3,2],"data_offsets":[0,24]},)"
                            R"("wpe":{"dtype":"F16","shape":[4,2],"data_offsets":[24,40]}})";
    QByteArray data;
    for (const quint32 bits : {0x3f800000u, 0x40000000u, 0x40400000u, 0x40800000u, 0x40a00000u, 0x40c00000u})
        data += littleEndian(bits, 4);
    for (const quint16 bits : {0x3800, 0x3e00, 0x4100, 0x4300, 0x4480, 0x4580, 0x4680, 0x4780})
        data += littleEndian(bits, 2);
    return safetensorsFile(json, data);
}

QByteArray npyFile(const QByteArray &dict, const QByteArray &data)
{
    QByteArray header = dict + '\n';
    return QByteArray("\x93NUMPY\x01\x00", 8) + littleEndian(quint64(header.size()), 2) + header + data;
}

} // namespace

void TestCliEmbeddings::embeddingsFromSafetensorsTensor()
{
    const QString file = path(u"two.safetensors"_s);
    QVERIFY(writeBytes(file, twoTensorSafetensors()));
    const QString out = path(u"wpe.npy"_s);
    const Run run = posenc({u"table"_s, u"embedding"_s, u"--force"_s, u"-o"_s, out, u"--embeddings"_s, file + u":wpe"_s,
                            u"--scale"_s, u"1"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table t = readNpy(out);
    QCOMPARE(t.rows, 4);
    QCOMPARE(t.cols, 2);
    for (int i = 0; i < 8; ++i)
        QCOMPARE(t.at(i / 2, i % 2), 0.5f + float(i));

    const Run wte = posenc({u"table"_s, u"input"_s, u"--force"_s, u"-o"_s, out, u"--embeddings"_s, file + u":wte"_s,
                            u"--scale"_s, u"1"_s, u"--max-len"_s, u"2"_s});
    QVERIFY2(wte.exitCode == 0, qPrintable(wte.err));
    const Table x = readNpy(out);
    QCOMPARE(x.rows, 2);
    // X = E + PE; PE row 0 of d = 2 is (sin 0, cos 0) = (0, 1).
    QCOMPARE(x.at(0, 0), 1.0f);
    QCOMPARE(x.at(0, 1), 3.0f);
}

void TestCliEmbeddings::embeddingsSetDModel()
{
    const QString pe = path(u"dm_pe.npy"_s);
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"--force"_s, u"-o"_s, pe, u"--d-model"_s, u"16"_s, u"--max-len"_s, u"8"_s})
                 .exitCode,
             0);
    const QString out = path(u"dm_out.npy"_s);
    QCOMPARE(posenc({u"table"_s, u"input"_s, u"--force"_s, u"-o"_s, out, u"--embeddings"_s, pe}).exitCode, 0);
    QCOMPARE(readNpy(out).cols, 16);
    QCOMPARE(
        posenc({u"table"_s, u"input"_s, u"--force"_s, u"-o"_s, out, u"--embeddings"_s, pe, u"--d-model"_s, u"16"_s})
            .exitCode,
        0);
    // Concatenation: the 16 columns of E, then as many PE columns.
    QCOMPARE(
        posenc({u"table"_s, u"input"_s, u"--force"_s, u"-o"_s, out, u"--embeddings"_s, pe, u"--compose"_s, u"concat"_s})
            .exitCode,
        0);
    QCOMPARE(readNpy(out).cols, 32);
    QCOMPARE(posenc({u"table"_s, u"input"_s, u"--force"_s, u"-o"_s, out, u"--embeddings"_s, pe, u"--compose"_s,
                     u"concat"_s, u"--pe-dims"_s, u"4"_s})
                 .exitCode,
             0);
    QCOMPARE(readNpy(out).cols, 20);
}

void TestCliEmbeddings::embeddingsRefusals_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("named");
    const QByteArray good = npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", QByteArray(48, 0));
    const auto row
        = [](const char *name, const QString &file, const QByteArray &bytes, const QStringList &args, int code,
             const QStringList &named) { QTest::newRow(name) << file << bytes << args << code << named; };
    row("d-model conflicts with the matrix", u"m.npy"_s, good, {u"--d-model"_s, u"512"_s}, 2,
        {u"--d-model"_s, u"512"_s, u"--embeddings"_s, u"4 columns"_s});
    row("max-len past the rows", u"m.npy"_s, good, {u"--max-len"_s, u"5"_s}, 2,
        {u"--max-len"_s, u"3 rows"_s, u"--embeddings"_s});
    row("token out of range", u"m.npy"_s, good, {u"--tokens"_s, u"0,3"_s}, 2, {u"--tokens"_s, u"[0, 2]"_s, u"got 3"_s});
    row("tokens not a list", u"m.npy"_s, good, {u"--tokens"_s, u"a,b"_s}, 2, {u"--tokens"_s});
    row("tokens, huge range", u"m.npy"_s, good, {u"--tokens"_s, u"0:99999999999"_s}, 2, {u"--tokens"_s});
    row("tensor of a .npy", u"m.npy:wte"_s, good, {}, 2, {u"no tensor 'wte'"_s});
    row("missing tensor", u"two.safetensors:wqe"_s, twoTensorSafetensors(), {}, 2,
        {u"two.safetensors"_s, u"no tensor named 'wqe'"_s, u"wte, wpe"_s});
    row("no tensor chosen", u"two.safetensors"_s, twoTensorSafetensors(), {}, 2, {u"choose one with FILE:TENSOR"_s});
    row("3-D array", u"cube.npy"_s,
        npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 3), }", QByteArray(48, 0)), {}, 2,
        {u"3-D"_s});
    row("over the memory budget", u"m.npy"_s, good, {u"--memory-budget"_s, u"0.00000001"_s}, 4,
        {u"12 cells"_s, u"GiB"_s, u"--embeddings"_s});
    row("missing file", u"absent.npy"_s, {}, {}, 3, {u"absent.npy"_s, u"no such file"_s});
    row("truncated", u"t.npy"_s, good.chopped(4), {}, 3, {u"t.npy"_s, u"truncated"_s});
    row("trailing bytes", u"t.npy"_s, good + "xx", {}, 3, {u"t.npy"_s, u"2 trailing bytes"_s});
    row("huge header length", u"h.npy"_s, QByteArray("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12) + QByteArray(20, ' '), {},
        3, {u"header length 4294967295 runs past the end of the file (32 bytes)"_s});
    row("shape product overflow", u"o.npy"_s,
        npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4), }", {}), {}, 3,
        {u"more elements than a 64-bit size can count"_s});
    row("object dtype", u"p.npy"_s, npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (3, 4), }", {}), {}, 3,
        {u"pickled"_s});
    row("safetensors offsets overlap", u"bad.safetensors"_s,
        safetensorsFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                        R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                        QByteArray(12, 0)),
        {}, 3, {u"bad.safetensors"_s, u"overlap"_s});
    row("tokens without embeddings", QString(), {}, {u"--tokens"_s, u"1"_s}, 2, {u"--tokens"_s, u"--embeddings"_s});
}

void TestCliEmbeddings::embeddingsRefusals()
{
    QFETCH(QString, fileName);
    QFETCH(QByteArray, bytes);
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QStringList, named);
    QStringList args = {u"table"_s, u"embedding"_s, u"--force"_s, u"-o"_s, path(u"refused.npy"_s)};
    if (!fileName.isEmpty()) {
        const QString file = path(fileName.section(u':', 0, 0));
        if (!bytes.isEmpty())
            QVERIFY(writeBytes(file, bytes));
        args << u"--embeddings"_s << path(fileName);
    }
    const Run run = posenc(args + arguments);
    QVERIFY2(run.exitCode == exitCode, qPrintable(u"exit %1: %2"_s.arg(run.exitCode).arg(run.err)));
    for (const QString &text : named)
        QVERIFY2(run.err.contains(text), qPrintable(run.err));
    QVERIFY(!QFile::exists(path(u"refused.npy"_s)));
}

POSENC_TEST_GUILESS_MAIN(TestCliEmbeddings)
} // namespace tst_cliembeddings
#include "tst_cliembeddings.moc"
