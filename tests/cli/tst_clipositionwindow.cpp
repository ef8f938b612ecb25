// `posenc check` of a table that is a family's table at a window of positions (issue 56: a verdict
// is a promise both ways, `mistake` only for what no faithful computation gives). `posenc table pe
// --positions 100:164` writes rows 100..163 of the paper's sinusoid: a faithful slice, correct with
// its window said ("positions 100..163", --json's "positions"), never position-offset, undeclared
// and under --expect FAMILY, which declares no positions. `--positions A:B` declares them (the
// grammar of `posenc table --positions`): a table at another window is then position-offset, both
// starts said. A relative map of q queries over k > q keys holds them at a window of its keys (the
// last q with a cache, as transformers' T5Attention.forward keeps position_bias[:, :, -seq_length:,
// :]; the first q without one): the window read is said, with the note that the check cannot tell
// which the caller meant, and --positions judges it. Every table is a float64 formula written here
// (T5's buckets from support/T5Reference.h), never posenc's own.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/T5Reference.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QTemporaryDir>

#include <cmath>

namespace tst_clipositionwindow {
using namespace Qt::StringLiterals;

namespace {

// Rows `first` .. first + rows - 1 of the paper's interleaved sinusoid, base 10000 (Vaswani et al.
// 2017, section 3.5; PyTorch's PositionalEncoding), d columns, in float64.
std::vector<double> sinusoid(std::int64_t first, std::int64_t rows, std::int64_t d)
{
    std::vector<double> v;
    for (std::int64_t p = first; p < first + rows; ++p) {
        for (std::int64_t c = 0; c < d; ++c) {
            const double angle = double(p) * std::exp(-2.0 * double(c / 2) * std::log(10000.0) / double(d));
            v.push_back(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return v;
}

// Rows `first` .. of HF's rotary cos (or sin) table at `theta` (RoFormer, Llama's default rope_type:
// LlamaRotaryEmbedding.forward): cos(p inv_freq_i), inv_freq_i = theta^(-2i/d), the d/2 frequencies
// repeated (cat(freqs, freqs)).
std::vector<double> ropeCos(std::int64_t first, std::int64_t rows, std::int64_t d, bool sine = false,
                            double theta = 10000.0)
{
    std::vector<double> v;
    for (std::int64_t p = first; p < first + rows; ++p)
        for (std::int64_t c = 0; c < d; ++c) {
            const double angle = double(p) * std::pow(theta, -2.0 * double(c % (d / 2)) / double(d));
            v.push_back(sine ? std::sin(angle) : std::cos(angle));
        }
    return v;
}

// T5's bidirectional buckets of j - i (32 buckets, max_distance 128; HF's _relative_position_bucket
// of memory_position - context_position), queries first .. first + q - 1 over keys 0 .. k - 1.
std::vector<double> t5Map(std::int64_t first, std::int64_t queries, std::int64_t keys)
{
    std::vector<double> v;
    for (std::int64_t i = first; i < first + queries; ++i)
        for (std::int64_t j = 0; j < keys; ++j)
            v.push_back(double(t5ref::t5(j - i, 32, 128, true).value));
    return v;
}

QJsonObject positionsOf(const CliCheck::Checked &c)
{
    return c.json[u"positions"_s].toObject();
}

} // namespace

class TestCliPositionWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_count = 0;

    QString written(const std::vector<std::int64_t> &shape, const std::vector<double> &values)
    {
        return CliCheck::write(m_dir, u"t%1.npy"_s.arg(m_count++), npy(shape, values));
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A window of an absolute family's table: correct, its window said; declared elsewhere, the
    // offset named with both starts.
    void tableWindow_data()
    {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("first");
        QTest::addColumn<QStringList>("expect");
        QTest::newRow("sinusoid") << u"sinusoidal"_s << 100 << QStringList {u"--expect"_s, u"sinusoidal"_s};
        // RoPE's undeclared fit reads a cos table's first position where it is small (RopeFit).
        QTest::newRow("rope cos") << u"rope"_s << 2
                                  << QStringList {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s};
    }
    void tableWindow()
    {
        QFETCH(QString, family);
        QFETCH(int, first);
        QFETCH(QStringList, expect);
        const std::int64_t d = 64;
        const QString file = written({64, d}, family == u"sinusoidal"_s ? sinusoid(first, 64, d) : ropeCos(first, 64, d));
        const QString own = u"%1:%2"_s.arg(first).arg(first + 64);
        QVERIFY(!file.isEmpty());
        for (const QStringList &flags : {QStringList {}, expect}) {
            const CliCheck::Checked said = CliCheck::checkFile(file, flags);
            QVERIFY2(said.verdict() == u"correct"_s && said.mistakes().isEmpty(), qPrintable(said.shown));
            QCOMPARE(said.exit, 0);
            QCOMPARE(positionsOf(said)[u"first"_s].toInt(), first);
            QCOMPARE(positionsOf(said)[u"last"_s].toInt(), first + 63);
            QCOMPARE(positionsOf(said)[u"declared"_s].toBool(), false);
            // Declared at its own window: correct, the window declared.
            const CliCheck::Checked at = CliCheck::checkFile(file, flags + QStringList {u"--positions"_s, own});
            QVERIFY2(at.verdict() == u"correct"_s, qPrintable(at.shown));
            QCOMPARE(positionsOf(at)[u"declared"_s].toBool(), true);
            // Declared from 0: the rows are `first` off, both starts said.
            const CliCheck::Checked off = CliCheck::checkFile(file, flags + QStringList {u"--positions"_s, u"0:64"_s});
            QVERIFY2(CliCheck::named(off.json, {u"position-offset"_s}), qPrintable(off.shown));
            QCOMPARE(off.exit, 1);
            // Both starts said: the rows' (`first`) and the declaration's (0).
            QVERIFY2(off.diagnosis().contains(u"start at %1"_s.arg(first))
                         || off.diagnosis().contains(u"hold positions %1..%2"_s.arg(first).arg(first + 63)),
                     qPrintable(off.shown));
            QVERIFY2(off.diagnosis().contains(u"position 0"_s) || off.diagnosis().contains(u"from 0"_s),
                     qPrintable(off.shown));
        }
        // The report says the window in words.
        const CliRun::Run text = CliRun::posenc({u"check"_s, file, u"--quiet"_s});
        QVERIFY2(text.out.contains(u"positions: %1..%2 (read from the table, not declared)"_s.arg(first).arg(
                     first + 63)),
                 qPrintable(text.out));
    }

    // A RoPE table of a later chunk of a sequence (a cached decoding step's position_ids F..F + 63)
    // under --expect rope, which declares no positions: a faithful slice, correct at the window its
    // comparison finds, the window said and not judged, with --head-dim or the table's width alike;
    // declared from 0 (--positions 0:64), position-offset. At another rope_theta it stays a mistake.
    void declaredFamilyAtALaterChunk_data()
    {
        QTest::addColumn<int>("first");
        QTest::addColumn<bool>("sine");
        QTest::addColumn<bool>("headDim");
        QTest::newRow("cos from 100, --head-dim") << 100 << false << true;
        QTest::newRow("sin from 1000") << 1000 << true << false;
        QTest::newRow("cos from 5000") << 5000 << false << false;
    }
    void declaredFamilyAtALaterChunk()
    {
        QFETCH(int, first);
        QFETCH(bool, sine);
        QFETCH(bool, headDim);
        const std::int64_t d = 128;
        QStringList rope {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s};
        if (headDim)
            rope += QStringList {u"--head-dim"_s, u"128"_s};
        const QString file = written({64, d}, ropeCos(first, 64, d, sine));
        const CliCheck::Checked said = CliCheck::checkFile(file, rope);
        QVERIFY2(said.exit == 0 && said.verdict() == u"correct"_s && said.mistakes().isEmpty(), qPrintable(said.shown));
        QCOMPARE(said.json[u"encoding"_s].toString(), sine ? u"rope-sin"_s : u"rope-cos"_s);
        QCOMPARE(positionsOf(said)[u"first"_s].toInt(), first);
        QCOMPARE(positionsOf(said)[u"last"_s].toInt(), first + 63);
        QCOMPARE(positionsOf(said)[u"declared"_s].toBool(), false);
        const CliRun::Run text = CliRun::posenc(QStringList {u"check"_s, file, u"--quiet"_s} + rope);
        QVERIFY2(
            text.out.contains(u"positions: %1..%2 (read from the table, not declared)"_s.arg(first).arg(first + 63))
                && text.out.contains(u"said, not judged"_s),
            qPrintable(text.out));
        const CliCheck::Checked off = CliCheck::checkFile(file, rope + QStringList {u"--positions"_s, u"0:64"_s});
        QVERIFY2(off.exit == 1 && CliCheck::named(off.json, {u"position-offset"_s}), qPrintable(off.shown));
        const QString other = written({64, d}, ropeCos(first, 64, d, sine, 20000.0));
        const CliCheck::Checked wrong = CliCheck::checkFile(other, rope);
        QVERIFY2(wrong.exit == 1 && wrong.verdict() == u"mistake"_s, qPrintable(wrong.shown));
    }

    // Rows before the declared window (a cache's offset forgotten: executorch#2010 sliced
    // freqs_cos[:seqlen] where start_pos..start_pos + seqlen was meant): position-offset, both starts
    // said, as for rows after it; the search is the same whichever way the rows lie.
    void beforeWindow_data()
    {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("declared");
        QTest::addColumn<QStringList>("expect");
        const QStringList rope {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"128"_s};
        QTest::newRow("rope cos from 0, declared 64") << u"rope"_s << 0 << 64 << rope;
        QTest::newRow("rope cos from 32, declared 64") << u"rope"_s << 32 << 64 << rope;
        QTest::newRow("rope cos from 0, declared 1000") << u"rope"_s << 0 << 1000 << rope;
        QTest::newRow("sinusoid from 0, declared 64")
            << u"sinusoidal"_s << 0 << 64 << QStringList {u"--expect"_s, u"sinusoidal"_s};
    }
    void beforeWindow()
    {
        QFETCH(QString, family);
        QFETCH(int, first);
        QFETCH(int, declared);
        QFETCH(QStringList, expect);
        const std::int64_t d = 128, rows = 32;
        const QString file
            = written({rows, d}, family == u"sinusoidal"_s ? sinusoid(first, rows, d) : ropeCos(first, rows, d));
        QVERIFY(!file.isEmpty());
        // The window declared by --positions, or by --position-ids from `declared` (a cached step's ids).
        std::vector<double> ids;
        for (std::int64_t p = declared; p < declared + rows; ++p)
            ids.push_back(double(p));
        const QString idsFile = written({1, rows}, ids);
        const QStringList window {u"--positions"_s, u"%1:%2"_s.arg(declared).arg(declared + rows)};
        std::vector<double> ownIds;
        for (std::int64_t p = first; p < first + rows; ++p)
            ownIds.push_back(double(p));
        const QString ownIdsFile = written({1, rows}, ownIds);
        // The sinusoid's reading, as RoPE's, starts at the ids' first.
        const QList<QStringList> declarations {QStringList {}, expect, QStringList {u"--position-ids"_s, idsFile}};
        for (const QStringList &flags : declarations) {
            const bool byIds = flags.contains(u"--position-ids"_s);
            const CliCheck::Checked off = CliCheck::checkFile(file, byIds ? flags : flags + window);
            QVERIFY2(CliCheck::named(off.json, {u"position-offset"_s}), qPrintable(off.shown));
            QCOMPARE(off.exit, 1);
            QVERIFY2(off.diagnosis().contains(u"start at %1 where the declared positions start at %2"_s.arg(first).arg(
                         declared)),
                     qPrintable(off.shown));
            if (byIds) {
                // At ids of its own rows the same rows are correct.
                const CliCheck::Checked own = CliCheck::checkFile(file, {u"--position-ids"_s, ownIdsFile});
                QVERIFY2(own.verdict() == u"correct"_s && own.mistakes().isEmpty(), qPrintable(own.shown));
                continue;
            }
            // At its own window the same rows are correct.
            const CliCheck::Checked own = CliCheck::checkFile(
                file, flags + QStringList {u"--positions"_s, u"%1:%2"_s.arg(first).arg(first + rows)});
            QVERIFY2(own.verdict() == u"correct"_s && own.mistakes().isEmpty(), qPrintable(own.shown));
        }
    }

    // A table from position 0 stays correct with no window said; declared elsewhere, position-offset.
    void fromZero()
    {
        const QString file = written({64, 32}, sinusoid(0, 64, 32));
        const CliCheck::Checked plain = CliCheck::checkFile(file, {});
        QVERIFY2(plain.verdict() == u"correct"_s, qPrintable(plain.shown));
        QVERIFY2(plain.json[u"positions"_s].isNull(), qPrintable(plain.shown));
        const CliCheck::Checked off = CliCheck::checkFile(file, {u"--positions"_s, u"1:65"_s});
        QVERIFY2(CliCheck::named(off.json, {u"position-offset"_s}), qPrintable(off.shown));
    }

    // A relative map of 16 queries over 64 keys: the first 16 (posenc table t5-bucket --positions
    // 0:16 of a 64 x 64 map) or the last 16 (a step with a cache) are both faithful; the window read
    // is said with the note that the check cannot tell which was meant; --positions judges it.
    void queryWindow_data()
    {
        QTest::addColumn<qint64>("first");
        QTest::newRow("first queries") << qint64(0);
        QTest::newRow("last queries") << qint64(48);
    }
    void queryWindow()
    {
        QFETCH(qint64, first);
        const QString file = written({16, 64}, t5Map(first, 16, 64));
        for (const QStringList &flags : {QStringList {}, QStringList {u"--expect"_s, u"t5"_s}}) {
            const CliCheck::Checked said = CliCheck::checkFile(file, flags);
            QVERIFY2(said.verdict() == u"correct"_s && said.mistakes().isEmpty(), qPrintable(said.shown));
            QCOMPARE(positionsOf(said)[u"first"_s].toInt(), int(first));
            QCOMPARE(positionsOf(said)[u"last"_s].toInt(), int(first + 15));
            QCOMPARE(positionsOf(said)[u"queries"_s].toBool(), true);
            QVERIFY2(positionsOf(said)[u"note"_s].toString().contains(u"cannot tell which the caller meant"_s),
                     qPrintable(said.shown));
            const QString own = u"%1:%2"_s.arg(first).arg(first + 16);
            const CliCheck::Checked declared = CliCheck::checkFile(file, flags + QStringList {u"--positions"_s, own});
            QVERIFY2(declared.verdict() == u"correct"_s, qPrintable(declared.shown));
            QCOMPARE(positionsOf(declared)[u"declared"_s].toBool(), true);
            const QString other = first == 0 ? u"48:64"_s : u"0:16"_s;
            const CliCheck::Checked off = CliCheck::checkFile(file, flags + QStringList {u"--positions"_s, other});
            QVERIFY2(CliCheck::named(off.json, {u"position-offset"_s}), qPrintable(off.shown));
            QVERIFY2(off.diagnosis().contains(u"positions %1..%2"_s.arg(first).arg(first + 15)), qPrintable(off.shown));
        }
    }

    // A cache whose dimensions of 1 sit between its rows and columns (Megatron's RotaryEmbedding emb[:,
    // None, None, :], [S, 1, 1, D]; Paddle's and MLX's [B, L, 1, D]) is read as tables of S (L) rows
    // by every path: --positions declares those rows' positions, at its own window correct, elsewhere
    // position-offset; B - A = 1 is refused with the rows the check reads.
    void unitDimensions_data()
    {
        QTest::addColumn<QString>("dims");
        QTest::newRow("megatron [S, 1, 1, D]") << u"48,1,1,32"_s;
        QTest::newRow("paddle [B, L, 1, D]") << u"2,48,1,32"_s;
        QTest::newRow("pytorch buffer [L, 1, d]") << u"48,1,32"_s;
    }
    void unitDimensions()
    {
        QFETCH(QString, dims);
        std::vector<std::int64_t> shape;
        for (const QString &dim : dims.split(u','))
            shape.push_back(dim.toLongLong());
        std::vector<double> cells;
        const std::int64_t batches = shape[1] == 1 ? 1 : shape[0];
        for (std::int64_t b = 0; b < batches; ++b) {
            const std::vector<double> one = ropeCos(1000, 48, 32);
            cells.insert(cells.end(), one.begin(), one.end());
        }
        const QString file = written(shape, cells);
        const QStringList rope {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"32"_s};
        const CliCheck::Checked own = CliCheck::checkFile(file, rope + QStringList {u"--positions"_s, u"1000:1048"_s});
        QVERIFY2(own.verdict() == u"correct"_s && own.mistakes().isEmpty(), qPrintable(own.shown));
        QCOMPARE(positionsOf(own)[u"first"_s].toInt(), 1000);
        QCOMPARE(positionsOf(own)[u"declared"_s].toBool(), true);
        const CliCheck::Checked off = CliCheck::checkFile(file, rope + QStringList {u"--positions"_s, u"0:48"_s});
        QVERIFY2(CliCheck::named(off.json, {u"position-offset"_s}), qPrintable(off.shown));
        const CliRun::Run one = CliRun::posenc({u"check"_s, file, u"--quiet"_s, u"--positions"_s, u"1000:1001"_s});
        QCOMPARE(one.exitCode, 2);
        QVERIFY2(one.err.startsWith(u"posenc check: --positions: must be A:B with B - A = 48"_s), qPrintable(one.err));
    }

    // --positions that cannot be the table's: one line naming the flag and its range, exit 2.
    void refused_data()
    {
        QTest::addColumn<QString>("window");
        QTest::addColumn<QString>("says");
        QTest::newRow("grammar") << u"5"_s << u"--positions: must be A:B with 0 <= A < B"_s;
        QTest::newRow("empty") << u"7:7"_s << u"--positions: must be A:B with 0 <= A < B"_s;
        QTest::newRow("rows") << u"0:10"_s << u"--positions: must be A:B with B - A = 64"_s;
    }
    void refused()
    {
        QFETCH(QString, window);
        QFETCH(QString, says);
        const QString file = written({64, 32}, sinusoid(0, 64, 32));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--quiet"_s, u"--positions"_s, window});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: "_s + says) && run.err.count(u'\n') == 1, qPrintable(run.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliPositionWindow)
} // namespace tst_clipositionwindow
#include "tst_clipositionwindow.moc"
