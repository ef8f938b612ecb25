// A loaded matrix fixes d_model (dModelOfMatrix): X = s*E + PE has E's columns, and X = [s*E | PE]
// E's columns and then the PE's, pe_dims of them or, when auto, half of d_model. Each case is
// checked against that definition written here, and against the columns Params gives E then.
#include "core/MatrixColumns.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_matrixcolumns {
using namespace posenc;

class TestMatrixColumns : public QObject
{
    Q_OBJECT

private slots:
    void dModelFollowsTheComposition_data();
    void dModelFollowsTheComposition();
};

void TestMatrixColumns::dModelFollowsTheComposition_data()
{
    QTest::addColumn<bool>("concat");
    QTest::addColumn<int>("peDims"); // -1: auto
    QTest::addColumn<int>("cols");
    QTest::addColumn<int>("dModel");
    QTest::newRow("sum") << false << -1 << 768 << 768;
    QTest::newRow("sum, pe_dims given but unused") << false << 16 << 768 << 768;
    QTest::newRow("concat, pe_dims auto: as many as E has") << true << -1 << 768 << 1536;
    QTest::newRow("concat, 64 PE columns") << true << 64 << 768 << 832;
    QTest::newRow("concat, no PE column") << true << 0 << 50 << 50;
    QTest::newRow("concat, odd") << true << -1 << 7 << 14;
    QTest::newRow("one column") << false << -1 << 1 << 1;
}

void TestMatrixColumns::dModelFollowsTheComposition()
{
    QFETCH(bool, concat);
    QFETCH(int, peDims);
    QFETCH(int, cols);
    QFETCH(int, dModel);
    Params params;
    params.compose = concat ? Compose::Concat : Compose::Sum;
    if (peDims >= 0)
        params.peDims = peDims;
    QCOMPARE(dModelOfMatrix(params, cols), std::int64_t(dModel));
    // With that d_model, E has exactly the matrix's columns.
    params.dModel = dModelOfMatrix(params, cols);
    QCOMPARE(params.embeddingColumns(), std::int64_t(cols));
}

POSENC_TEST_GUILESS_MAIN(TestMatrixColumns)
} // namespace tst_matrixcolumns
#include "tst_matrixcolumns.moc"
