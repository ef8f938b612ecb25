// The `posenc table` and `posenc bench` contract of DESIGN.md section 3: values against a
// float64 reference, --positions and --dims against the whole table, exit codes 2 / 3 / 4
// with their messages, and no partial file ever.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <vector>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run posenc(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(POSENC_EXECUTABLE), arguments);
    if (!process.waitForFinished(300000))
        return {};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

// An independent .npy reader for what the contract promises: format 1.0, '<f4', C order, 2-D.
struct Table
{
    qint64 rows = -1;
    qint64 cols = -1;
    std::vector<float> values;
    float at(qint64 r, qint64 c) const { return values[static_cast<std::size_t>(r * cols + c)]; }
};

Table readNpy(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    if (!bytes.startsWith("\x93NUMPY\x01\x00"))
        return {};
    const int headerLength = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    const QByteArray header = bytes.mid(10, headerLength);
    if (!header.contains("'descr': '<f4'") || !header.contains("'fortran_order': False"))
        return {};
    const qsizetype open = header.indexOf("'shape': (") + 10;
    const QList<QByteArray> dims = header.mid(open, header.indexOf(')', open) - open).split(',');
    Table t;
    t.rows = dims.value(0).trimmed().toLongLong();
    t.cols = dims.value(1).trimmed().toLongLong();
    const qsizetype dataStart = 10 + headerLength;
    if (bytes.size() - dataStart != t.rows * t.cols * 4)
        return {};
    t.values.resize(static_cast<std::size_t>(t.rows * t.cols));
    std::memcpy(t.values.data(), bytes.constData() + dataStart, t.values.size() * sizeof(float));
    return t;
}

double frequency(qint64 pair, qint64 d, double base)
{
    return std::exp(-2.0 * static_cast<double>(pair) * std::log(base) / static_cast<double>(d));
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void peMatchesFloat64Reference_data();
    void peMatchesFloat64Reference();
    void positionsEqualRowsOfWholeTable_data();
    void positionsEqualRowsOfWholeTable();
    void dimsSelectColumns();
    void csvHoldsTheSameValues();
    void invalidUsageExits2_data();
    void invalidUsageExits2();
    void unwritablePathExits3();
    void overBudgetExits4();
    void successReplacesExistingFile();
    void benchJsonHasItsKeys();
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

void TestCli::peMatchesFloat64Reference_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<int>("d");
    QTest::newRow("interleaved d=64") << u"interleaved"_s << 64;
    QTest::newRow("interleaved d=7") << u"interleaved"_s << 7;
    QTest::newRow("split d=64") << u"split"_s << 64;
    QTest::newRow("split d=7") << u"split"_s << 7;
}

void TestCli::peMatchesFloat64Reference()
{
    QFETCH(QString, layout);
    QFETCH(int, d);
    const QString file = path(u"pe_%1_%2.npy"_s.arg(layout).arg(d));
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, QString::number(d), u"--max-len"_s,
                            u"300"_s, u"--layout"_s, layout});
    QCOMPARE(run.exitCode, 0);
    const Table t = readNpy(file);
    QCOMPARE(t.rows, 300);
    QCOMPARE(t.cols, d);
    const qint64 h = (d + 1) / 2;
    double worst = 0.0;
    for (qint64 p = 0; p < t.rows; ++p) {
        for (qint64 j = 0; j < d; ++j) {
            const bool isCos = layout == u"interleaved"_s ? (j % 2 == 1) : (j >= h);
            const qint64 pair = layout == u"interleaved"_s ? j / 2 : (j >= h ? j - h : j);
            const double angle = static_cast<double>(p) * frequency(pair, d, 10000.0);
            worst = std::max(worst, std::abs(t.at(p, j) - (isCos ? std::cos(angle) : std::sin(angle))));
        }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(u"max error %1"_s.arg(worst)));
}

void TestCli::positionsEqualRowsOfWholeTable_data()
{
    QTest::addColumn<QString>("quantity");
    for (const char *q : {"pe", "embedding", "input", "output", "mask", "similarity", "error"})
        QTest::newRow(q) << QString::fromLatin1(q);
}

