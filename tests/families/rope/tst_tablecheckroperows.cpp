// RoPE tables whose rows hold other positions than their index, each row's position read back
// from its angles (RopeRowPositions). The bug: rotary-embedding-torch#11, whose freqs cache was
// keyed by seq_len alone (- cache_key = f'freqs:{seq_len}' + cache_key =
// f'freqs:{seq_len}|offset:{offset}', RotaryEmbedding.rotate_queries_or_keys): a second chunk at
// offset 64 took the rows of positions 0..63. Each table is HF's cos or sin
// (modeling_rope_utils.py, _compute_default_rope_parameters; cat((freqs, freqs)) or GPT-J's
// repeat_interleave), written here in float64 at the positions the rows hold. The rows are named
// (positions-out-of-order, "rows 64..127 hold positions 0..63") declared and undeclared; a correct
// table, float64 or with float32 angles as HF forms them, never is.
#include "core/CheckTables.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

namespace tst_tablecheckroperows {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

const QString kMoved = u"positions-out-of-order"_s;

// Row r of the table holds position positions[r]: HF's cos (or sin) of p * theta^(-2i/d), the
// angle in float64, or as HF forms it in float32 (inv_freq = 1 / theta^(arange(0, d, 2) / d) in
// float32, the product float32) where `float32Angles`.
RowMatrixXf rope(const std::vector<std::int64_t> &positions, std::int64_t d, double theta, bool half, bool cosine,
                 bool float32Angles = false)
{
    const std::int64_t pairs = d / 2;
    return table(std::ssize(positions), d, [&](std::int64_t r, std::int64_t c) {
        const std::int64_t i = half ? c % pairs : c / 2;
        const double p = double(positions[std::size_t(r)]);
        double angle = p * std::pow(theta, -2.0 * double(i) / double(d));
        if (float32Angles) {
            const float inv = float(1.0 / double(float(std::pow(theta, double(float(2 * i) / float(d))))));
            angle = double(float(p) * inv);
        }
        return cosine ? std::cos(angle) : std::sin(angle);
    });
}

std::vector<std::int64_t> own(std::int64_t rows)
{
    std::vector<std::int64_t> p(std::size_t(rows), 0);
    std::iota(p.begin(), p.end(), 0);
    return p;
}

// A cache keyed without its offset: rows `from`.. hold positions 0.. again.
std::vector<std::int64_t> repeated(std::int64_t rows, std::int64_t from)
{
    std::vector<std::int64_t> p = own(rows);
    for (std::int64_t r = from; r < rows; ++r)
        p[std::size_t(r)] = r - from;
    return p;
}

std::vector<std::int64_t> exchanged(std::int64_t rows, std::int64_t a, std::int64_t b)
{
    std::vector<std::int64_t> p = own(rows);
    std::swap(p[std::size_t(a)], p[std::size_t(b)]);
    return p;
}

Params declared(std::int64_t d, double theta, bool half, std::int64_t rows)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.maxLen = rows;
    p.rope.headDim = d;
    p.rope.theta = theta;
    p.rope.layout = half ? RopeLayout::Half : RopeLayout::Interleaved;
    return p;
}

Checked expected(const RowMatrixXf &values, const Params &params, bool cosine)
{
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(values), StoredType::Float32, u"test"_s);
    return concluded(rows, TableCheck::expect(rows, Encoding::Rope, params, cosine ? u"rope-cos"_s : u"rope-sin"_s));
}

} // namespace

