// T5BiasStack::read on any shape and any rows: read, or nothing, never a crash (a shape whose rows
// are not the rows given, of another width or count, is no stack of heads). The stacks it reads
// are written here from a float64 _relative_position_bucket (huggingface/transformers
// src/transformers/models/t5/modeling_t5.py, T5Attention._relative_position_bucket), each head's
// cell (i, j) its weight at the bucket of j - i; shapes and widths are drawn at random besides.
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "check/t5/T5BiasStack.h"
#include "support/T5Reference.h"
#include "support/TestMain.h"

#include <QtTest>

#include <cmath>
#include <random>

namespace tst_t5biasstack {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// `slices` heads of L x L: head h's weight at bucket b is (h + 1) * 0.25 - b * 0.03125.
std::shared_ptr<const TableRows> t5Stack(std::int64_t slices, std::int64_t length)
{
    auto m = std::make_shared<RowMatrixXf>(slices * length, length);
    for (std::int64_t s = 0; s < slices; ++s)
        for (std::int64_t i = 0; i < length; ++i)
            for (std::int64_t j = 0; j < length; ++j)
                (*m)(s * length + i, j)
                    = float(double(s + 1) * 0.25 - double(t5ref::t5(j - i, 32, 128, true).value) * 0.03125);
    return std::make_shared<MatrixRows>(std::move(m), StoredType::Float32, u"t5"_s);
}

std::shared_ptr<const TableRows> randomRows(std::mt19937_64 &random, std::int64_t rows, std::int64_t cols)
{
    auto m = std::make_shared<RowMatrixXf>(rows, cols);
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j)
            (*m)(i, j) = value(random);
    return std::make_shared<MatrixRows>(std::move(m), StoredType::Float32, u"random"_s);
}

} // namespace

class TestT5BiasStack : public QObject
{
    Q_OBJECT

private slots:
    // The stack its shape names: read as T5's position_bias, learned.
    void readsTheShapeItsRowsHave()
    {
        const auto rows = t5Stack(4, 40);
        const auto m = T5BiasStack::read({1, 4, 40, 40}, *rows, std::nullopt);
        QVERIFY(m);
        QCOMPARE(m->verdict, CheckVerdict::Learned);
        QCOMPARE(m->table, T5BiasStack::kTable);
    }

    // The same rows under shapes that are not theirs: nothing, never a read past the rows.
    void shapesNotTheRowsAreNothing_data()
    {
        QTest::addColumn<QList<qint64>>("shape");
        QTest::newRow("wider than the rows") << QList<qint64> {1, 2, 40, 80};
        QTest::newRow("narrower than the rows") << QList<qint64> {4, 40, 20};
        QTest::newRow("more heads than rows") << QList<qint64> {8, 40, 40};
        QTest::newRow("fewer heads than rows") << QList<qint64> {2, 40, 40};
        QTest::newRow("a zero dimension") << QList<qint64> {0, 4, 40, 40};
        QTest::newRow("a negative dimension") << QList<qint64> {-1, 4, 40, 40};
        QTest::newRow("overflowing product") << QList<qint64> {qint64(1) << 40, qint64(1) << 40, 40, 40};
        QTest::newRow("more queries than keys") << QList<qint64> {4, 80, 40};
        QTest::newRow("two dimensions") << QList<qint64> {160, 40};
        QTest::newRow("none") << QList<qint64> {};
    }
    void shapesNotTheRowsAreNothing()
    {
        QFETCH(QList<qint64>, shape);
        const auto rows = t5Stack(4, 40);
        const std::vector<std::int64_t> dims(shape.begin(), shape.end());
        QVERIFY(!T5BiasStack::read(dims, *rows, std::nullopt));
    }

    // Random shapes of up to five dimensions over random rows, the rows' shape sometimes the shape's,
    // sometimes not: every call returns, a reading only where the rows are the shape's.
    void randomShapesNeverCrash()
    {
        std::mt19937_64 random(20261202);
        std::uniform_int_distribution<int> rank(0, 5), dim(-1, 9), coin(0, 3);
        int matched = 0;
        for (int trial = 0; trial < 3000; ++trial) {
            std::vector<std::int64_t> shape(std::size_t(rank(random)));
            for (auto &d : shape)
                d = dim(random);
            std::int64_t rows = 1, cols = shape.empty() ? 1 : std::max<std::int64_t>(shape.back(), 1);
            for (std::size_t i = 0; i + 1 < shape.size(); ++i)
                rows *= std::max<std::int64_t>(shape[i], 1);
            if (coin(random) == 0) {
                rows = std::uniform_int_distribution<std::int64_t>(1, 90)(random);
                cols = std::uniform_int_distribution<std::int64_t>(1, 12)(random);
            } else {
                ++matched;
            }
            const auto table = randomRows(random, rows, cols);
            const auto m = T5BiasStack::read(shape, *table, std::nullopt);
            if (m) {
                QVERIFY(shape.size() >= 3);
                QCOMPARE(table->cols(), shape.back());
            }
        }
        QVERIFY(matched > 1000);
    }
};

POSENC_TEST_GUILESS_MAIN(TestT5BiasStack)
} // namespace tst_t5biasstack
#include "tst_t5biasstack.moc"
