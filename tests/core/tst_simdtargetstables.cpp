// The vectorised table kernels on every SIMD target compiled into posenc that this CPU can run
// (SimdTargets, Highway's dynamic dispatch): each target gives the same bits as the others, and
// each is checked against references written here: float64 sin/cos for the PE and the
// float32-angle recipe (docs/ARCHITECTURE.md, The mathematics). The output names the targets.

#include "EngineTable.h"
#include "Reference.h"
#include "SimdTargetRuns.h"
#include "support/TestMain.h"

#include "core/AccumulateSimd.h"
#include "core/Engine.h"
#include "core/PositionalTable.h"
#include "core/SimdTargets.h"
#include "core/StreamStore.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace tst_simdtargetstables {
using namespace Qt::StringLiterals;
using namespace posenc;
using testing::nameTheTargets;
using testing::nanTable;
using testing::onEveryTarget;
using testing::targetName;

class TestSimdTargetsTables : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void eachTargetRuns();
    void positionalTable_data();
    void positionalTable();
    void pairValues_data();
    void pairValues();
    void engineTables_data();
    void engineTables();
    void weightedRowSums();
};

void TestSimdTargetsTables::initTestCase()
{
    QVERIFY(nameTheTargets());
}

void TestSimdTargetsTables::cleanup()
{
    SimdTargets::select(0);
}

// Selecting a target makes the dispatched kernels run on it; 0 returns to the best.
void TestSimdTargetsTables::eachTargetRuns()
{
    const std::vector<SimdTargets::Target> targets = SimdTargets::available();
    for (const SimdTargets::Target &target : targets) {
        SimdTargets::select(target.id);
        QCOMPARE(SimdTargets::current().id, target.id);
    }
    SimdTargets::select(0);
    QCOMPARE(SimdTargets::current().id, targets.front().id);
}

void TestSimdTargetsTables::positionalTable_data()
{
    QTest::addColumn<std::int64_t>("dModel");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<Angles>("angles");
    QTest::addColumn<Block>("block");
    for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
        const char *l = layout == Layout::Interleaved ? "interleaved" : "split";
        for (const std::int64_t d : {64, 61, 1030, 1031}) {
            // Whole rows across hops and an anchor; odd column windows; rows near 2^24.
            QTest::addRow("%s d=%lld whole, rows 1000..1100", l, static_cast<long long>(d))
                << d << layout << Angles::Exact << Block {1000, 100, 0, d};
            QTest::addRow("%s d=%lld columns 3..d-2", l, static_cast<long long>(d))
                << d << layout << Angles::Exact << Block {29, 40, 3, d - 5};
            QTest::addRow("%s d=%lld one column", l, static_cast<long long>(d))
                << d << layout << Angles::Exact << Block {7, 9, d / 2 + 1, 1};
            QTest::addRow("%s d=%lld near 2^24", l, static_cast<long long>(d))
                << d << layout << Angles::Exact << Block {reference::kTwoTo24 - 37, 37, 0, d};
            QTest::addRow("%s d=%lld float32 angles", l, static_cast<long long>(d))
                << d << layout << Angles::Float32 << Block {65530, 12, 1, d - 1};
        }
    }
}

// fill() and forEachTile() in both layouts: identical on every target, within 1e-6 of float64
// for exact angles and equal to the float32 recipe for float32 angles.
void TestSimdTargetsTables::positionalTable()
{
    QFETCH(std::int64_t, dModel);
    QFETCH(Layout, layout);
    QFETCH(Angles, angles);
    QFETCH(Block, block);
    const double base = 10000.0;
    const PositionalTable table(dModel, base, layout, angles);
    const auto results = onEveryTarget<std::vector<RowMatrixXf>>([&] {
        RowMatrixXf filled = nanTable(block.rows, block.cols);
        table.fill(block, filled);
        // The same block from the streaming path, into a matrix whose rows start on cache lines
        // where the width allows.
        RowMatrixXf streamed = nanTable(block.rows, block.cols);
        table.fill(block, streamed, true);
        streamFence();
        RowMatrixXf tiled = nanTable(block.rows, block.cols);
        table.forEachTile(block, [&](const PositionalTable::Tile &tile) {
            for (std::int64_t r = 0; r < tile.rows; ++r)
                for (std::int64_t c = 0; c < tile.cols; ++c)
                    tiled(tile.row0 + r - block.row0, tile.col0 + c - block.col0) = tile.values[r * tile.stride + c];
        });
        return std::vector<RowMatrixXf> {filled, streamed, tiled};
    });
    for (std::size_t t = 0; t < results.size(); ++t) {
        for (std::size_t k = 0; k < 3; ++k) {
            const QString difference
                = reference::firstBitDifference(results[0][0], results[t][k], block.row0, block.col0);
            QVERIFY2(difference.isEmpty(),
                     qPrintable(targetName(t) + u" way "_s + QString::number(k) + u": "_s + difference));
        }
    }
    const RowMatrixXf &values = results[0][0];
    for (std::int64_t r = 0; r < block.rows; ++r) {
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const std::int64_t p = block.row0 + r;
            const std::int64_t j = block.col0 + c;
            if (angles == Angles::Exact) {
                const double exact = reference::preciseValue(p, j, dModel, base, layout);
                QVERIFY2(std::abs(double(values(r, c)) - exact) <= 1e-6,
                         qPrintable(u"(%1, %2): %3, float64 %4"_s.arg(p).arg(j).arg(values(r, c)).arg(exact)));
            } else {
                const float expected = reference::float32AngleValue(p, j, dModel, base, layout);
                QVERIFY2(reference::sameBits(values(r, c), expected), qPrintable(u"(%1, %2)"_s.arg(p).arg(j)));
            }
        }
    }
}

