// `posenc check --expect FAMILY`, `--expect-table FILE` and `--expect-config FILE` as scripts meet them: a declared
// reference is compared with exactly, correct (exit 0) or a mistake (exit 1) with its location;
// each bad value refused naming its flag.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <functional>
#include <limits>

namespace tst_cliexpect {
using namespace Qt::StringLiterals;

namespace {

// sin / cos(p 10000^(-2i/d)), interleaved or split (the paper's sinusoid), in float64.
double paper(qint64 p, qint64 j, qint64 d, bool split, double base = 10000.0)
{
    const qint64 h = d / 2;
    const qint64 pair = split ? (j < h ? j : j - h) : j / 2;
    const bool cosine = split ? j >= h : j % 2 == 1;
    const double angle = double(p) * std::pow(base, -2.0 * double(pair) / double(d));
    return cosine ? std::cos(angle) : std::sin(angle);
}

QJsonObject jsonOf(const CliRun::Run &run)
{
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

} // namespace

class TestCliExpect : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }

    // The paper's sinusoid, 256 x 64, interleaved or split, at `base`.
    QString paperTable(const QString &name, bool split, double base = 10000.0)
    {
        const QString file = path(name);
        const bool written = CliRun::writeNpy(
            file, 256, 64, CliRun::cells(256, 64, [&](qint64 p, qint64 j) { return paper(p, j, 64, split, base); }));
        return written ? file : QString();
    }