void TestCli::positionsEqualRowsOfWholeTable()
{
    QFETCH(QString, quantity);
    const QStringList params
        = {u"--d-model"_s, u"33"_s, u"--max-len"_s, u"700"_s, u"--seed"_s, u"7"_s, u"--dropout"_s, u"0.3"_s};
    const QString whole = path(u"whole_%1.npy"_s.arg(quantity));
    const QString part = path(u"part_%1.npy"_s.arg(quantity));
    QCOMPARE(posenc(QStringList {u"table"_s, quantity, u"-o"_s, whole} + params).exitCode, 0);
    QCOMPARE(
        posenc(QStringList {u"table"_s, quantity, u"-o"_s, part, u"--positions"_s, u"517:700"_s} + params).exitCode, 0);
    const Table w = readNpy(whole);
    const Table p = readNpy(part);
    QCOMPARE(p.rows, 183);
    QCOMPARE(p.cols, w.cols);
    for (qint64 r = 0; r < p.rows; ++r)
        QVERIFY(std::memcmp(&p.values[static_cast<std::size_t>(r * p.cols)],
                            &w.values[static_cast<std::size_t>((517 + r) * w.cols)],
                            static_cast<std::size_t>(p.cols) * 4)
                == 0);
}

void TestCli::dimsSelectColumns()
{
    const QString whole = path(u"dims_whole.npy"_s);
    const QString part = path(u"dims_part.npy"_s);
    QCOMPARE(
        posenc({u"table"_s, u"input"_s, u"-o"_s, whole, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"50"_s}).exitCode, 0);
    QCOMPARE(posenc({u"table"_s, u"input"_s, u"-o"_s, part, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"50"_s,
                     u"--dims"_s, u"63,0,10:12"_s})
                 .exitCode,
             0);
    const Table w = readNpy(whole);
    const Table p = readNpy(part);
    QCOMPARE(p.cols, 4);
    const int columns[] = {63, 0, 10, 11};
    for (qint64 r = 0; r < p.rows; ++r)
        for (int i = 0; i < 4; ++i)
            QCOMPARE(p.at(r, i), w.at(r, columns[i]));
}

void TestCli::csvHoldsTheSameValues()
{
    const QString npy = path(u"same.npy"_s);
    const QString csv = path(u"same.csv"_s);
    const QStringList params = {u"--d-model"_s, u"9"_s, u"--max-len"_s, u"20"_s};
    QCOMPARE(posenc(QStringList {u"table"_s, u"output"_s, u"-o"_s, npy} + params).exitCode, 0);
    QCOMPARE(posenc(QStringList {u"table"_s, u"output"_s, u"-o"_s, csv} + params).exitCode, 0);
    const Table t = readNpy(npy);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.size(), 21); // 20 rows and the empty text after the last newline
    for (qint64 r = 0; r < t.rows; ++r) {
        const QList<QByteArray> fields = lines[r].split(',');
        QCOMPARE(fields.size(), 9);
        for (qint64 c = 0; c < t.cols; ++c)
            QCOMPARE(std::strtof(fields[c].constData(), nullptr), t.at(r, c));
    }
}

