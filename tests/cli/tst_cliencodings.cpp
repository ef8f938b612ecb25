// --encoding on the command line, in sessions and in presets: a learned table shaped as RoBERTa's
// (padding rows 0 and 1, position p at row p + 2) read from .npy and .safetensors gives the PE rows
// from its offset on; every family without a term gives X = s*E; a bad value exits 2 naming the
// flag and the allowed values, RoPE's as its rope-type needs them, each family's refusals as its
// test record (tests/families/<family>/) lists them; the help names every family's flags.
#include "CliRun.h"
#include "support/SandwichReference.h"
#include "support/TestFamily.h"
#include "support/TestMain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

namespace tst_cliencodings {
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
    void ropeInputIsScaledEmbeddings();
    void ropeFlagsInASession();
    void badRopeValuesExitTwo_data();
    void badRopeValuesExitTwo();
    void aRefusedHeadDimIsTheOneError();
    void helpNamesTheFamilies();
    void familiesWithoutATermAddNone_data();
    void familiesWithoutATermAddNone();
    void biasFlagsInASession();
    void badFamilyValuesExitTwo_data();
    void badFamilyValuesExitTwo();
    void sandwichTableFromItsFlags();

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
    const Run run = CliRun::posenc({u"table"_s, u"pe"_s, u"-o"_s, out, u"--force"_s, u"--encoding"_s, u"learned"_s,
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
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, x} + common).exitCode, 0);
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"embedding"_s, u"-o"_s, e} + common).exitCode, 0);
    const Table tx = readNpy(x);
    const Table te = readNpy(e);
    QCOMPARE(tx.rows, qint64(20));
    QCOMPARE(tx.cols, qint64(kCols)); // d_model from the table's columns
    for (int p = 0; p < 20; ++p)
        for (int c = 0; c < kCols; ++c)
            QCOMPARE(tx.at(p, c), te.at(p, c) + cell(p + 2, c));
    // A length past the table's rows is refused, naming both numbers.
    const Run longer = CliRun::posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, path(u"long.npy"_s)} + common.mid(0, 7)
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
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, x} + common).exitCode, 0);
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"embedding"_s, u"-o"_s, e} + common).exitCode, 0);
    const Table tx = readNpy(x);
    const Table te = readNpy(e);
    QCOMPARE(tx.rows, qint64(50));
    QVERIFY(tx.values == te.values);
    // No position term: its table is refused with the reason.
    const Run pe = CliRun::posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, path(u"none_pe.npy"_s)} + common);
    QCOMPARE(pe.exitCode, 2);
    QVERIFY2(pe.err.contains(u"no position term"_s), qPrintable(pe.err));
}

void TestCliEncodings::noneRefusesThePositionTable()
{
    // A learned encoding without its table names the flag it needs.
    const Run run = CliRun::posenc({u"table"_s, u"pe"_s, u"-o"_s, path(u"nt.npy"_s), u"--encoding"_s, u"learned"_s});
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
    const Run run = CliRun::posenc({u"table"_s, u"pe"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, session});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table pe = readNpy(out);
    QCOMPARE(pe.rows, qint64(8));
    QCOMPARE(pe.at(0, 0), cell(2, 0));
    // A flag after the session overrides its encoding.
    const Run none = CliRun::posenc(
        {u"table"_s, u"input"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, session, u"--encoding"_s, u"none"_s});
    QVERIFY2(none.exitCode == 0, qPrintable(none.err));
}

void TestCliEncodings::badEncodingExitsTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    // The parts of the message: a family added at the end of FamilyList.h lengthens the list.
    QTest::addColumn<QStringList>("message");
    QTest::newRow("unknown family") << QStringList {u"--encoding"_s, u"rotary"_s}
                                    << QStringList {u"--encoding: must be one of sinusoidal, learned, none, rope, "
                                                    "alibi, t5, deberta"_s,
                                                    u"; got 'rotary'"_s};
    QTest::newRow("negative offset") << QStringList {u"--position-offset"_s, u"-1"_s}
                                     << QStringList {
                                            u"--position-offset: must be an integer in [0, 1048576]; got -1"_s};
}

