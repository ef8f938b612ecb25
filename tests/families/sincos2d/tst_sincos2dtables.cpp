// The 2-D sin-cos table (the pe quantity of --encoding sincos-2d) against the float64 reference of
// tests/support/Sincos2dReference.h (MAE's, DiT's and diffusers' get_2d_sincos_pos_embed). The
// worked values are the references' own output.
#include "core/EngineTable.h"
#include "support/Sincos2dReference.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/ParamText.h"

#include <QTest>

#include <cmath>

namespace tst_sincos2dtables {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

Params sincos(const QString &grid, std::int64_t d, bool cls)
{
    Params p;
    p.encoding = Encoding::Sincos2d;
    p.dropout = 0.0;
    p.dModel = d;
    if (const auto error = ParamText::set(p, u"grid"_s, grid))
        qFatal("%s", qPrintable(error->sentence()));
    p.sincos2d.clsToken = cls;
    p.maxLen = p.sincos2d.grid[0] * p.sincos2d.grid[1] + (cls ? 1 : 0);
    return p;
}

RowMatrixXf pe(const Params &p)
{
    const Engine engine(p);
    return testing::computeTable(engine, Quantity::Pe, {0, p.maxLen, 0, p.dModel});
}

} // namespace

class tst_Sincos2dTables : public QObject
{
    Q_OBJECT

private slots:
    void maeExample();
    void ditCell();
    void tableEqualsFloat64_data();
    void tableEqualsFloat64();
    void addsToTheInput();
    void largeGridBlockByBlock();
    void wideGridCellByCell();
    void cellByCellEqualsTheHalves();
    void oneAxisPastTheThreshold();
    void badInputNamesTheFlag_data();
    void badInputNamesTheFlag();
};

void tst_Sincos2dTables::maeExample()
{
    // D = 8, G = 3, cls: the zero row, (0, 0), (0, 1) and (1, 0) as MAE writes them.
    const RowMatrixXf t = pe(sincos(u"3,3"_s, 8, true));
    QCOMPARE(t.rows(), 10);
    const std::vector<std::vector<double>> rows = {{0, 0, 0, 0, 0, 0, 0, 0},
                                                   {0, 0, 1, 1, 0, 0, 1, 1},
                                                   {0.841471, 0.01, 0.540302, 0.99995, 0, 0, 1, 1},
                                                   {0, 0, 1, 1, 0, 0, 1, 1}};
    const Eigen::Index at[] = {0, 1, 2, 4};
    for (std::size_t r = 0; r < 3; ++r) {
        for (Eigen::Index c = 0; c < 8; ++c)
            QVERIFY(std::abs(double(t(at[r], c)) - rows[r][std::size_t(c)]) <= 5e-6);
    }
    const std::vector<double> rowOneColumnZero = {0, 0, 1, 1, 0.841471, 0.01, 0.540302, 0.99995};
    for (Eigen::Index c = 0; c < 8; ++c)
        QVERIFY(std::abs(double(t(4, c)) - rowOneColumnZero[std::size_t(c)]) <= 5e-6);
}

void tst_Sincos2dTables::ditCell()
{
    // DiT-XL/2: a 16 x 16 grid, d 1152, no cls: pe[17] = (row 1, column 1).
    const RowMatrixXf t = pe(sincos(u"16,16"_s, 1152, false));
    for (const auto &[c, v] : std::vector<std::pair<int, double>> {
             {0, 0.841470985}, {1, 0.824051348}, {576, 0.841470985}, {577, 0.824051348}})
        QVERIFY(std::abs(double(t(17, c)) - v) <= 1e-6);
}

void tst_Sincos2dTables::tableEqualsFloat64_data()
{
    QTest::addColumn<QString>("grid");
    QTest::addColumn<qint64>("d");
    QTest::addColumn<bool>("cls");
    QTest::addColumn<double>("base");
    QTest::addColumn<double>("scale");
    QTest::newRow("mae vit-b/16") << u"14,14"_s << qint64(768) << true << 0.0 << 1.0;
    QTest::newRow("non-square") << u"6,11"_s << qint64(64) << false << 0.0 << 1.0;
    QTest::newRow("diffusers 8x12 base 16") << u"8,12"_s << qint64(96) << false << 16.0 << 2.0;
    QTest::newRow("diffusers sd3 crop") << u"24,24"_s << qint64(64) << false << 64.0 << 1.0;
}

