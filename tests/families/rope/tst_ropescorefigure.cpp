// The rope-score figure: over distance k on a log axis, the score of q = k and RoFormer's bound
// against float64 sums written here, the random pairs' mean and band as the rope-score table
// holds them, each pixel the least and the most of its distances; past the cap, a sample of each
// crowded pixel that keeps its first and last distance.
#include "render/FigureExporter.h"
#include "render/figures/rope/RopeScoreFigure.h"
#include "support/TestMain.h"

#include "RopeSlides.h"
#include "support/FigureBuilds.h"
#include "support/RopeReference.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>

namespace tst_ropescorefigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params scored(std::int64_t maxLen, std::int64_t headDim = 64, double partial = 1.0)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 128;
    p.maxLen = maxLen;
    p.rope.headDim = headDim;
    p.rope.partialRotaryFactor = partial;
    p.rope.type = RopeType::Llama3;
    p.rope.factor = 4.0;
    p.rope.originalMaxLen = maxLen / 4;
    return p;
}

// <q, R(k) q> / |q|^2 for q all ones over head_dim: each turning pair adds 2 cos(k theta_i), each
// unrotated column 1.
double aligned(const Params &p, double k)
{
    const std::vector<double> inv = roperef::inv(p);
    double sum = double(p.rope.headDim) - 2.0 * double(inv.size());
    for (const double theta : inv)
        sum += 2.0 * std::cos(k * theta);
    return sum / double(p.rope.headDim);
}

// (1/h) sum_{j=1..h} |S_j|, S_j = sum_{i<j} e^{i k theta_i}.
double bound(const Params &p, double k)
{
    const std::vector<double> inv = roperef::inv(p);
    std::complex<double> s(0.0, 0.0);
    double sum = 0.0;
    for (const double theta : inv) {
        s += std::polar(1.0, k * theta);
        sum += std::abs(s);
    }
    return sum / double(inv.size());
}

// The farthest q − kv any query keeps, as transformers' masking_utils.py builds the mask: causal
// (kv_idx <= q_idx), and chunked_overlay (kv_idx // chunk_size == q_idx // chunk_size, no left
// padding) or sliding_window_overlay (kv_idx > q_idx − sliding_window); both ways, the window is
// not the causal one a causal row draws. Every pair of a short row tried.
std::int64_t farthestKept(std::int64_t length, std::optional<std::int64_t> chunk, std::optional<std::int64_t> window)
{
    std::int64_t farthest = 0;
    for (std::int64_t q = 0; q < length; ++q)
        for (std::int64_t kv = 0; kv <= q; ++kv) {
            if (chunk && kv / *chunk != q / *chunk)
                continue;
            if (window && !(kv > q - *window))
                continue;
            farthest = std::max(farthest, q - kv);
        }
    return farthest;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 2e-6 * std::max(1.0, std::abs(b));
}

} // namespace

class TestRopeScoreFigure : public QObject
{
    Q_OBJECT

private slots:
    void aWideHeadTakesTheDistancesItsCostAllows();
    void everyDistanceItsOwnPoint_data();
    void everyDistanceItsOwnPoint();
    void crowdedPixelsHoldTheirLeastAndMost();
    void pastTheCapEachPixelIsSampled();
    void figureIsRegisteredAndExports();
    void llamaAndGptOssFitASlide();
    void aChunkedOrWindowedLayerIsPlottedToItsReach_data();
    void aChunkedOrWindowedLayerIsPlottedToItsReach();
    void theTitleNamesWhatIsDrawn();
};

void TestRopeScoreFigure::everyDistanceItsOwnPoint_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("full rotary") << scored(200);
    QTest::newRow("partial rotary 0.5: unrotated columns add 1") << scored(200, 64, 0.5);
}

void TestRopeScoreFigure::everyDistanceItsOwnPoint()
{
    // 199 distances on 2,000 pixels: one point each, its least its most.
    QFETCH(Params, p);
    const Engine engine(p);
    const auto d = RopeScoreModel::compute(engine, 1.0, 199.0, 2000, RopeScoreModel::kMaxRows, {1, nullptr});
    QVERIFY(d);
    QCOMPARE(d->distance.size(), 199);
    QCOMPARE(d->computed, 199);
    QCOMPARE(d->perPixel, 0);
    RowMatrixXf table(200, 4);
    engine.computeBlock(Quantity::RopeScore, {0, 200, 0, 4}, table);
    for (qsizetype n = 0; n < d->distance.size(); ++n) {
        const double k = double(n + 1);
        QCOMPARE(d->distance[n], k);
        QCOMPARE(d->aligned.lo[n], d->aligned.hi[n]);
        QVERIFY2(near(d->aligned.lo[n], aligned(p, k)),
                 qPrintable(u"k %1: %2 vs %3"_s.arg(k).arg(d->aligned.lo[n]).arg(aligned(p, k))));
        QVERIFY2(near(d->bound.lo[n], bound(p, k)),
                 qPrintable(u"k %1: %2 vs %3"_s.arg(k).arg(d->bound.lo[n]).arg(bound(p, k))));
        // The random pairs as the table holds them, the band their mean -+ std.
        const double mean = table(n + 1, RopeScoreModel::Mean), std = table(n + 1, RopeScoreModel::Std);
        QCOMPARE(d->mean.lo[n], mean);
        QVERIFY(near(d->band.lo[n], mean - std) && near(d->band.hi[n], mean + std));
    }
}