void TestCliEncodings::badEncodingExitsTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, message);
    for (const QString &command : {u"table"_s, u"export"_s}) {
        const QString out = path(command == u"table"_s ? u"bad.npy"_s : u"bad.png"_s);
        const QString what = command == u"table"_s ? u"pe"_s : u"heatmap"_s;
        const Run run = CliRun::posenc(QStringList {command, what, u"-o"_s, out} + arguments);
        QCOMPARE(run.exitCode, 2);
        for (const QString &part : message)
            QVERIFY2(run.err.contains(part), qPrintable(run.err));
        QVERIFY(!QFile::exists(out));
    }
}

void TestCliEncodings::ropeInputIsScaledEmbeddings()
{
    // RoPE rotates queries and keys: it adds no term to X. Valid RoPE flags of every type change
    // nothing in X = s*E.
    const QString x = path(u"rope_x.npy"_s);
    const QString e = path(u"rope_e.npy"_s);
    const QStringList common = {u"--force"_s, u"--encoding"_s, u"rope"_s, u"--d-model"_s,  u"24"_s, u"--max-len"_s,
                                u"50"_s,      u"--seed"_s,     u"9"_s,    u"--head-dim"_s, u"16"_s};
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"embedding"_s, u"-o"_s, e} + common).exitCode, 0);
    const Table te = readNpy(e);
    const QList<QStringList> types = {
        {},
        {u"--rope-type"_s, u"yarn"_s, u"--rope-factor"_s, u"4"_s, u"--original-max-len"_s, u"32"_s,
         u"--yarn-truncate"_s, u"false"_s, u"--mscale"_s, u"1"_s, u"--mscale-all-dim"_s, u"1"_s},
        // Llama 4 Scout's low = high is valid.
        {u"--rope-type"_s, u"llama3"_s, u"--rope-factor"_s, u"16"_s, u"--original-max-len"_s, u"32"_s,
         u"--low-freq-factor"_s, u"1"_s, u"--high-freq-factor"_s, u"1"_s},
        {u"--rope-type"_s, u"longrope"_s, u"--original-max-len"_s, u"32"_s, u"--short-factor"_s,
         u"1,1.5,2,2.5,3,3.5,4,4.5"_s, u"--long-factor"_s, u"1,2,3,4,5,6,7,8"_s, u"--attention-factor"_s, u"1.2"_s},
        {u"--rope-type"_s, u"proportional"_s, u"--partial-rotary-factor"_s, u"0.25"_s, u"--rope-layout"_s,
         u"interleaved"_s},
    };
    for (const QStringList &type : types) {
        const Run run = CliRun::posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, x} + common + type);
        QVERIFY2(run.exitCode == 0, qPrintable(type.join(u' ') + u": "_s + run.err));
        QVERIFY(readNpy(x).values == te.values);
    }
    // No position term: its table is refused with the reason.
    const Run pe = CliRun::posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, path(u"rope_pe.npy"_s)} + common);
    QCOMPARE(pe.exitCode, 2);
    QVERIFY2(pe.err.contains(u"encoding rope adds no position term"_s), qPrintable(pe.err));
}

void TestCliEncodings::ropeFlagsInASession()
{
    const QString session = path(u"rope.json"_s);
    QFile file(session);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "posenc-session", "version": 1, "params": {"encoding": "rope", "d-model": "64",
               "max-len": "8", "head-dim": "64", "rope-type": "yarn", "rope-factor": "32",
               "original-max-len": "4096", "yarn-truncate": "false", "rope-theta": "150000"}})");
    file.close();
    const QString out = path(u"rope_session.npy"_s);
    const Run run = CliRun::posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, session});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    // A flag after the session overrides it, and a refusal names the session for its values.
    const Run llama3 = CliRun::posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, session,
                                       u"--rope-type"_s, u"llama3"_s, u"--low-freq-factor"_s, u"8"_s});
    QCOMPARE(llama3.exitCode, 2);
    QVERIFY2(llama3.err.contains(u"--low-freq-factor: must be a number in (0, 4] (at most high-freq-factor); got 8"_s),
             qPrintable(llama3.err));
    const Run unset = CliRun::posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, session,
                                      u"--original-max-len"_s, u"unset"_s});
    QCOMPARE(unset.exitCode, 2);
    QVERIFY2(unset.err.contains(u"--original-max-len: is needed by rope-type yarn"_s), qPrintable(unset.err));
}

