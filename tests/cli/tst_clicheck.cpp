// `posenc check FILE[:TENSOR]` as scripts meet it: tables written here from float64 formulas as
// .npy, .safetensors and .csv files, the JSON's keys and values, the exit codes, and hostile files
// refused with the readers' messages.
#include "CliRun.h"
#include "support/TestMain.h"

#include "check/TableCheck.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <bit>
#include <cmath>
#include <functional>
#include <numbers>

namespace tst_clicheck {
using namespace Qt::StringLiterals;

namespace {

// sin / cos(p 10000^(-2i/d)), interleaved or split, from position `first`.
double paper(qint64 p, qint64 j, qint64 d, bool split, double base = 10000.0, qint64 first = 0)
{
    const qint64 h = (d + 1) / 2;
    const qint64 pair = split ? (j < h ? j : j - h) : j / 2;
    const bool cosine = split ? j >= h : j % 2 == 1;
    const double angle = double(p + first) * std::pow(base, -2.0 * double(pair) / double(d));
    return cosine ? std::cos(angle) : std::sin(angle);
}

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// A .npy of any descr and shape (format 1.0), its data as given.
QByteArray npy(const QByteArray &descr, const QByteArray &shape, const QByteArray &data)
{
    QByteArray dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    return bytes + data;
}

QByteArray floatBytes(const std::vector<float> &values)
{
    return QByteArray(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
}

// IEEE binary16 bits of a float, to nearest even (normal range).
quint16 halfBits(float x)
{
    if (x == 0.0f)
        return std::signbit(x) ? 0x8000 : 0;
    const int e = std::ilogb(x);
    if (e < -14) {
        const auto m = quint16(std::nearbyint(std::fabs(x) * 0x1p24));
        return quint16((x < 0 ? 0x8000 : 0) | m);
    }
    const double mantissa = std::fabs(double(x)) / std::ldexp(1.0, e) - 1.0;
    auto m = int(std::nearbyint(mantissa * 1024.0));
    int exponent = e + 15;
    if (m == 1024) {
        m = 0;
        ++exponent;
    }
    return quint16((x < 0 ? 0x8000 : 0) | (exponent << 10) | m);
}

// A .safetensors file of one F32 tensor `name`.
QByteArray safetensors(const QByteArray &name, qint64 rows, qint64 cols, const std::vector<float> &values)
{
    QByteArray header = "{\"" + name + "\":{\"dtype\":\"F32\",\"shape\":[" + QByteArray::number(rows) + ","
        + QByteArray::number(cols) + "],\"data_offsets\":[0," + QByteArray::number(qint64(values.size()) * 4) + "]}}";
    while (header.size() % 8 != 0)
        header.append(' ');
    QByteArray bytes(8, '\0');
    const quint64 length = quint64(header.size());
    for (int i = 0; i < 8; ++i)
        bytes[i] = char((length >> (8 * i)) & 0xff);
    return bytes + header + floatBytes(values);
}

QJsonObject jsonOf(const CliRun::Run &run)
{
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

} // namespace

class TestCliCheck : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void jsonHasTheIssuesKeys()
    {
        const QString file = path(u"pe.npy"_s);
        QVERIFY(CliRun::writeNpy(file, 2048, 64,
                                 CliRun::cells(2048, 64, [](qint64 p, qint64 j) { return paper(p, j, 64, false); })));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--json"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        const QJsonObject o = jsonOf(run);
        QStringList keys = o.keys();
        keys.sort();
        // The issue's keys, the family, and every family's findings, the product's list of them
        // (null for a sinusoid's but its own: layout, frequencies, base).
        const QStringList findings = posenc::TableCheck::findingKeys();
        for (const QString &own : {u"layout"_s, u"frequencies"_s, u"base"_s})
            QVERIFY2(findings.contains(own), qPrintable(own));
        QStringList expected = QStringList {u"format"_s,
                                            u"version"_s,
                                            u"verdict"_s,
                                            u"family"_s,
                                            u"encoding"_s,
                                            u"position_offset"_s,
                                            u"first_position_row"_s,
                                            u"positions"_s,
                                            u"precision"_s,
                                            u"mistakes"_s,
                                            u"guessed_mistakes"_s,
                                            u"max_abs_error"_s,
                                            u"worst_position"_s,
                                            u"worst_column"_s,
                                            u"diagnosis"_s}
            + findings;
        expected.sort();
        QCOMPARE(keys, expected);
        QCOMPARE(o[u"verdict"_s].toString(), u"correct"_s);
        QCOMPARE(o[u"family"_s].toString(), u"sinusoidal"_s);
        QCOMPARE(o[u"encoding"_s].toString(), u"sinusoidal"_s);
        QCOMPARE(o[u"layout"_s].toString(), u"interleaved"_s);
        QCOMPARE(o[u"frequencies"_s].toString(), u"paper"_s);
        QCOMPARE(o[u"base"_s].toDouble(), 10000.0);
        QCOMPARE(o[u"position_offset"_s].toInt(), 0);
        QCOMPARE(o[u"first_position_row"_s].toInt(), 0);
        // Positions 0 .. L - 1, nothing declared: no window to say.
        QVERIFY(o[u"positions"_s].isNull());
        QCOMPARE(o[u"precision"_s].toString(), u"exact"_s);
        QVERIFY(o[u"rope_type"_s].isNull());
        QVERIFY(o[u"attention_factor"_s].isNull());
        QVERIFY(o[u"heads"_s].isNull());
        QVERIFY(o[u"buckets"_s].isNull());
        QCOMPARE(o[u"mistakes"_s].toArray().size(), 0);
        QVERIFY(o[u"max_abs_error"_s].toDouble() < 1.2e-7);
        QVERIFY(o[u"worst_position"_s].isDouble());
    }

    void textSaysTheVerdict()
    {
        const QString file = path(u"split.npy"_s);
        QVERIFY(CliRun::writeNpy(file, 512, 32,
                                 CliRun::cells(512, 32, [](qint64 p, qint64 j) { return paper(p, j, 32, true); })));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(u"verdict: correct"_s));
        QVERIFY(run.out.contains(u"reference: sinusoidal, split"_s));
        QVERIFY(run.out.contains(u"max |error|: "_s));
    }

