// EmbeddingMoments against float64 statistics of s*E summed here, row by row, from the engine's
// own table: whatever was kept from earlier requests (other L, d, s, sigma), whatever the thread
// count, and after a cancelled request.
#include "render/data/EmbeddingMoments.h"
#include "support/TestMain.h"
#include "support/TestParams.h"

#include <QTest>

#include <cmath>

namespace tst_embeddingmoments {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using TestParams::sized;

struct Reference
{
    std::vector<double> mean, std, rowNorms;
};

// Two passes in double over rows [0, rows) of the engine's s*E.
Reference reference(const Engine &engine, std::int64_t rows)
{
    const std::int64_t cols = engine.params().embeddingColumns();
    RowMatrixXf table(rows, cols);
    engine.computeBlock(Quantity::Embedding, {0, rows, 0, cols}, table);
    Reference r;
    r.mean.assign(cols, 0.0);
    r.std.assign(cols, 0.0);
    for (std::int64_t j = 0; j < cols; ++j) {
        double sum = 0.0;
        for (std::int64_t p = 0; p < rows; ++p)
            sum += table(p, j);
        const double mean = sum / static_cast<double>(rows);
        double squares = 0.0;
        for (std::int64_t p = 0; p < rows; ++p)
            squares += (table(p, j) - mean) * (table(p, j) - mean);
        r.mean[j] = mean;
        r.std[j] = std::sqrt(squares / static_cast<double>(rows));
    }
    for (std::int64_t p = 0; p < rows; ++p) {
        double squares = 0.0;
        for (std::int64_t j = 0; j < cols; ++j)
            squares += double(table(p, j)) * double(table(p, j));
        r.rowNorms.push_back(std::sqrt(squares));
    }
    return r;
}

// The first disagreement beyond float32 rounding of the table, or nothing.
QString mismatch(const EmbeddingMoments::Result &got, const Reference &want, double scale)
{
    const double tolerance = 1e-6 * scale;
    if (got.mean.size() != static_cast<Eigen::Index>(want.mean.size()))
        return u"%1 columns, not %2"_s.arg(got.mean.size()).arg(want.mean.size());
    for (std::size_t j = 0; j < want.mean.size(); ++j) {
        if (std::abs(got.mean[j] - want.mean[j]) > tolerance || std::abs(got.std[j] - want.std[j]) > tolerance)
            return u"column %1: mean %2 vs %3, std %4 vs %5"_s.arg(j)
                .arg(got.mean[j])
                .arg(want.mean[j])
                .arg(got.std[j])
                .arg(want.std[j]);
    }
    if (got.rowNorms.size() != 0) {
        if (got.rowNorms.size() != static_cast<Eigen::Index>(want.rowNorms.size()))
            return u"%1 row norms, not %2"_s.arg(got.rowNorms.size()).arg(want.rowNorms.size());
        for (std::size_t p = 0; p < want.rowNorms.size(); ++p)
            if (std::abs(got.rowNorms[p] / want.rowNorms[p] - 1.0) > 1e-6)
                return u"row %1: norm %2 vs %3"_s.arg(p).arg(got.rowNorms[p]).arg(want.rowNorms[p]);
    }
    return {};
}

} // namespace

class TestEmbeddingMoments : public QObject
{
    Q_OBJECT

private slots:
    void init() { EmbeddingMoments::clear(); }
    void matchTheTableWhateverWasKeptBefore_data();
    void matchTheTableWhateverWasKeptBefore();
    void aFirstPartOfTheRows();
    void aFewRowsOfAHugeTableAreAFewRows();
    void sameNumbersWhateverTheThreads();
    void aCancelledRequestLeavesTheNextOneRight();
    void aLoadedMatrixIsItsOwnTable();
    void aReleasedMatrixIsNotTheSeededTable();
};

void TestEmbeddingMoments::matchTheTableWhateverWasKeptBefore_data()
{
    // What was asked before the request checked: none, or moments kept for other parameters.
    QTest::addColumn<Params>("before");
    QTest::addColumn<Params>("now");
    const Params base = sized(200, 1000);
    Params scaled = base;
    scaled.scaleKind = ScaleKind::One;
    scaled.init = InitKind::ScaledNormal;
    Params seeded = base;
    seeded.seed = 7;
    Params concat = base;
    concat.compose = Compose::Concat;
    concat.peDims = 40;
    QTest::newRow("nothing kept") << sized(200, 0) << base;
    QTest::newRow("more columns kept") << sized(264, 1000) << base;
    QTest::newRow("fewer columns kept") << sized(136, 1000) << base;
    QTest::newRow("more rows kept") << sized(200, 1300) << base;
    QTest::newRow("fewer rows kept") << sized(200, 700) << base;
    QTest::newRow("another s and sigma") << base << scaled;
    QTest::newRow("another seed") << base << seeded;
    QTest::newRow("concatenated") << base << concat;
}