void tst_Sincos2dTables::tableEqualsFloat64()
{
    QFETCH(QString, grid);
    QFETCH(qint64, d);
    QFETCH(bool, cls);
    QFETCH(double, base);
    QFETCH(double, scale);
    Params p = sincos(grid, d, cls);
    if (base > 0.0)
        p.sincos2d.baseSize = base;
    p.sincos2d.interpolationScale = scale;
    QVERIFY(p.isValid());
    const RowMatrixXf got = pe(p);
    const RowMatrixXd want = sincos2dref::table(p);
    QCOMPARE(got.rows(), want.rows());
    const double worst = (got.cast<double>() - want).cwiseAbs().maxCoeff();
    QVERIFY2(worst <= 1e-6, qPrintable(QString::number(worst)));
}

void tst_Sincos2dTables::addsToTheInput()
{
    // X = s·E + PE: the family's term enters the model input like the sinusoid's.
    Params p = sincos(u"4,4"_s, 16, true);
    const Engine engine(p);
    const RowMatrixXf x = testing::computeTable(engine, Quantity::Input, {0, 17, 0, 16});
    const RowMatrixXf e = testing::computeTable(engine, Quantity::Embedding, {0, 17, 0, 16});
    const RowMatrixXd want = sincos2dref::table(p);
    QVERIFY(((x - e).cast<double>() - want).cwiseAbs().maxCoeff() <= 1e-5);
}

void tst_Sincos2dTables::largeGridBlockByBlock()
{
    // 1024 x 1024 patches at d 768: 3 GiB whole, over a 64 MiB budget, any block alone.
    Params p = sincos(u"1024,1024"_s, 768, false);
    p.memoryBudget = std::uint64_t(64) << 20;
    const Engine engine(p);
    QVERIFY(engine.check(Quantity::Pe, {0, p.maxLen, 0, 768}).has_value());
    const RowMatrixXf t = testing::computeTable(engine, Quantity::Pe, {p.maxLen - 4, 4, 0, 768});
    // The last patch (1023, 1023): column 0 is sin(1023), column 384 sin(1023) too.
    QVERIFY(std::abs(double(t(3, 0)) - std::sin(1023.0)) <= 1e-6);
    QVERIFY(std::abs(double(t(3, 384)) - std::sin(1023.0)) <= 1e-6);
}

void tst_Sincos2dTables::wideGridCellByCell()
{
    // 3000 x 5000 patches at d 4096, diffusers' coordinates: each axis's halves would take 6 to 10
    // million floats, so each cell is computed as it is filled. Rows at the corners and the middle
    // equal the float64 reference, sines and cosines of both halves.
    Params p = sincos(u"3000,5000"_s, 4096, true);
    p.sincos2d.baseSize = 16.0;
    p.sincos2d.interpolationScale = 2.0;
    QVERIFY(p.isValid());
    const Engine engine(p);
    for (const std::int64_t n : {std::int64_t(0), std::int64_t(4999), std::int64_t(7'654'321), p.maxLen - 2}) {
        const RowMatrixXf got = testing::computeTable(engine, Quantity::Pe, {1 + n, 1, 0, 4096});
        const double x = sincos2dref::diffusersCoordinate(n % 5000, 5000, 16.0, 2.0);
        const double y = sincos2dref::diffusersCoordinate(n / 5000, 3000, 16.0, 2.0);
        const std::vector<double> first = sincos2dref::oneD(2048, x), second = sincos2dref::oneD(2048, y);
        double worst = 0.0;
        for (std::int64_t c = 0; c < 2048; ++c) {
            worst = std::max(worst, std::abs(double(got(0, c)) - first[std::size_t(c)]));
            worst = std::max(worst, std::abs(double(got(0, 2048 + c)) - second[std::size_t(c)]));
        }
        QVERIFY2(worst <= 1e-6, qPrintable(u"patch %1: %2"_s.arg(n).arg(worst)));
    }
}