    // A mistake exits 1, with the issue's id and the cell where the error is largest. Cos before sin
    // in each pair is a RoPE cache of (cos, sin) pairs read flat (torchtune's), published: against
    // the paper's sinusoid declared, the mistake sin-cos-swapped.
    void mistakeExitsOne()
    {
        const QString file = path(u"swapped.npy"_s);
        QVERIFY(CliRun::writeNpy(
            file, 1024, 64, CliRun::cells(1024, 64, [](qint64 p, qint64 j) { return paper(p, j ^ 1, 64, false); })));
        const CliRun::Run undeclared = CliRun::posenc({u"check"_s, file, u"--json"_s});
        QCOMPARE(undeclared.exitCode, 0);
        QVERIFY2(jsonOf(undeclared)[u"verdict"_s].toString() == u"correct"_s, qPrintable(undeclared.out));
        const CliRun::Run run
            = CliRun::posenc({u"check"_s, file, u"--expect"_s, u"sinusoidal"_s, u"--layout"_s, u"interleaved"_s, u"--json"_s});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
        QCOMPARE(o[u"mistakes"_s].toArray(), QJsonArray {u"sin-cos-swapped"_s});
        QVERIFY(o[u"max_abs_error"_s].toDouble() > 1.0);
    }

    void oneCellChanged()
    {
        const QString file = path(u"cell.npy"_s);
        std::vector<float> values = CliRun::cells(3000, 48, [](qint64 p, qint64 j) { return paper(p, j, 48, false); });
        values[std::size_t(2222 * 48 + 31)] += 1e-3f;
        QVERIFY(CliRun::writeNpy(file, 3000, 48, values));
        const QJsonObject o = jsonOf(CliRun::posenc({u"check"_s, file, u"--json"_s}));
        QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
        QCOMPARE(o[u"worst_position"_s].toInt(), 2222);
        QCOMPARE(o[u"worst_column"_s].toInt(), 31);
        QVERIFY(o[u"diagnosis"_s].toString().contains(u"row 2222, column 31"_s));
    }