void TestSimdTargetsTables::pairValues_data()
{
    QTest::addColumn<std::int64_t>("dModel");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<PairValues>("values");
    QTest::addColumn<Block>("block");
    for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
        const char *l = layout == Layout::Interleaved ? "interleaved" : "split";
        for (const PairValues values : {PairValues::Sines, PairValues::Cosines}) {
            const char *v = values == PairValues::Sines ? "sines" : "cosines";
            // Pairs ending in a partial vector, rows wider than fill()'s narrow ones; across hops
            // and an anchor, from mid-hop and mid-row, one row of two columns, rows near 2^24.
            for (const std::int64_t d : {72, 61, 1030}) {
                QTest::addRow("%s %s d=%lld whole, rows 1000..1100", l, v, static_cast<long long>(d))
                    << d << layout << values << Block {1000, 100, 0, d};
                QTest::addRow("%s %s d=%lld columns 3..d-2 from row 29", l, v, static_cast<long long>(d))
                    << d << layout << values << Block {29, 40, 3, d - 5};
                QTest::addRow("%s %s d=%lld columns h-1..h+1", l, v, static_cast<long long>(d))
                    << d << layout << values << Block {7, 33, (d + 1) / 2 - 1, 3};
                QTest::addRow("%s %s d=%lld near 2^24", l, v, static_cast<long long>(d))
                    << d << layout << values << Block {reference::kTwoTo24 - 37, 37, 0, d};
            }
            QTest::addRow("%s %s d=2 one row", l, v) << std::int64_t(2) << layout << values << Block {5, 1, 0, 2};
        }
    }
}

// fillValues(), the table of RoPE's cos and sin tables: both columns of pair i hold its sine, or
// its cosine, within 1e-6 of float64 and identical on every target, through the caches or
// around them.
void TestSimdTargetsTables::pairValues()
{
    QFETCH(std::int64_t, dModel);
    QFETCH(Layout, layout);
    QFETCH(PairValues, values);
    QFETCH(Block, block);
    const double base = 10000.0;
    const PositionalTable table(dModel, base, layout, Angles::Exact);
    const auto results = onEveryTarget<std::vector<RowMatrixXf>>([&] {
        RowMatrixXf filled = nanTable(block.rows, block.cols);
        table.fillValues(block, filled, values);
        RowMatrixXf streamed = nanTable(block.rows, block.cols);
        table.fillValues(block, streamed, values, true);
        streamFence();
        return std::vector<RowMatrixXf> {filled, streamed};
    });
    for (std::size_t t = 0; t < results.size(); ++t) {
        for (std::size_t k = 0; k < 2; ++k) {
            const QString difference
                = reference::firstBitDifference(results[0][0], results[t][k], block.row0, block.col0);
            QVERIFY2(difference.isEmpty(),
                     qPrintable(targetName(t) + u" way "_s + QString::number(k) + u": "_s + difference));
        }
    }
    const RowMatrixXf &got = results[0][0];
    for (std::int64_t r = 0; r < block.rows; ++r) {
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const std::int64_t p = block.row0 + r;
            const std::int64_t j = block.col0 + c;
            // The value of column j's pair, the product p * w carried exactly (hi + lo).
            const double w = reference::omega(reference::role(j, dModel, layout).pair, dModel, base);
            const double hi = double(p) * w;
            const double lo = std::fma(double(p), w, -hi);
            const double exact
                = values == PairValues::Sines ? std::sin(hi) + std::cos(hi) * lo : std::cos(hi) - std::sin(hi) * lo;
            QVERIFY2(std::abs(double(got(r, c)) - exact) <= 1e-6,
                     qPrintable(u"(%1, %2): %3, float64 %4"_s.arg(p).arg(j).arg(got(r, c)).arg(exact)));
        }
    }
}