void TestCli::invalidUsageExits2_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    const auto row
        = [](const char *name, const QStringList &args, const QString &named) { QTest::newRow(name) << args << named; };
    row("d = 0", {u"--d-model"_s, u"0"_s}, u"--d-model"_s);
    row("d negative", {u"--d-model"_s, u"-4"_s}, u"--d-model"_s);
    row("L = 0", {u"--max-len"_s, u"0"_s}, u"--max-len"_s);
    row("base 1", {u"--base"_s, u"1"_s}, u"--base"_s);
    row("base nan", {u"--base"_s, u"nan"_s}, u"--base"_s);
    row("base inf", {u"--base"_s, u"inf"_s}, u"--base"_s);
    row("p > 1", {u"--dropout"_s, u"1.5"_s}, u"--dropout"_s);
    row("p < 0", {u"--dropout"_s, u"-0.1"_s}, u"--dropout"_s);
    row("p nan", {u"--dropout"_s, u"nan"_s}, u"--dropout"_s);
    row("scale text", {u"--scale"_s, u"big"_s}, u"--scale"_s);
    row("scale inf", {u"--scale"_s, u"inf"_s}, u"--scale"_s);
    row("sigma negative", {u"--init"_s, u"-1"_s}, u"--init"_s);
    row("special out of range", {u"--special"_s, u"0,5000"_s}, u"--special"_s);
    row("seq-len 0", {u"--seq-len"_s, u"0"_s}, u"--seq-len"_s);
    row("seq-len past max-len", {u"--seq-len"_s, u"5000"_s}, u"--seq-len"_s);
    row("pe-dims past d", {u"--compose"_s, u"concat"_s, u"--pe-dims"_s, u"600"_s}, u"--pe-dims"_s);
    row("layout unknown", {u"--layout"_s, u"diagonal"_s}, u"--layout"_s);
    row("positions reversed", {u"--positions"_s, u"10:5"_s}, u"--positions"_s);
    row("positions past the end", {u"--positions"_s, u"0:2000"_s}, u"--positions"_s);
    row("dims past the end", {u"--dims"_s, u"512"_s}, u"--dims"_s);
    row("unknown option", {u"--colour"_s, u"red"_s}, u"colour"_s);
    row("threads 0", {u"--threads"_s, u"0"_s}, u"--threads"_s);
}

void TestCli::invalidUsageExits2()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    const QString file = path(u"invalid.npy"_s);
    const Run run = posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, file} + arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(named), qPrintable(run.err));
    QVERIFY(!QFile::exists(file));

    QCOMPARE(posenc({u"table"_s, u"nothing"_s, u"-o"_s, file}).exitCode, 2);
    QCOMPARE(posenc({u"table"_s, u"pe"_s}).exitCode, 2);
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"-o"_s, path(u"x.txt"_s)}).exitCode, 2);
    QVERIFY(!QFile::exists(file));
}

void TestCli::unwritablePathExits3()
{
    QFile blocker(path(u"afile"_s));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const QString file = path(u"afile/pe.npy"_s);
    const Run run = posenc({u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, u"8"_s, u"--max-len"_s, u"8"_s});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains(file), qPrintable(run.err));
    const QStringList left = QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden);
    for (const QString &name : left)
        QVERIFY2(!name.startsWith(u"pe.npy"_s) && !name.contains(u"afile."_s), qPrintable(name));
}

void TestCli::overBudgetExits4()
{
    const QString file = path(u"huge.npy"_s);
    const Run run
        = posenc({u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, u"65536"_s, u"--max-len"_s, u"16777216"_s});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(u"1099511627776 cells"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"GiB"_s), qPrintable(run.err));
    QVERIFY(!QFile::exists(file));
    const Run small = posenc(
        {u"table"_s, u"similarity"_s, u"-o"_s, file, u"--max-len"_s, u"4096"_s, u"--memory-budget"_s, u"0.01"_s});
    QCOMPARE(small.exitCode, 4);
    QVERIFY(!QFile::exists(file));
}

void TestCli::successReplacesExistingFile()
{
    const QString file = path(u"existing.npy"_s);
    QFile old(file);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("the user's old file");
    old.close();
    // A refused request leaves the old file as it was.
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, u"0"_s}).exitCode, 2);
    QVERIFY(old.open(QIODevice::ReadOnly));
    QCOMPARE(old.readAll(), QByteArray("the user's old file"));
    old.close();
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"-o"_s, file, u"--d-model"_s, u"4"_s, u"--max-len"_s, u"3"_s}).exitCode, 0);
    QCOMPARE(readNpy(file).rows, 3);
}

