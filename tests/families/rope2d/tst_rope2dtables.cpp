// 2-D RoPE's tables in the engine (rope2d-frequencies, rope2d-cos, rope2d-sin, rope2d-score)
// against the float64 references of tests/support/Rope2dReference.h (the Qwen-VL ViT, Pixtral,
// FLUX's EmbedND and RoPE-ViT's axial form). The worked values are the references' own output
// for these grids.
#include "core/EngineTable.h"
#include "support/Rope2dReference.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/ParamText.h"

#include <QTest>

#include <cmath>

namespace tst_rope2dtables {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

Params rope2d(const QString &style, const QString &grid, std::int64_t headDim, double theta)
{
    Params p;
    p.encoding = Encoding::Rope2d;
    p.dropout = 0.0;
    p.rope.headDim = headDim;
    p.rope.theta = theta;
    const QList<std::pair<QString, QString>> values
        = {{u"rope-2d-style"_s, style}, {u"grid"_s, grid}, {u"patch"_s, u"0,0"_s}};
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s", qPrintable(error->sentence()));
    }
    return p;
}

// Column c's pair: rotate_half's c mod d/2 (Qwen, Pixtral), adjacent pairs c / 2 (FLUX, RoPE-ViT).
std::int64_t pairOfColumn(const Params &p, std::int64_t c)
{
    const bool half = p.rope2d.style == Rope2dStyle::QwenVit || p.rope2d.style == Rope2dStyle::Pixtral;
    return half ? c % (p.rope.headDim / 2) : c / 2;
}

RowMatrixXf whole(const Params &p, Quantity q)
{
    const Engine engine(p);
    const Shape s = engine.shape(q);
    return testing::computeTable(engine, q, {0, s.rows, 0, s.cols});
}

} // namespace

class tst_Rope2dTables : public QObject
{
    Q_OBJECT

private slots:
    void tablesEqualFloat64_data();
    void tablesEqualFloat64();
    void workedAngles_data();
    void workedAngles();
    void qwenMergeOrder();
    void scores_data();
    void scores();
    void blocksEqualWholeTable();
    void largeGridBlockByBlock();
    void badInputNamesTheFlag_data();
    void badInputNamesTheFlag();
    void anUnsetPatchIsTheGridsCentre_data();
    void anUnsetPatchIsTheGridsCentre();
};

void tst_Rope2dTables::tablesEqualFloat64_data()
{
    QTest::addColumn<QString>("style");
    QTest::addColumn<QString>("grid");
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<double>("theta");
    QTest::addColumn<QString>("axes");
    QTest::newRow("qwen2-vl vit") << u"qwen-vit"_s << u"6,8"_s << qint64(80) << 10000.0 << QString();
    QTest::newRow("qwen3-vl vit") << u"qwen-vit"_s << u"4,10"_s << qint64(72) << 10000.0 << QString();
    QTest::newRow("pixtral") << u"pixtral"_s << u"7,5"_s << qint64(64) << 10000.0 << QString();
    QTest::newRow("flux.1") << u"flux"_s << u"6,9"_s << qint64(128) << 10000.0 << u"16,56,56"_s;
    QTest::newRow("flux.2") << u"flux"_s << u"5,5"_s << qint64(128) << 2000.0 << u"32,32,32,32"_s;
    QTest::newRow("axial") << u"axial"_s << u"14,14"_s << qint64(64) << 100.0 << QString();
}

void tst_Rope2dTables::tablesEqualFloat64()
{
    QFETCH(QString, style);
    QFETCH(QString, grid);
    QFETCH(qint64, headDim);
    QFETCH(double, theta);
    QFETCH(QString, axes);
    Params p = rope2d(style, grid, headDim, theta);
    if (!axes.isEmpty())
        QVERIFY(!ParamText::set(p, u"axes-dim"_s, axes));
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const std::vector<rope2dref::Pair> pairs = rope2dref::pairs(p);
    const RowMatrixXf freq = whole(p, Quantity::Rope2dFrequencies);
    QCOMPARE(freq.rows(), Eigen::Index(pairs.size()));
    for (std::size_t j = 0; j < pairs.size(); ++j) {
        QCOMPARE(int(freq(Eigen::Index(j), 1)), pairs[j].axis);
        QVERIFY(std::abs(double(freq(Eigen::Index(j), 2)) - pairs[j].inv) <= 1e-6 * pairs[j].inv);
    }
    const RowMatrixXf cos = whole(p, Quantity::Rope2dCos), sin = whole(p, Quantity::Rope2dSin);
    QCOMPARE(cos.rows(), Eigen::Index(p.sincos2d.grid[0] * p.sincos2d.grid[1]));
    QCOMPARE(cos.cols(), Eigen::Index(headDim));
    double worst = 0.0;
    for (Eigen::Index n = 0; n < cos.rows(); ++n) {
        const auto [row, column] = rope2dref::patch(p, n);
        for (Eigen::Index c = 0; c < cos.cols(); ++c) {
            const double a = rope2dref::angle(pairs[std::size_t(pairOfColumn(p, c))], row, column);
            worst = std::max(
                {worst, std::abs(double(cos(n, c)) - std::cos(a)), std::abs(double(sin(n, c)) - std::sin(a))});
        }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(QString::number(worst)));
}

