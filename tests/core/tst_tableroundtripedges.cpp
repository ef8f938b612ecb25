// posenc's own tables at the parameter rows' edges, checked as `posenc check FILE` checks them, with
// no family declared (issue "Nothing breaks on the edges", Deliver 2): never `mistake`, `learned`
// or `unknown`, always their own family. The edges: RoPE heads past 512 columns (1024 to 8192),
// float32 angles at far positions, d and L of 1 to 3, the scalings at the smallest heads they take,
// Sandwich's head dim 1, the 2-D grids' extremes. Short in CI; POSENC_ROUNDTRIP_LONG=1 adds the
// widest heads and longest tables, by hand (tst_tableroundtrip covers the common rows, declared).
#include "../support/Sanitizer.h"
#include "CheckTables.h"
#include "EngineTable.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"
#include "check/rope/RopeFit.h"
#include "core/Engine.h"
#include "core/Quantity.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <tuple>

namespace tst_tableroundtripedges {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

bool longMode()
{
    return qEnvironmentVariableIsSet("POSENC_ROUNDTRIP_LONG");
}

RowMatrixXf written(const Params &params, const QString &quantity)
{
    const Engine engine(params);
    const Quantity q = *Quantities::fromName(quantity);
    const Shape shape = Quantities::shape(q, params);
    return testing::computeTable(engine, q, {0, shape.rows, 0, shape.cols});
}

Params rope(RopeType type, std::int64_t headDim, std::int64_t L, RopeLayout layout = RopeLayout::Half)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.type = type;
    p.rope.headDim = headDim;
    p.dModel = std::max(p.dModel, headDim);
    p.rope.layout = layout;
    p.maxLen = L;
    return p;
}

Params sinusoid(std::int64_t d, std::int64_t L, Angles angles = Angles::Exact, double base = 10000.0)
{
    Params p;
    p.encoding = Encoding::Sinusoidal;
    p.dModel = d;
    p.maxLen = L;
    p.sinusoidal.angles = angles;
    p.sinusoidal.base = base;
    return p;
}

// transformers' modeling_t5.py, T5Attention._relative_position_bucket, for one cell of a causal
// table (bidirectional=False): relative_position = j - i, only its past kept, the small offsets
// exact, the larger ones log-spaced to max_distance, every farther one in the last bucket.
double t5CausalBucket(std::int64_t i, std::int64_t j, std::int64_t buckets, std::int64_t maxDistance)
{
    const std::int64_t n = std::max<std::int64_t>(i - j, 0);
    const std::int64_t maxExact = buckets / 2;
    if (n < maxExact)
        return double(n);
    const auto large = maxExact
        + std::int64_t(std::log(double(n) / double(maxExact)) / std::log(double(maxDistance) / double(maxExact))
                       * double(buckets - maxExact));
    return double(std::min(large, buckets - 1));
}

} // namespace

