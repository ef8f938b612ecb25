// posenc check --apply X Y on many heads, where the array alone cannot say which of its two leading
// axes holds the heads (issue 56, CheckApplyHeads). A query of [B, L, H, D] turned along its heads'
// axis, as if it were [B, H, L, D] (open_lm#4: RoPE applied to q before its transpose), is a correct
// rotation read the other way; so is the fixed query read as the buggy one's layout. Undeclared, the
// two readings' disagreement is unknown, each said; --apply-heads N or the length of --position-ids
// decides, and a rotation only the other reading explains is rope-along-heads-axis. A reference
// declared in full decides where exactly one reading, of fewer heads than positions, equals it.
//
// The reference, written here in float64: transformers' models/llama/modeling_llama.py,
// apply_rotary_pos_emb with rotate_half (q * cos + rotate_half(q) * sin), inv_freq of
// _compute_default_rope_parameters, theta**(-2i/d).
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <random>

namespace tst_cliapplyaxes {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kBatch = 2, kDim = 16;
std::int64_t kLength = 12, kHeads = 4; // a test of square axes sets both alike
constexpr double kTheta = 10000.0;

// Row (b, l, h) of a [B, L, H, D] query turned by `position`, rotate_half's pairs (i, i + D/2).
void turn(const std::vector<double> &x, std::vector<double> &y, std::int64_t row, double position)
{
    const std::int64_t half = kDim / 2;
    for (std::int64_t i = 0; i < half; ++i) {
        const double angle = position * std::pow(kTheta, -2.0 * double(i) / double(kDim));
        const double a = x[std::size_t(row * kDim + i)], b = x[std::size_t(row * kDim + i + half)];
        y[std::size_t(row * kDim + i)] = a * std::cos(angle) - b * std::sin(angle);
        y[std::size_t(row * kDim + i + half)] = b * std::cos(angle) + a * std::sin(angle);
    }
}

struct Pair
{
    std::vector<double> x, y;
};

// X of [B, L, H, D] (normal values, each rounded to float32 as written) and Y turned by the sequence
// index l (the fix) or by the head index h (the bug), laid as [B, L, H, D] or as [B, H, L, D].
Pair query(bool alongHeads, bool headsFirst)
{
    std::mt19937 engine(29);
    std::normal_distribution<double> normal;
    const std::int64_t rows = kBatch * kLength * kHeads;
    std::vector<double> x(std::size_t(rows * kDim)), y(x.size());
    for (double &v : x)
        v = double(float(normal(engine)));
    for (std::int64_t b = 0; b < kBatch; ++b)
        for (std::int64_t l = 0; l < kLength; ++l)
            for (std::int64_t h = 0; h < kHeads; ++h)
                turn(x, y, (b * kLength + l) * kHeads + h, double(alongHeads ? h : l));
    if (!headsFirst)
        return {x, y};
    Pair t {std::vector<double>(x.size()), std::vector<double>(y.size())};
    for (std::int64_t b = 0; b < kBatch; ++b)
        for (std::int64_t l = 0; l < kLength; ++l)
            for (std::int64_t h = 0; h < kHeads; ++h)
                for (std::int64_t j = 0; j < kDim; ++j) {
                    const std::size_t from = std::size_t(((b * kLength + l) * kHeads + h) * kDim + j);
                    const std::size_t to = std::size_t(((b * kHeads + h) * kLength + l) * kDim + j);
                    t.x[to] = x[from];
                    t.y[to] = y[from];
                }
    return t;
}

struct Run
{
    int exit = -1;
    QJsonObject json;
    QString shown;
};

} // namespace

