// The cells a continuous view touches, the integer positions within it, the refusals of
// TableExport (outside the table, over the memory budget), and its tables of statistics.
#include "io/TableExport.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_tableexport {
using namespace Qt::StringLiterals;
using namespace posenc;

using Range = std::optional<std::pair<std::int64_t, std::int64_t>>;

class TestTableExport : public QObject
{
    Q_OBJECT

private slots:
    void cellsInView_data();
    void cellsInView();
    void integersInView_data();
    void integersInView();
    void formatFromTheExtension();
    void normsOverTheBudgetAreRefused();
    void columnsOutsideTheBlockAreRefused();
    void columnStatsAreSixPerColumnInOrder();
    void rowNormsAreFivePerPosition();
    void rowNormsOverTheBudgetAreRefused();
    void repeatedColumnsCountAgainstTheBudget();
    void columnNamesNameEveryColumn();
    void progressCountsEveryRowAndChangesNoCell();
    void aNarrowTableCountsItsProgressOften_data();
    void aNarrowTableCountsItsProgressOften();
};

void TestTableExport::cellsInView_data()
{
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<qint64>("count");
    QTest::addColumn<Range>("expected");
    QTest::newRow("whole table") << -0.5 << 99.5 << qint64(100) << Range({0, 100});
    QTest::newRow("parts of edge cells") << 9.6 << 40.2 << qint64(100) << Range({10, 41});
    QTest::newRow("edges on cell borders") << 9.5 << 40.5 << qint64(100) << Range({10, 41});
    QTest::newRow("just past a border") << 9.4999 << 40.5001 << qint64(100) << Range({9, 42});
    QTest::newRow("inside one cell") << 3.2 << 3.3 << qint64(100) << Range({3, 4});
    QTest::newRow("clamped to the table") << -20.0 << 500.0 << qint64(100) << Range({0, 100});
    QTest::newRow("left of the table") << -20.0 << -0.5 << qint64(100) << Range();
    QTest::newRow("right of the table") << 99.5 << 130.0 << qint64(100) << Range();
    QTest::newRow("not finite") << qQNaN() << 3.0 << qint64(100) << Range();
}

void TestTableExport::cellsInView()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(qint64, count);
    QFETCH(Range, expected);
    QCOMPARE(TableView::cellsInView(lower, upper, count), expected);
}

void TestTableExport::integersInView_data()
{
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<qint64>("count");
    QTest::addColumn<Range>("expected");
    QTest::newRow("curves' default") << 0.0 << 63.0 << qint64(1000) << Range({0, 64});
    QTest::newRow("fractional ends") << 3.2 << 50.9 << qint64(1000) << Range({4, 51});
    QTest::newRow("between two integers") << 3.2 << 3.9 << qint64(1000) << Range();
    QTest::newRow("clamped") << -5.5 << 2000.0 << qint64(1000) << Range({0, 1000});
}

void TestTableExport::integersInView()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(qint64, count);
    QFETCH(Range, expected);
    QCOMPARE(TableView::integersInView(lower, upper, count), expected);
}

void TestTableExport::formatFromTheExtension()
{
    QVERIFY(TableExport::formatOf(u"a.npy"_s) == TableExport::Format::Npy);
    QVERIFY(TableExport::formatOf(u"b.CSV"_s) == TableExport::Format::Csv);
    QVERIFY(TableExport::formatOf(u"b.safetensors"_s) == TableExport::Format::Safetensors);
    QVERIFY(!TableExport::formatOf(u"c.txt"_s));
    QVERIFY(!TableExport::formatOf(u"npy"_s));
}

void TestTableExport::normsOverTheBudgetAreRefused()
{
    Params p;
    p.dModel = 16;
    p.maxLen = 1000;
    p.memoryBudget = 4 * 1000 * 13 - 4; // one cell short of 13 per position
    const Engine engine(p);
    TableRequest request;
    request.content = TableRequest::PositionNorms;
    request.block = {0, 1000, 0, 0};
    const auto refused = TableExport::check(engine, request);
    QVERIFY(refused);
    QVERIFY2(refused->contains(u"13000 cells"_s) && refused->contains(u"GiB"_s), qPrintable(*refused));
    Params roomy = p;
    roomy.memoryBudget = 4 * 1000 * 13;
    QVERIFY(!TableExport::check(Engine(roomy), request));
    request.block = {990, 20, 0, 0};
    QVERIFY(TableExport::check(Engine(roomy), request));
}