void TestSimdTargetsTables::engineTables_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<Quantity>("quantity");
    const auto params = [](std::int64_t d, Layout layout, DropoutMode mode, Compose compose) {
        Params p;
        p.maxLen = 300;
        p.dModel = d;
        p.sinusoidal.layout = layout;
        p.dropout = 0.1;
        p.dropoutMode = mode;
        p.compose = compose;
        p.peDims = d / 4 * 2 + 1;
        p.special = {0, 5};
        p.seed = 99;
        return p;
    };
    for (const Quantity quantity :
         {Quantity::Pe, Quantity::Embedding, Quantity::Input, Quantity::Output, Quantity::Mask}) {
        const QString name = Quantities::name(quantity);
        for (const std::int64_t d : {512, 777}) {
            QTest::addRow("%s d=%lld interleaved", qPrintable(name), static_cast<long long>(d))
                << params(d, Layout::Interleaved, DropoutMode::Sum, Compose::Sum) << quantity;
            QTest::addRow("%s d=%lld split, embedding mode", qPrintable(name), static_cast<long long>(d))
                << params(d, Layout::Split, DropoutMode::Embedding, Compose::Sum) << quantity;
            QTest::addRow("%s d=%lld split, pe mode", qPrintable(name), static_cast<long long>(d))
                << params(d, Layout::Split, DropoutMode::Positional, Compose::Sum) << quantity;
            QTest::addRow("%s d=%lld concat, pe mode", qPrintable(name), static_cast<long long>(d))
                << params(d, Layout::Interleaved, DropoutMode::Positional, Compose::Concat) << quantity;
            QTest::addRow("%s d=%lld concat, protect-special", qPrintable(name), static_cast<long long>(d))
                << params(d, Layout::Interleaved, DropoutMode::ProtectSpecial, Compose::Concat) << quantity;
        }
    }
    // RoPE's cos and sin tables: a head whose pairs end in a partial vector, a partial rotary dim,
    // and yarn's attention factor, in both layouts.
    Params head;
    head.encoding = Encoding::Rope;
    head.maxLen = 300;
    head.dModel = 128;
    head.rope.headDim = 72;
    Params partial = head;
    partial.rope.headDim = 128;
    partial.rope.partialRotaryFactor = 0.25;
    Params yarn = head;
    yarn.rope.type = RopeType::Yarn;
    yarn.rope.factor = 32.0;
    yarn.rope.theta = 150000.0;
    yarn.rope.originalMaxLen = 4096;
    yarn.rope.attentionFactor = 1.25;
    for (const Quantity quantity : {Quantity::RopeCos, Quantity::RopeSin}) {
        const QString name = Quantities::name(quantity);
        for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
            const char *l = layout == RopeLayout::Half ? "half" : "interleaved";
            for (const auto &[setting, p] : {std::pair {"head_dim 72", head}, std::pair {"partial 0.25", partial},
                                             std::pair {"yarn, attention factor", yarn}}) {
                Params laidOut = p;
                laidOut.rope.layout = layout;
                QTest::addRow("%s %s, %s", qPrintable(name), setting, l) << laidOut << quantity;
            }
        }
    }
}

// Whole tables through the engine, two threads: identical on every target.
void TestSimdTargetsTables::engineTables()
{
    QFETCH(Params, params);
    QFETCH(Quantity, quantity);
    QVERIFY(params.isValid());
    const Engine engine(params);
    const Shape shape = engine.shape(quantity);
    const auto results = onEveryTarget<RowMatrixXf>([&] {
        return testing::computeTable(engine, quantity, Block {0, shape.rows, 0, shape.cols}, 2);
    });
    QVERIFY(results[0].allFinite());
    for (std::size_t t = 1; t < results.size(); ++t) {
        const QString difference = reference::firstBitDifference(results[0], results[t]);
        QVERIFY2(difference.isEmpty(), qPrintable(targetName(t) + u": "_s + difference));
    }
}

// AccumulateSimd::addWeighted (a heatmap's grid rows, HeatmapResampler) on every target, bit for
// bit the scalar loop into[j] += w * double(from[j]), at lengths around every vector width and
// several weights: the sums start at the products' scale, where a fused multiply-add would round
// differently in about one element in five; `from` ends in NaN, so that a kernel reading or writing
// past the length leaves a NaN in the element after it.
void TestSimdTargetsTables::weightedRowSums()
{
    std::mt19937_64 random(64);
    std::normal_distribution<float> normal(0.0f, 3.0f);
    for (const double w : {0.3183098861837907, -1.7320508075688772, 1e-3})
        for (const std::int64_t n : {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 768, 1023}) {
            std::vector<float> from(static_cast<std::size_t>(n) + 16, std::numeric_limits<float>::quiet_NaN());
            std::vector<double> start(static_cast<std::size_t>(n) + 1);
            for (std::int64_t j = 0; j < n; ++j)
                from[std::size_t(j)] = normal(random);
            for (double &x : start)
                x = w * double(normal(random));
            std::vector<double> expected = start;
            for (std::int64_t j = 0; j < n; ++j)
                expected[std::size_t(j)] += w * double(from[std::size_t(j)]);
            const auto results = onEveryTarget<std::vector<double>>([&] {
                std::vector<double> into = start;
                AccumulateSimd::addWeighted(into.data(), from.data(), w, n);
                return into;
            });
            for (std::size_t t = 0; t < results.size(); ++t)
                QVERIFY2(std::memcmp(results[t].data(), expected.data(), expected.size() * sizeof(double)) == 0,
                         qPrintable(targetName(t) + QStringLiteral(", %1 columns, w %2").arg(n).arg(w)));
        }
}

POSENC_TEST_APPLESS_MAIN(TestSimdTargetsTables)
} // namespace tst_simdtargetstables
#include "tst_simdtargetstables.moc"
