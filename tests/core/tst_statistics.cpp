// Statistics: norms per position and RMS per column recomputed in float64 from the Engine's
// tables of the same rows; the closed forms ||PE_p||^2 = d/2 and E||s*E_p||^2 = s^2 sigma^2 d_E;
// the similarity S[p, q] = sum_i cos((p - q) w_i) (docs/ARCHITECTURE.md, The mathematics).

#include "EngineTable.h"
#include "Reference.h"
#include "support/TestMain.h"

#include "core/Statistics.h"

#include <QTest>

#include <atomic>
#include <cmath>
#include <limits>

namespace tst_statistics {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

bool closeRelative(double got, double expected, double tolerance)
{
    return std::abs(got - expected) <= tolerance * std::max(std::abs(expected), 1e-300);
}

QList<std::pair<const char *, Params>> statisticsParams()
{
    Params sum;
    sum.dModel = 96;
    sum.maxLen = 2000;
    sum.seed = 3;
    Params oddSplit = sum;
    oddSplit.dModel = 75;
    oddSplit.sinusoidal.layout = Layout::Split;
    oddSplit.sinusoidal.angles = Angles::Float32;
    oddSplit.scaleKind = ScaleKind::One;
    oddSplit.dropoutMode = DropoutMode::Embedding;
    Params concat = sum;
    concat.compose = Compose::Concat;
    concat.peDims = 40;
    concat.init = InitKind::ScaledNormal;
    concat.dropout = 0.5;
    Params masked = sum;
    masked.dropoutMode = DropoutMode::MaskedFill;
    masked.seqLen = 700;
    return {{"sum d=96", sum},
            {"split odd d=75 float32, embedding dropout", oddSplit},
            {"concat k=40", concat},
            {"masked-fill seq_len 700", masked}};
}

} // namespace

class TestStatistics : public QObject
{
    Q_OBJECT

private slots:
    void positionNormsMatchTables_data();
    void positionNormsMatchTables();
    void columnRmsMatchTables_data();
    void columnRmsMatchTables();
    void threadsAgree();
    void cancelledGivesNothing();
    void expectedNorms_data();
    void expectedNorms();
    void measuredMatchesExpected_data();
    void measuredMatchesExpected();
    void similarityMatchesClosedForm_data();
    void similarityMatchesClosedForm();
    void cosineOfZeroRowIsZero();
};

void TestStatistics::positionNormsMatchTables_data()
{
    QTest::addColumn<Params>("params");
    for (const auto &[name, params] : statisticsParams())
        QTest::newRow(name) << params;
}

// ||PE_p||, ||s*E_p||, their ratio, ||X_p|| and ||Y_p|| for rows [100, 700), against sums of
// squares in float64 of the Engine's Pe, Embedding, Input and Output tables.
void TestStatistics::positionNormsMatchTables()
{
    QFETCH(Params, params);
    const Engine engine(params);
    const std::int64_t row0 = 100, rows = 600;
    const std::optional<PositionNorms> norms
        = Statistics::positionNorms(engine, row0, rows, ComputeOptions {2, nullptr});
    QVERIFY(norms);
    for (const Eigen::ArrayXd *a : {&norms->pe, &norms->embedding, &norms->ratio, &norms->input, &norms->output})
        QCOMPARE(a->size(), rows);
    const RowMatrixXf pe
        = testing::computeTable(engine, Quantity::Pe, Block {row0, rows, 0, engine.shape(Quantity::Pe).cols});
    const RowMatrixXf e = testing::computeTable(engine, Quantity::Embedding,
                                                Block {row0, rows, 0, engine.shape(Quantity::Embedding).cols});
    const RowMatrixXf x = testing::computeTable(engine, Quantity::Input, Block {row0, rows, 0, params.dModel});
    const RowMatrixXf y = testing::computeTable(engine, Quantity::Output, Block {row0, rows, 0, params.dModel});
    const auto norm = [](const RowMatrixXf &m, std::int64_t r) {
        double sum = 0.0;
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            sum += double(m(r, c)) * double(m(r, c));
        return std::sqrt(sum);
    };
    for (std::int64_t r = 0; r < rows; ++r) {
        const double nPe = norm(pe, r), nE = norm(e, r), nX = norm(x, r), nY = norm(y, r);
        const auto message = [&](const char *what, double got, double expected) {
            return u"row %1, %2: %3, float64 %4"_s.arg(row0 + r)
                .arg(QString::fromLatin1(what))
                .arg(reference::num(got), reference::num(expected));
        };
        QVERIFY2(closeRelative(norms->pe[r], nPe, 1e-6), qPrintable(message("||PE||", norms->pe[r], nPe)));
        QVERIFY2(closeRelative(norms->embedding[r], nE, 1e-6), qPrintable(message("||sE||", norms->embedding[r], nE)));
        QVERIFY2(closeRelative(norms->ratio[r], nE / nPe, 1e-6),
                 qPrintable(message("ratio", norms->ratio[r], nE / nPe)));
        QVERIFY2(closeRelative(norms->input[r], nX, 1e-6), qPrintable(message("||X||", norms->input[r], nX)));
        QVERIFY2(closeRelative(norms->output[r], nY, 1e-6), qPrintable(message("||Y||", norms->output[r], nY)));
    }
}