class TestCliApplyAxes : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    Run apply(const Pair &p, bool headsFirst, const QStringList &flags)
    {
        const std::vector<std::int64_t> shape = headsFirst ? std::vector<std::int64_t> {kBatch, kHeads, kLength, kDim}
                                                           : std::vector<std::int64_t> {kBatch, kLength, kHeads, kDim};
        const QString xs = CliCheck::write(m_dir, u"x.npy"_s, npy(shape, p.x));
        const QString ys = CliCheck::write(m_dir, u"y.npy"_s, npy(shape, p.y));
        const CliRun::Run run
            = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, xs, ys, u"--json"_s, u"--quiet"_s} + flags);
        return {run.exitCode, QJsonDocument::fromJson(run.out.toUtf8()).object(), run.out + run.err};
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Undeclared, the buggy query and the fixed one are each a correct rotation one way and not the
    // other: neither is correct nor a mistake, and the report gives both readings and the flag. The
    // buggy one stays so against a reference: the reading it equals holds 12 heads of 4 positions
    // (the fixed one's, 4 heads of 12, is settled by it: declaredAxesDecide).
    void undeclaredDisagreementIsUnknown_data()
    {
        QTest::addColumn<bool>("alongHeads");
        QTest::addColumn<QStringList>("reference");
        const QStringList none, declared {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s};
        QTest::newRow("fixed") << false << none;
        QTest::newRow("buggy") << true << none;
        QTest::newRow("buggy, --expect rope") << true << declared;
    }
    void undeclaredDisagreementIsUnknown()
    {
        QFETCH(bool, alongHeads);
        QFETCH(QStringList, reference);
        const Run run = apply(query(alongHeads, false), false, reference);
        QCOMPARE(run.json[u"verdict"_s].toString(), u"unknown"_s);
        QVERIFY2(run.json[u"mistakes"_s].toArray().isEmpty(), qPrintable(run.shown));
        const QString diagnosis = run.json[u"diagnosis"_s].toString();
        QVERIFY2(diagnosis.contains(u"rope-along-heads-axis"_s) && diagnosis.contains(u"--apply-heads 4"_s)
                     && diagnosis.contains(u"--apply-heads 12"_s),
                 qPrintable(run.shown));
        const QJsonArray readings = run.json[u"readings"_s].toArray();
        QCOMPARE(readings.size(), 2);
        // The reading that explains Y is the one whose positions axis the rotation followed.
        const QString explaining = alongHeads ? u"[B, H, L, D]"_s : u"[B, L, H, D]"_s;
        QCOMPARE(readings[0].toObject()[u"tensor_layout"_s].toString(), explaining);
        QCOMPARE(readings[0].toObject()[u"verdict"_s].toString(), u"correct"_s);
        QVERIFY(readings[1].toObject()[u"verdict"_s].toString() != u"correct"_s);
        // The reading after the first is read up to its first head no rotation explains, and says which:
        // across the heads' axis, head 0's rows all lie at position 0, where Y is X.
        if (alongHeads)
            QVERIFY2(diagnosis.contains(u"read as [B, L, H, D] (4 heads of 12 positions) no rotation explains its batch "
                                        "0, head 0 ("_s),
                     qPrintable(diagnosis));
    }

    // Declared, the heads' axis is known: the fix correct, the bug (or the fix read with the other
    // count) rope-along-heads-axis; the ids' length declares as --apply-heads does.
    void declaredAxesDecide_data()
    {
        QTest::addColumn<bool>("alongHeads");
        QTest::addColumn<bool>("headsFirst");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("layout");
        const QStringList four {u"--apply-heads"_s, u"4"_s}, twelve {u"--apply-heads"_s, u"12"_s};
        QTest::newRow("fixed, 4 heads") << false << false << four << u"correct"_s << u"[B, L, H, D]"_s;
        QTest::newRow("fixed as [B, H, L, D], 4 heads") << false << true << four << u"correct"_s << u"[B, H, L, D]"_s;
        QTest::newRow("buggy, 4 heads") << true << false << four << u"mistake"_s << u"[B, L, H, D]"_s;
        QTest::newRow("fixed, 12 heads declared") << false << false << twelve << u"mistake"_s << u"[B, H, L, D]"_s;
        QTest::newRow("fixed, 4 heads, --expect rope")
            << false << false << (four + QStringList {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s})
            << u"correct"_s << u"[B, L, H, D]"_s;
        // The reference declared settles the axes: only the [B, L, H, D] reading (4 heads of 12
        // positions) equals it.
        QTest::newRow("fixed, --expect rope")
            << false << false << QStringList {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s}
            << u"correct"_s << u"[B, L, H, D]"_s;
    }
    void declaredAxesDecide()
    {
        QFETCH(bool, alongHeads);
        QFETCH(bool, headsFirst);
        QFETCH(QStringList, flags);
        QFETCH(QString, verdict);
        QFETCH(QString, layout);
        const Run run = apply(query(alongHeads, headsFirst), headsFirst, flags);
        QCOMPARE(run.json[u"verdict"_s].toString(), verdict);
        QCOMPARE(run.json[u"tensor_layout"_s].toString(), layout);
        QCOMPARE(run.exit, verdict == u"correct"_s ? 0 : 1);
        const bool named = run.json[u"mistakes"_s].toArray().contains(u"rope-along-heads-axis"_s);
        QVERIFY2(named == (verdict == u"mistake"_s), qPrintable(run.shown));
    }

    // Neither reading explains Y (the pairing declared is not the rotation's): the reading whose heads
    // are turned is reported, not the one across the heads' axis whose first head Y leaves as X.
    void neitherExplainedReadsAlongThePositions()
    {
        const Run run = apply(query(false, false), false,
                              {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--rope-layout"_s,
                               u"interleaved"_s});
        QCOMPARE(run.json[u"verdict"_s].toString(), u"mistake"_s);
        QCOMPARE(run.json[u"tensor_layout"_s].toString(), u"[B, L, H, D]"_s);
        const QJsonArray mistakes = run.json[u"mistakes"_s].toArray();
        QVERIFY2(mistakes.contains(u"rope-layout"_s) && !mistakes.contains(u"rope-not-applied"_s), qPrintable(run.shown));
    }

    // Heads and positions of one length: both readings checked, and no count picks between them.
    void squareAxesAreUnknown()
    {
        kLength = kHeads = 8;
        const Run fixed = apply(query(false, false), false, {});
        const Run buggy = apply(query(true, false), false, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s});
        kLength = 12;
        kHeads = 4;
        for (const Run *run : {&fixed, &buggy}) {
            QCOMPARE(run->json[u"verdict"_s].toString(), u"unknown"_s);
            QVERIFY2(run->json[u"diagnosis"_s].toString().contains(u"both axes are 8 long"_s), qPrintable(run->shown));
        }
    }

    void idsLengthDecides()
    {
        std::vector<double> ids(kLength);
        for (std::int64_t l = 0; l < kLength; ++l)
            ids[std::size_t(l)] = double(l);
        const QString file = CliCheck::write(m_dir, u"ids.npy"_s, npy({kLength}, ids));
        const Run fixed = apply(query(false, false), false, {u"--position-ids"_s, file});
        QCOMPARE(fixed.json[u"verdict"_s].toString(), u"correct"_s);
        const Run buggy = apply(query(true, false), false, {u"--position-ids"_s, file});
        QVERIFY2(buggy.json[u"mistakes"_s].toArray().contains(u"rope-along-heads-axis"_s), qPrintable(buggy.shown));
    }

    // A count no axis has, or --apply-heads without --apply: one line naming the flag, exit 2.
    void headsRefused()
    {
        const Run five = apply(query(false, false), false, {u"--apply-heads"_s, u"5"_s});
        QCOMPARE(five.exit, 2);
        QVERIFY2(five.shown.contains(u"--apply-heads 5"_s) && five.shown.count(u'\n') == 1, qPrintable(five.shown));
        const Run word = apply(query(false, false), false, {u"--apply-heads"_s, u"four"_s});
        QCOMPARE(word.exit, 2);
        QVERIFY2(word.shown.contains(u"--apply-heads"_s), qPrintable(word.shown));
        const CliRun::Run alone = CliRun::posenc(
            {u"check"_s, CliCheck::write(m_dir, u"t.npy"_s, npy({kLength, kDim}, std::vector<double>(kLength * kDim))),
             u"--apply-heads"_s, u"4"_s});
        QCOMPARE(alone.exitCode, 2);
        QVERIFY2(alone.err.contains(u"--apply-heads"_s) && alone.err.contains(u"--apply"_s), qPrintable(alone.err));
        // One head's [L, D]: no axis of heads to pick.
        const QString flat = CliCheck::write(m_dir, u"flat.npy"_s, npy({kLength, kDim}, std::vector<double>(kLength * kDim)));
        const CliRun::Run one = CliRun::posenc({u"check"_s, u"--apply"_s, flat, flat, u"--apply-heads"_s, u"4"_s});
        QCOMPARE(one.exitCode, 2);
        QVERIFY2(one.err.contains(u"--apply-heads"_s) && one.err.count(u'\n') == 1, qPrintable(one.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliApplyAxes)
} // namespace tst_cliapplyaxes
#include "tst_cliapplyaxes.moc"
