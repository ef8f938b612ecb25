// posenc check identifies the 2-D sin-cos table of MAE, DiT and diffusers (Sincos2dTableCheck): the
// tables written here from the float64 reference of tests/support/Sincos2dReference.h (MAE's
// util/pos_embed.py get_2d_sincos_pos_embed, diffusers' coordinates), never from the code under
// test; the grid, the cls token and diffusers' base_size read back; RT-DETR's order (the row's half
// first) a published form, and its patches numbered width-major named against a declared grid.
#include "core/CheckTables.h"
#include "support/Sincos2dReference.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QtTest>

#include <utility>

namespace tst_tablechecksincos2d {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

Params sincos(std::int64_t d, std::int64_t h, std::int64_t w, bool cls, std::optional<double> base = std::nullopt,
              double scale = 1.0)
{
    Params p;
    p.encoding = Encoding::Sincos2d;
    p.dModel = d;
    p.sincos2d.grid = {h, w};
    p.sincos2d.clsToken = cls;
    p.sincos2d.baseSize = base;
    p.sincos2d.interpolationScale = scale;
    p.maxLen = h * w + (cls ? 1 : 0);
    return p;
}

RowMatrixXf written(const Params &p, bool swapHalves = false)
{
    RowMatrixXf t = sincos2dref::table(p).cast<float>();
    if (swapHalves) {
        const RowMatrixXf copy = t;
        const std::int64_t half = t.cols() / 2;
        t.leftCols(half) = copy.rightCols(half);
        t.rightCols(half) = copy.leftCols(half);
    }
    return t;
}

// RT-DETR's table in float64 (transformers modeling_rt_detr.py, RTDetrHybridEncoder.
// build_2d_sincos_position_embedding): omega_k = 1 / 10000^(k / q), q = d / 4, the columns
// [h.sin | h.cos | w.sin | w.cos]. `widthMajor` numbers the patches as the "ij" meshgrid of
// (grid_w, grid_h) flattened before transformers#41380 (the halves then [w | h]).
RowMatrixXf rtdetr(std::int64_t d, std::int64_t height, std::int64_t width, bool widthMajor)
{
    const std::int64_t q = d / 4;
    return table(height * width, d, [=](std::int64_t k, std::int64_t j) {
        double first = double(k / width), second = double(k % width); // h, then w
        if (widthMajor) {
            first = double(k / height); // out_w: grid_w's index, the slow one
            second = double(k % height); // out_h
        }
        const std::int64_t part = j / q, i = j % q;
        const double omega = 1.0 / std::pow(10000.0, double(i) / double(q));
        const double x = (part < 2 ? first : second) * omega;
        return part % 2 == 0 ? std::sin(x) : std::cos(x);
    });
}

} // namespace

class TestTableCheckSincos2d : public QObject
{
    Q_OBJECT

private slots:
    void theReferenceIsNamed_data();
    void theReferenceIsNamed();
    void rtdetrOrderIsCorrect();
    void rtdetrNonSquareIsCorrect();
    void widthMajorPatchesAreNamed();
    void aChangedCellIsFound();
    void aSinusoidIsNotOne();
    void expectComparesWithTheGridGiven();
    void aClsRowMissingOrExtraIsNamed_data();
    void aClsRowMissingOrExtraIsNamed();
};

void TestTableCheckSincos2d::theReferenceIsNamed_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<QString>("grid");
    QTest::newRow("MAE ViT-B/16, cls") << sincos(768, 14, 14, true) << u"14x14"_s;
    QTest::newRow("DiT-XL/2 256 px") << sincos(1152, 16, 16, false) << u"16x16"_s;
    QTest::newRow("8 x 12, d 64") << sincos(64, 8, 12, false) << u"8x12"_s;
    // A grid wider than the sample's first 64 rows: its width from the rows at doubling distances.
    QTest::newRow("256 x 512, d 8") << sincos(8, 256, 512, false) << u"256x512"_s;
    // diffusers: coordinates i / (32 / 16), each axis by its own size.
    QTest::newRow("diffusers base 16") << sincos(64, 32, 32, false, 16.0) << u"32x32"_s;
    QTest::newRow("diffusers base 64, 48 x 24") << sincos(96, 48, 24, false, 64.0) << u"48x24"_s;
}

