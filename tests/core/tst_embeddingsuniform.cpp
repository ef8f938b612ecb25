// Embeddings under init keras-uniform: Keras' Embedding default, U(-0.05, 0.05). Each cell
// against its formula in float64 from Random123's own Philox words, the law by statistics
// (range, mean, variance, the uniform CDF), and blocks equal to the whole table.

#include "FilledBlocks.h"
#include "Reference.h"
#include "support/TestMain.h"

#include "core/Embeddings.h"
#include "core/ParamText.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

namespace tst_embeddingsuniform {
using namespace Qt::StringLiterals;
using namespace posenc;
using testing::fillBlock;

namespace {

Params keras(std::uint64_t seed = 7, std::int64_t d = 300)
{
    Params p;
    p.init = InitKind::KerasUniform;
    p.seed = seed;
    p.dModel = d;
    return p;
}

// Cell (p, c) as written: word c mod 4 of Philox counter (p, c / 4) on the embedding stream, its top
// 24 bits plus a half over 2^24 mapped onto (-0.05, 0.05).
double expectedCell(std::uint64_t seed, std::int64_t p, std::int64_t c)
{
    const CellRandom random(seed, RandomStream::Embedding);
    const std::uint32_t word = random.words(p, c / 4)[static_cast<std::size_t>(c % 4)];
    const double u = (double(word >> 8) + 0.5) / 16777216.0;
    return 0.05 * (2.0 * u - 1.0);
}

} // namespace

class TestEmbeddingsUniform : public QObject
{
    Q_OBJECT

private slots:
    void theInitReadsAndWrites();
    void eachCellIsItsWord();
    void theLawIsUniformOnPlusMinus005();
    void blockEqualsWholeTable();
};

void TestEmbeddingsUniform::theInitReadsAndWrites()
{
    Params p;
    QVERIFY(!ParamText::set(p, u"init"_s, u"keras-uniform"_s));
    QCOMPARE(p.init, InitKind::KerasUniform);
    QCOMPARE(ParamText::get(p, u"init"_s), u"keras-uniform"_s);
    QCOMPARE(p.sigma(), 0.05 / std::sqrt(3.0));
    QCOMPARE(p.cellLaw(), CellLaw::Uniform);
    QVERIFY(p.isValid());
    Params normal;
    QCOMPARE(normal.cellLaw(), CellLaw::Normal);
}

void TestEmbeddingsUniform::eachCellIsItsWord()
{
    for (const std::int64_t origin : {std::int64_t(0), std::int64_t(1) << 23, (std::int64_t(1) << 24) - 40}) {
        const Embeddings e(keras());
        const RowMatrixXf cells = fillBlock(e, Block {origin, 40, 0, 300});
        for (Eigen::Index r = 0; r < cells.rows(); ++r)
            for (Eigen::Index c = 0; c < cells.cols(); ++c) {
                const double expected = expectedCell(7, origin + r, c);
                QVERIFY2(
                    std::abs(double(cells(r, c)) - expected) <= 6e-9, // sigma and the cell in float32
                    qPrintable(u"(%1, %2): %3 against %4"_s.arg(origin + r).arg(c).arg(cells(r, c)).arg(expected)));
            }
    }
}

void TestEmbeddingsUniform::theLawIsUniformOnPlusMinus005()
{
    const Embeddings e(keras(11, 512));
    const RowMatrixXf cells = fillBlock(e, Block {0, 400, 0, 512});
    std::vector<double> values(cells.data(), cells.data() + cells.size());
    const double n = double(values.size());
    double sum = 0.0, squares = 0.0;
    for (const double v : values) {
        QVERIFY(v > -0.05 && v < 0.05);
        sum += v;
        squares += v * v;
    }
    const double variance = 0.05 * 0.05 / 3.0;
    // The mean within 5 standard errors of 0, the variance within 5 of 0.05^2 / 3 (fourth moment
    // of the uniform: 0.05^4 / 5).
    QVERIFY2(std::abs(sum / n) < 5.0 * std::sqrt(variance / n), qPrintable(QString::number(sum / n)));
    const double varianceError = std::sqrt((std::pow(0.05, 4) / 5.0 - variance * variance) / n);
    QVERIFY2(std::abs(squares / n - variance) < 5.0 * varianceError, qPrintable(QString::number(squares / n)));
    // Kolmogorov-Smirnov against the uniform CDF: D below its 0.1 % critical value 1.95 / sqrt n.
    std::sort(values.begin(), values.end());
    double d = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double cdf = (values[i] + 0.05) / 0.1;
        d = std::max({d, std::abs(cdf - double(i) / n), std::abs(double(i + 1) / n - cdf)});
    }
    QVERIFY2(d < 1.95 / std::sqrt(n), qPrintable(QString::number(d)));
    // The extremes reach the ends of the interval.
    QVERIFY(values.front() < -0.0499 && values.back() > 0.0499);
}

void TestEmbeddingsUniform::blockEqualsWholeTable()
{
    const Embeddings e(keras());
    const RowMatrixXf whole = fillBlock(e, Block {100, 50, 0, 300});
    for (const Block &b : {Block {0, 1, 0, 1}, Block {3, 17, 63, 2}, Block {10, 30, 65, 130}, Block {49, 1, 299, 1}}) {
        const RowMatrixXf part = fillBlock(e, Block {100 + b.row0, b.rows, b.col0, b.cols});
        QVERIFY(part == whole.block(b.row0, b.col0, b.rows, b.cols));
    }
}

POSENC_TEST_GUILESS_MAIN(TestEmbeddingsUniform)
} // namespace tst_embeddingsuniform
#include "tst_embeddingsuniform.moc"