void tst_Rope2dTables::workedAngles_data()
{
    QTest::addColumn<QString>("style");
    QTest::addColumn<QString>("grid");
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<double>("theta");
    QTest::addColumn<qint64>("patch");
    QTest::addColumn<QList<int>>("pairs");
    QTest::addColumn<QList<double>>("angles");
    // A 1 x 4 x 6 grid of Qwen2-VL's ViT (head 80): patch #5 is (0, 3).
    QTest::newRow("qwen-vit #5") << u"qwen-vit"_s << u"4,6"_s << qint64(80) << 10000.0 << qint64(5)
                                 << QList<int> {0, 20, 21} << QList<double> {0.0, 3.0, 3.0 * 0.630957344480193};
    // Pixtral, image 2 x 3: patch (1, 2).
    QTest::newRow("pixtral (1, 2)") << u"pixtral"_s << u"2,3"_s << qint64(64) << 10000.0 << qint64(5)
                                    << QList<int> {0, 1, 16, 17}
                                    << QList<double> {1.0, 0.56234133, 1.49978842, 0.84339301};
    // RoPE-ViT axial, 14 x 14, theta 100: token 15 = (x 1, y 1).
    QTest::newRow("axial #15") << u"axial"_s << u"14,14"_s << qint64(64) << 100.0 << qint64(15) << QList<int> {0, 16}
                               << QList<double> {1.0, 1.0};
}

void tst_Rope2dTables::workedAngles()
{
    QFETCH(QString, style);
    QFETCH(QString, grid);
    QFETCH(qint64, headDim);
    QFETCH(double, theta);
    QFETCH(qint64, patch);
    QFETCH(QList<int>, pairs);
    QFETCH(QList<double>, angles);
    const Params p = rope2d(style, grid, headDim, theta);
    const Engine engine(p);
    const RowMatrixXf cos = testing::computeTable(engine, Quantity::Rope2dCos, {patch, 1, 0, headDim});
    const RowMatrixXf sin = testing::computeTable(engine, Quantity::Rope2dSin, {patch, 1, 0, headDim});
    const bool half = style != u"axial"_s;
    for (qsizetype i = 0; i < pairs.size(); ++i) {
        const std::int64_t c = half ? pairs[i] : 2 * pairs[i];
        QVERIFY(std::abs(double(cos(0, c)) - std::cos(angles[i])) <= 1e-6);
        QVERIFY(std::abs(double(sin(0, c)) - std::sin(angles[i])) <= 1e-6);
    }
}

void tst_Rope2dTables::qwenMergeOrder()
{
    // rot_pos_emb's order for 4 x 6 patches, merge 2: (0,0),(0,1),(1,0),(1,1),(0,2),(0,3),...
    const Params p = rope2d(u"qwen-vit"_s, u"4,6"_s, 80, 10000.0);
    const RowMatrixXf sin = whole(p, Quantity::Rope2dSin);
    const std::vector<std::pair<int, int>> order = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3},
                                                    {0, 4}, {0, 5}, {1, 4}, {1, 5}, {2, 0}, {2, 1}, {3, 0}, {3, 1}};
    for (std::size_t n = 0; n < order.size(); ++n) {
        // Pair 0 turns by the row at 1 rad a row, pair 20 by the column.
        QVERIFY(std::abs(double(sin(Eigen::Index(n), 0)) - std::sin(double(order[n].first))) <= 1e-6);
        QVERIFY(std::abs(double(sin(Eigen::Index(n), 20)) - std::sin(double(order[n].second))) <= 1e-6);
    }
}

