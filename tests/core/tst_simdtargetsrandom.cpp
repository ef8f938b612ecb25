// The vectorised random kernels on every SIMD target compiled into posenc that this CPU can run
// (SimdTargets, Highway's dynamic dispatch): each target gives the same bits as the others, and
// each is checked against Random123's own philox4x32, inverted dropout on the mask rule of
// docs/ARCHITECTURE.md, The mathematics, and the seeded init in float64. The output names the
// targets.

#include "EngineTable.h"
#include "Reference.h"
#include "SimdTargetRuns.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/Philox.h"
#include "core/SimdTargets.h"
#include "core/StreamStore.h"

#include <Random123/philox.h>

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <vector>

namespace tst_simdtargetsrandom {
using namespace Qt::StringLiterals;
using namespace posenc;
using testing::nameTheTargets;
using testing::nanTable;
using testing::onEveryTarget;
using testing::targetName;

namespace {

// Philox4x32-10 of counter (position, group, stream) under `seed`, by Random123 itself.
std::array<std::uint32_t, 4> philox(std::uint64_t seed, RandomStream stream, std::int64_t position, std::uint32_t group)
{
    const r123::Philox4x32::ctr_type counter {{static_cast<std::uint32_t>(position),
                                               static_cast<std::uint32_t>(static_cast<std::uint64_t>(position) >> 32),
                                               group, static_cast<std::uint32_t>(stream)}};
    const r123::Philox4x32::key_type key {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
    const auto out = r123::Philox4x32()(counter, key);
    return {out[0], out[1], out[2], out[3]};
}

// The keep bit of cell (p, j): its 32-bit uniform is byte j % 16 (little-endian) of the dropout
// stream's group j / 16 above, and the low 24 bits of word j % 4 of the low-bits stream's group
// j / 4 below; kept when that is under round((1 - p) 2^32).
bool keptCell(std::uint64_t seed, double p, std::int64_t position, std::int64_t column)
{
    const auto words = philox(seed, RandomStream::Dropout, position, static_cast<std::uint32_t>(column / 16));
    const std::uint64_t top = (words[std::size_t(column % 16 / 4)] >> (8 * (column % 4))) & 0xFFu;
    const std::uint64_t low = philox(seed, RandomStream::DropoutLowBits, position,
                                     static_cast<std::uint32_t>(column / 4))[std::size_t(column % 4)]
        & 0xFFFFFFu;
    return ((top << 24) | low) < static_cast<std::uint64_t>(std::llround(std::ldexp(1.0 - p, 32)));
}

} // namespace

class TestSimdTargetsRandom : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void philoxWords_data();
    void philoxWords();
    void streamStores();
    void dropoutOutputAndMask_data();
    void dropoutOutputAndMask();
    void embeddingsAgainstFloat64();
};

void TestSimdTargetsRandom::initTestCase()
{
    QVERIFY(nameTheTargets());
}

void TestSimdTargetsRandom::cleanup()
{
    SimdTargets::select(0);
}

void TestSimdTargetsRandom::philoxWords_data()
{
    QTest::addColumn<std::int64_t>("position");
    QTest::addColumn<std::int64_t>("group0");
    QTest::addColumn<std::int64_t>("count");
    // Counts around every vector width from 4 to 16 lanes, in batches of four vectors and alone.
    for (const std::int64_t count : {1, 3, 4, 5, 15, 16, 17, 33, 63, 64, 65, 200})
        QTest::addRow("%lld groups", static_cast<long long>(count)) << std::int64_t(777) << std::int64_t(5) << count;
    QTest::newRow("past 2^32 positions, groups wrapping")
        << (std::int64_t(1) << 33) + 3 << std::int64_t(0xFFFFFFF0u) << std::int64_t(40);
}

// CellRandom::fill and gather on every target, word for word against Random123.
void TestSimdTargetsRandom::philoxWords()
{
    QFETCH(std::int64_t, position);
    QFETCH(std::int64_t, group0);
    QFETCH(std::int64_t, count);
    const std::uint64_t seed = 0x0123456789ABCDEFull;
    const CellRandom random(seed, RandomStream::Embedding);
    std::vector<std::uint32_t> groups;
    for (std::int64_t i = 0; i < count; ++i)
        groups.push_back(static_cast<std::uint32_t>((i * 2654435761u) % 1000003u));
    const auto results = onEveryTarget<std::vector<std::uint32_t>>([&] {
        std::vector<std::uint32_t> words(static_cast<std::size_t>(8 * count + 4), 0xA5A5A5A5u);
        random.fill(position, group0, count, words.data());
        random.gather(position, groups.data(), count, words.data() + 4 * count);
        return words;
    });
    for (std::size_t t = 0; t < results.size(); ++t) {
        const std::vector<std::uint32_t> &words = results[t];
        for (std::int64_t i = 0; i < count; ++i) {
            const auto filled = philox(seed, RandomStream::Embedding, position, static_cast<std::uint32_t>(group0 + i));
            const auto gathered = philox(seed, RandomStream::Embedding, position, groups[std::size_t(i)]);
            for (std::size_t k = 0; k < 4; ++k) {
                QVERIFY2(words[std::size_t(4 * i) + k] == filled[k], qPrintable(targetName(t)));
                QVERIFY2(words[std::size_t(4 * (count + i)) + k] == gathered[k], qPrintable(targetName(t)));
            }
        }
        QVERIFY2(words.back() == 0xA5A5A5A5u, qPrintable(targetName(t) + u": wrote past the end"_s));
    }
}

// Streaming copies and fills from every start and length around the vector widths write
// exactly their range.
void TestSimdTargetsRandom::streamStores()
{
    std::vector<float> source(300);
    for (std::size_t i = 0; i < source.size(); ++i)
        source[i] = float(i) * 0.5f - 7.0f;
    onEveryTarget<int>([&] {
        for (std::int64_t offset = 0; offset < 17; ++offset) {
            for (const std::int64_t count : {0, 1, 3, 15, 16, 17, 63, 64, 65, 250}) {
                alignas(64) float copied[300];
                alignas(64) float filled[300];
                std::fill(std::begin(copied), std::end(copied), -1.0f);
                std::fill(std::begin(filled), std::end(filled), -1.0f);
                streamCopy(copied + offset, source.data(), count);
                streamFill(filled + offset, 3.25f, count);
                streamFence();
                for (std::int64_t i = 0; i < 300; ++i) {
                    const bool inside = i >= offset && i < offset + count;
                    if (copied[i] != (inside ? source[std::size_t(i - offset)] : -1.0f)
                        || filled[i] != (inside ? 3.25f : -1.0f))
                        qFatal("%s: stream store at offset %lld, count %lld, index %lld", SimdTargets::current().name,
                               static_cast<long long>(offset), static_cast<long long>(count),
                               static_cast<long long>(i));
                }
            }
        }
        return 0;
    });
}

void TestSimdTargetsRandom::dropoutOutputAndMask_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<std::int64_t>("dModel");
    QTest::addColumn<bool>("loaded");
    QTest::newRow("p=0.1, d=512, loaded embeddings") << 0.1 << std::int64_t(512) << true;
    QTest::newRow("p=0.1, d=203, drawn embeddings") << 0.1 << std::int64_t(203) << false;
    QTest::newRow("p=0.5, d=1024, loaded embeddings") << 0.5 << std::int64_t(1024) << true;
    // Past the 4096 cells the byte comparison takes at a time, with a part of a vector after.
    QTest::newRow("p=0.1, d=4203, drawn embeddings") << 0.1 << std::int64_t(4203) << false;
}