void TestCliEncodings::badRopeValuesExitTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("message"); // each part in the message
    const auto row = [](const char *name, const QStringList &arguments, const QStringList &message) {
        QTest::newRow(name) << arguments << message;
    };
    row("unknown type", {u"--rope-type"_s, u"ntk"_s},
        {u"--rope-type: must be one of default, linear, dynamic, yarn, longrope, llama3, proportional; got 'ntk'"_s});
    row("odd rotary dim", {u"--head-dim"_s, u"64"_s, u"--partial-rotary-factor"_s, u"0.3"_s},
        {u"--partial-rotary-factor: gives the rotary dim int(64"_s,
         u"= 19, which is odd; it must be a number in (0, 1]"_s, u"(head_dim 64); got 0.3"_s});
    row("zero rotary dim", {u"--head-dim"_s, u"64"_s, u"--partial-rotary-factor"_s, u"0.01"_s},
        {u"--partial-rotary-factor: gives the rotary dim int(64"_s, u"= 0, which turns nothing"_s});
    row("partial factor 0", {u"--partial-rotary-factor"_s, u"0"_s},
        {u"--partial-rotary-factor: must be a number in (0, 1]"_s, u"got 0"_s});
    row("odd head_dim", {u"--head-dim"_s, u"63"_s},
        {u"--head-dim: must be an even integer in [2, 512] (d_model); got 63"_s});
    row("head_dim past d_model", {u"--d-model"_s, u"64"_s, u"--head-dim"_s, u"128"_s},
        {u"--head-dim: must be an even integer in [2, 64] (d_model); got 128"_s});
    row("theta 1", {u"--rope-theta"_s, u"1"_s}, {u"--rope-theta: must be a number in (1, 1e15]; got 1"_s});
    row("factor 0", {u"--rope-type"_s, u"linear"_s, u"--rope-factor"_s, u"0"_s},
        {u"--rope-factor: must be a number in [0.001, 1000000]; got 0"_s});
    row("factor negative", {u"--rope-type"_s, u"yarn"_s, u"--original-max-len"_s, u"4096"_s, u"--rope-factor=-2"_s},
        {u"--rope-factor: must be a number in [0.001, 1000000]; got -2"_s});
    row("factor below 0.001", {u"--rope-type"_s, u"linear"_s, u"--rope-factor"_s, u"1e-300"_s},
        {u"--rope-factor: must be a number in [0.001, 1000000]; got 1e-300"_s});
    row("longrope without a factor",
        {u"--rope-type"_s, u"longrope"_s, u"--head-dim"_s, u"8"_s, u"--original-max-len"_s, u"16"_s,
         u"--short-factor"_s, u"1,1,1,1"_s, u"--long-factor"_s, u"1,1,1,1"_s},
        {u"--rope-factor: is needed by rope-type longrope"_s});
    row("factor missing", {u"--rope-type"_s, u"llama3"_s, u"--original-max-len"_s, u"8192"_s},
        {u"--rope-factor: is needed by rope-type llama3"_s, u"it must be a number in [0.001, 1000000]"_s});
    row("original length missing", {u"--rope-type"_s, u"yarn"_s, u"--rope-factor"_s, u"4"_s},
        {u"--original-max-len: is needed by rope-type yarn: the context length the model was trained on; it must be "
         "an integer in [1, 16777216]"_s});
    row("original length 0",
        {u"--rope-type"_s, u"dynamic"_s, u"--rope-factor"_s, u"2"_s, u"--original-max-len"_s, u"0"_s},
        {u"--original-max-len: must be an integer in [1, 16777216]; got 0"_s});
    row("longrope list of the wrong length",
        {u"--rope-type"_s, u"longrope"_s, u"--head-dim"_s, u"8"_s, u"--original-max-len"_s, u"16"_s,
         u"--short-factor"_s, u"1,1,1"_s, u"--long-factor"_s, u"1,1,1,1"_s},
        {u"--short-factor: has 3 values; it must be a list of 4 numbers in [0.001, 1000000] (rotary_dim / 2)"_s});
    row("longrope list missing",
        {u"--rope-type"_s, u"longrope"_s, u"--head-dim"_s, u"8"_s, u"--original-max-len"_s, u"16"_s,
         u"--short-factor"_s, u"1,1,1,1"_s},
        {u"--long-factor: is needed by rope-type longrope"_s, u"a list of 4 numbers in [0.001, 1000000]"_s});
    row("longrope list with a zero", {u"--short-factor"_s, u"1,0"_s},
        {u"--short-factor: must be none or a list of numbers in [0.001, 1000000]; got '1,0'"_s});
    row("llama3 low above high",
        {u"--rope-type"_s, u"llama3"_s, u"--rope-factor"_s, u"8"_s, u"--original-max-len"_s, u"8192"_s,
         u"--low-freq-factor"_s, u"5"_s, u"--high-freq-factor"_s, u"4"_s},
        {u"--low-freq-factor: must be a number in (0, 4] (at most high-freq-factor); got 5"_s});
    row("dynamic's rotary dim 2",
        {u"--rope-type"_s, u"dynamic"_s, u"--rope-factor"_s, u"2"_s, u"--original-max-len"_s, u"64"_s, u"--head-dim"_s,
         u"2"_s},
        {u"--partial-rotary-factor: gives the rotary dim int(2"_s, u"rope-type dynamic needs at least 4"_s});
    row("proportional turning nothing",
        {u"--rope-type"_s, u"proportional"_s, u"--head-dim"_s, u"4"_s, u"--partial-rotary-factor"_s, u"0.25"_s},
        {u"--partial-rotary-factor: turns int(0.25"_s, u"= 0 pairs under rope-type proportional"_s});
    row("beta_fast 0", {u"--beta-fast"_s, u"0"_s}, {u"--beta-fast: must be a number in [1e-6, 1000000]; got 0"_s});
    row("mscale negative", {u"--mscale=-1"_s}, {u"--mscale: must be a number in [0, 1000000]; got -1"_s});
    row("attention factor 0", {u"--attention-factor"_s, u"0"_s},
        {u"--attention-factor: must be a number in (0, 1000000]; got 0"_s});
    row("truncate maybe", {u"--yarn-truncate"_s, u"maybe"_s},
        {u"--yarn-truncate: must be one of true, false; got 'maybe'"_s});
}