void TestStatistics::columnRmsMatchTables_data()
{
    positionNormsMatchTables_data();
}

// RMS over rows [100, 700) of PE and s*E per column of X (zero where a part is absent in concat),
// and their ratio, against float64 recomputation from the Engine's tables.
void TestStatistics::columnRmsMatchTables()
{
    QFETCH(Params, params);
    const Engine engine(params);
    const std::int64_t row0 = 100, rows = 600, d = params.dModel;
    const std::optional<ColumnRms> rms = Statistics::columnRms(engine, row0, rows, ComputeOptions {2, nullptr});
    QVERIFY(rms);
    QCOMPARE(rms->pe.size(), d);
    QCOMPARE(rms->embedding.size(), d);
    QCOMPARE(rms->ratio.size(), d);
    const bool concat = params.compose == Compose::Concat;
    const std::int64_t eCols = engine.shape(Quantity::Embedding).cols;
    const std::int64_t peOffset = concat ? eCols : 0;
    const RowMatrixXf pe
        = testing::computeTable(engine, Quantity::Pe, Block {row0, rows, 0, engine.shape(Quantity::Pe).cols});
    const RowMatrixXf e = testing::computeTable(engine, Quantity::Embedding, Block {row0, rows, 0, eCols});
    const auto columnRms = [&](const RowMatrixXf &m, std::int64_t c) {
        double sum = 0.0;
        for (std::int64_t r = 0; r < rows; ++r)
            sum += double(m(r, c)) * double(m(r, c));
        return std::sqrt(sum / double(rows));
    };
    for (std::int64_t j = 0; j < d; ++j) {
        const double expectedPe = j >= peOffset ? columnRms(pe, j - peOffset) : 0.0;
        const double expectedE = !concat || j < eCols ? columnRms(e, j) : 0.0;
        QVERIFY2(std::abs(rms->pe[j] - expectedPe) <= 1e-9 * (1.0 + expectedPe),
                 qPrintable(u"column %1 pe RMS %2, float64 %3"_s.arg(j).arg(reference::num(rms->pe[j]),
                                                                            reference::num(expectedPe))));
        QVERIFY2(std::abs(rms->embedding[j] - expectedE) <= 1e-9 * (1.0 + expectedE),
                 qPrintable(u"column %1 embedding RMS %2, float64 %3"_s.arg(j).arg(reference::num(rms->embedding[j]),
                                                                                   reference::num(expectedE))));
        if (expectedE > 0.0)
            QVERIFY2(closeRelative(rms->ratio[j], expectedPe / expectedE, 1e-9),
                     qPrintable(u"column %1 ratio %2, float64 %3"_s.arg(j).arg(
                         reference::num(rms->ratio[j]), reference::num(expectedPe / expectedE))));
    }
    // Column 0 of an interleaved sum table is sin(p): RMS near 1/sqrt(2); a cosine column of
    // the slowest pair is ~cos(0) = 1, a nearly constant offset.
    if (params.sinusoidal.layout == Layout::Interleaved && !concat) {
        QVERIFY(std::abs(rms->pe[0] - std::sqrt(0.5)) < 0.03);
        QVERIFY(std::abs(rms->pe[d - 1] - 1.0) < 1e-2);
    }
}