class TestTableRoundTripEdges : public QObject
{
    Q_OBJECT

private slots:
    void ownTablesAreTheirFamilys_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<QString>("quantity");
        // RoPE heads past 512 columns: the fit's parameters once kept d_model's default 512, which no
        // head of 1024 is valid under, and the cos table read as a sinusoid with its sines replaced.
        QList<std::int64_t> heads {1024, 2048};
        if (longMode())
            heads += {4096, 8192};
        for (const std::int64_t head : heads) {
            for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
                for (const QString &q : {u"rope-cos"_s, u"rope-sin"_s}) {
                    const std::int64_t L = longMode() ? 4096 : 64;
                    QTest::addRow("%s head %lld %s L %lld", qPrintable(q), qlonglong(head),
                                  layout == RopeLayout::Half ? "half" : "interleaved", qlonglong(L))
                        << rope(RopeType::Default, head, L, layout) << q;
                }
            }
        }
        // Float32 angles: the table posenc writes with --angles float32 deviates from the exact one
        // by up to ~2e-5 at position 4096, which a faithful float32 computation produces.
        for (const auto &[d, L] :
             QList<std::pair<std::int64_t, std::int64_t>> {{8, 4096}, {512, 3}, {64, 2}, {3, 4096}})
            for (const Layout layout : {Layout::Split, Layout::Interleaved}) {
                Params p = sinusoid(d, L, Angles::Float32);
                p.sinusoidal.layout = layout;
                QTest::addRow("pe float32 angles d %lld L %lld %s", qlonglong(d), qlonglong(L),
                              layout == Layout::Split ? "split" : "interleaved")
                    << p << u"pe"_s;
            }
        // Dynamic NTK at a small head and original length: its grown theta of many digits is no
        // default table's, the round parameters that give it are (RopeSearch::tryDynamic).
        Params dynamic = rope(RopeType::Dynamic, 6, 2048, RopeLayout::Interleaved);
        dynamic.rope.factor = 2.0;
        dynamic.rope.originalMaxLen = 32;
        QTest::addRow("rope-cos dynamic head 6 from 32") << dynamic << u"rope-cos"_s;
        // Llama 3's and YaRN's bands at a small head and an original length below 256, where a head of three
        // pairs keeps or divides pairs as no longer original does: once unknown, learned or a mistake.
        for (const RopeType type : {RopeType::Llama3, RopeType::Yarn})
            for (const auto &[factor, original, L] : QList<std::tuple<double, std::int64_t, std::int64_t>> {
                     {2.0, 64, 512}, {8.0, 16, 64}, {8.0, 16, 1024}}) {
                Params p = rope(type, 6, L);
                p.rope.factor = factor;
                p.rope.originalMaxLen = original;
                QTest::addRow("rope-cos %s head 6 factor %g from %lld L %lld",
                              type == RopeType::Yarn ? "yarn" : "llama3", factor, qlonglong(original), qlonglong(L))
                    << p << u"rope-cos"_s;
            }
        // FLUX's EmbedND on a grid of one row or one column, where one of its two axes never turns: once
        // "learned" (the row axis was read from the pairs that turn).
        for (const auto &[h, w] : QList<std::pair<std::int64_t, std::int64_t>> {{1, 64}, {64, 1}, {2, 64}})
            for (const QString &q : {u"rope2d-cos"_s, u"rope2d-sin"_s}) {
                Params p;
                p.encoding = Encoding::Rope2d;
                p.dModel = 128;
                p.rope.headDim = 128;
                p.rope2d.style = Rope2dStyle::Flux;
                p.rope2d.axesDim = {16, 56, 56};
                p.rope2d.patch = {0, 0};
                p.sincos2d.grid = {h, w};
                p.maxLen = h * w;
                QTest::addRow("%s flux %lld x %lld", qPrintable(q), qlonglong(h), qlonglong(w)) << p << q;
            }
        // Axial on a grid of 2 rows: M-RoPE's reading of ids read from the table itself (unknown: it
        // cannot tell) once made it ambiguous, "unknown".
        for (const QString &q : {u"rope2d-cos"_s, u"rope2d-sin"_s}) {
            Params p;
            p.encoding = Encoding::Rope2d;
            p.dModel = 128;
            p.rope.headDim = 128;
            p.rope2d.style = Rope2dStyle::Axial;
            p.rope2d.patch = {0, 0};
            p.sincos2d.grid = {2, 64};
            p.maxLen = 128;
            QTest::addRow("%s axial 2 x 64", qPrintable(q)) << p << q;
        }
        // Sandwich's head dim 1: every cell 1/2 / (8K/H), its one frequency too slow to show; once read as
        // the mistake same-row (every position holds the same row).
        for (const std::int64_t L : {2, 3, 64, 1024})
            for (const auto &[heads, head] :
                 QList<std::pair<std::int64_t, std::int64_t>> {{12, 1}, {8, 3}, {4096, 4096}}) {
                Params p;
                p.encoding = Encoding::Sandwich;
                p.maxLen = L;
                p.sandwich = {heads, head, 1, SandwichMask::Causal};
                QTest::addRow("sandwich-bias d 1 head %lld of %lld L %lld", qlonglong(head), qlonglong(heads),
                              qlonglong(L))
                    << p << u"sandwich-bias"_s;
            }
        // An odd d's lone sine column is the only one that shows the base at d = 3.
        for (const double base : {500.0, 20000.0})
            QTest::addRow("pe d 3 base %g", base) << sinusoid(3, 2048, Angles::Exact, base) << u"pe"_s;
        // The bases a mistake makes of 10000 (100: the exponent halved; 1e8: doubled; e and e^(1/2): the
        // logarithm left out) are the formula at that base as well: once mistake, now the variant.
        for (const double base : {100.0, 1e8, std::numbers::e, std::exp(0.5)})
            for (const std::int64_t d : {8, 64})
                QTest::addRow("pe d %lld base %g", qlonglong(d), base)
                    << sinusoid(d, 512, Angles::Exact, base) << u"pe"_s;
    }
    void ownTablesAreTheirFamilys()
    {
        POSENC_SAMPLE_UNDER_SANITIZER();
        QFETCH(Params, params);
        QFETCH(QString, quantity);
        const QList<ParamError> errors = params.validate();
        QVERIFY2(errors.isEmpty(),
                 qPrintable(errors.isEmpty() ? QString() : errors.first().key + u": "_s + errors.first().problem));
        const Checked c = check(written(params, quantity));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        const QString report = m.diagnosis + u" | "_s + m.deviations + u" | "_s + m.notes.join(u" | "_s);
        QVERIFY2(m.verdict == CheckVerdict::Correct || m.verdict == CheckVerdict::Variant, qPrintable(report));
        QVERIFY2(m.family && *m.family == params.encoding, qPrintable(report));
    }

    // The long round trip's causal T5 bucket table of 4 buckets to distance 3 (there 16384 x 16384),
    // here at 512: its neighbouring columns repeat as an interleaved RoPE table's do, and every
    // rope_theta the RoPE search tries was once scored on it cell by cell, minutes at 16384 columns.
    // Its cells move along the diagonals, as no rotation's do: T5's, and no RoPE search begun. A RoPE
    // table (HF's default, LLaMA's) still begins one, and is RoPE's.
    void relativeBiasIsNeverSearchedAsRope()
    {
        const RowMatrixXf buckets
            = table(512, 512, [](std::int64_t i, std::int64_t j) { return t5CausalBucket(i, j, 4, 3); });
        QCOMPARE(buckets(5, 0), 3.0f); // offsets 0, 1, 2 have buckets of their own; 3 and beyond share one
        QCOMPARE(buckets(5, 3), 2.0f);
        QCOMPARE(buckets(5, 6), 0.0f);
        std::int64_t before = RopeFit::searchesBegun();
        const Checked t5 = check(buckets);
        QVERIFY2(t5.error.isEmpty(), qPrintable(t5.error));
        QVERIFY2(t5.match.family == Encoding::T5, qPrintable(t5.match.diagnosis));
        QVERIFY2(t5.match.verdict == CheckVerdict::Correct || t5.match.verdict == CheckVerdict::Variant,
                 qPrintable(t5.match.diagnosis));
        QCOMPARE(t5.match.table, u"t5-bucket"_s);
        QCOMPARE(RopeFit::searchesBegun(), before);

        // transformers' LlamaRotaryEmbedding: inv_freq = 10000^(-2i/64), cos(p inv_freq) in both halves.
        const RowMatrixXf cosines = table(512, 64, [](std::int64_t p, std::int64_t j) {
            return std::cos(double(p) * std::pow(10000.0, -2.0 * double(j % 32) / 64.0));
        });
        before = RopeFit::searchesBegun();
        const Checked rope = check(cosines);
        QVERIFY2(rope.match.family == Encoding::Rope, qPrintable(rope.match.diagnosis));
        QCOMPARE(rope.match.verdict, CheckVerdict::Correct);
        QVERIFY(RopeFit::searchesBegun() > before);
    }

    // RoPE tables whose cells sit on a diagonal for a step: 3 rows of head_dim 32 at theta 65536
    // (w_{i+1} = w_i / 2, so row 2's pair i + 1 holds row 1's pair i) and 8 rows of positions divided
    // by 1024 at theta 10, whose cells barely move (both once read as no family's). Neither is a
    // function of j - i over six steps: the RoPE search begins, and reads each as RoPE's.
    void ropeOnADiagonalForAStepIsSearched_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("headDim");
        QTest::addColumn<double>("theta");
        QTest::addColumn<double>("positionScale");
        QTest::newRow("3 rows, theta 65536") << qint64(3) << qint64(32) << 65536.0 << 1.0;
        QTest::newRow("8 rows, theta 10, positions / 1024") << qint64(8) << qint64(16) << 10.0 << 1024.0;
    }
    void ropeOnADiagonalForAStepIsSearched()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, headDim);
        QFETCH(double, theta);
        QFETCH(double, positionScale);
        const RowMatrixXf cosines = table(rows, headDim, [&](std::int64_t p, std::int64_t j) {
            const double w = std::pow(theta, -2.0 * double(j % (headDim / 2)) / double(headDim));
            return std::cos(double(p) / positionScale * w);
        });
        const std::int64_t before = RopeFit::searchesBegun();
        const Checked rope = check(cosines);
        QVERIFY2(rope.match.family == Encoding::Rope, qPrintable(rope.match.diagnosis));
        QVERIFY(RopeFit::searchesBegun() > before);
    }

    // Identify may read a 100 x 3000 table transposed: its first 2048 columns down every row, then
    // that table's own sample. The memory budget counts that read before a row is read: a budget
    // that holds the sample twice (a search's copy) and the rows in flight, but not the 2048 x 100
    // cells read transposed, refuses the check with its cells.
    void transposedReadIsBudgeted()
    {
        const MatrixRows rows(std::make_shared<const RowMatrixXf>(RowMatrixXf::Zero(100, 3000)), StoredType::Float32,
                              u"wide"_s);
        TableCheck::StreamOptions smallest;
        smallest.threads = 1;
        smallest.chunkBytes = std::uint64_t(1) << 16;
        const std::uint64_t sampleBytes = 2 * 100 * 3000 * sizeof(float); // every row sampled, and a copy
        const std::uint64_t budget = sampleBytes + TableCheck::streamBytes(3000, smallest) + 1000 * 100 * sizeof(float);
        TableCheck::StreamOptions options;
        options.threads = 1;
        const std::optional<QString> refused = TableCheck::fitToBudget(rows, budget, options);
        QVERIFY(refused);
        QVERIFY2(refused->contains(u"cells"_s), qPrintable(*refused));
        // With room for the transposed table and its sample too, it is not.
        TableCheck::StreamOptions enough;
        enough.threads = 1;
        QVERIFY(!TableCheck::fitToBudget(rows, budget + 3 * 2048 * 100 * sizeof(float), enough));
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableRoundTripEdges)
} // namespace tst_tableroundtripedges
#include "tst_tableroundtripedges.moc"