void TestCliEncodings::badRopeValuesExitTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, message);
    const QString out = path(u"bad_rope.npy"_s);
    const Run run
        = CliRun::posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, out, u"--encoding"_s, u"rope"_s} + arguments);
    QCOMPARE(run.exitCode, 2);
    for (const QString &part : message)
        QVERIFY2(run.err.contains(part), qPrintable(u"'%1' not in: %2"_s.arg(part, run.err)));
    QVERIFY(!QFile::exists(out));
}

// Before: a head_dim over d_model was refused, and the factor lists were refused too, for not
// holding head_dim / 2 of the refused value: three errors for one.
void TestCliEncodings::aRefusedHeadDimIsTheOneError()
{
    const Run run = CliRun::posenc({u"describe"_s, u"--encoding"_s, u"rope"_s, u"--rope-type"_s, u"longrope"_s,
                                    u"--head-dim"_s, u"600"_s, u"--rope-factor"_s, u"2"_s, u"--original-max-len"_s,
                                    u"4096"_s, u"--short-factor"_s, u"1,1"_s, u"--long-factor"_s, u"1,1"_s});
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.err, u"posenc describe: --head-dim: must be an even integer in [2, 512] (d_model); got 600\n"_s);
}

void TestCliEncodings::helpNamesTheFamilies()
{
    // The commands' pages point at the parameters' page, which lists every family's flags.
    QVERIFY(CliRun::posenc({u"table"_s, u"--help"_s}).out.contains(u"posenc help parameters"_s));
    const Run run = CliRun::posenc({u"help"_s, u"parameters"_s});
    QCOMPARE(run.exitCode, 0);
    QStringList words;
    for (const TestFamily &family : TestFamilies::all())
        words.append(family.word);
    QVERIFY2(run.out.contains(u"--encoding "_s + words.join(u'|')), qPrintable(words.join(u'|')));
    QVERIFY(run.out.contains(u"--encoding sinusoidal|learned|none|rope|alibi|t5|deberta"_s));
    // Each family's flags, each of its rows and the forms its record gives.
    for (const TestFamily &family : TestFamilies::all()) {
        for (const QString &key : family.rowKeys)
            QVERIFY2(run.out.contains(u"--"_s + key), qPrintable(family.word + u": --"_s + key));
        for (const QString &flag : family.helpFlags)
            QVERIFY2(run.out.contains(flag), qPrintable(family.word + u": "_s + flag));
    }
}