void tst_Rope2dTables::scores_data()
{
    QTest::addColumn<QString>("style");
    QTest::addColumn<double>("theta");
    QTest::addColumn<QList<double>>("alongRow");
    QTest::addColumn<QList<double>>("alongColumn");
    QTest::addColumn<double>("diagonal");
    // 8 x 8, patch (3, 3), q all ones, head 64. Axial: one ladder for both axes, the "+" shape.
    QTest::newRow("axial") << u"axial"_s << 100.0
                           << QList<double> {0.7996, 0.8845, 0.9662, 1, 0.9662, 0.8845, 0.7996, 0.748}
                           << QList<double> {0.7996, 0.8845, 0.9662, 1, 0.9662, 0.8845, 0.7996, 0.748} << 0.9323;
    // Pixtral: columns on the slower odd ladder.
    QTest::newRow("pixtral") << u"pixtral"_s << 10000.0 << QList<double> {0.9161, 0.9554, 0.9876, 1}
                             << QList<double> {0.8835, 0.9291, 0.9786, 1} << -1.0;
}

void tst_Rope2dTables::scores()
{
    QFETCH(QString, style);
    QFETCH(double, theta);
    QFETCH(QList<double>, alongRow);
    QFETCH(QList<double>, alongColumn);
    QFETCH(double, diagonal);
    Params p = rope2d(style, u"8,8"_s, 64, theta);
    p.rope2d.patch = {3, 3};
    const RowMatrixXf score = whole(p, Quantity::Rope2dScore);
    QCOMPARE(score.rows(), 8);
    for (qsizetype i = 0; i < alongRow.size(); ++i) {
        QVERIFY2(std::abs(double(score(3, i)) - alongRow[i]) <= 5e-5, qPrintable(QString::number(score(3, i))));
        QVERIFY2(std::abs(double(score(i, 3)) - alongColumn[i]) <= 5e-5, qPrintable(QString::number(score(i, 3))));
    }
    if (diagonal > 0.0) {
        QVERIFY(std::abs(double(score(2, 2)) - diagonal) <= 5e-5);
        // (1, 1) at distance 2.83 scores below (3, 0) at distance 3: the "+" shape.
        QVERIFY(std::abs(double(score(1, 1)) - 0.769) <= 5e-4);
        QVERIFY(score(1, 1) < score(3, 0));
    }
    // Against the float64 mean of cos(angle(p) - angle(p0)) at every patch.
    const std::vector<rope2dref::Pair> pairs = rope2dref::pairs(p);
    for (Eigen::Index r = 0; r < 8; ++r) {
        for (Eigen::Index c = 0; c < 8; ++c) {
            QVERIFY(std::abs(double(score(r, c)) - rope2dref::score(pairs, r, c, 3, 3)) <= 1e-6);
        }
    }
}

void tst_Rope2dTables::blocksEqualWholeTable()
{
    Params p = rope2d(u"flux"_s, u"12,10"_s, 128, 10000.0);
    const RowMatrixXf all = whole(p, Quantity::Rope2dCos);
    const Engine engine(p);
    for (const Block b : {Block {7, 30, 3, 61}, Block {119, 1, 127, 1}, Block {0, 120, 64, 64}}) {
        const RowMatrixXf part = testing::computeTable(engine, Quantity::Rope2dCos, b, 1);
        QCOMPARE(part, all.block(b.row0, b.col0, b.rows, b.cols));
    }
}

void tst_Rope2dTables::largeGridBlockByBlock()
{
    // 1024 x 1024 patches: 2^20 rows of head_dim 128 (512 MiB), over a 64 MiB budget whole, any
    // block within it computed alone.
    Params p = rope2d(u"qwen-vit"_s, u"1024,1024"_s, 128, 10000.0);
    p.memoryBudget = std::uint64_t(64) << 20;
    const Engine engine(p);
    QCOMPARE(engine.shape(Quantity::Rope2dCos).rows, std::int64_t(1) << 20);
    QVERIFY(engine.check(Quantity::Rope2dCos, {0, std::int64_t(1) << 20, 0, 128}).has_value());
    const std::int64_t last = (std::int64_t(1) << 20) - 1;
    const RowMatrixXf cos = testing::computeTable(engine, Quantity::Rope2dCos, {last - 9, 10, 0, 128});
    // The last patch of merge order is (1023, 1023): pair 0 by the row, pair 32 by the column.
    QVERIFY(std::abs(double(cos(9, 0)) - std::cos(1023.0)) <= 1e-6);
    QVERIFY(std::abs(double(cos(9, 32)) - std::cos(1023.0)) <= 1e-6);
    const RowMatrixXf score = testing::computeTable(engine, Quantity::Rope2dScore, {1000, 24, 1000, 24});
    QVERIFY(std::isfinite(score(0, 0)));
}