void TestTableCheckSincos2d::theReferenceIsNamed()
{
    QFETCH(Params, params);
    QFETCH(QString, grid);
    const Checked c = check(written(params));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.table, u"sincos-2d"_s);
    QCOMPARE(c.match.family, std::optional(Encoding::Sincos2d));
    QVERIFY2(c.match.verdict == CheckVerdict::Correct,
             qPrintable(c.match.diagnosis + u" | "_s + c.match.deviations + u" | "_s
                        + QString::number(c.verification.deviationError) + u" at "_s
                        + QString::number(c.verification.deviationRow) + u","_s
                        + QString::number(c.verification.deviationColumn)));
    QCOMPARE(word(c.match, u"grid"_s), grid);
    QCOMPARE(c.match.finding(u"cls_token"_s), MatchValue(params.sincos2d.clsToken));
    QCOMPARE(word(c.match, u"halves"_s), u"column, row"_s);
    if (params.sincos2d.baseSize)
        QCOMPARE(number(c.match, u"base_size"_s), *params.sincos2d.baseSize);
    else
        QVERIFY(std::holds_alternative<std::monostate>(c.match.finding(u"base_size"_s)));
    // The parameters reproduce the table.
    QVERIFY(c.match.params.has_value());
    QCOMPARE(c.match.params->sincos2d.grid, params.sincos2d.grid);
    QCOMPARE(c.match.params->sincos2d.clsToken, params.sincos2d.clsToken);
    QVERIFY2(c.verification.maxAbsError <= 2e-7, qPrintable(QString::number(c.verification.maxAbsError)));
}

// The row's half first is RT-DETR's published order (issue 56), never a mistake.
void TestTableCheckSincos2d::rtdetrOrderIsCorrect()
{
    const Checked c = check(written(sincos(768, 14, 14, true), true));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.table, u"sincos-2d"_s);
    QCOMPARE(c.match.verdict, CheckVerdict::Correct);
    QVERIFY(c.match.mistakes.isEmpty());
    QCOMPARE(word(c.match, u"halves"_s), u"row, column"_s);
    QCOMPARE(word(c.match, u"grid"_s), u"14x14"_s);
    QVERIFY(c.match.correctAgainst.contains(u"build_2d_sincos_position_embedding"_s));
    QVERIFY2(c.verification.maxAbsError <= 2e-7, qPrintable(QString::number(c.verification.maxAbsError)));
}

// RT-DETR's fixed table of an 8-high, 12-wide map (tests/data/realbugs tf-rtdetr-non-square),
// undeclared and declared.
void TestTableCheckSincos2d::rtdetrNonSquareIsCorrect()
{
    const RowMatrixXf t = rtdetr(256, 8, 12, false);
    const Checked c = check(t);
    QCOMPARE(c.match.verdict, CheckVerdict::Correct);
    QCOMPARE(word(c.match, u"grid"_s), u"8x12"_s);
    QCOMPARE(word(c.match, u"halves"_s), u"row, column"_s);
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    const auto got = TableCheck::expect(rows, Encoding::Sincos2d, sincos(256, 8, 12, false), u"sincos-2d"_s);
    QVERIFY(std::holds_alternative<TableMatch>(got));
    QCOMPARE(std::get<TableMatch>(got).verdict, CheckVerdict::Correct);
}

// Before transformers#41380 the patches of a non-square map were numbered width-major: against the
// declared grid, sincos2d-grid-order; a square map's are the same either way.
void TestTableCheckSincos2d::widthMajorPatchesAreNamed()
{
    const RowMatrixXf t = rtdetr(256, 8, 12, true);
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    const auto got = TableCheck::expect(rows, Encoding::Sincos2d, sincos(256, 8, 12, false), u"sincos-2d"_s);
    QVERIFY(std::holds_alternative<TableMatch>(got));
    const TableMatch &m = std::get<TableMatch>(got);
    QCOMPARE(m.verdict, CheckVerdict::Mistake);
    QCOMPARE(m.mistakes, QStringList {u"sincos2d-grid-order"_s});
    QVERIFY(m.diagnosis.contains(u"width-major"_s));
    const RowMatrixXf square = rtdetr(64, 6, 6, true);
    const MatrixRows squareRows(std::make_shared<const RowMatrixXf>(square), StoredType::Float32, u"test"_s);
    const auto same = TableCheck::expect(squareRows, Encoding::Sincos2d, sincos(64, 6, 6, false), u"sincos-2d"_s);
    QCOMPARE(std::get<TableMatch>(same).verdict, CheckVerdict::Correct);
}