void TestEmbeddingMoments::matchTheTableWhateverWasKeptBefore()
{
    QFETCH(Params, before);
    QFETCH(Params, now);
    if (before.maxLen > 0)
        QVERIFY(EmbeddingMoments::compute(Engine(before), before.maxLen, true, {}));
    const Engine engine(now);
    const auto got = EmbeddingMoments::compute(engine, now.maxLen, true, {});
    QVERIFY(got);
    QCOMPARE(got->rows, now.maxLen);
    const QString problem = mismatch(*got, reference(engine, now.maxLen), now.scale() * now.sigma());
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestEmbeddingMoments::aFirstPartOfTheRows()
{
    // Without the row norms the statistics of a block or more cover whole kept blocks (256 rows
    // here): at least the rows asked for, never past L, and exactly those rows' moments; of less
    // than a block, the rows asked for. With them, exactly the rows.
    const Engine engine(sized(96, 2000));
    for (const auto &[rows, covered] : {std::pair<std::int64_t, std::int64_t> {1, 1},
                                        {255, 255},
                                        {256, 256},
                                        {700, 768},
                                        {1900, 2000},
                                        {2000, 2000}}) {
        const auto got = EmbeddingMoments::compute(engine, rows, false, {});
        QVERIFY(got);
        QCOMPARE(got->rows, covered);
        QCOMPARE(got->rowNorms.size(), 0);
        const QString problem = mismatch(*got, reference(engine, covered), engine.params().scale());
        QVERIFY2(problem.isEmpty(), qPrintable(u"%1 rows: %2"_s.arg(rows).arg(problem)));
        const auto normed = EmbeddingMoments::compute(engine, rows, true, {});
        QVERIFY(normed);
        QCOMPARE(normed->rows, rows);
        QCOMPARE(normed->rowNorms.size(), rows);
        const QString exact = mismatch(*normed, reference(engine, rows), engine.params().scale());
        QVERIFY2(exact.isEmpty(), qPrintable(u"%1 rows with norms: %2"_s.arg(rows).arg(exact)));
    }
}

// Before: at d 2^20 by L 2^24 a block kept is 2^23 rows, and the few rows `export magnitudes` asks
// for became a whole block: 2^43 cells, hours on one thread. Now the rows asked for, on every core.
void TestEmbeddingMoments::aFewRowsOfAHugeTableAreAFewRows()
{
    const Engine engine(sized(std::int64_t(1) << 20, std::int64_t(1) << 24));
    const auto got = EmbeddingMoments::compute(engine, 16, false, {0, nullptr});
    QVERIFY(got);
    QCOMPARE(got->rows, std::int64_t(16));
    QCOMPARE(got->mean.size(), Eigen::Index(1) << 20);
    // The first columns against the table's own 16 rows, summed here.
    RowMatrixXf rows(16, 64);
    engine.computeBlock(Quantity::Embedding, {0, 16, 0, 64}, rows);
    for (Eigen::Index j = 0; j < 64; ++j) {
        const double mean = rows.col(j).cast<double>().mean();
        const double std = std::sqrt((rows.col(j).cast<double>().array() - mean).square().mean());
        QVERIFY(std::abs(got->mean[j] - mean) <= 1e-6 && std::abs(got->std[j] - std) <= 1e-6);
    }
}

void TestEmbeddingMoments::sameNumbersWhateverTheThreads()
{
    const Engine engine(sized(130, 3000));
    const auto serial = EmbeddingMoments::compute(engine, 3000, true, {1, nullptr});
    EmbeddingMoments::clear();
    const auto threaded = EmbeddingMoments::compute(engine, 3000, true, {4, nullptr});
    QVERIFY(serial && threaded);
    QVERIFY((serial->mean == threaded->mean).all());
    QVERIFY((serial->std == threaded->std).all());
    QVERIFY((serial->rowNorms == threaded->rowNorms).all());
}

void TestEmbeddingMoments::aCancelledRequestLeavesTheNextOneRight()
{
    const Engine engine(sized(64, 1500));
    const std::atomic<bool> cancel {true};
    QVERIFY(!EmbeddingMoments::compute(engine, 1500, true, {1, &cancel}));
    const auto got = EmbeddingMoments::compute(engine, 1500, true, {});
    QVERIFY(got);
    const QString problem = mismatch(*got, reference(engine, 1500), engine.params().scale());
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestEmbeddingMoments::aLoadedMatrixIsItsOwnTable()
{
    // The same seed, but the rows of a matrix: nothing kept for the seeded table is used.
    Params p = sized(32, 600);
    QVERIFY(EmbeddingMoments::compute(Engine(p), 600, true, {}));
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::NullaryExpr(600, 32, [](Eigen::Index r, Eigen::Index c) {
        return static_cast<float>(std::sin(0.37 * r + 1.3 * c) + 0.01 * c);
    });
    p.embeddings = matrix;
    const Engine engine(p);
    const auto got = EmbeddingMoments::compute(engine, 600, true, {});
    QVERIFY(got);
    const QString problem = mismatch(*got, reference(engine, 600), p.scale());
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestEmbeddingMoments::aReleasedMatrixIsNotTheSeededTable()
{
    // A matrix measured, then released, then the seeded normals of the same seed: their own
    // moments, not the matrix's.
    Params p = sized(32, 600);
    {
        auto matrix = std::make_shared<EmbeddingMatrix>();
        matrix->values = RowMatrixXf::NullaryExpr(600, 32, [](Eigen::Index r, Eigen::Index c) {
            return static_cast<float>(std::cos(0.21 * r + 0.7 * c) + 0.5);
        });
        Params loaded = p;
        loaded.embeddings = matrix;
        QVERIFY(EmbeddingMoments::compute(Engine(loaded), 600, true, {}));
    }
    const Engine engine(p);
    const auto got = EmbeddingMoments::compute(engine, 600, true, {});
    QVERIFY(got);
    const QString problem = mismatch(*got, reference(engine, 600), p.scale());
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

POSENC_TEST_GUILESS_MAIN(TestEmbeddingMoments)
} // namespace tst_embeddingmoments
#include "tst_embeddingmoments.moc"
