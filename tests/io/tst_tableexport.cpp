// The cells a continuous view touches, the integer positions within it, and the refusals of
// TableExport (outside the table, over the memory budget).
#include "io/TableExport.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

using Range = std::optional<std::pair<std::int64_t, std::int64_t>>;
Q_DECLARE_METATYPE(Range)

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

QTEST_MAIN(TestTableExport)
#include "tst_tableexport.moc"