void TestTableCheckSincos2d::aChangedCellIsFound()
{
    RowMatrixXf t = written(sincos(64, 16, 16, false));
    t(200, 5) += 0.25f;
    const Checked c = check(t);
    QCOMPARE(c.match.table, u"sincos-2d"_s);
    QVERIFY(c.match.verdict != CheckVerdict::Correct);
    QCOMPARE(c.verification.worstRow, std::int64_t(200));
    QCOMPARE(c.verification.worstColumn, std::int64_t(5));
}

void TestTableCheckSincos2d::aSinusoidIsNotOne()
{
    // The paper's table, interleaved: no 2-D grid.
    const Checked c = check(table(512, 64, [](std::int64_t p, std::int64_t j) { return paper(p, j, 64, 1e4, false); }));
    QCOMPARE(c.match.family, std::optional(Encoding::Sinusoidal));
}

void TestTableCheckSincos2d::expectComparesWithTheGridGiven()
{
    const RowMatrixXf t = written(sincos(64, 8, 8, true));
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    const auto same = TableCheck::expect(rows, Encoding::Sincos2d, sincos(64, 8, 8, true), u"sincos-2d"_s);
    QVERIFY(std::holds_alternative<TableMatch>(same));
    const auto other = TableCheck::expect(rows, Encoding::Sincos2d, sincos(64, 4, 16, false), u"sincos-2d"_s);
    QVERIFY(std::holds_alternative<QString>(other));
    QVERIFY(std::get<QString>(other).contains(u"64 x 64"_s));
}

// A table declared with MAE's cls token that lacks its zero row, and a DiT table (no cls token)
// given one: each named, the rows compared with the grid as the table holds it; a table of
// another grid one row off is no cls mistake, its shape refused as before.
void TestTableCheckSincos2d::aClsRowMissingOrExtraIsNamed_data()
{
    QTest::addColumn<Params>("made");
    QTest::addColumn<Params>("declared");
    QTest::addColumn<QString>("mistake");
    QTest::newRow("MAE ViT-B/16 without its cls row")
        << sincos(768, 14, 14, false) << sincos(768, 14, 14, true) << u"cls-token-missing"_s;
    QTest::newRow("DiT-XL/2 with a cls row")
        << sincos(1152, 16, 16, true) << sincos(1152, 16, 16, false) << u"cls-token-extra"_s;
    QTest::newRow("another grid, one row short") << sincos(64, 4, 16, false) << sincos(64, 8, 8, true) << QString();
}

void TestTableCheckSincos2d::aClsRowMissingOrExtraIsNamed()
{
    QFETCH(Params, made);
    QFETCH(Params, declared);
    QFETCH(QString, mistake);
    const RowMatrixXf t = written(made);
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    const auto got = TableCheck::expect(rows, Encoding::Sincos2d, declared, u"sincos-2d"_s);
    if (mistake.isEmpty()) {
        QVERIFY(std::holds_alternative<QString>(got));
        QVERIFY2(std::get<QString>(got).contains(u"this one is 64 x 64"_s), qPrintable(std::get<QString>(got)));
        return;
    }
    if (const auto *refused = std::get_if<QString>(&got))
        QFAIL(qPrintable(*refused));
    const TableMatch &m = std::get<TableMatch>(got);
    QCOMPARE(m.verdict, CheckVerdict::Mistake);
    QCOMPARE(m.mistakes, QStringList {mistake});
    QVERIFY(m.correctAgainst.isEmpty());
    QCOMPARE(word(m, u"grid"_s), u"%1x%2"_s.arg(made.sincos2d.grid[0]).arg(made.sincos2d.grid[1]));
    // The rows are the made grid's exactly: nothing deviates once the row is accounted for.
    const TableCheck::Verification v = TableCheck::verify(m, rows, TableCheck::StreamOptions());
    QCOMPARE(v.deviatingCells, std::int64_t(0));
}

POSENC_TEST_GUILESS_MAIN(TestTableCheckSincos2d)
} // namespace tst_tablechecksincos2d
#include "tst_tablechecksincos2d.moc"