    // A table posenc table writes: the round trip of a family without a float64 formula here.
    QString writtenTable(const QString &name, const QStringList &arguments)
    {
        const QString file = path(name);
        const CliRun::Run run = CliRun::posenc(QStringList {u"table"_s} + arguments + QStringList {u"-o"_s, file});
        return run.exitCode == 0 ? file : QString();
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void expectFamily_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("encoding");

        const QString interleaved = paperTable(u"paper.npy"_s, false);
        const QString split = paperTable(u"split.npy"_s, true);
        const QString base500 = paperTable(u"base500.npy"_s, false, 500.0);
        QTest::newRow("sinusoidal") << interleaved << QStringList {u"--expect"_s, u"sinusoidal"_s} << 0
                                    << u"sinusoidal"_s;
        QTest::newRow("sinusoidal, another base")
            << interleaved << QStringList {u"--expect"_s, u"sinusoidal"_s, u"--base"_s, u"500"_s} << 1
            << u"sinusoidal"_s;
        QTest::newRow("sinusoidal at base 500, declared")
            << base500 << QStringList {u"--expect"_s, u"sinusoidal"_s, u"--base"_s, u"500"_s} << 0 << u"sinusoidal"_s;
        QTest::newRow("split, declared split")
            << split << QStringList {u"--expect"_s, u"sinusoidal"_s, u"--layout"_s, u"split"_s} << 0 << u"sinusoidal"_s;
        QTest::newRow("split, interleaved expected")
            << split << QStringList {u"--expect"_s, u"sinusoidal"_s} << 1 << u"sinusoidal"_s;
        QTest::newRow("preset's width") << interleaved
                                        << QStringList {u"--expect"_s, u"sinusoidal"_s, u"--preset"_s,
                                                        u"transformer-base"_s}
                                        << 1 << u"sinusoidal"_s; // d-model: 64 columns, the preset's 512

        const QStringList llama {u"--preset"_s, u"llama-3-1-8b"_s};
        const QString sin
            = writtenTable(u"llama-sin.npy"_s, QStringList {u"rope-sin"_s, u"--max-len"_s, u"300"_s} + llama);
        const QString cos
            = writtenTable(u"llama-cos.npy"_s, QStringList {u"rope-cos"_s, u"--max-len"_s, u"300"_s} + llama);
        QTest::newRow("rope sin, preset")
            << sin << QStringList {u"--expect"_s, u"rope"_s} + llama << 0 << u"rope-sin"_s;
        QTest::newRow("rope cos, preset")
            << cos << QStringList {u"--expect"_s, u"rope"_s} + llama << 0 << u"rope-cos"_s;
        QTest::newRow("rope sin, cos named")
            << sin << QStringList {u"--expect"_s, u"rope-cos"_s} + llama << 1 << u"rope-cos"_s;
        QTest::newRow("llama3 table, default rope expected")
            << cos << QStringList {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"500000"_s} << 1 << u"rope-cos"_s;
        QTest::newRow("llama3 table, interleaved expected")
            << cos << QStringList {u"--expect"_s, u"rope"_s, u"--rope-layout"_s, u"interleaved"_s} + llama << 1
            << u"rope-cos"_s;

        // issue 62, break 4: a head wider than the default d_model 512, declared or the table's own.
        const QString wide = writtenTable(u"wide-cos.npy"_s,
                                          {u"rope-cos"_s, u"--encoding"_s, u"rope"_s, u"--head-dim"_s, u"1024"_s,
                                           u"--d-model"_s, u"1024"_s, u"--max-len"_s, u"64"_s});
        QTest::newRow("rope, head_dim 1024 declared")
            << wide << QStringList {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"1024"_s} << 0 << u"rope-cos"_s;
        QTest::newRow("rope, the table's head_dim 1024")
            << wide << QStringList {u"--expect"_s, u"rope"_s} << 0 << u"rope-cos"_s;

        const QStringList bloom {u"--preset"_s, u"bloom-560m"_s};
        const QString alibi
            = writtenTable(u"alibi.npy"_s, QStringList {u"alibi-bias"_s, u"--max-len"_s, u"64"_s} + bloom);
        QTest::newRow("alibi") << alibi << QStringList {u"--expect"_s, u"alibi"_s} + bloom << 0 << u"alibi-bias"_s;
        QTest::newRow("alibi, another head")
            << alibi << QStringList {u"--expect"_s, u"alibi"_s, u"--head"_s, u"4"_s} + bloom << 1 << u"alibi-bias"_s;
        const QString t5
            = writtenTable(u"t5.npy"_s, {u"t5-bucket"_s, u"--encoding"_s, u"t5"_s, u"--max-len"_s, u"64"_s});
        QTest::newRow("t5") << t5 << QStringList {u"--expect"_s, u"t5"_s} << 0 << u"t5-bucket"_s;
        QTest::newRow("t5, max_distance 32")
            << t5 << QStringList {u"--expect"_s, u"t5"_s, u"--t5-max-distance"_s, u"32"_s} << 1 << u"t5-bucket"_s;
        const QString deberta = writtenTable(
            u"deberta.npy"_s, {u"deberta-bucket"_s, u"--encoding"_s, u"deberta"_s, u"--max-len"_s, u"300"_s});
        QTest::newRow("deberta") << deberta << QStringList {u"--expect"_s, u"deberta"_s} << 0 << u"deberta-bucket"_s;
        QTest::newRow("deberta, 64 buckets")
            << deberta << QStringList {u"--expect"_s, u"deberta"_s, u"--deberta-buckets"_s, u"64"_s} << 1
            << u"deberta-bucket"_s;
    }
    void expectFamily()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, flags);
        QFETCH(int, exitCode);
        QFETCH(QString, encoding);
        QVERIFY(!file.isEmpty());
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file, u"--json"_s} + flags);
        QVERIFY2(run.exitCode == exitCode, qPrintable(run.out + run.err));
        if (exitCode == 2) {
            QVERIFY2(run.err.startsWith(u"posenc check: --"_s), qPrintable(run.err));
            return;
        }
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o[u"verdict"_s].toString(), exitCode == 0 ? u"correct"_s : u"mistake"_s);
        QCOMPARE(o[u"encoding"_s].toString(), encoding);
        QCOMPARE(o[u"position_offset"_s].toInt(), 0);
        // A table of another width is the family's at it (d-model), its cells compared there.
        if (exitCode == 1 && !o[u"mistakes"_s].toArray().contains(u"d-model"_s)) {
            QVERIFY(o[u"max_abs_error"_s].toDouble() > 1e-3);
            QVERIFY(o[u"worst_position"_s].toInteger() >= 0);
            QVERIFY(o[u"worst_column"_s].toInteger() >= 0);
        }
    }

    // One wrong cell: the mistake's row, column and size, as numpy would compute them.
    void expectFamilyNamesTheCell()
    {
        std::vector<float> values = CliRun::cells(256, 64, [](qint64 p, qint64 j) { return paper(p, j, 64, false); });
        const float right = values[std::size_t(100 * 64 + 9)];
        values[std::size_t(100 * 64 + 9)] = right + 0.25f;
        const QString file = path(u"one-cell.npy"_s);
        QVERIFY(CliRun::writeNpy(file, 256, 64, values));
        const QJsonObject o = jsonOf(CliRun::posenc({u"check"_s, file, u"--json"_s, u"--expect"_s, u"sinusoidal"_s}));
        QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
        QCOMPARE(o[u"worst_position"_s].toInteger(), 100);
        QCOMPARE(o[u"worst_column"_s].toInteger(), 9);
        const double exact = paper(100, 9, 64, false);
        QVERIFY(std::fabs(o[u"max_abs_error"_s].toDouble() - std::fabs(double(right + 0.25f) - exact)) < 1e-6);
        const CliRun::Run text = CliRun::posenc({u"check"_s, file, u"--expect"_s, u"sinusoidal"_s});
        QVERIFY2(text.out.contains(u"deviating: columns 9 (1 of 64); rows 100 (1 of 256)"_s), qPrintable(text.out));
    }

    // A declared reference the table deviates from: the mistake that explains it is named when the
    // table reads undeclared as that very reference with a mistake; otherwise a note says what it is.
    void expectNamesTheMistake_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("mistakes");
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<int>("offset");
        QTest::addColumn<QString>("note");

        // sin(p 10000^(-2i/d)) of HF's rotate_half layout (cos and sin of the pair in columns i and
        // i + d/2), positions from `from`: modeling_rope_utils.py, _compute_default_rope_parameters.
        const auto ropeSin = [&](const QString &name, qint64 from) {
            const QString file = path(name);
            const bool written = CliRun::writeNpy(
                file, 192, 128, CliRun::cells(192, 128, [&](qint64 p, qint64 j) {
                    return std::sin(double(p + from) * std::pow(10000.0, -2.0 * double(j % 64) / 128.0));
                }));
            return written ? file : QString();
        };
        const QString from5 = ropeSin(u"rope-sin-from-5.npy"_s, 5);
        const QString from1 = path(u"paper-from-1.npy"_s);
        QVERIFY(CliRun::writeNpy(
            from1, 256, 64, CliRun::cells(256, 64, [](qint64 p, qint64 j) { return paper(p + 1, j, 64, false); })));
        const QStringList rope {u"--expect"_s, u"rope"_s, u"--positions"_s, u"0:192"_s}; // from 0: else a window, said
        QTest::newRow("sinusoid from 1") << from1
                                         << QStringList {u"--expect"_s, u"sinusoidal"_s, u"--positions"_s, u"0:256"_s}
                                         << u"position-offset"_s << u"sinusoidal"_s << 1 << QString();
        QTest::newRow("rope sin from 5, rope expected")
            << from5 << rope << u"position-offset"_s << u"rope-sin"_s << 5 << QString();
        QTest::newRow("rope sin from 5, another theta expected")
            << from5 << rope + QStringList {u"--rope-theta"_s, u"500000"_s} << QString() << u"rope-sin"_s << 0
            << u"read without the declaration, the table is mistake (position-offset) against rope-sin, half layout, "
               "rope_type default (rope_theta 10000)"_s;
        const QString llama = writtenTable(u"llama31-cos.npy"_s,
                                           {u"rope-cos"_s, u"--max-len"_s, u"300"_s, u"--preset"_s, u"llama-3-1-8b"_s});
        // Read undeclared, the table's frequencies name what differs: llama3's scaling, its theta and
        // its factor 8, which the default type of Llama 2's declaration lacks.
        QTest::newRow("llama 3.1 table, llama 2 expected")
            << llama << QStringList {u"--expect"_s, u"rope"_s, u"--preset"_s, u"llama-2-7b"_s}
            << u"rope-type,rope-theta,rope-factor"_s << u"rope-cos"_s << 0
            << u"read without the declaration, the table is correct: RoPE's cos table as HF returns it: rope-cos, half "
               "layout, rope_type llama3"_s;
    }
    void expectNamesTheMistake()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, flags);
        QFETCH(QString, mistakes);
        QFETCH(QString, encoding);
        QFETCH(int, offset);
        QFETCH(QString, note);
        QVERIFY(!file.isEmpty());
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file, u"--json"_s} + flags);
        QVERIFY2(run.exitCode == 1, qPrintable(run.out + run.err));
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
        QCOMPARE(o[u"encoding"_s].toString(), encoding);
        QStringList named;
        for (const QJsonValue &id : o[u"mistakes"_s].toArray())
            named.append(id.toString());
        QCOMPARE(named.join(u","_s), mistakes);
        QCOMPARE(o[u"position_offset"_s].toInt(), offset);
        const CliRun::Run text = CliRun::posenc(QStringList {u"check"_s, file} + flags);
        QCOMPARE(text.exitCode, 1);
        // A declared RoPE table whose every row holds r + F reads as a later chunk (RopeRowPositions):
        // its diagnosis says so row by row, where other offsets say the cells deviating.
        const bool chunk = text.out.contains(u"(row r holds position r + %1)"_s.arg(offset));
        if (!mistakes.isEmpty()) {
            QVERIFY2(text.out.contains(u"verdict: mistake (%1)"_s.arg(mistakes.split(u","_s).join(u", "_s))),
                     qPrintable(text.out));
            QVERIFY2(chunk || text.out.contains(u"cells deviate from %1"_s.arg(encoding)), qPrintable(text.out));
        }
        // An offset named says where the positions start; a mistake named otherwise keeps the reading.
        if (mistakes.split(u","_s).contains(u"position-offset"_s))
            QVERIFY2(chunk || text.out.contains(u"positions start at %1"_s.arg(offset)), qPrintable(text.out));
        else
            QVERIFY2(text.out.contains(u"note: "_s + note), qPrintable(text.out));
    }

    void expectLearned()
    {
        // A random walk of small steps: neighbouring rows alike, as a trained table's are.
        std::vector<float> walk(std::size_t(200 * 32));
        quint32 state = 12345;
        for (std::size_t i = 0; i < walk.size(); ++i) {
            state = state * 1664525u + 1013904223u;
            const float step = float(double(state >> 8) / double(1u << 24) - 0.5) * 0.1f;
            walk[i] = (i >= 32 ? walk[i - 32] : 0.0f) + step;
        }
        const QString learned = path(u"walk.npy"_s);
        QVERIFY(CliRun::writeNpy(learned, 200, 32, walk));
        CliRun::Run run = CliRun::posenc({u"check"_s, learned, u"--expect"_s, u"learned"_s});
        QVERIFY2(run.exitCode == 6, qPrintable(run.out + run.err)); // learned, never correct
        run = CliRun::posenc({u"check"_s, paperTable(u"p.npy"_s, false), u"--expect"_s, u"learned"_s});
        QVERIFY2(run.exitCode == 1, qPrintable(run.out + run.err));
        QVERIFY(run.out.contains(u"declared learned, yet not a learned table (sinusoidal)"_s));
    }

    void expectTable()
    {
        const QString reference = paperTable(u"reference.npy"_s, false);
        std::vector<float> values = CliRun::cells(256, 64, [](qint64 p, qint64 j) { return paper(p, j, 64, false); });
        CliRun::Run run = CliRun::posenc({u"check"_s, reference, u"--expect-table"_s, reference});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY(run.out.contains(u"equals: the declared reference (the table %1)"_s.arg(reference)));
        // A learned-looking table is correct against itself alone.
        const float before = values[std::size_t(37 * 64 + 50)];
        values[std::size_t(37 * 64 + 50)] = before - 0.003f;
        values[std::size_t(200 * 64 + 3)] = 7.0f;
        const QString port = path(u"port.npy"_s);
        QVERIFY(CliRun::writeNpy(port, 256, 64, values));
        run = CliRun::posenc({u"check"_s, port, u"--expect-table"_s, reference, u"--json"_s});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
        QCOMPARE(o[u"worst_position"_s].toInteger(), 200);
        QCOMPARE(o[u"worst_column"_s].toInteger(), 3);
        const double worst = std::fabs(7.0 - double(float(paper(200, 3, 64, false))));
        QCOMPARE(o[u"max_abs_error"_s].toDouble(), double(float(worst)));
        run = CliRun::posenc({u"check"_s, port, u"--expect-table"_s, reference});
        QVERIFY2(run.out.contains(u"deviating: columns 3, 50 (2 of 64); rows 37, 200 (2 of 256)"_s),
                 qPrintable(run.out));
    }

    void expectTableShapes()
    {
        const QString reference = paperTable(u"shape-ref.npy"_s, false);
        std::vector<float> transposed(std::size_t(256 * 64));
        for (qint64 p = 0; p < 256; ++p)
            for (qint64 j = 0; j < 64; ++j)
                transposed[std::size_t(j * 256 + p)] = float(paper(p, j, 64, false));
        const QString flipped = path(u"transposed.npy"_s);
        QVERIFY(CliRun::writeNpy(flipped, 64, 256, transposed));
        CliRun::Run run = CliRun::posenc({u"check"_s, flipped, u"--expect-table"_s, reference});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(
            run.err.startsWith(u"posenc check: --expect-table: the table is 64 x 256 and the reference 256 x 64"_s),
            qPrintable(run.err));
        QVERIFY(run.err.contains(u"transposed"_s));
        // Fewer rows of the reference's width: its first rows (a weight a sequence reads), the rows said.
        const QString shorter = path(u"shorter.npy"_s);
        QVERIFY(CliRun::writeNpy(shorter, 10, 64, std::vector<float>(640, 0.5f)));
        run = CliRun::posenc({u"check"_s, shorter, u"--expect-table"_s, reference});
        QVERIFY2(run.exitCode == 1 && run.out.contains(u"compared with rows 0..9 of the 256 rows"_s),
                 qPrintable(run.out));
        // Another width: refused, both shapes said.
        QVERIFY(CliRun::writeNpy(shorter, 10, 66, std::vector<float>(660, 0.5f)));
        run = CliRun::posenc({u"check"_s, shorter, u"--expect-table"_s, reference});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"10 x 66"_s) && !run.err.contains(u"transposed"_s), qPrintable(run.err));
        run = CliRun::posenc({u"check"_s, reference, u"--expect-table"_s, path(u"absent.npy"_s)});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.startsWith(u"posenc check: --expect-table: "_s) && run.err.contains(u"absent.npy"_s),
                 qPrintable(run.err));
    }

    // Before: exit 2, and a NaN in the checked table blamed on --expect-table with no file named
    // (issue 62, break 6). A row of NaN past the rows the sample reads is found as they stream.
    void expectTableNotANumber_data()
    {
        QTest::addColumn<bool>("inReference");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("row");
        QTest::newRow("in the reference") << true << qint64(256) << qint64(3);
        QTest::newRow("in the checked table") << false << qint64(256) << qint64(3);
        QTest::newRow("in each of the reference's rows in turn, 40000 rows") << true << qint64(40000) << qint64(-1);
    }
    void expectTableNotANumber()
    {
        QFETCH(bool, inReference);
        QFETCH(qint64, rows);
        QFETCH(qint64, row);
        const std::vector<float> good
            = CliRun::cells(rows, 64, [](qint64 p, qint64 j) { return paper(p, j, 64, false); });
        const QString sound = path(u"sound-%1.npy"_s.arg(rows));
        QVERIFY(CliRun::writeNpy(sound, rows, 64, good));
        // Rows the sample may skip: a NaN in each of a few spread over the table, tried one at a time.
        const std::vector<qint64> tried
            = row >= 0 ? std::vector<qint64> {row} : std::vector<qint64> {rows / 7, rows / 3 + 1, rows - 2};
        for (const qint64 r : tried) {
            std::vector<float> values = good;
            values[std::size_t(r * 64 + 2)] = std::numeric_limits<float>::quiet_NaN();
            const QString bad = path(u"nan-%1.npy"_s.arg(r));
            QVERIFY(CliRun::writeNpy(bad, rows, 64, values));
            const CliRun::Run run = inReference ? CliRun::posenc({u"check"_s, sound, u"--expect-table"_s, bad})
                                                : CliRun::posenc({u"check"_s, bad, u"--expect-table"_s, sound});
            QVERIFY2(run.exitCode == 3, qPrintable(run.out + run.err));
            const QString said = u"posenc check: %1%2: row %3, column 2 holds NaN"_s.arg(
                inReference ? u"--expect-table: "_s : QString(), bad, QString::number(r));
            QVERIFY2(run.err.startsWith(said), qPrintable(run.err));
            QCOMPARE(run.err.count(u'\n'), 1);
            QVERIFY(run.out.isEmpty());
        }
    }

    void badValues_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::newRow("unknown family") << QStringList {u"--expect"_s, u"sinusoid"_s} << u"--expect: one of"_s;
        QTest::newRow("a parameter without --expect") << QStringList {u"--base"_s, u"500"_s} << u"--base"_s;
        QTest::newRow("two references") << QStringList {u"--expect"_s, u"rope"_s, u"--expect-table"_s, u"x.npy"_s}
                                        << u"--expect, --expect-table"_s;
        QTest::newRow("another family's preset")
            << QStringList {u"--expect"_s, u"rope"_s, u"--preset"_s, u"transformer-base"_s} << u"--expect rope"_s;
        QTest::newRow("another family's flag")
            << QStringList {u"--expect"_s, u"sinusoidal"_s, u"--rope-theta"_s, u"5"_s}
            << u"--rope-theta: rope, mrope, rope-2d's parameter; --expect sinusoidal reads sinusoidal's: the base of "
               "its frequencies is --base, a finite number greater than 1"_s;
        // --help promises --expect FAMILY the family's own flags: a sinusoid's --base is refused for
        // RoPE, the line naming RoPE's base and its range.
        QTest::newRow("a sinusoid's base for rope")
            << QStringList {u"--expect"_s, u"rope"_s, u"--base"_s, u"1e6"_s}
            << u"--base: sinusoidal's parameter; --expect rope reads rope's: the base of its frequencies is "
               "--rope-theta, a number in (1, 1e15]"_s;
        QTest::newRow("--encoding") << QStringList {u"--expect"_s, u"rope"_s, u"--encoding"_s, u"rope"_s}
                                    << u"--encoding"_s;
        QTest::newRow("a value out of range")
            << QStringList {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"-1"_s} << u"--rope-theta: must be"_s;
        QTest::newRow("learned with a formula's parameter")
            << QStringList {u"--expect"_s, u"learned"_s, u"--base"_s, u"3"_s} << u"--base"_s;
    }
    void badValues()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const QString file = paperTable(u"bad.npy"_s, false);
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file} + flags);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: "_s + named), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY(run.out.isEmpty());
    }

    void expectConfig_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("named");

        const QString configs = QStringLiteral(POSENC_CONFIGS) + u'/';
        const QString llama31 = configs + u"Meta-Llama-3.1-8B.json"_s;
        const QStringList llama {u"--preset"_s, u"llama-3-1-8b"_s, u"--max-len"_s, u"300"_s};
        const QString cos = writtenTable(u"config-cos.npy"_s, QStringList {u"rope-cos"_s} + llama);
        const QString sin = writtenTable(u"config-sin.npy"_s, QStringList {u"rope-sin"_s} + llama);
        const QString llama2 = writtenTable(u"llama2-cos.npy"_s, {u"rope-cos"_s, u"--preset"_s, u"llama-2-7b"_s});
        QTest::newRow("llama 3.1 cos") << cos << QStringList {u"--expect-config"_s, llama31} << 0 << u"rope-cos"_s;
        QTest::newRow("llama 3.1 sin") << sin << QStringList {u"--expect-config"_s, llama31} << 0 << u"rope-sin"_s;
        QTest::newRow("llama 2's table, llama 3.1's config")
            << llama2 << QStringList {u"--expect-config"_s, llama31} << 1 << u"rope-cos"_s;
        const QString alibi = writtenTable(u"config-alibi.npy"_s,
                                           {u"alibi-bias"_s, u"--preset"_s, u"bloom-560m"_s, u"--max-len"_s, u"64"_s});
        QTest::newRow("bloom") << alibi << QStringList {u"--expect-config"_s, configs + u"bloom-560m.json"_s} << 0
                               << u"alibi-bias"_s;
        const QString t5 = writtenTable(u"config-t5.npy"_s, {u"t5-bucket"_s, u"--preset"_s, u"t5-base"_s});
        QTest::newRow("t5 encoder") << t5
                                    << QStringList {u"--expect-config"_s, configs + u"t5-base.json"_s,
                                                    u"--layer-type"_s, u"encoder"_s}
                                    << 0 << u"t5-bucket"_s;
        QTest::newRow("t5 decoder") << t5
                                    << QStringList {u"--expect-config"_s, configs + u"t5-base.json"_s,
                                                    u"--layer-type"_s, u"decoder"_s}
                                    << 1 << u"t5-bucket"_s;
        QTest::newRow("two layer types, none named")
            << t5 << QStringList {u"--expect-config"_s, configs + u"t5-base.json"_s} << 2
            << u"--layer-type: %1 has the layer types encoder, decoder"_s.arg(configs + u"t5-base.json"_s);
        QTest::newRow("a layer type the config lacks")
            << t5 << QStringList {u"--expect-config"_s, configs + u"t5-base.json"_s, u"--layer-type"_s, u"input"_s} << 2
            << u"--layer-type: must be one of the config's layer types (encoder, decoder); got 'input'"_s;
        QTest::newRow("learned layer") << cos << QStringList {u"--expect-config"_s, configs + u"gpt2.json"_s} << 2
                                       << u"--expect-config: layer type input"_s;
        QTest::newRow("no such file") << cos << QStringList {u"--expect-config"_s, path(u"absent.json"_s)} << 3
                                      << u"--expect-config: "_s;
        QTest::newRow("a parameter beside it")
            << cos << QStringList {u"--expect-config"_s, llama31, u"--rope-theta"_s, u"5"_s} << 2 << u"--rope-theta"_s;
        // A Qwen-VL config gives the model; --prompt its input (posenc table writes the table).
        const QString qwen25 = configs + u"Qwen2.5-VL-7B-Instruct.json"_s;
        const QString prompt = u"text:5,image:1x8x12,text:3,video:3x8x8@0.5,text:4"_s;
        const QStringList vl {u"--preset"_s, u"qwen2-5-vl-7b"_s, u"--prompt"_s, prompt};
        const QString mrope = writtenTable(u"mrope-cos.npy"_s, QStringList {u"mrope-cos"_s} + vl);
        const QString interleaved
            = writtenTable(u"mrope-interleaved.npy"_s, QStringList {u"mrope-cos"_s, u"--mrope-interleaved"_s} + vl);
        QTest::newRow("Qwen2.5-VL's config and the prompt")
            << mrope << QStringList {u"--expect-config"_s, qwen25, u"--prompt"_s, prompt} << 0 << u"mrope-cos"_s;
        QTest::newRow("Qwen2.5-VL's config, the image's grid exchanged")
            << mrope
            << QStringList {u"--expect-config"_s, qwen25, u"--prompt"_s,
                            u"text:5,image:1x12x8,text:3,video:3x8x8@0.5,text:4"_s}
            << 1 << u"mrope-cos"_s;
        QTest::newRow("an interleaved table, Qwen2.5-VL's config")
            << interleaved << QStringList {u"--expect-config"_s, qwen25, u"--prompt"_s, prompt} << 1 << u"mrope-cos"_s;
        QTest::newRow("a prompt of an unknown kind")
            << mrope << QStringList {u"--expect-config"_s, qwen25, u"--prompt"_s, u"text:5,audio:3"_s} << 2
            << u"--prompt: "_s;
        QTest::newRow("the config's section beside it")
            << mrope
            << QStringList {u"--expect-config"_s, qwen25, u"--prompt"_s, prompt, u"--mrope-section"_s, u"24,20,20"_s}
            << 2 << u"--mrope-section: --expect-config's config gives the layer's parameters"_s;
        QTest::newRow("--layer-type alone")
            << cos << QStringList {u"--layer-type"_s, u"encoder"_s} << 2 << u"--layer-type"_s;
        QTest::newRow("two references") << cos << QStringList {u"--expect-config"_s, llama31, u"--expect-table"_s, cos}
                                        << 2 << u"--expect, --expect-table, --expect-config"_s;
    }
    void expectConfig()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, flags);
        QFETCH(int, exitCode);
        QFETCH(QString, named);
        QVERIFY(!file.isEmpty());
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file, u"--json"_s} + flags);
        QVERIFY2(run.exitCode == exitCode, qPrintable(run.out + run.err));
        if (exitCode >= 2) {
            QVERIFY2(run.err.startsWith(u"posenc check: "_s + named), qPrintable(run.err));
            QCOMPARE(run.err.count(u'\n'), 1);
            return;
        }
        const QJsonObject o = jsonOf(run);
        QCOMPARE(o[u"verdict"_s].toString(), exitCode == 0 ? u"correct"_s : u"mistake"_s);
        QCOMPARE(o[u"encoding"_s].toString(), named);
    }

    // A video whose time ids (0, 4, 8, 12) pass its height and width (2): the text after it is at
    // the largest id + 1 in transformers 4.x, at the video's start + 2 in 5.x. The preset and the
    // config (transformers_version 4.41.2) are both of 4.x: the preset's own table is correct
    // against its config, a 5.x table is the other era's, unless the check is told the era.
    void thePresetAndItsConfigShareTheEra()
    {
        const QString config = QStringLiteral(POSENC_CONFIGS) + u"/Qwen2.5-VL-7B-Instruct.json"_s;
        const QString video = u"text:5,video:4x4x4@2,text:4"_s;
        const QStringList made {u"mrope-cos"_s, u"--preset"_s, u"qwen2-5-vl-7b"_s, u"--prompt"_s, video};
        const QString v4 = writtenTable(u"mrope-v4.npy"_s, made);
        const QString v5 = writtenTable(u"mrope-v5.npy"_s, made + QStringList {u"--mrope-era"_s, u"v5"_s});
        QVERIFY(!v4.isEmpty() && !v5.isEmpty());
        const QStringList flags {u"--expect-config"_s, config, u"--prompt"_s, video, u"--json"_s};
        const auto verdictOf = [&flags](const QString &file, const QStringList &more, int exitCode) {
            const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file} + flags + more);
            if (run.exitCode != exitCode)
                qWarning("%s", qPrintable(run.out + run.err));
            return run.exitCode == exitCode ? jsonOf(run) : QJsonObject();
        };
        const QJsonObject own = verdictOf(v4, {}, 0);
        QCOMPARE(own[u"verdict"_s].toString(), u"correct"_s);
        const QJsonObject other = verdictOf(v5, {}, 1);
        QCOMPARE(other[u"mistakes"_s].toArray(), QJsonArray {u"mrope-other-era"_s});
        const QJsonObject told = verdictOf(v5, {u"--mrope-era"_s, u"v5"_s}, 0);
        QCOMPARE(told[u"verdict"_s].toString(), u"correct"_s);
    }

    // A Qwen-VL config and a prompt name the mistake of an interleaved table, and equal no reference.
    void mropeMistakeAgainstAConfig()
    {
        const QString config = QStringLiteral(POSENC_CONFIGS) + u"/Qwen2.5-VL-7B-Instruct.json"_s;
        const QString prompt = u"text:20,image:1x28x28,text:9,video:4x16x16@0.5,text:30"_s;
        const QString file = writtenTable(u"mrope-mistake.npy"_s,
                                          {u"mrope-cos"_s, u"--preset"_s, u"qwen2-5-vl-7b"_s, u"--mrope-era"_s, u"v5"_s,
                                           u"--mrope-interleaved"_s, u"--prompt"_s, prompt});
        QVERIFY(!file.isEmpty());
        const QStringList flags {u"--expect-config"_s, config, u"--prompt"_s, prompt};
        const CliRun::Run json = CliRun::posenc(QStringList {u"check"_s, file, u"--json"_s} + flags);
        QCOMPARE(json.exitCode, 1);
        const QJsonObject o = jsonOf(json);
        QCOMPARE(o[u"mistakes"_s].toArray(), QJsonArray {u"mrope-interleave-swapped"_s});
        QCOMPARE(o[u"mrope_section"_s].toString(), u"16,24,24"_s);
        QCOMPARE(o[u"mrope_interleaved"_s].toBool(), true);
        const CliRun::Run text = CliRun::posenc(QStringList {u"check"_s, file} + flags);
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains(u"verdict: mistake (mrope-interleave-swapped)"_s), qPrintable(text.out));
        QVERIFY2(!text.out.contains(u"equals:"_s), qPrintable(text.out));
        QVERIFY2(text.out.contains(u"rows 20-215, 225-480"_s), qPrintable(text.out));
    }

    // A config whose mrope_section does not add up to the pairs: the refusal names the config
    // check's finding, as --apply --config does.
    void aConfigThatCannotBeComputedSaysWhy()
    {
        QFile qwen25(QStringLiteral(POSENC_CONFIGS) + u"/Qwen2.5-VL-7B-Instruct.json"_s);
        QVERIFY(qwen25.open(QIODevice::ReadOnly));
        QJsonObject config = QJsonDocument::fromJson(qwen25.readAll()).object();
        QJsonObject scaling = config[u"rope_scaling"_s].toObject();
        scaling[u"mrope_section"_s] = QJsonArray {16, 24, 20};
        config[u"rope_scaling"_s] = scaling;
        QFile bad(path(u"section-not-summing.json"_s));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(QJsonDocument(config).toJson());
        bad.close();
        const QString prompt = u"text:5,image:1x4x6,text:3"_s;
        const QString table = writtenTable(u"mrope-sum.npy"_s,
                                           {u"mrope-cos"_s, u"--preset"_s, u"qwen2-5-vl-7b"_s, u"--prompt"_s, prompt});
        QVERIFY(!table.isEmpty());
        const CliRun::Run run
            = CliRun::posenc({u"check"_s, table, u"--expect-config"_s, bad.fileName(), u"--prompt"_s, prompt});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: --expect-config: layer type full_attention cannot be computed"_s),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains(u"mrope-section-sum: rope_scaling.mrope_section is [16, 24, 20]"_s),
                 qPrintable(run.err));
    }

    void help()
    {
        const CliRun::Run run = CliRun::posenc({u"check"_s, u"--help"_s});
        QCOMPARE(run.exitCode, 0);
        for (const QString &text :
             {u"--expect FAMILY"_s, u"--expect-table FILE[:TENSOR]"_s,
              u"posenc check cos.npy --expect rope --preset llama-3-1-8b"_s,
              u"posenc check port.npy --expect-table reference_dump.npy"_s, u"--expect-config FILE"_s,
              u"--layer-type TYPE"_s,
              u"posenc check sin.npy --expect-config config.json --layer-type sliding_attention"_s})
            QVERIFY2(run.out.contains(text), qPrintable(text));
        // The family's parameters are posenc help parameters', not listed again.
        QVERIFY(!run.out.contains(u"--rope-theta"_s));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpect)
} // namespace tst_cliexpect
#include "tst_cliexpect.moc"