void TestTableExport::columnsOutsideTheBlockAreRefused()
{
    Params p;
    p.dModel = 16;
    p.maxLen = 10;
    const Engine engine(p);
    TableRequest request {TableRequest::Cells, Quantity::Pe, {0, 10, 2, 4}, {2, 6}};
    QVERIFY(TableExport::check(engine, request));
    request.dims = {5, 2};
    QVERIFY(!TableExport::check(engine, request));
    const auto table = TableExport::compute(engine, request);
    QVERIFY(table);
    QCOMPARE(table->cols(), 2);
    RowMatrixXf pe(10, 16);
    engine.computeBlock(Quantity::Pe, {0, 10, 0, 16}, pe);
    QVERIFY(table->col(0) == pe.col(5));
    QVERIFY(table->col(1) == pe.col(2));
}

void TestTableExport::columnStatsAreSixPerColumnInOrder()
{
    // PE mean, std, RMS, then s*E's, each over all positions, against float64 statistics of
    // the two parts; --dims picks the rows.
    Params p;
    p.dModel = 12;
    p.maxLen = 700;
    p.seed = 9;
    const Engine engine(p);
    TableRequest request;
    request.content = TableRequest::ColumnStats;
    request.dims = {11, 0, 5};
    QVERIFY(!TableExport::check(engine, request));
    const auto table = TableExport::compute(engine, request);
    QVERIFY(table);
    QCOMPARE(table->rows(), 3);
    QCOMPARE(table->cols(), 6);
    RowMatrixXf e(700, 12), q(700, 12);
    engine.inputParts({0, 700, 0, 12}, e, q);
    for (int i = 0; i < 3; ++i) {
        const auto j = static_cast<Eigen::Index>(request.dims[std::size_t(i)]);
        for (const auto &[part, first] : {std::pair {&q, 0}, std::pair {&e, 3}}) {
            const Eigen::ArrayXd column = part->col(j).cast<double>().array();
            const double mean = column.mean();
            const double expected[3]
                = {mean, std::sqrt((column - mean).square().mean()), std::sqrt(column.square().mean())};
            for (int k = 0; k < 3; ++k)
                QVERIFY2(std::abs((*table)(i, first + k) - expected[k]) <= 1e-6 * std::max(1.0, std::abs(expected[k])),
                         qPrintable(u"column %1, stat %2: %3 vs %4"_s.arg(j)
                                        .arg(first + k)
                                        .arg((*table)(i, first + k))
                                        .arg(expected[k])));
        }
    }
    request.dims = {12};
    QVERIFY(TableExport::check(engine, request));
}

void TestTableExport::rowNormsAreFivePerPosition()
{
    Params p;
    p.dModel = 10;
    p.maxLen = 50;
    p.dropout = 0.5;
    const Engine engine(p);
    TableRequest request;
    request.content = TableRequest::RowNorms;
    request.block = {20, 30, 0, 0};
    QVERIFY(!TableExport::check(engine, request));
    const auto table = TableExport::compute(engine, request);
    QVERIFY(table);
    QCOMPARE(table->rows(), 30);
    QCOMPARE(table->cols(), 5);
    RowMatrixXf x(30, 10), y(30, 10);
    engine.computeBlock(Quantity::Input, {20, 30, 0, 10}, x);
    engine.computeBlock(Quantity::Output, {20, 30, 0, 10}, y);
    for (Eigen::Index r = 0; r < 30; ++r) {
        QVERIFY(std::abs((*table)(r, 3) - x.row(r).cast<double>().norm()) <= 1e-5 * x.row(r).norm());
        QVERIFY(std::abs((*table)(r, 4) - y.row(r).cast<double>().norm()) <= 1e-5 * y.row(r).norm() + 1e-6);
        QVERIFY(std::abs((*table)(r, 2) - (*table)(r, 1) / (*table)(r, 0)) <= 1e-6 * (*table)(r, 2));
    }
}

void TestTableExport::rowNormsOverTheBudgetAreRefused()
{
    Params p;
    p.dModel = 16;
    p.maxLen = 1000;
    p.memoryBudget = 4 * 1000 * 15 - 4; // one cell short of 15 per position
    TableRequest request;
    request.content = TableRequest::RowNorms;
    request.block = {0, 1000, 0, 0};
    const auto refused = TableExport::check(Engine(p), request);
    QVERIFY(refused);
    QVERIFY2(refused->contains(u"15000 cells"_s), qPrintable(*refused));
    p.memoryBudget += 4;
    QVERIFY(!TableExport::check(Engine(p), request));
}