    void float16File()
    {
        const QString file = path(u"half.npy"_s);
        const std::vector<float> values
            = CliRun::cells(1024, 32, [](qint64 p, qint64 j) { return paper(p, j, 32, false); });
        QByteArray data;
        for (const float v : values) {
            const quint16 bits = halfBits(v);
            data.append(char(bits & 0xff)).append(char(bits >> 8));
        }
        QVERIFY(writeBytes(file, npy("<f2", "(1024, 32)", data)));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--json"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(jsonOf(run)[u"precision"_s].toString(), u"float16"_s);
    }

    // PyTorch's (max_len, 1, d) buffer is a table.
    void sizeOneDimensionsAreDropped()
    {
        const QString file = path(u"buffer.npy"_s);
        const std::vector<float> values
            = CliRun::cells(256, 16, [](qint64 p, qint64 j) { return paper(p, j, 16, false); });
        QVERIFY(writeBytes(file, npy("<f4", "(256, 1, 16)", floatBytes(values))));
        QCOMPARE(CliRun::posenc({u"check"_s, file}).exitCode, 0);
    }

    void safetensorsTensor()
    {
        const QString file = path(u"model.safetensors"_s);
        const std::vector<float> values
            = CliRun::cells(512, 32, [](qint64 p, qint64 j) { return paper(p, j, 32, false, 10000.0, 1); });
        QVERIFY(writeBytes(file, safetensors("pos.weight", 512, 32, values)));
        // Declared from position 0, the rows from 1 are position-offset; undeclared, a window of the
        // paper's table at positions 1..512, said.
        const CliRun::Run run
            = CliRun::posenc({u"check"_s, file + u":pos.weight"_s, u"--json"_s, u"--positions"_s, u"0:512"_s});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o[u"mistakes"_s].toArray(), QJsonArray {u"position-offset"_s});
        QCOMPARE(o[u"position_offset"_s].toInt(), 1);
        const CliRun::Run said = CliRun::posenc({u"check"_s, file + u":pos.weight"_s, u"--json"_s});
        QCOMPARE(said.exitCode, 0);
        const QJsonObject window = jsonOf(said)[u"positions"_s].toObject();
        QCOMPARE(window[u"first"_s].toInt(), 1);
        QCOMPARE(window[u"last"_s].toInt(), 512);
        QCOMPARE(window[u"declared"_s].toBool(), false);
        // A tensor the file lacks is a mistake of the command line, exit 2, as in posenc table
        // --embeddings (before: 3 here, 2 there).
        const CliRun::Run missing = CliRun::posenc({u"check"_s, file + u":nope"_s});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains(u"there is no tensor named 'nope'"_s));
    }

    void csvFile()
    {
        const QString file = path(u"pe.csv"_s);
        QByteArray text = "# written by numpy.savetxt(fmt='%.8f', delimiter=',')\n";
        for (qint64 p = 0; p < 300; ++p) {
            QStringList row;
            for (qint64 j = 0; j < 24; ++j)
                row.append(QString::number(paper(p, j, 24, true), 'f', 8));
            text += row.join(u',').toUtf8() + '\n';
        }
        QVERIFY(writeBytes(file, text));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--json"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(jsonOf(run)[u"layout"_s].toString(), u"split"_s);
    }

    // Before: the file's rounding was its coarsest cell's, so "1.00" among "%.6f" cells let an
    // error of 0.004 at row 200, column 20 pass as correct (exit 0).
    void csvOneShortCellWidensOnlyItself()
    {
        const QString file = path(u"short.csv"_s);
        QByteArray text;
        for (qint64 p = 0; p < 300; ++p) {
            QStringList row;
            for (qint64 j = 0; j < 24; ++j)
                row.append(QString::number(paper(p, j, 24, false) + (p == 200 && j == 20 ? 0.004 : 0.0), 'f', 6));
            if (p == 0)
                row[1] = u"1.00"_s; // cos 0, written with two decimals
            text += row.join(u',').toUtf8() + '\n';
        }
        QVERIFY(writeBytes(file, text));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--json"_s});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
        QVERIFY2(o[u"diagnosis"_s].toString().contains(u"row 200, column 20"_s),
                 qPrintable(o[u"diagnosis"_s].toString()));
    }

    // Before: a CSV whose lines end in CR alone was one line, refused as "line 1 ... (line 0)".
    void csvWithCrLineEnds()
    {
        const QString file = path(u"mac.csv"_s);
        QByteArray text;
        for (qint64 p = 0; p < 300; ++p) {
            QStringList row;
            for (qint64 j = 0; j < 16; ++j)
                row.append(QString::number(paper(p, j, 16, false), 'f', 8));
            text += row.join(u',').toUtf8() + '\r';
        }
        QVERIFY(writeBytes(file, text));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--json"_s});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(jsonOf(run)[u"verdict"_s].toString(), u"correct"_s);
    }

    void hostileFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        std::vector<float> values = CliRun::cells(64, 8, [](qint64 p, qint64 j) { return paper(p, j, 8, false); });
        QTest::newRow("truncated") << npy("<f4", "(64, 8)", floatBytes(values)).chopped(10) << u"t.npy"_s << 3
                                   << u"the data is truncated"_s;
        QTest::newRow("huge declared shape")
            << npy("<f4", "(1099511627776, 1024)", floatBytes(values)) << u"h.npy"_s << 3 << u"the data is truncated"_s;
        QTest::newRow("no columns") << npy("<f4", "(64, 0)", {}) << u"z.npy"_s << 3 << u"no columns"_s;
        values[std::size_t(40 * 8 + 5)] = std::numeric_limits<float>::quiet_NaN();
        QTest::newRow("a NaN cell") << npy("<f4", "(64, 8)", floatBytes(values)) << u"n.npy"_s << 3
                                    << u"row 40, column 5 holds NaN"_s;
        // Before: "holds an infinity" for a float64 cell of 1e300 (issue 62, break 10).
        std::vector<double> wide(64 * 8, 0.5);
        wide[3 * 8 + 1] = 1e300;
        QTest::newRow("a float64 cell past float32's range")
            << npy("<f8", "(64, 8)",
                   QByteArray(reinterpret_cast<const char *>(wide.data()), qsizetype(wide.size() * 8)))
            << u"w.npy"_s << 3 << u"row 3, column 1 holds an infinity or a number past float32's range"_s;
        // An array of no shape the check reads (a scalar) is what the command asked of a sound file:
        // exit 2, as everywhere, with the shapes it reads (tst_clishapes has the others).
        QTest::newRow("0-D") << npy("<f4", "()", floatBytes({1.0f})) << u"c.npy"_s << 2 << u"the shapes accepted"_s;
        QTest::newRow("ragged csv") << QByteArray("1,2\n3\n") << u"r.csv"_s << 3
                                    << u"line 2: 1 columns where the first row (line 1) has 2"_s;
        QTest::newRow("unknown format") << QByteArray("hello") << u"t.bin"_s << 3 << u"unknown format"_s;
    }
    void hostileFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, name);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QString file = path(name);
        QVERIFY(writeBytes(file, bytes));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file});
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.err.contains(file));
        QVERIFY(run.out.isEmpty());
    }

    // The registry of published forms (issue 56, item 2): each family's reference code, file and
    // function, and its forms by name, as help check --all lists them.
    void helpListsThePublishedForms()
    {
        const CliRun::Run run = CliRun::posenc({u"help"_s, u"check"_s, u"--all"_s});
        QCOMPARE(run.exitCode, 0);
        const QString text = run.out.simplified();
        QVERIFY(text.contains(u"Published forms"_s));
        for (const QString &cited :
             {u"modeling_rope_utils.py, _compute_default_rope_parameters"_s,
              u"fairseq/models/transformer.py, get_slopes"_s,
              u"modeling_t5.py, T5Attention._relative_position_bucket"_s,
              u"modeling_deberta_v2.py, make_log_bucket_position"_s, u"util/pos_embed.py, get_2d_sincos_pos_embed"_s,
              u"Llama 3.1 8B"_s, u"BLOOM-560m"_s, u"DeBERTa-v3-base"_s, u"MAE ViT-B/16"_s, u"T5's encoder"_s,
              u"the paper's sinusoid"_s})
            QVERIFY2(text.contains(cited), qPrintable(cited));
    }

    void directoryAndMissingFile()
    {
        CliRun::Run run = CliRun::posenc({u"check"_s, m_dir.path()});
        QCOMPARE(run.exitCode, 3);
        QVERIFY(run.err.contains(u"not a regular file"_s));
        run = CliRun::posenc({u"check"_s, path(u"absent.npy"_s)});
        QCOMPARE(run.exitCode, 3);
        QVERIFY(run.err.contains(u"no such file"_s));
    }

    void csvOverTheBudget()
    {
        const QString file = path(u"big.csv"_s);
        QByteArray text;
        for (int r = 0; r < 2000; ++r)
            text += "0.5,0.25,0.125,1\n";
        QVERIFY(writeBytes(file, text));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--memory-budget"_s, u"0.00001"_s});
        QCOMPARE(run.exitCode, 4);
        QVERIFY2(run.err.contains(u"8000 cells"_s), qPrintable(run.err));
    }

    void npyOverTheBudget()
    {
        const QString file = path(u"budget.npy"_s);
        QVERIFY(CliRun::writeNpy(file, 2048, 64,
                                 CliRun::cells(2048, 64, [](qint64 p, qint64 j) { return paper(p, j, 64, false); })));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--memory-budget"_s, u"0.000001"_s});
        QCOMPARE(run.exitCode, 4);
        QVERIFY2(run.err.contains(u"over the memory budget"_s), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    // The JSON of each family and mistake, as scripts read it.
    void jsonOfEachTable_data()
    {
        QTest::addColumn<std::vector<float>>("values");
        QTest::addColumn<qint64>("cols");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QJsonObject>("expected");
        const qint64 d = 64;
        const auto rows = [](qint64 rows, qint64 cols, const std::function<double(qint64, qint64)> &cell) {
            return CliRun::cells(rows, cols, cell);
        };
        const auto fairseq = [&](qint64 p, qint64 j) {
            if (p == 1)
                return 0.0;
            const qint64 h = d / 2;
            const double angle = double(p) * std::exp(-double(j % h) * std::log(10000.0) / double(h - 1));
            return j < h ? std::sin(angle) : std::cos(angle);
        };
        QTest::newRow("fairseq's weights") << rows(1026, d, fairseq) << d << QStringList()
                                           << QJsonObject {{u"verdict"_s, u"correct"_s},
                                                           {u"encoding"_s, u"sinusoidal"_s},
                                                           {u"layout"_s, u"split"_s},
                                                           {u"frequencies"_s, u"half-dim-minus-one"_s},
                                                           {u"base"_s, 10000.0},
                                                           {u"position_offset"_s, 0},
                                                           {u"first_position_row"_s, 2},
                                                           {u"precision"_s, u"exact"_s},
                                                           {u"rope_type"_s, QJsonValue::Null},
                                                           {u"mistakes"_s, QJsonArray {}}};
        QTest::newRow("exponent-column-index")
            << rows(1024, d,
                    [&](qint64 p, qint64 j) {
                        const double angle = double(p) * std::pow(10000.0, -double(j) / double(d));
                        return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
                    })
            << d << QStringList()
            << QJsonObject {{u"verdict"_s, u"mistake"_s},
                            {u"layout"_s, u"interleaved"_s},
                            {u"mistakes"_s, QJsonArray {u"exponent-column-index"_s}}};
        // Pair i at 10000^(-4i/d), the exponent doubled, alone: the formula at base 1e8 too, which no table
        // tells from it; a variant undeclared (the mistake against --expect sinusoidal).
        QTest::newRow("exponent-doubled")
            << rows(1024, d, [&](qint64 p, qint64 j) { return paper(p, j, d, true, 1e8); }) << d << QStringList()
            << QJsonObject {{u"verdict"_s, u"variant"_s},
                            {u"base"_s, 1e8},
                            {u"layout"_s, u"split"_s},
                            {u"mistakes"_s, QJsonArray {}}};
        QTest::newRow("position-divided")
            << rows(1024, d,
                    [&](qint64 p, qint64 j) {
                        const double angle = double(p) / std::pow(10000.0, -2.0 * double(j / 2) / double(d));
                        return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
                    })
            << d << QStringList()
            << QJsonObject {{u"verdict"_s, u"mistake"_s}, {u"mistakes"_s, QJsonArray {u"position-divided"_s}}};
        QTest::newRow("same-row") << rows(300, d, [&](qint64, qint64 j) { return paper(0, j, d, false); }) << d
                                  << QStringList()
                                  << QJsonObject {{u"verdict"_s, u"mistake"_s},
                                                  {u"mistakes"_s, QJsonArray {u"same-row"_s}}};
        QTest::newRow("half-precision-angles")
            << rows(9000, d,
                    [&](qint64 p, qint64 j) {
                        const double step = p < 256 ? 1.0 : std::ldexp(1.0, std::ilogb(double(p)) - 7);
                        return paper(qint64(std::nearbyint(double(p) / step) * step), j, d, false);
                    })
            << d << QStringList()
            << QJsonObject {{u"verdict"_s, u"mistake"_s}, {u"mistakes"_s, QJsonArray {u"half-precision-angles"_s}}};
        // RoPE's half layout as HF's cat((freqs, freqs)) gives it: yarn, factor 4 from 4096.
        const auto yarn = [&](double amplitude) {
            return [=](qint64 p, qint64 c) {
                const qint64 h = d / 2, i = c % h;
                const double theta = std::pow(10000.0, -2.0 * double(i) / double(d));
                const double lowDim = std::max(0.0,
                                               std::floor(double(d) * std::log(4096.0 / (32.0 * 2.0 * std::numbers::pi))
                                                          / (2.0 * std::log(10000.0))));
                const double highDim = std::min(
                    double(d - 1),
                    std::ceil(double(d) * std::log(4096.0 / (2.0 * std::numbers::pi)) / (2.0 * std::log(10000.0))));
                const double ramp = std::clamp((double(i) - lowDim) / (highDim - lowDim), 0.0, 1.0);
                const double inv = theta / 4.0 * ramp + theta * (1.0 - ramp);
                return amplitude * std::cos(double(p) * inv);
            };
        };
        const double af = 0.1 * std::log(4.0) + 1.0;
        // Yarn, factor 4 from 4096 at theta 10000: no published model's, a variant (exit 5).
        QTest::newRow("rope-cos, yarn") << rows(16384, d, yarn(af)) << d << QStringList()
                                        << QJsonObject {{u"verdict"_s, u"variant"_s},
                                                        {u"encoding"_s, u"rope-cos"_s},
                                                        {u"layout"_s, u"half"_s},
                                                        {u"rope_type"_s, u"yarn"_s},
                                                        {u"attention_factor"_s, af},
                                                        {u"base"_s, 10000.0},
                                                        {u"frequencies"_s, QJsonValue::Null},
                                                        {u"mistakes"_s, QJsonArray {}}};
        // Amplitude 1 is YaRN with mscale = mscale_all_dim (DeepSeek-V3, Mistral 3): no mistake.
        QTest::newRow("yarn, mscale = mscale_all_dim") << rows(16384, d, yarn(1.0)) << d << QStringList()
                                                       << QJsonObject {{u"verdict"_s, u"variant"_s},
                                                                       {u"rope_type"_s, u"yarn"_s},
                                                                       {u"attention_factor"_s, 1.0},
                                                                       {u"mistakes"_s, QJsonArray {}}};
        QTest::newRow("rope-layout") << rows(2048, d, yarn(af)) << d
                                     << QStringList {u"--rope-layout"_s, u"interleaved"_s}
                                     << QJsonObject {{u"verdict"_s, u"mistake"_s},
                                                     {u"layout"_s, u"half"_s},
                                                     {u"mistakes"_s, QJsonArray {u"rope-layout"_s}}};
    }
    void jsonOfEachTable()
    {
        QFETCH(std::vector<float>, values);
        QFETCH(qint64, cols);
        QFETCH(QStringList, flags);
        QFETCH(QJsonObject, expected);
        const QString file = path(QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_') + u".npy"_s);
        QVERIFY(CliRun::writeNpy(file, qint64(values.size()) / cols, cols, values));
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file, u"--json"_s} + flags);
        const QJsonObject o = jsonOf(run);
        const QString verdict = expected[u"verdict"_s].toString();
        QCOMPARE(run.exitCode, verdict == u"correct"_s ? 0 : verdict == u"variant"_s ? 5 : 1);
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            if (it.value().isDouble() && it.key() != u"position_offset"_s && it.key() != u"first_position_row"_s)
                QVERIFY2(std::fabs(o[it.key()].toDouble() - it.value().toDouble())
                             <= 1e-9 * std::fabs(it.value().toDouble()),
                         qPrintable(it.key() + u": "_s + run.out));
            else
                QVERIFY2(o[it.key()] == it.value(), qPrintable(it.key() + u": "_s + run.out));
        }
    }

    void usageErrors()
    {
        QCOMPARE(CliRun::posenc({u"check"_s}).exitCode, 2);
        const CliRun::Run layout = CliRun::posenc({u"check"_s, path(u"pe.npy"_s), u"--rope-layout"_s, u"sideways"_s});
        QCOMPARE(layout.exitCode, 2);
        QVERIFY(layout.err.contains(u"--rope-layout"_s));
        QCOMPARE(CliRun::posenc({u"check"_s, path(u"pe.npy"_s), u"--threads"_s, u"0"_s}).exitCode, 2);
        QCOMPARE(CliRun::posenc({u"check"_s, path(u"pe.npy"_s), u"--bogus"_s}).exitCode, 2);
        const CliRun::Run help = CliRun::posenc({u"check"_s, u"--help"_s});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(u"Usage: posenc check FILE[:TENSOR]"_s));
    }

    void randomIsUnknown()
    {
        const QString file = path(u"random.npy"_s);
        std::uint32_t state = 12345;
        const std::vector<float> values = CliRun::cells(400, 32, [&](qint64, qint64) {
            state = state * 1664525u + 1013904223u;
            return double(state) / 4294967296.0 - 0.5;
        });
        QVERIFY(CliRun::writeNpy(file, 400, 32, values));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--json"_s});
        QCOMPARE(run.exitCode, 7); // unknown's own exit code
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o[u"verdict"_s].toString(), u"unknown"_s);
        QVERIFY(o[u"encoding"_s].isNull());
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliCheck)
} // namespace tst_clicheck
#include "tst_clicheck.moc"