// The statistics are the same whatever the thread count.
void TestStatistics::threadsAgree()
{
    Params params;
    params.dModel = 64;
    params.maxLen = 3000;
    const Engine engine(params);
    const auto serial = Statistics::positionNorms(engine, 0, 3000, ComputeOptions {1, nullptr});
    const auto threaded = Statistics::positionNorms(engine, 0, 3000, ComputeOptions {2, nullptr});
    QVERIFY(serial && threaded);
    QVERIFY(((serial->output - threaded->output).abs() <= 1e-12 * serial->output.abs()).all());
    QVERIFY(((serial->pe - threaded->pe).abs() <= 1e-12 * serial->pe.abs()).all());
    const auto rmsSerial = Statistics::columnRms(engine, 0, 3000, ComputeOptions {1, nullptr});
    const auto rmsThreaded = Statistics::columnRms(engine, 0, 3000, ComputeOptions {0, nullptr});
    QVERIFY(rmsSerial && rmsThreaded);
    QVERIFY(((rmsSerial->pe - rmsThreaded->pe).abs() <= 1e-12 * rmsSerial->pe.abs()).all());
    QVERIFY(((rmsSerial->embedding - rmsThreaded->embedding).abs() <= 1e-12 * rmsSerial->embedding.abs()).all());
}

void TestStatistics::cancelledGivesNothing()
{
    Params params;
    params.dModel = 64;
    params.maxLen = 3000;
    const Engine engine(params);
    const std::atomic<bool> cancel {true};
    for (const int threads : {1, 2}) {
        QVERIFY(!Statistics::positionNorms(engine, 0, 3000, ComputeOptions {threads, &cancel}));
        QVERIFY(!Statistics::columnRms(engine, 0, 3000, ComputeOptions {threads, &cancel}));
    }
}

void TestStatistics::expectedNorms_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<bool>("hasPe");
    QTest::addColumn<double>("peSquared");
    QTest::addColumn<double>("embeddingSquared");
    Params p;
    p.dModel = 512;
    QTest::newRow("d=512, sqrt(d), sigma 1") << p << true << 256.0 << 512.0 * 1.0 * 512.0;
    p.init = InitKind::ScaledNormal;
    QTest::newRow("d=512, sqrt(d), sigma d^-1/2") << p << true << 256.0 << 512.0;
    p.scaleKind = ScaleKind::One;
    QTest::newRow("d=512, s=1, sigma d^-1/2") << p << true << 256.0 << 1.0;
    p.scaleKind = ScaleKind::Custom;
    p.customScale = 3.0;
    p.init = InitKind::Custom;
    p.customSigma = 0.02;
    QTest::newRow("d=512, s=3, sigma 0.02") << p << true << 256.0 << 9.0 * 0.0004 * 512.0;
    Params odd;
    odd.dModel = 511;
    QTest::newRow("odd d=511: no closed form for ||PE||^2") << odd << false << 0.0 << 511.0 * 511.0;
    Params concat;
    concat.dModel = 100;
    concat.compose = Compose::Concat;
    concat.peDims = 30;
    QTest::newRow("concat d=100 k=30: d_E = 70") << concat << false << 0.0 << 100.0 * 70.0;
}

// peSquared = d/2 for interleaved even d in sum (and absent for odd d); embeddingSquared =
// s^2 sigma^2 d_E.
void TestStatistics::expectedNorms()
{
    QFETCH(Params, params);
    QFETCH(bool, hasPe);
    QFETCH(double, peSquared);
    QFETCH(double, embeddingSquared);
    const ExpectedNorms expected = Statistics::expectedNorms(params);
    if (hasPe) {
        QVERIFY(expected.peSquared.has_value());
        QVERIFY2(*expected.peSquared == peSquared, qPrintable(reference::num(*expected.peSquared)));
    } else if (params.compose == Compose::Sum) {
        QVERIFY2(!expected.peSquared.has_value(), qPrintable(reference::num(expected.peSquared.value_or(0.0))));
    }
    QVERIFY2(closeRelative(expected.embeddingSquared, embeddingSquared, 1e-12),
             qPrintable(u"%1, expected %2"_s.arg(reference::num(expected.embeddingSquared),
                                                 reference::num(embeddingSquared))));
}

void TestStatistics::measuredMatchesExpected_data()
{
    QTest::addColumn<InitKind>("init");
    QTest::addColumn<ScaleKind>("scale");
    QTest::newRow("sigma 1, s = sqrt(d)") << InitKind::Normal << ScaleKind::Sqrt;
    QTest::newRow("sigma d^-1/2, s = sqrt(d)") << InitKind::ScaledNormal << ScaleKind::Sqrt;
    QTest::newRow("sigma d^-1/2, s = 1") << InitKind::ScaledNormal << ScaleKind::One;
}