void TestRopeScoreFigure::crowdedPixelsHoldTheirLeastAndMost()
{
    // 3,999 distances on 100 pixels of a log axis: each point the least and the most of its
    // pixel's distances, every distance in exactly one pixel.
    const Params p = scored(4000);
    const Engine engine(p);
    const auto d = RopeScoreModel::compute(engine, 1.0, 3999.0, 100, RopeScoreModel::kMaxRows, {1, nullptr});
    QVERIFY(d);
    QCOMPARE(d->computed, 3999);
    QVERIFY(d->distance.size() <= 100);
    const double span = std::log(3999.0);
    // The pixel of k, as a log axis of 100 pixels from 1 to 3999 places it.
    QList<double> lo(100, INFINITY), hi(100, -INFINITY);
    for (std::int64_t k = 1; k < 4000; ++k) {
        const int pixel = std::clamp(int(std::floor(100.0 * std::log(double(k)) / span)), 0, 99);
        lo[pixel] = std::min(lo[pixel], bound(p, double(k)));
        hi[pixel] = std::max(hi[pixel], bound(p, double(k)));
    }
    QList<double> expectedLo, expectedHi;
    for (int pixel = 0; pixel < 100; ++pixel) {
        if (std::isfinite(lo[pixel])) {
            expectedLo.append(lo[pixel]);
            expectedHi.append(hi[pixel]);
        }
    }
    QCOMPARE(d->bound.lo.size(), expectedLo.size());
    for (qsizetype n = 0; n < expectedLo.size(); ++n)
        QVERIFY2(near(d->bound.lo[n], expectedLo[n]) && near(d->bound.hi[n], expectedHi[n]),
                 qPrintable(u"point %1: [%2, %3] vs [%4, %5]"_s.arg(n)
                                .arg(d->bound.lo[n])
                                .arg(d->bound.hi[n])
                                .arg(expectedLo[n])
                                .arg(expectedHi[n])));
}

// Before: the cap was 2^12 distances for a preview and 2^17 in full whatever a row cost, and a row
// at head_dim 2^16 costs 2^16 (256 + 1) products: export rope-score at L 2^24 ran past 300 s. Now
// the distances are capped by the figures' bounds too (Detail.h), at least 64.
void TestRopeScoreFigure::aWideHeadTakesTheDistancesItsCostAllows()
{
    Params p = scored(std::int64_t(1) << 24, 65536);
    p.dModel = 65536; // one head within d_model
    QVERIFY(p.isValid());
    FigureRequest request;
    request.engine = std::make_shared<const Engine>(p);
    request.detail = Detail::Preview;
    PanelExtent panel;
    panel.size = QSize(400, 300);
    panel.x = {1.0, double(p.maxLen - 1)};
    panel.y = {-1.0, 1.0};
    request.panels = {panel};
    const std::atomic<bool> cancel {false};
    const FigureResult result = FigureBuilds::figure(u"rope-score"_s).model().compute(request, cancel);
    QVERIFY(result.data);
    const auto &d = static_cast<const RopeScoreData &>(*result.data);
    QVERIFY2(d.computed <= 64 + 400 * 2, qPrintable(QString::number(d.computed)));
    QVERIFY(d.perPixel > 0); // sampled, as the figure says
}

void TestRopeScoreFigure::pastTheCapEachPixelIsSampled()
{
    const Params p = scored(100000);
    const Engine engine(p);
    const auto d = RopeScoreModel::compute(engine, 1.0, 99999.0, 200, 2000, {1, nullptr});
    QVERIFY(d);
    QVERIFY(d->perPixel >= 2);
    // At most the cap, give or take the pixels that hold fewer distances than their share.
    QVERIFY2(d->computed <= 2000 + 200 * d->perPixel, qPrintable(QString::number(d->computed)));
    QVERIFY(d->computed < 99999);
    // The last distance is among those taken: the last point's envelope holds its value.
    const double last = aligned(p, 99999.0);
    QVERIFY(d->aligned.lo.back() <= last + 1e-6 && d->aligned.hi.back() >= last - 1e-6);
    const auto built = FigureBuilds::build(u"rope-score"_s, p, FigureSize::fromPixels(QSize(900, 600)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
}

void TestRopeScoreFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"rope-score"_s);
    QCOMPARE(figure.model().inputs({}), QList<Quantity> {Quantity::RopeScore});
    const FigureSize size = FigureSize::fromPixels(QSize(800, 500));
    const auto built = FigureBuilds::build(u"rope-score"_s, scored(2048), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(800, 500));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"RoPE score against distance"_s), qPrintable(texts));
}