void tst_Sincos2dTables::cellByCellEqualsTheHalves()
{
    // MAE's coordinates are the patch's own row and column, whatever the grid: patch (r, c) of a
    // 3000 x 5000 grid at d 4096 (each cell computed as it is filled) and of a 4 x 6 grid (both
    // axes' halves computed first) is the same row, bit for bit; the cls row is 0 in both.
    const Params wide = sincos(u"3000,5000"_s, 4096, true), small = sincos(u"4,6"_s, 4096, true);
    const Engine wideEngine(wide), smallEngine(small);
    QVERIFY(testing::computeTable(wideEngine, Quantity::Pe, {0, 1, 0, 4096}).isZero(0.0));
    QVERIFY(testing::computeTable(smallEngine, Quantity::Pe, {0, 1, 0, 4096}).isZero(0.0));
    for (const auto &[r, c] : std::vector<std::pair<std::int64_t, std::int64_t>> {{0, 0}, {1, 2}, {3, 5}, {2, 0}}) {
        const RowMatrixXf a = testing::computeTable(wideEngine, Quantity::Pe, {1 + r * 5000 + c, 1, 0, 4096});
        const RowMatrixXf b = testing::computeTable(smallEngine, Quantity::Pe, {1 + r * 6 + c, 1, 0, 4096});
        QVERIFY2(a == b, qPrintable(u"patch (%1, %2)"_s.arg(r).arg(c)));
    }
    // A block that starts inside the first half and ends inside the second, over rows that cross
    // from one grid row to the next: the same cells as the whole rows.
    const RowMatrixXf rows = testing::computeTable(wideEngine, Quantity::Pe, {4999, 3, 0, 4096});
    const RowMatrixXf block = testing::computeTable(wideEngine, Quantity::Pe, {4999, 3, 1000, 2100});
    QVERIFY(block == rows.middleCols(1000, 2100));
}

void tst_Sincos2dTables::oneAxisPastTheThreshold()
{
    // A 2 x 9000 grid at d 1024: the columns' halves alone would take 4.6 million floats, the rows'
    // 1024; neither is kept, and the rows at both ends and the middle equal the float64 reference.
    const Params p = sincos(u"2,9000"_s, 1024, false);
    QVERIFY(p.isValid());
    const Engine engine(p);
    for (const std::int64_t n : {std::int64_t(0), std::int64_t(8999), std::int64_t(9000), std::int64_t(13'579), p.maxLen - 1}) {
        const RowMatrixXf got = testing::computeTable(engine, Quantity::Pe, {n, 1, 0, 1024});
        const std::vector<double> first = sincos2dref::oneD(512, double(n % 9000));
        const std::vector<double> second = sincos2dref::oneD(512, double(n / 9000));
        double worst = 0.0;
        for (std::int64_t c = 0; c < 512; ++c) {
            worst = std::max(worst, std::abs(double(got(0, c)) - first[std::size_t(c)]));
            worst = std::max(worst, std::abs(double(got(0, 512 + c)) - second[std::size_t(c)]));
        }
        QVERIFY2(worst <= 1e-6, qPrintable(u"patch %1: %2"_s.arg(n).arg(worst)));
    }
}

void tst_Sincos2dTables::badInputNamesTheFlag_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("errorKey");
    QTest::addColumn<QString>("words");
    QTest::newRow("grid of 0") << u"grid"_s << u"0,16"_s << u"grid"_s << u"two integers in [1, 16384]"_s;
    QTest::newRow("max-len past the grid")
        << u"max-len"_s << u"300"_s << u"grid"_s << u"fewer than max_len 300: set max_len (--max-len) to 256"_s;
    QTest::newRow("columns not in four") << u"d-model"_s << u"66"_s << u"d-model"_s << u"must be a multiple of 4"_s;
    QTest::newRow("base size 0") << u"base-size"_s << u"0"_s << u"base-size"_s << u"unset or a number in (0, 1e6]"_s;
    QTest::newRow("scale negative") << u"interpolation-scale"_s << u"-2"_s << u"interpolation-scale"_s
                                    << u"a number in (0, 1e6]"_s;
}

void tst_Sincos2dTables::badInputNamesTheFlag()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, errorKey);
    QFETCH(QString, words);
    Params p = sincos(u"16,16"_s, 64, false);
    QVERIFY(p.isValid());
    QVERIFY(!ParamText::set(p, key, value));
    const QList<ParamError> errors = p.validate();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.front().key, errorKey);
    QVERIFY2(errors.front().sentence().contains(words), qPrintable(errors.front().sentence()));
}

POSENC_TEST_GUILESS_MAIN(tst_Sincos2dTables)
} // namespace tst_sincos2dtables
#include "tst_sincos2dtables.moc"