void TestCli::benchJsonHasItsKeys()
{
    const Run run
        = posenc({u"bench"_s, u"--json"_s, u"--repeats"_s, u"1"_s, u"--max-len"_s, u"256"_s, u"--d-model"_s, u"64"_s});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    for (const char *key : {"pe_fill_gbps", "pe_fill_ms", "write_bandwidth_gbps", "pipeline_ms"})
        QVERIFY2(json.value(QLatin1StringView(key)).toDouble() > 0.0, key);
    QCOMPARE(json.value(u"rows"_s).toDouble(), 256.0);
    QVERIFY(json.value(u"pe_max_abs_error"_s).toDouble() < 1e-6);
}

// The matrix of --embeddings: a PE table written by `posenc table pe`, read back as embeddings,
// must come out of `posenc table embedding --scale 1` bit for bit, row for row.
void TestCli::embeddingsAreRowsOfTheFile_data()
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

void TestCli::embeddingsAreRowsOfTheFile()
{
    QFETCH(QStringList, arguments);
    QFETCH(QList<int>, rows);
    QFETCH(float, scale);
    const QString pe = path(u"emb_pe.npy"_s);
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"-o"_s, pe, u"--d-model"_s, u"16"_s, u"--max-len"_s, u"40"_s}).exitCode, 0);
    const QString out = path(u"emb_out.npy"_s);
    QStringList args = {u"table"_s, u"embedding"_s, u"-o"_s, out, u"--embeddings"_s, pe};
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

void TestCli::embeddingsFromSafetensorsTensor()
{
    const QString file = path(u"two.safetensors"_s);
    QVERIFY(writeBytes(file, twoTensorSafetensors()));
    const QString out = path(u"wpe.npy"_s);
    const Run run
        = posenc({u"table"_s, u"embedding"_s, u"-o"_s, out, u"--embeddings"_s, file + u":wpe"_s, u"--scale"_s, u"1"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table t = readNpy(out);
    QCOMPARE(t.rows, 4);
    QCOMPARE(t.cols, 2);
    for (int i = 0; i < 8; ++i)
        QCOMPARE(t.at(i / 2, i % 2), 0.5f + float(i));

    const Run wte = posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--embeddings"_s, file + u":wte"_s, u"--scale"_s,
                            u"1"_s, u"--max-len"_s, u"2"_s});
    QVERIFY2(wte.exitCode == 0, qPrintable(wte.err));
    const Table x = readNpy(out);
    QCOMPARE(x.rows, 2);
    // X = E + PE; PE row 0 of d = 2 is (sin 0, cos 0) = (0, 1).
    QCOMPARE(x.at(0, 0), 1.0f);
    QCOMPARE(x.at(0, 1), 3.0f);
}

void TestCli::embeddingsSetDModel()
{
    const QString pe = path(u"dm_pe.npy"_s);
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"-o"_s, pe, u"--d-model"_s, u"16"_s, u"--max-len"_s, u"8"_s}).exitCode, 0);
    const QString out = path(u"dm_out.npy"_s);
    QCOMPARE(posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--embeddings"_s, pe}).exitCode, 0);
    QCOMPARE(readNpy(out).cols, 16);
    QCOMPARE(posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--embeddings"_s, pe, u"--d-model"_s, u"16"_s}).exitCode,
             0);
    // Concatenation: the 16 columns of E, then as many PE columns.
    QCOMPARE(
        posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--embeddings"_s, pe, u"--compose"_s, u"concat"_s}).exitCode, 0);
    QCOMPARE(readNpy(out).cols, 32);
    QCOMPARE(posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--embeddings"_s, pe, u"--compose"_s, u"concat"_s,
                     u"--pe-dims"_s, u"4"_s})
                 .exitCode,
             0);
    QCOMPARE(readNpy(out).cols, 20);
}

void TestCli::embeddingsRefusals_data()
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

void TestCli::embeddingsRefusals()
{
    QFETCH(QString, fileName);
    QFETCH(QByteArray, bytes);
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QStringList, named);
    QStringList args = {u"table"_s, u"embedding"_s, u"-o"_s, path(u"refused.npy"_s)};
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

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
