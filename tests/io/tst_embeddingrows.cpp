// Which rows of a matrix become the token embeddings, within what budget: the one policy of the
// command line and the window (EmbeddingRows), against matrices written here with known cells.
#include "io/EmbeddingRows.h"
#include "io/NpyWriter.h"
#include "support/TestMain.h"

#include <QTemporaryDir>
#include <QTest>

namespace tst_embeddingrows {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// Cell (r, c) = 1000 r + c: every row tells where it came from.
RowMatrixXf known(std::int64_t rows, std::int64_t cols)
{
    return RowMatrixXf::NullaryExpr(rows, cols, [](Eigen::Index r, Eigen::Index c) { return float(1000 * r + c); });
}

constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;

} // namespace

class TestEmbeddingRows : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void rowsRead_data();
    void rowsRead();
    void refusals_data();
    void refusals();
    void overBudgetIsPlannedButNotRead();
    void aCancelledReadStops();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

void TestEmbeddingRows::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(u"e.npy"_s);
    QVERIFY(!writeNpy(m_path, known(100, 8)));
}

void TestEmbeddingRows::rowsRead_data()
{
    QTest::addColumn<QString>("tokens");
    QTest::addColumn<qint64>("maxLen");
    QTest::addColumn<qint64>("budget");
    QTest::addColumn<bool>("readAhead");
    QTest::addColumn<QList<qint64>>("rows");
    const auto range = [](qint64 first, qint64 end) {
        QList<qint64> list;
        for (qint64 r = first; r < end; ++r)
            list.append(r);
        return list;
    };
    QTest::newRow("the first max_len rows") << QString() << 30ll << qint64(kMiB) << false << range(0, 30);
    QTest::newRow("max_len past the rows: all") << QString() << 500ll << qint64(kMiB) << false << range(0, 100);
    QTest::newRow("read ahead: every row") << QString() << 30ll << qint64(kMiB) << true << range(0, 100);
    // 100 x 8 floats are 3200 bytes: a budget of 2000 bytes reads ahead only max_len rows.
    QTest::newRow("read ahead over budget: max_len rows") << QString() << 30ll << 2000ll << true << range(0, 30);
    QTest::newRow("tokens in their order, repeated")
        << u"7,3,3,99"_s << 30ll << qint64(kMiB) << false << QList<qint64> {7, 3, 3, 99};
    QTest::newRow("tokens win over read ahead") << u"5:8"_s << 30ll << qint64(kMiB) << true << range(5, 8);
}

void TestEmbeddingRows::rowsRead()
{
    QFETCH(QString, tokens);
    QFETCH(qint64, maxLen);
    QFETCH(qint64, budget);
    QFETCH(bool, readAhead);
    QFETCH(QList<qint64>, rows);
    const auto planned
        = EmbeddingRows::plan({{m_path, std::nullopt}, tokens, maxLen, std::uint64_t(budget), readAhead});
    QVERIFY(std::holds_alternative<EmbeddingRows::Plan>(planned));
    const auto &plan = std::get<EmbeddingRows::Plan>(planned);
    QCOMPARE(plan.fileRows, 100);
    QCOMPARE(plan.cols, 8);
    QCOMPARE(plan.rows, rows.size());
    QVERIFY(!plan.overBudget);
    const auto read = EmbeddingRows::read(plan);
    QVERIFY(std::holds_alternative<RowMatrixXf>(read));
    const RowMatrixXf &matrix = std::get<RowMatrixXf>(read);
    QCOMPARE(matrix.rows(), rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i)
        QCOMPARE(matrix(i, 5), float(1000 * rows[i] + 5));
}

void TestEmbeddingRows::refusals_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("tokens");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("says");
    const int parameter = int(EmbeddingRows::Problem::Kind::Parameter);
    const int file = int(EmbeddingRows::Problem::Kind::File);
    QTest::newRow("tokens not a list") << QString() << u"a,b"_s << parameter << u"tokens"_s << u"'a,b'"_s;
    QTest::newRow("token past the rows") << QString() << u"3,100"_s << parameter << u"tokens"_s << u"[0, 99]"_s;
    QTest::newRow("no such file") << u"/no/such.npy"_s << QString() << file << QString() << u"/no/such.npy"_s;
}

void TestEmbeddingRows::refusals()
{
    QFETCH(QString, path);
    QFETCH(QString, tokens);
    QFETCH(int, kind);
    QFETCH(QString, key);
    QFETCH(QString, says);
    const auto planned = EmbeddingRows::plan({{path.isEmpty() ? m_path : path, std::nullopt}, tokens, 10, kMiB, false});
    const auto *problem = std::get_if<EmbeddingRows::Problem>(&planned);
    QVERIFY(problem);
    QCOMPARE(int(problem->kind), kind);
    if (!key.isEmpty())
        QCOMPARE(problem->parameter->key, key);
    QVERIFY2(problem->text().contains(says), qPrintable(problem->text()));
}

void TestEmbeddingRows::overBudgetIsPlannedButNotRead()
{
    // 30 rows of 8 floats need 960 bytes: a budget of 512 bytes plans them and names the excess.
    const auto planned = EmbeddingRows::plan({{m_path, std::nullopt}, QString(), 30, 512, false});
    const auto &plan = std::get<EmbeddingRows::Plan>(planned);
    QVERIFY(plan.overBudget);
    QVERIFY2(plan.overBudget->contains(u"240 cells"_s), qPrintable(*plan.overBudget));
    QVERIFY2(plan.overBudget->contains(u"GiB"_s), qPrintable(*plan.overBudget));
    const auto read = EmbeddingRows::read(plan);
    const auto *problem = std::get_if<EmbeddingRows::Problem>(&read);
    QVERIFY(problem);
    QCOMPARE(problem->kind, EmbeddingRows::Problem::Kind::OverBudget);
}

void TestEmbeddingRows::aCancelledReadStops()
{
    const auto planned = EmbeddingRows::plan({{m_path, std::nullopt}, QString(), 100, kMiB, false});
    const std::atomic<bool> cancel {true};
    const auto read = EmbeddingRows::read(std::get<EmbeddingRows::Plan>(planned), &cancel);
    const auto *problem = std::get_if<EmbeddingRows::Problem>(&read);
    QVERIFY(problem);
    QCOMPARE(problem->kind, EmbeddingRows::Problem::Kind::File);
    QVERIFY2(problem->text().contains(u"cancelled"_s), qPrintable(problem->text()));
}

POSENC_TEST_GUILESS_MAIN(TestEmbeddingRows)
} // namespace tst_embeddingrows
#include "tst_embeddingrows.moc"