class TestTableCheckRopeRows : public QObject
{
    Q_OBJECT

private slots:
    void movedRowsAreNamed_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("positions");
        QTest::addColumn<bool>("half");
        QTest::addColumn<bool>("cosine");
        QTest::addColumn<QString>("words");
        for (const bool half : {true, false}) {
            for (const bool cosine : {true, false}) {
                const char *form
                    = half ? (cosine ? "half cos" : "half sin") : (cosine ? "interleaved cos" : "interleaved sin");
                QTest::addRow("%s, 128 rows, 64..127 at 0..63", form)
                    << repeated(128, 64) << half << cosine << u"rows 64..127 hold positions 0..63"_s;
                QTest::addRow("%s, 1024 rows, 512..1023 at 0..511", form)
                    << repeated(1024, 512) << half << cosine << u"rows 512..1023 hold positions 0..511"_s;
                QTest::addRow("%s, 160 rows, 100 and 101 exchanged", form)
                    << exchanged(160, 100, 101) << half << cosine
                    << u"row 100 holds position 101, row 101 holds position 100"_s;
            }
        }
    }
    void movedRowsAreNamed()
    {
        QFETCH(std::vector<std::int64_t>, positions);
        QFETCH(bool, half);
        QFETCH(bool, cosine);
        QFETCH(QString, words);
        const std::int64_t d = 32;
        const RowMatrixXf values = rope(positions, d, 10000.0, half, cosine);
        // Declared: the reference the table was meant to be.
        const Checked declaredCheck = expected(values, declared(d, 10000.0, half, std::ssize(positions)), cosine);
        QVERIFY2(declaredCheck.error.isEmpty(), qPrintable(declaredCheck.error));
        QCOMPARE(declaredCheck.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(declaredCheck.match.mistakes, QStringList {kMoved});
        QVERIFY2(declaredCheck.match.diagnosis.contains(words), qPrintable(declaredCheck.match.diagnosis));
        // Undeclared: RoPE read from the rows that fit. Rows that restart at position 0 are also
        // packed documents' (Megatron's reset_position_ids): unknown, the restart said.
        const Checked found = check(values);
        QVERIFY2(found.error.isEmpty(), qPrintable(found.error));
        QCOMPARE(found.match.table, cosine ? u"rope-cos"_s : u"rope-sin"_s);
        const bool restarts = positions.back() < positions.front() + std::ssize(positions) - 1 && positions[1] == 1
            && std::count(positions.begin(), positions.end(), 0) > 1;
        QCOMPARE(found.match.verdict, restarts ? CheckVerdict::Unknown : CheckVerdict::Mistake);
        QCOMPARE(found.match.mistakes, restarts ? QStringList() : QStringList {kMoved});
        if (restarts)
            QVERIFY2(found.match.diagnosis.contains(u"restart at position 0"_s), qPrintable(found.match.diagnosis));
        QVERIFY2(found.match.diagnosis.contains(words), qPrintable(found.match.diagnosis));
        QCOMPARE(word(found.match, u"layout"_s), half ? u"half"_s : u"interleaved"_s);
        QCOMPARE(number(found.match, u"base"_s), 10000.0);
    }

    // A faithful table is never named: float64 angles and HF's float32 ones, both layouts, cos and
    // sin, declared and undeclared (theta 500000 at 64 columns is no published form: a variant); a
    // table of another theta is a mistake, but not of its rows.
    void faithfulRowsAreNotNamed_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<double>("theta");
        QTest::addColumn<bool>("half");
        QTest::addColumn<bool>("cosine");
        QTest::addColumn<bool>("float32Angles");
        for (const bool half : {true, false}) {
            for (const bool cosine : {true, false}) {
                for (const bool f32 : {false, true}) {
                    QTest::addRow("%s %s%s, 128 x 32, theta 10000", half ? "half" : "interleaved",
                                  cosine ? "cos" : "sin", f32 ? " (float32 angles)" : "")
                        << qint64(128) << 10000.0 << half << cosine << f32;
                }
            }
        }
        QTest::newRow("half cos (float32 angles), 5000 x 64, theta 500000")
            << qint64(5000) << 500000.0 << true << true << true;
    }
    void faithfulRowsAreNotNamed()
    {
        QFETCH(qint64, rows);
        QFETCH(double, theta);
        QFETCH(bool, half);
        QFETCH(bool, cosine);
        QFETCH(bool, float32Angles);
        const std::int64_t d = rows > 1000 ? 64 : 32;
        const RowMatrixXf values = rope(own(rows), d, theta, half, cosine, float32Angles);
        const Checked right = expected(values, declared(d, theta, half, rows), cosine);
        QVERIFY2(right.match.verdict == CheckVerdict::Correct, qPrintable(right.match.diagnosis));
        QVERIFY(right.match.mistakes.isEmpty());
        const Checked found = check(values);
        QVERIFY2(!found.match.mistakes.contains(kMoved), qPrintable(found.match.diagnosis));
        QVERIFY2(found.match.verdict == CheckVerdict::Correct || found.match.verdict == CheckVerdict::Variant,
                 qPrintable(found.match.diagnosis));
        // Declared at another theta: the rows are at no position of that reference.
        const Checked other = expected(values, declared(d, theta * 2.0, half, rows), cosine);
        QCOMPARE(other.match.verdict, CheckVerdict::Mistake);
        QVERIFY2(!other.match.mistakes.contains(kMoved), qPrintable(other.match.diagnosis));
    }

    // Positions cast to bfloat16 or float16 before the angles (p = bf16(arange(L)): rows past 256, or
    // 2048, hold their index rounded) are half-precision-angles, which RopeHalfAngles names with the
    // stage that rounded: not rows out of order, declared or undeclared.
    void roundedPositionsAreNotMovedRows_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<int>("mantissaBits");
        QTest::newRow("bfloat16, 1024 rows") << qint64(1024) << 7;
        QTest::newRow("float16, 4096 rows") << qint64(4096) << 10;
    }
    void roundedPositionsAreNotMovedRows()
    {
        QFETCH(qint64, rows);
        QFETCH(int, mantissaBits);
        std::vector<std::int64_t> positions = own(rows);
        for (std::int64_t &p : positions)
            p = std::int64_t(roundedPosition(p, mantissaBits));
        // Past the exact range: row L/2 + 1 rounds down.
        QCOMPARE(qint64(positions[std::size_t(rows / 2 + 1)]), rows / 2);
        const RowMatrixXf values = rope(positions, 64, 10000.0, true, true);
        const Checked c = expected(values, declared(64, 10000.0, true, rows), true);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QVERIFY2(!c.match.mistakes.contains(kMoved), qPrintable(c.match.diagnosis));
        const Checked found = check(values);
        QVERIFY2(!found.match.mistakes.contains(kMoved), qPrintable(found.match.diagnosis));
    }

    // Every row at r + 5 is the whole table's position-offset against positions declared from 0, which
    // the fit names, not rows moved; undeclared, a window at positions 5..132, said (issue 56).
    void wholeOffsetIsNotMovedRows()
    {
        std::vector<std::int64_t> positions = own(128);
        for (std::int64_t &p : positions)
            p += 5;
        const RowMatrixXf values = rope(positions, 32, 10000.0, true, true);
        const Checked c = expected(values, declared(32, 10000.0, true, 128), true);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QVERIFY2(!c.match.mistakes.contains(kMoved), qPrintable(c.match.diagnosis));
        const Checked found = check(values, StoredType::Float32, positionsFromZero());
        QCOMPARE(found.match.mistakes, QStringList {CheckMistakes::kPositionOffset});
        const Checked said = check(values);
        QVERIFY2(said.match.verdict == CheckVerdict::Correct && said.match.mistakes.isEmpty(),
                 qPrintable(said.match.diagnosis));
        QVERIFY(said.match.positions && said.match.positions->first == 5 && said.match.positions->last == 132);
    }
};

POSENC_TEST_GUILESS_MAIN(TestTableCheckRopeRows)
} // namespace tst_tablecheckroperows
#include "tst_tablecheckroperows.moc"