// On every target: the mask is Random123's bits by the rule, and Y = kept ? (s E + PE) / keep : 0
// from the engine's own s*E and PE, bit for bit.
void TestSimdTargetsRandom::dropoutOutputAndMask()
{
    QFETCH(double, p);
    QFETCH(std::int64_t, dModel);
    QFETCH(bool, loaded);
    Params params;
    params.maxLen = 150;
    params.dModel = dModel;
    params.dropout = p;
    params.seed = 31337;
    params.scaleKind = ScaleKind::Sqrt;
    if (loaded)
        params.embeddings = Embeddings::materialize(Embeddings::fromParams(params), params.maxLen, 2);
    QVERIFY(params.isValid());
    const Engine engine(params);
    const Block all {0, params.maxLen, 0, dModel};
    const RowMatrixXf scaled = testing::computeTable(engine, Quantity::Embedding, all, 1);
    const RowMatrixXf pe = testing::computeTable(engine, Quantity::Pe, all, 1);
    const float keep = float(1.0 - p);
    const auto results = onEveryTarget<std::vector<RowMatrixXf>>([&] {
        return std::vector<RowMatrixXf> {testing::computeTable(engine, Quantity::Output, all, 2),
                                         testing::computeTable(engine, Quantity::Mask, all, 2)};
    });
    for (std::size_t t = 0; t < results.size(); ++t) {
        const RowMatrixXf &y = results[t][0];
        const RowMatrixXf &mask = results[t][1];
        for (std::int64_t r = 0; r < all.rows; ++r) {
            for (std::int64_t c = 0; c < dModel; ++c) {
                const bool kept = keptCell(params.seed, p, r, c);
                const float expected = kept ? (scaled(r, c) + pe(r, c)) / keep : 0.0f;
                if (!reference::sameBits(y(r, c), expected) || mask(r, c) != (kept ? 1.0f : 0.0f))
                    QFAIL(qPrintable(u"%1 at (%2, %3): Y %4 (expected %5), mask %6 (expected %7)"_s.arg(targetName(t))
                                         .arg(r)
                                         .arg(c)
                                         .arg(reference::numf(y(r, c)), reference::numf(expected))
                                         .arg(mask(r, c))
                                         .arg(kept ? 1 : 0)));
            }
        }
    }
}