// The audit: a --dims list that repeats columns made a table larger than the block they come
// from, and only the block was checked against the budget.
void TestTableExport::repeatedColumnsCountAgainstTheBudget()
{
    Params p;
    p.dModel = 8;
    p.maxLen = 1000;
    TableRequest request {TableRequest::Cells, Quantity::Pe, {0, 1000, 0, 8}, {}};
    for (int copy = 0; copy < 16; ++copy)
        for (std::int64_t c = 0; c < 8; ++c)
            request.dims.push_back(c);
    // The block (8 columns) and the table of 128 columns, 136 cells a row.
    p.memoryBudget = 4 * 1000 * 136 - 4;
    const auto refused = TableExport::check(Engine(p), request);
    QVERIFY(refused);
    QVERIFY2(refused->contains(u"136000 cells"_s), qPrintable(*refused));
    p.memoryBudget = 4 * 1000 * 136;
    QVERIFY(!TableExport::check(Engine(p), request));
}

void TestTableExport::columnNamesNameEveryColumn()
{
    const TableRequest some {TableRequest::Cells, Quantity::Output, {0, 4, 3, 5}, {7, 3, 3}};
    QCOMPARE(TableExport::columnNames(some), (QStringList {u"output_7"_s, u"output_3"_s, u"output_3"_s}));
    const TableRequest block {TableRequest::Cells, Quantity::Pe, {0, 4, 3, 2}, {}};
    QCOMPARE(TableExport::columnNames(block), (QStringList {u"pe_3"_s, u"pe_4"_s}));
    TableRequest stats;
    stats.content = TableRequest::ColumnStats;
    QCOMPARE(TableExport::columnNames(stats).size(), 6);
    stats.content = TableRequest::RowNorms;
    QCOMPARE(TableExport::columnNames(stats).size(), 5);
    stats.content = TableRequest::PositionNorms;
    QCOMPARE(TableExport::columnNames(stats).size(), 3);
}

// A table computed in runs, its rows counted for a progress line, is the table computed whole.
void TestTableExport::progressCountsEveryRowAndChangesNoCell()
{
    Params p;
    p.dModel = 4096;
    p.maxLen = 9000; // runs of 1024 rows: eight whole and one part
    p.dropout = 0.3;
    const Engine engine(p);
    const TableRequest request {TableRequest::Cells, Quantity::Output, {0, 9000, 0, 4096}, {}};
    WorkProgress progress;
    const auto counted = TableExport::compute(engine, request, {0, nullptr, &progress});
    const auto whole = TableExport::compute(engine, request);
    QVERIFY(counted && whole);
    QVERIFY(*counted == *whole);
    QCOMPARE(progress.total(), 9000);
    QCOMPARE(progress.done(), 9000);
    QCOMPARE(progress.fraction(), 1.0);
}

void TestTableExport::aNarrowTableCountsItsProgressOften_data()
{
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<qint64>("cols");
    QTest::newRow("rope-score at L 2^20") << (qint64(1) << 20) << qint64(4);
    QTest::newRow("rope-score at L 2^24") << (qint64(1) << 24) << qint64(4);
    QTest::newRow("the PE at 16384 x 4096") << qint64(16384) << qint64(4096);
    QTest::newRow("one wide row") << qint64(1) << (qint64(1) << 26);
}

// Before: the runs were 2^24 cells whatever their cost, so rope-score's 4 columns at L 2^20 were one
// run, and its progress line stayed at 0.0 % until the end. Now a table counts its progress at
// least 256 times (in runs of 1024 rows at least), and never in runs past 2^24 cells.
void TestTableExport::aNarrowTableCountsItsProgressOften()
{
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    const std::int64_t run = TableExport::progressRunRows(rows, cols);
    QVERIFY(run >= 1);
    QVERIFY(run * cols <= (std::int64_t(1) << 24) || run == 1);
    QVERIFY2(run <= std::max<std::int64_t>(1024, (rows + 255) / 256), qPrintable(QString::number(run)));
}

POSENC_TEST_MAIN(TestTableExport)
} // namespace tst_tableexport
#include "tst_tableexport.moc"