void tst_Rope2dTables::badInputNamesTheFlag_data()
{
    QTest::addColumn<QString>("style");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("words");
    QTest::newRow("grid of 0") << u"pixtral"_s << u"grid"_s << u"0,4"_s << u"two integers in [1, 16384]"_s;
    QTest::newRow("grid of one side") << u"pixtral"_s << u"grid"_s << u"8"_s << u"H,W"_s;
    QTest::newRow("negative grid, qwen-vit")
        << u"qwen-vit"_s << u"grid"_s << u"-1,4"_s << u"two integers in [1, 16384]"_s;
    QTest::newRow("head not in four") << u"axial"_s << u"head-dim"_s << u"70"_s << u"multiple of 4; it is 70"_s;
    QTest::newRow("merge") << u"qwen-vit"_s << u"grid"_s << u"5,8"_s << u"multiple of spatial-merge-size 2"_s;
    QTest::newRow("axes not summing") << u"flux"_s << u"axes-dim"_s << u"16,56,54"_s << u"they sum to 126"_s;
    QTest::newRow("odd axis") << u"flux"_s << u"axes-dim"_s << u"17,55,56"_s << u"17 is not"_s;
    QTest::newRow("patch outside") << u"pixtral"_s << u"patch"_s << u"8,2"_s << u"r in [0, 7]"_s;
}

void tst_Rope2dTables::badInputNamesTheFlag()
{
    QFETCH(QString, style);
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, words);
    Params p = rope2d(style, u"8,8"_s, 128, 10000.0);
    QVERIFY(p.isValid());
    QVERIFY(!ParamText::set(p, key, value));
    const QList<ParamError> errors = p.validate();
    QCOMPARE(errors.size(), 1);
    // A split the style cannot make is the style's problem; the others name their own flag.
    QCOMPARE(errors.front().key, key == u"head-dim"_s || value == u"5,8"_s ? u"rope-2d-style"_s : key);
    QVERIFY2(errors.front().sentence().contains(words), qPrintable(errors.front().sentence()));
}

// The patch left unset (auto, the default) is the grid's centre (H/2, W/2) at any grid, small
// ones included: the score peaks there at 1, against the float64 reference. "auto", "none" and an
// empty text unset it; the text of the unset patch is "auto".
void tst_Rope2dTables::anUnsetPatchIsTheGridsCentre_data()
{
    QTest::addColumn<QString>("grid");
    QTest::addColumn<QString>("text");
    QTest::newRow("2 x 2, the default") << u"2,2"_s << QString();
    QTest::newRow("8 x 8, auto") << u"8,8"_s << u"auto"_s;
    QTest::newRow("6 x 10, none") << u"6,10"_s << u"none"_s;
    QTest::newRow("15 x 4, empty") << u"15,4"_s << u""_s;
}

void tst_Rope2dTables::anUnsetPatchIsTheGridsCentre()
{
    QFETCH(QString, grid);
    QFETCH(QString, text);
    Params p = rope2d(u"pixtral"_s, grid, 64, 10000.0);
    if (text.isNull())
        p.rope2d.patch = Rope2dParams().patch;
    else
        QVERIFY(!ParamText::set(p, u"patch"_s, text));
    QVERIFY(p.rope2d.patch.empty());
    QCOMPARE(ParamText::get(p, u"patch"_s), u"auto"_s);
    QVERIFY2(p.validate().isEmpty(), qPrintable(p.validate().value(0).sentence()));
    const std::int64_t r0 = p.sincos2d.grid[0] / 2, c0 = p.sincos2d.grid[1] / 2;
    const RowMatrixXf score = whole(p, Quantity::Rope2dScore);
    const std::vector<rope2dref::Pair> pairs = rope2dref::pairs(p);
    for (Eigen::Index r = 0; r < score.rows(); ++r)
        for (Eigen::Index c = 0; c < score.cols(); ++c)
            QVERIFY(std::abs(double(score(r, c)) - rope2dref::score(pairs, r, c, r0, c0)) <= 1e-6);
    QCOMPARE(score(r0, c0), 1.0f);
}

POSENC_TEST_GUILESS_MAIN(tst_Rope2dTables)
} // namespace tst_rope2dtables
#include "tst_rope2dtables.moc"