// The seeded init on every target: the same bits, each cell Box-Muller of its two Philox words
// (Random123) evaluated in float64, within what float32 logarithm, square root, sine and cosine
// of float32 arguments can reach.
void TestSimdTargetsRandom::embeddingsAgainstFloat64()
{
    const std::uint64_t seed = 4242;
    const double sigma = 0.75;
    const Block block {1000, 40, 5, 300}; // chunks cut at both ends
    const Embeddings embeddings(seed, sigma, 400);
    const auto results = onEveryTarget<RowMatrixXf>([&] {
        RowMatrixXf out = nanTable(block.rows, block.cols);
        embeddings.fill(block, out);
        return out;
    });
    for (std::size_t t = 1; t < results.size(); ++t) {
        const QString difference = reference::firstBitDifference(results[0], results[t], block.row0, block.col0);
        QVERIFY2(difference.isEmpty(), qPrintable(targetName(t) + u": "_s + difference));
    }
    double worst = 0.0;
    for (std::int64_t r = 0; r < block.rows; ++r) {
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const std::int64_t p = block.row0 + r;
            const std::int64_t j = block.col0 + c;
            // Column pair j / 2 of its chunk of 64 takes words 2k and 2k + 1 of the chunk's 16 groups.
            const std::int64_t chunk = j / 64;
            const std::int64_t k = j % 64 / 2;
            const auto words = philox(seed, RandomStream::Embedding, p, static_cast<std::uint32_t>(16 * chunk + k / 2));
            // The uniforms as float32 forms them from 24 bits: u1 in (0, 1), u2 in [0, 1).
            const double u1 = (float(words[std::size_t(2 * (k % 2))] >> 8) + 0.5f) / 16777216.0f;
            const double u2 = float(words[std::size_t(2 * (k % 2) + 1)] >> 8) / 16777216.0f;
            const double radius = sigma * std::sqrt(-2.0 * std::log(u1));
            const double angle = 2.0 * std::numbers::pi * u2;
            const double expected = radius * (j % 2 == 0 ? std::cos(angle) : std::sin(angle));
            const double error = std::abs(double(results[0](r, c)) - expected) / (1.0 + std::abs(radius));
            worst = std::max(worst, error);
            QVERIFY2(error < 1e-6,
                     qPrintable(u"(%1, %2): %3, float64 %4"_s.arg(p).arg(j).arg(results[0](r, c)).arg(expected)));
        }
    }
    qInfo("largest |E - float64| / (1 + radius): %.3g", worst);
}

POSENC_TEST_APPLESS_MAIN(TestSimdTargetsRandom)
} // namespace tst_simdtargetsrandom
#include "tst_simdtargetsrandom.moc"
