// RoPE's tables in the engine (rope-frequencies, rope-cos, rope-sin, rope-score, rope-input),
// each against float64 formulas written here from HF transformers' modeling_rope_utils.py and
// apply_rotary_pos_emb, never from the implementation: the two layouts are one column
// permutation, a rotation keeps norms, <R(m) q, R(n) k> depends only on m - n, and float32 cells
// stay within 1e-6 of float64 up to position 2^24 - 1.
#include "core/EngineTable.h"
#include "core/Reference.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/rope/RopeScore.h"

#include "RopeTableTesting.h"
#include <QTest>

#include <cmath>
#include <complex>
#include <cstring>
#include <numbers>

namespace tst_ropetables {
using namespace posenc;
using namespace Qt::StringLiterals;
using namespace RopeTableTesting;

class TestRopeTables : public QObject
{
    Q_OBJECT

private slots:
    void onlyTheRopeEncodingHasThem();
    void shapes();
    void frequenciesMatchTheFormulas_data();
    void frequenciesMatchTheFormulas();
    void cosAndSinMatchTheFormulas_data();
    void cosAndSinMatchTheFormulas();
    void exactNearTheLastPosition_data();
    void exactNearTheLastPosition();
    void layoutsAreAColumnPermutation_data();
    void layoutsAreAColumnPermutation();
    void inputMatchesApplyRotaryPosEmb_data();
    void inputMatchesApplyRotaryPosEmb();
    void rotationKeepsNorms_data();
    void rotationKeepsNorms();
    void blocksAndThreadsGiveTheSameCells_data();
    void blocksAndThreadsGiveTheSameCells();
};

void TestRopeTables::onlyTheRopeEncodingHasThem()
{
    for (const Encoding e : {Encoding::Sinusoidal, Encoding::None}) {
        Params p;
        p.encoding = e;
        const Engine engine(p);
        for (const Quantity q : kRopeQuantities) {
            const auto refusal = engine.check(q, {0, 1, 0, 1});
            QVERIFY2(refusal && refusal->contains(u"rope"_s), qPrintable(Quantities::name(q)));
        }
    }
    const Params p = rope(64, 100);
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const QList<Quantity> available = Quantities::available(p);
    for (const Quantity q : kRopeQuantities)
        QVERIFY2(available.contains(q), qPrintable(Quantities::name(q)));
    for (const QString &name : {u"rope-frequencies"_s, u"rope-cos"_s, u"rope-sin"_s, u"rope-score"_s, u"rope-input"_s})
        QVERIFY2(Quantities::fromName(name), qPrintable(name));
}

void TestRopeTables::shapes()
{
    Params p = rope(96, 300);
    p.rope.partialRotaryFactor = 0.25;
    const Engine engine(p);
    QCOMPARE(engine.shape(Quantity::RopeFrequencies), (Shape {12, 5}));
    QCOMPARE(engine.shape(Quantity::RopeCos), (Shape {300, 24}));
    QCOMPARE(engine.shape(Quantity::RopeSin), (Shape {300, 24}));
    QCOMPARE(engine.shape(Quantity::RopeScore), (Shape {300, 4}));
    QCOMPARE(engine.shape(Quantity::RopeInput), (Shape {300, 96}));
    // Proportional turns every pair of the head, the tail at frequency 0.
    p.rope.type = RopeType::Proportional;
    const Engine proportional(p);
    QCOMPARE(proportional.shape(Quantity::RopeCos), (Shape {300, 96}));
    QCOMPARE(proportional.shape(Quantity::RopeFrequencies), (Shape {48, 5}));
}

void TestRopeTables::frequenciesMatchTheFormulas_data()
{
    QTest::addColumn<Params>("params");
    for (const auto &[name, p] : typedSettings())
        QTest::newRow(qPrintable(name)) << p;
}

void TestRopeTables::frequenciesMatchTheFormulas()
{
    QFETCH(Params, params);
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    const Engine engine(params);
    const RowMatrixXf table = whole(engine, Quantity::RopeFrequencies);
    const HeadReference f = headReference(params);
    QCOMPARE(table.rows(), static_cast<Eigen::Index>(f.inv.size()));
    const auto close = [](double value, double expected) {
        return std::abs(value - expected) <= 1e-6 * std::abs(expected) || (std::isinf(value) && std::isinf(expected));
    };
    for (Eigen::Index i = 0; i < table.rows(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        const double wavelength = f.inv[k] > 0.0 ? 2.0 * kPi / f.inv[k] : std::numeric_limits<double>::infinity();
        QVERIFY2(close(table(i, 0), f.inv[k]),
                 qPrintable(u"pair %1: inv %2, expected %3"_s.arg(i).arg(table(i, 0)).arg(f.inv[k])));
        QVERIFY2(close(table(i, 2), wavelength), qPrintable(u"pair %1: wavelength"_s.arg(i)));
        QVERIFY2(std::abs(table(i, 4) - f.band[k]) <= 1e-6, qPrintable(u"pair %1: band"_s.arg(i)));
        if (params.rope.type != RopeType::Proportional) {
            QVERIFY2(close(table(i, 1), f.before[k]), qPrintable(u"pair %1: inv before"_s.arg(i)));
            QVERIFY2(close(table(i, 3), 2.0 * kPi / f.before[k]), qPrintable(u"pair %1: wavelength before"_s.arg(i)));
        }
    }
}

void TestRopeTables::cosAndSinMatchTheFormulas_data()
{
    frequenciesMatchTheFormulas_data();
}

// As HF returns them: af * cos(p theta_pair(c)) and af * sin, the pair of column c by the layout.
void TestRopeTables::cosAndSinMatchTheFormulas()
{
    QFETCH(Params, params);
    const Engine engine(params);
    const HeadReference f = headReference(params);
    const std::int64_t h = f.rotary / 2;
    const RowMatrixXf cosines = whole(engine, Quantity::RopeCos);
    const RowMatrixXf sines = whole(engine, Quantity::RopeSin);
    QCOMPARE(cosines.cols(), static_cast<Eigen::Index>(f.rotary));
    double worst = 0.0;
    for (Eigen::Index p = 0; p < cosines.rows(); ++p) {
        for (Eigen::Index c = 0; c < cosines.cols(); ++c) {
            const auto [s, co] = sinCos(double(p), f.inv[static_cast<std::size_t>(pairOf(c, h, params.rope.layout))]);
            worst = std::max({worst, std::abs(double(cosines(p, c)) - f.attention * co),
                              std::abs(double(sines(p, c)) - f.attention * s)});
        }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(u"largest |error| %1"_s.arg(worst)));
}

void TestRopeTables::exactNearTheLastPosition_data()
{
    QTest::addColumn<Params>("params");
    for (const auto &[name, p] : typedSettings()) {
        Params longest = p;
        longest.maxLen = Params::kMaxLen;
        QTest::newRow(qPrintable(name)) << longest;
    }
}

// Positions 2^24 - 40 .. 2^24 - 1, where p * theta_0 is near 2^24 and float32 angles would be off by ~1.
void TestRopeTables::exactNearTheLastPosition()
{
    QFETCH(Params, params);
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    const Engine engine(params);
    const HeadReference f = headReference(params);
    const std::int64_t h = f.rotary / 2;
    const Block block {Params::kMaxLen - 40, 40, 0, f.rotary};
    const RowMatrixXf cosines = testing::computeTable(engine, Quantity::RopeCos, block, 1);
    const RowMatrixXf sines = testing::computeTable(engine, Quantity::RopeSin, block, 2);
    double worst = 0.0;
    for (Eigen::Index r = 0; r < block.rows; ++r) {
        const double p = double(block.row0 + r);
        for (Eigen::Index c = 0; c < block.cols; ++c) {
            const auto [s, co] = sinCos(p, f.inv[static_cast<std::size_t>(pairOf(c, h, params.rope.layout))]);
            worst = std::max({worst, std::abs(double(cosines(r, c)) - f.attention * co),
                              std::abs(double(sines(r, c)) - f.attention * s)});
        }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(u"largest |error| %1"_s.arg(worst)));
}

void TestRopeTables::layoutsAreAColumnPermutation_data()
{
    QTest::addColumn<Params>("params");
    for (const auto &[name, p] : typedSettings()) {
        if (p.rope.layout == RopeLayout::Half)
            QTest::newRow(qPrintable(name)) << p;
    }
}

// Half's columns i and h + i are interleaved's 2i and 2i + 1: in the cos and sin tables, and in
// rope-input for the same model, whose weights an interleaved checkpoint holds permuted alike.
void TestRopeTables::layoutsAreAColumnPermutation()
{
    QFETCH(Params, params);
    Params interleaved = params;
    interleaved.rope.layout = RopeLayout::Interleaved;
    const std::int64_t headDim = params.rope.headDim;
    const std::int64_t h = headReference(params).rotary / 2;
    // Column of the half layout -> its column in the interleaved one.
    const auto moved = [h](std::int64_t c) { return c < h ? 2 * c : c < 2 * h ? 2 * (c - h) + 1 : c; };
    for (const Quantity q : {Quantity::RopeCos, Quantity::RopeSin}) {
        const RowMatrixXf a = whole(Engine(params), q);
        const RowMatrixXf b = whole(Engine(interleaved), q);
        for (Eigen::Index c = 0; c < a.cols(); ++c)
            QVERIFY2(bitEqual(a.col(c), b.col(moved(c))),
                     qPrintable(u"%1 column %2"_s.arg(Quantities::name(q)).arg(c)));
    }
    RowMatrixXf values = RowMatrixXf::NullaryExpr(params.maxLen, params.dModel, [](Eigen::Index r, Eigen::Index c) {
        return std::sin(0.37f * float(r) + 1.3f * float(c)) * (1.0f + 0.01f * float(c));
    });
    RowMatrixXf permuted = values;
    for (std::int64_t c = 0; c < headDim; ++c)
        permuted.col(moved(c)) = values.col(c);
    params.embeddings = matrix(values);
    interleaved.embeddings = matrix(permuted);
    const RowMatrixXf a = whole(Engine(params), Quantity::RopeInput);
    const RowMatrixXf b = whole(Engine(interleaved), Quantity::RopeInput);
    for (std::int64_t c = 0; c < headDim; ++c)
        QVERIFY2(bitEqual(a.col(c), b.col(moved(c))), qPrintable(u"rope-input column %1"_s.arg(c)));
}

void TestRopeTables::inputMatchesApplyRotaryPosEmb_data()
{
    QTest::addColumn<Params>("params");
    for (const auto &[name, p] : typedSettings()) {
        QTest::newRow(qPrintable(name)) << p;
        // The rotary columns last (DeepSeek-V4), a quarter of the head turning where the type's
        // lists (LongRoPE's factors) do not fix the rotary dim.
        Params suffix = p;
        suffix.rope.place = RotaryPlace::Suffix;
        if (suffix.rope.type != RopeType::Proportional && suffix.rope.shortFactor.empty())
            suffix.rope.partialRotaryFactor = 0.25;
        QTest::newRow(qPrintable(name + u", suffix"_s)) << suffix;
    }
}

// apply_rotary_pos_emb on s*E's first head_dim columns: x * cos + rotate_half(x) * sin (or GPT-J's
// pairs), cos and sin with the attention factor, the columns outside the rotary ones as they are.
// The rotary columns are the head's first (transformers' models/llama/modeling_llama.py,
// apply_rotary_pos_emb) or, under suffix, its last: models/deepseek_v4/modular_deepseek_v4.py,
// apply_rotary_pos_emb, `nope, rope = x[..., :-rope_dim], x[..., -rope_dim:]`, then
// cat([nope, rope * cos + rotate_half(rope) * sin]).
void TestRopeTables::inputMatchesApplyRotaryPosEmb()
{
    QFETCH(Params, params);
    params.maxLen = 300;
    params.dModel = params.rope.headDim + 8;
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    const Engine engine(params);
    const HeadReference f = headReference(params);
    const std::int64_t h = f.rotary / 2;
    const std::int64_t o = params.rope.place == RotaryPlace::Suffix ? params.rope.headDim - f.rotary : 0;
    const RowMatrixXf x = whole(engine, Quantity::Embedding);
    const RowMatrixXf out = whole(engine, Quantity::RopeInput);
    QCOMPARE(out.cols(), static_cast<Eigen::Index>(params.rope.headDim));
    const bool half = params.rope.layout == RopeLayout::Half;
    for (Eigen::Index p = 0; p < out.rows(); ++p) {
        for (std::int64_t i = 0; i < h; ++i) {
            const std::int64_t a = o + (half ? i : 2 * i);
            const std::int64_t b = o + (half ? h + i : 2 * i + 1);
            const auto [s, c] = sinCos(double(p), f.inv[static_cast<std::size_t>(i)]);
            const double x1 = x(p, a), x2 = x(p, b);
            const double tolerance = 1e-6 * (std::abs(x1) + std::abs(x2) + 1.0) * f.attention;
            QVERIFY2(std::abs(out(p, a) - f.attention * (x1 * c - x2 * s)) <= tolerance,
                     qPrintable(u"(%1, %2)"_s.arg(p).arg(a)));
            QVERIFY2(std::abs(out(p, b) - f.attention * (x2 * c + x1 * s)) <= tolerance,
                     qPrintable(u"(%1, %2)"_s.arg(p).arg(b)));
        }
        for (std::int64_t j = 0; j < params.rope.headDim; ++j) {
            if (j < o || j >= o + f.rotary)
                QCOMPARE(out(p, j), x(p, j));
        }
    }
}

void TestRopeTables::rotationKeepsNorms_data()
{
    QTest::addColumn<Params>("params");
    Params plain = rope(128, 600);
    QTest::newRow("default, af 1") << plain;
    Params partial = plain;
    partial.rope.partialRotaryFactor = 0.5;
    partial.rope.layout = RopeLayout::Interleaved;
    QTest::newRow("partial, interleaved, af 1") << partial;
    Params yarn = partial;
    yarn.rope.type = RopeType::Yarn;
    yarn.rope.factor = 16.0;
    yarn.rope.originalMaxLen = 4096;
    QTest::newRow("yarn, af 0.1 ln 16 + 1") << yarn;
}

// Each rotated pair keeps its norm, times the attention factor; the unrotated columns are s*E's.
void TestRopeTables::rotationKeepsNorms()
{
    QFETCH(Params, params);
    params.dModel = 256;
    const Engine engine(params);
    const HeadReference f = headReference(params);
    const std::int64_t r = f.rotary;
    const RowMatrixXf x = whole(engine, Quantity::Embedding);
    const RowMatrixXf out = whole(engine, Quantity::RopeInput);
    for (Eigen::Index p = 0; p < out.rows(); ++p) {
        // The rotated columns are [0, r) in either layout.
        const double before = x.row(p).head(r).cast<double>().norm();
        const double after = out.row(p).head(r).cast<double>().norm();
        QVERIFY2(std::abs(after - f.attention * before) <= 1e-6 * f.attention * before,
                 qPrintable(u"row %1: %2 against %3"_s.arg(p).arg(after).arg(f.attention * before)));
        for (std::int64_t j = r; j < params.rope.headDim; ++j)
            QCOMPARE(out(p, j), x(p, j));
        if (f.attention == 1.0) {
            const double norm = out.row(p).cast<double>().norm();
            QVERIFY(std::abs(norm - x.row(p).head(params.rope.headDim).cast<double>().norm()) <= 1e-6 * norm);
        }
    }
}

void TestRopeTables::blocksAndThreadsGiveTheSameCells_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<Quantity>("quantity");
    for (const auto &[name, p] : typedSettings()) {
        Params wide = p;
        wide.maxLen = 2100;
        for (const Quantity q : kRopeQuantities)
            QTest::addRow("%s, %s", qPrintable(name), qPrintable(Quantities::name(q))) << wide << q;
    }
}

// Any block alone, serially or threaded, is the same cells of the whole table, bit for bit.
void TestRopeTables::blocksAndThreadsGiveTheSameCells()
{
    QFETCH(Params, params);
    QFETCH(Quantity, quantity);
    const Engine engine(params);
    const Shape shape = engine.shape(quantity);
    const RowMatrixXf serial = testing::computeTable(engine, quantity, {0, shape.rows, 0, shape.cols}, 1);
    QVERIFY(!serial.array().isNaN().any());
    QCOMPARE(reference::firstBitDifference(serial,
                                           testing::computeTable(engine, quantity, {0, shape.rows, 0, shape.cols}, 2)),
             QString());
    const std::int64_t rows = shape.rows, cols = shape.cols;
    for (const Block block :
         {Block {0, 1, 0, 1}, Block {rows - 1, 1, cols - 1, 1}, Block {1, rows - 2, 1, cols - 2},
          Block {rows / 3, rows / 2, cols / 2, cols - cols / 2}, Block {rows / 2, rows / 2, 0, 1}}) {
        if (block.isEmpty())
            continue;
        RowMatrixXf part(block.rows, block.cols);
        engine.computeBlock(quantity, block, part);
        QCOMPARE(reference::firstBitDifference(serial.block(block.row0, block.col0, block.rows, block.cols), part,
                                               block.row0, block.col0),
                 QString());
    }
}

POSENC_TEST_GUILESS_MAIN(TestRopeTables)
} // namespace tst_ropetables
#include "tst_ropetables.moc"