void TestCliEncodings::familiesWithoutATermAddNone_data()
{
    QTest::addColumn<QString>("word");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("because");
    for (const TestFamily &family : TestFamilies::all()) {
        const posenc::FamilySpec &spec = posenc::Families::spec(family.encoding);
        if (spec.hasPositionTerm())
            continue;
        const QString because = spec.kind == posenc::FamilyKind::ScoreBias ? u": it acts on the attention scores"_s
            : spec.kind == posenc::FamilyKind::Rotation                    ? u": it rotates queries and keys"_s
                                                                           : QString();
        const QStringList flags = !family.cliFlags.isEmpty() ? family.cliFlags
            : family.figureFlags                             ? family.figureFlags(50)
                                                             : QStringList {};
        QTest::newRow(qPrintable(family.word)) << family.word << flags << because;
    }
}

void TestCliEncodings::familiesWithoutATermAddNone()
{
    // A bias on the scores, a rotation of queries and keys, or nothing: X = s*E whatever their flags.
    QFETCH(QString, word);
    QFETCH(QStringList, flags);
    QFETCH(QString, because);
    const QString x = path(u"noterm_x.npy"_s);
    const QString e = path(u"noterm_e.npy"_s);
    const QStringList common = {u"--force"_s, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"50"_s, u"--seed"_s, u"9"_s};
    QCOMPARE(CliRun::posenc(QStringList {u"table"_s, u"embedding"_s, u"-o"_s, e} + common).exitCode, 0);
    const Table te = readNpy(e);
    const QStringList family = QStringList {u"--encoding"_s, word} + flags;
    const Run run = CliRun::posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, x} + common + family);
    QVERIFY2(run.exitCode == 0, qPrintable(family.join(u' ') + u": "_s + run.err));
    QVERIFY(readNpy(x).values == te.values);
    const Run pe
        = CliRun::posenc(QStringList {u"table"_s, u"pe"_s, u"-o"_s, path(u"noterm_pe.npy"_s)} + common + family);
    QCOMPARE(pe.exitCode, 2);
    QVERIFY2(pe.err.contains(u"encoding %1 adds no position term%2"_s.arg(word, because)), qPrintable(pe.err));
}