void TestRopeScoreFigure::llamaAndGptOssFitASlide()
{
    RopeSlides::check(u"rope-score"_s);
}

// Llama 4 Scout's RoPE layers attend within chunks of 8,192 (attention_chunk_size; transformers'
// Llama4TextModel.forward gives its chunked_attention layers create_chunked_causal_mask), yet the
// figure drew distances to 131,071 as if they saw them. A chunked or sliding-window layer's
// distances stop at the farthest key its mask keeps, and the title says why.
void TestRopeScoreFigure::aChunkedOrWindowedLayerIsPlottedToItsReach_data()
{
    QTest::addColumn<std::int64_t>("length");
    QTest::addColumn<std::int64_t>("chunk"); // 0: none
    QTest::addColumn<std::int64_t>("window"); // 0: none
    QTest::addColumn<bool>("bothWays");
    QTest::newRow("chunks of 64 of 512") << std::int64_t(512) << std::int64_t(64) << std::int64_t(0) << false;
    QTest::newRow("window 100 of 512") << std::int64_t(512) << std::int64_t(0) << std::int64_t(100) << false;
    QTest::newRow("chunk 64, window 40") << std::int64_t(512) << std::int64_t(64) << std::int64_t(40) << false;
    QTest::newRow("chunk past max_len") << std::int64_t(300) << std::int64_t(4096) << std::int64_t(0) << false;
    QTest::newRow("no mask") << std::int64_t(300) << std::int64_t(0) << std::int64_t(0) << false;
    QTest::newRow("both ways: no causal window") << std::int64_t(300) << std::int64_t(0) << std::int64_t(100) << true;
}

void TestRopeScoreFigure::aChunkedOrWindowedLayerIsPlottedToItsReach()
{
    QFETCH(std::int64_t, length);
    QFETCH(std::int64_t, chunk);
    QFETCH(std::int64_t, window);
    QFETCH(bool, bothWays);
    Params p = scored(length);
    if (chunk > 0)
        p.batch.chunk = chunk;
    if (window > 0)
        p.batch.window = window;
    if (bothWays)
        p.batch.attention = Attention::BothWays;
    const std::int64_t expected = bothWays ? length - 1
                                           : farthestKept(length, chunk > 0 ? std::optional(chunk) : std::nullopt,
                                                          window > 0 ? std::optional(window) : std::nullopt);
    const Engine engine(p);
    const auto d = RopeScoreModel::compute(engine, 1.0, double(length), 600, RopeScoreModel::kMaxRows, {1, nullptr});
    QVERIFY(d);
    QCOMPARE(d->last, expected);
    QVERIFY(!d->distance.isEmpty());
    QVERIFY2(d->distance.last() <= double(expected) + 1e-9, qPrintable(QString::number(d->distance.last())));
    // The last point's envelope holds the farthest distance's score, as the float64 sum has it.
    const double last = aligned(p, double(expected));
    QVERIFY(d->aligned.lo.last() <= last + 1e-6 && d->aligned.hi.last() >= last - 1e-6);
    const auto built = FigureBuilds::build(u"rope-score"_s, p, FigureSize::fromPixels(QSize(1400, 700)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    for (QCPAxisRect *rect : built->plot()->axisRects())
        QCOMPARE(rect->axis(QCPAxis::atBottom)->range().upper, double(std::max<std::int64_t>(expected, 2)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    const bool cut = expected < length - 1;
    QCOMPARE(texts.contains(u"distances to %1: its layers attend within"_s.arg(expected)), cut);
}

// rope-relative's score view at 1920 x 1080 was titled with rope-decay's question, "Does RoPE decay
// with distance?": the figure's title says what it draws, in a wide view as in a small one.
void TestRopeScoreFigure::theTitleNamesWhatIsDrawn()
{
    for (const QSize size : {QSize(1400, 500), QSize(500, 360)}) {
        const auto built = FigureBuilds::build(u"rope-score"_s, scored(2048), FigureSize::fromPixels(size));
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        const QStringList texts = FigureBuilds::texts(*built->plot());
        QVERIFY2(std::any_of(texts.cbegin(), texts.cend(),
                             [](const QString &text) { return text.startsWith(u"RoPE score against distance"_s); }),
                 qPrintable(texts.join(u" | "_s)));
        QVERIFY2(!texts.join(u' ').contains(u'?'), qPrintable(texts.join(u" | "_s)));
    }
}

POSENC_TEST_MAIN(TestRopeScoreFigure)
} // namespace tst_ropescorefigure
#include "tst_ropescorefigure.moc"