// On 1024 x 512: the mean of ||s*E_p||^2 is within 3% of s^2 sigma^2 d (its standard error
// is ~0.2%), and every ||PE_p||^2 is d/2 within 1e-5.
void TestStatistics::measuredMatchesExpected()
{
    QFETCH(InitKind, init);
    QFETCH(ScaleKind, scale);
    Params params;
    params.dModel = 512;
    params.maxLen = 1024;
    params.init = init;
    params.scaleKind = scale;
    params.seed = 99;
    const Engine engine(params);
    const std::optional<PositionNorms> norms = Statistics::positionNorms(engine, 0, 1024);
    QVERIFY(norms);
    const double s = scale == ScaleKind::Sqrt ? std::sqrt(512.0) : 1.0;
    const double sigma = init == InitKind::Normal ? 1.0 : 1.0 / std::sqrt(512.0);
    const double expected = s * s * sigma * sigma * 512.0;
    const double measured = norms->embedding.square().mean();
    QVERIFY2(std::abs(measured / expected - 1.0) < 0.03,
             qPrintable(u"mean ||sE_p||^2 = %1, expected %2"_s.arg(measured).arg(expected)));
    QVERIFY2(closeRelative(Statistics::expectedNorms(params).embeddingSquared, expected, 1e-12),
             qPrintable(reference::num(Statistics::expectedNorms(params).embeddingSquared)));
    const double worst = (norms->pe.square() / 256.0 - 1.0).abs().maxCoeff();
    QVERIFY2(worst < 1e-5, qPrintable(u"max | ||PE_p||^2 / (d/2) - 1 | = %1"_s.arg(worst)));
}

void TestStatistics::similarityMatchesClosedForm_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<bool>("cosine");
    QTest::addColumn<Block>("block");
    for (const std::int64_t d : {2, 64, 512})
        for (const bool cosine : {false, true}) {
            const char *kind = cosine ? "cosine" : "dot";
            QTest::addRow("d=%ld interleaved %s", long(d), kind)
                << d << Layout::Interleaved << cosine << Block {0, 50, 0, 70};
            QTest::addRow("d=%ld split %s far", long(d), kind)
                << d << Layout::Split << cosine << Block {5000, 20, 17, 90};
        }
}

// S[p, q] = sum_i cos((p - q) w_i) for even d; the cosine divides by ||PE_p|| ||PE_q|| = d/2.
void TestStatistics::similarityMatchesClosedForm()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(bool, cosine);
    QFETCH(Block, block);
    const PositionalTable table(d, 10000.0, layout, Angles::Exact);
    RowMatrixXf s(block.rows, block.cols);
    Statistics::similarity(table, block, cosine, s);
    const double tolerance = cosine ? 1e-6 : 2e-7 * double(d) + 1e-6;
    for (std::int64_t r = 0; r < block.rows; ++r)
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const std::int64_t p = block.row0 + r, q = block.col0 + c;
            double expected = 0.0;
            for (std::int64_t i = 0; i < d / 2; ++i)
                expected += std::cos(double(p - q) * reference::omega(i, d, 10000.0));
            if (cosine)
                expected /= double(d) / 2.0;
            QVERIFY2(std::abs(double(s(r, c)) - expected) <= tolerance,
                     qPrintable(u"S(%1, %2) = %3, closed form %4"_s.arg(p).arg(q).arg(reference::numf(s(r, c)),
                                                                                      reference::num(expected))));
        }
}

// d = 1: PE_0 = [sin 0] = [0], a zero row; its cosine similarity is 0, never NaN.
void TestStatistics::cosineOfZeroRowIsZero()
{
    const PositionalTable table(1, 10000.0, Layout::Interleaved, Angles::Exact);
    RowMatrixXf s(3, 4);
    Statistics::similarity(table, Block {0, 3, 0, 4}, true, s);
    QVERIFY(!s.array().isNaN().any());
    for (std::int64_t c = 0; c < 4; ++c)
        QCOMPARE(s(0, c), 0.0f);
    // Other rows: sin(p) sin(q) / (|sin p| |sin q|) = sign(sin p sin q).
    for (std::int64_t r = 1; r < 3; ++r)
        for (std::int64_t c = 1; c < 4; ++c) {
            const double expected = std::sin(double(r)) * std::sin(double(c)) > 0.0 ? 1.0 : -1.0;
            QVERIFY(std::abs(double(s(r, c)) - expected) <= 1e-6);
        }
}

POSENC_TEST_GUILESS_MAIN(TestStatistics)
} // namespace tst_statistics
#include "tst_statistics.moc"