void TestCliEncodings::biasFlagsInASession()
{
    // A session stores the switch as true or false; the flag alone sets it.
    const QString session = path(u"t5.json"_s);
    QFile file(session);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "posenc-session", "version": 1, "params": {"encoding": "t5", "t5-buckets": "33",
               "t5-causal": "true", "t5-max-distance": "64", "max-len": "8", "d-model": "4"}})");
    file.close();
    const QString out = path(u"t5_session.npy"_s);
    const Run run = CliRun::posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, session});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    // The session's odd count is the causal map's; the encoder's refuses it, naming the session.
    QFile bidirectional(path(u"t5_encoder.json"_s));
    QVERIFY(bidirectional.open(QIODevice::WriteOnly));
    bidirectional.write(R"({"format": "posenc-session", "version": 1, "params": {"encoding": "t5",
                        "t5-buckets": "33", "t5-causal": "false"}})");
    bidirectional.close();
    const Run refused = CliRun::posenc(
        {u"table"_s, u"input"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, bidirectional.fileName()});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(u"--t5-buckets: is odd"_s) && refused.err.contains(bidirectional.fileName()),
             qPrintable(refused.err));
    // The flag overrides the session's false.
    const Run causal = CliRun::posenc({u"table"_s, u"input"_s, u"-o"_s, out, u"--force"_s, u"--session"_s,
                                       bidirectional.fileName(), u"--t5-causal"_s});
    QVERIFY2(causal.exitCode == 0, qPrintable(causal.err));
    // A value that is no switch's is refused with the allowed words.
    QVERIFY(bidirectional.open(QIODevice::WriteOnly | QIODevice::Truncate));
    bidirectional.write(R"({"format": "posenc-session", "version": 1, "params": {"t5-causal": "maybe"}})");
    bidirectional.close();
    const Run maybe = CliRun::posenc(
        {u"table"_s, u"input"_s, u"-o"_s, out, u"--force"_s, u"--session"_s, bidirectional.fileName()});
    QCOMPARE(maybe.exitCode, 2);
    QVERIFY2(maybe.err.contains(u"--t5-causal: must be true or false"_s), qPrintable(maybe.err));
}

void TestCliEncodings::badFamilyValuesExitTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("message"); // each part in the message
    for (const TestFamily &family : TestFamilies::all())
        for (const TestRefusal &refusal : family.refusals)
            QTest::newRow(qPrintable(family.word + u": "_s + refusal.name)) << refusal.arguments << refusal.message;
}

void TestCliEncodings::badFamilyValuesExitTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, message);
    for (const QString &command : {u"table"_s, u"describe"_s}) {
        const QString out = path(u"bad_value.npy"_s);
        const QStringList output = command == u"table"_s ? QStringList {u"input"_s, u"-o"_s, out} : QStringList {};
        const Run run = CliRun::posenc(QStringList {command} + output + arguments);
        QCOMPARE(run.exitCode, 2);
        for (const QString &part : message)
            QVERIFY2(run.err.contains(part), qPrintable(u"'%1' not in: %2"_s.arg(part, run.err)));
        QVERIFY(run.out.isEmpty());
        QVERIFY(!QFile::exists(out));
    }
}

void TestCliEncodings::sandwichTableFromItsFlags()
{
    // No --encoding: Sandwich's flags choose it (A family inferred); the table is NeMo's formula.
    const QString out = path(u"sandwich.npy"_s);
    const Run run = CliRun::posenc({u"table"_s, u"sandwich-bias"_s, u"-o"_s, out, u"--force"_s, u"--max-len"_s, u"20"_s,
                                    u"--sandwich-heads"_s, u"8"_s, u"--sandwich-head"_s, u"2"_s,
                                    u"--sandwich-head-dim"_s, u"7"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Table t = readNpy(out);
    QCOMPARE(t.rows, qint64(20));
    QCOMPARE(t.cols, qint64(20));
    for (qint64 i = 0; i < 20; ++i)
        for (qint64 j = 0; j < 20; ++j) {
            const double expected = sandwichref::bias(8, 2, 7, i, j, false);
            QVERIFY(std::fabs(double(t.values[std::size_t(i * 20 + j)]) - expected)
                    <= 1e-6 * (1.0 + std::fabs(expected)));
        }
}

POSENC_TEST_GUILESS_MAIN(TestCliEncodings)
} // namespace tst_cliencodings
#include "tst_cliencodings.moc"
