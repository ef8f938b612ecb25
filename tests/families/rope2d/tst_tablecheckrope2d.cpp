// posenc check identifies 2-D RoPE's cos and sin tables (Rope2dTableCheck): tables written here
// from the float64 reference of tests/support/Rope2dReference.h (the Qwen ViT's rot_pos_emb,
// Pixtral's 2-D frequencies, FLUX's EmbedND, RoPE-ViT's compute_axial_cis), never from the code
// under test; the style, the grid, rope_theta and the Qwen ViT's merge order read back, a table of
// float32 angles (torch's outer product) named as such, and a 1-D RoPE table left to RoPE.
#include "core/CheckTables.h"
#include "support/Rope2dReference.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include "check/TableCheck.h"
#include "check/TableMatch.h"

#include <QtTest>

#include <tuple>

namespace tst_tablecheckrope2d {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

Params rope2d(Rope2dStyle style, std::int64_t head, double theta, std::int64_t h, std::int64_t w,
              std::vector<std::int64_t> axes = {16, 56, 56})
{
    Params p;
    p.encoding = Encoding::Rope2d;
    p.rope.headDim = head;
    p.rope.theta = theta;
    p.rope2d.style = style;
    p.rope2d.axesDim = std::move(axes);
    p.sincos2d.grid = {h, w};
    return p;
}

// The patches in the model's order: rot_pos_emb's reshape(h/m, m, w/m, m).permute(0, 2, 1, 3) for
// the Qwen ViT, row-major for the others (Rope2dReference.h's patch(), walked once).
std::vector<std::pair<std::int64_t, std::int64_t>> order(const Params &p)
{
    const std::int64_t h = p.sincos2d.grid[0], w = p.sincos2d.grid[1];
    const std::int64_t m = p.rope2d.style == Rope2dStyle::QwenVit ? p.mrope.spatialMergeSize : 1;
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (std::int64_t br = 0; br < h / m; ++br)
        for (std::int64_t bc = 0; bc < w / m; ++bc)
            for (std::int64_t ir = 0; ir < m; ++ir)
                for (std::int64_t ic = 0; ic < m; ++ic)
                    out.push_back({br * m + ir, bc * m + ic});
    return out;
}

// The table [H·W, head_dim]: rotate_half's cat(freqs, freqs) for the Qwen ViT and Pixtral, adjacent
// columns for FLUX and the axial form; with `float32Angles` each angle float(id) * float(inv), as
// torch's outer product forms it.
RowMatrixXf written(const Params &p, bool cosine, bool float32Angles = false)
{
    const std::vector<rope2dref::Pair> pairs = rope2dref::pairs(p);
    const std::int64_t n = std::int64_t(pairs.size());
    const bool half = p.rope2d.style == Rope2dStyle::QwenVit || p.rope2d.style == Rope2dStyle::Pixtral;
    const auto patches = order(p);
    RowMatrixXf t(std::int64_t(patches.size()), 2 * n);
    for (std::int64_t r = 0; r < t.rows(); ++r) {
        const auto [row, column] = patches[std::size_t(r)];
        for (std::int64_t j = 0; j < n; ++j) {
            const rope2dref::Pair &pair = pairs[std::size_t(j)];
            double a = rope2dref::angle(pair, row, column);
            if (float32Angles) {
                const double id = pair.axis == 1 ? double(row) : pair.axis == 2 ? double(column) : 0.0;
                a = double(float(id) * float(pair.inv));
            }
            const float v = float(cosine ? std::cos(a) : std::sin(a));
            t(r, half ? j : 2 * j) = v;
            t(r, half ? j + n : 2 * j + 1) = v;
        }
    }
    return t;
}

} // namespace

class TestTableCheckRope2d : public QObject
{
    Q_OBJECT

private slots:
    void theStyleIsNamed_data();
    void theStyleIsNamed();
    void float32AnglesAreNamed();
    void rowByRowIsNoQwenModels();
    void aChangedCellIsFound();
    void aRopeTableIsRopes();
    void anotherGridIsToldByItsFit();
};

void TestTableCheckRope2d::theStyleIsNamed_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<bool>("cosine");
    QTest::addColumn<QString>("style");
    QTest::addColumn<QString>("grid");
    using S = Rope2dStyle;
    QTest::newRow("Qwen2-VL ViT, head 80, 32 x 48, cos")
        << rope2d(S::QwenVit, 80, 10000.0, 32, 48) << true << u"qwen-vit"_s << u"32x48"_s;
    QTest::newRow("Qwen ViT, 256 x 512, head 16, sin")
        << rope2d(S::QwenVit, 16, 10000.0, 256, 512) << false << u"qwen-vit"_s << u"256x512"_s;
    // The slowest pair (inv_freq 0.001 at head 16) past half a turn inside the grid: its cos and sin
    // read more than one id (before, such a grid was "learned": the Qwen ViT's 4096 x 4096).
    QTest::newRow("Qwen ViT, 3200 x 4, head 16, cos: the rows' slowest pair past pi")
        << rope2d(S::QwenVit, 16, 10000.0, 3200, 4) << true << u"qwen-vit"_s << u"3200x4"_s;
    QTest::newRow("Qwen ViT, 4 x 5000, head 16, sin: the columns' slowest pair past pi")
        << rope2d(S::QwenVit, 16, 10000.0, 4, 5000) << false << u"qwen-vit"_s << u"4x5000"_s;
    QTest::newRow("Pixtral, head 16, 5000 x 2, cos: past pi")
        << rope2d(S::Pixtral, 16, 10000.0, 5000, 2) << true << u"pixtral"_s << u"5000x2"_s;
    QTest::newRow("Pixtral, head 64, 24 x 40, sin")
        << rope2d(S::Pixtral, 64, 10000.0, 24, 40) << false << u"pixtral"_s << u"24x40"_s;
    QTest::newRow("FLUX.1, 16,56,56, 16 x 16, cos")
        << rope2d(S::Flux, 128, 10000.0, 16, 16) << true << u"flux"_s << u"16x16"_s;
    QTest::newRow("FLUX.2, 32,32,32,32, theta 2000, 8 x 12, sin")
        << rope2d(S::Flux, 128, 2000.0, 8, 12, {32, 32, 32, 32}) << false << u"flux"_s << u"8x12"_s;
    QTest::newRow("RoPE-ViT axial, head 64, theta 100, 14 x 14, cos")
        << rope2d(S::Axial, 64, 100.0, 14, 14) << true << u"axial"_s << u"14x14"_s;
}

void TestTableCheckRope2d::theStyleIsNamed()
{
    QFETCH(Params, params);
    QFETCH(bool, cosine);
    QFETCH(QString, style);
    QFETCH(QString, grid);
    // Under a sanitizer, every style and both tables, each style's grids past pi and FLUX.2's four
    // axes: the plain Qwen grids and FLUX.1's three axes repeat those paths at 9 of the 30 s.
    POSENC_UNDER_SANITIZER_ONLY_ROWS_WHERE(!QByteArray(QTest::currentDataTag()).startsWith("Qwen2-VL ViT")
                                           && !grid.startsWith(u"256x"_s) && !grid.startsWith(u"16x"_s));
    const Checked c = check(written(params, cosine));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.table, cosine ? u"rope2d-cos"_s : u"rope2d-sin"_s);
    QCOMPARE(c.match.family, std::optional(Encoding::Rope2d));
    QCOMPARE(c.match.verdict, CheckVerdict::Correct);
    QCOMPARE(word(c.match, u"style"_s), style);
    QCOMPARE(word(c.match, u"grid"_s), grid);
    QCOMPARE(number(c.match, u"base"_s), params.rope.theta);
    QCOMPARE(c.match.precision, std::optional(TablePrecision::Exact));
    QVERIFY(c.match.params.has_value());
    QCOMPARE(c.match.params->rope2d.style, params.rope2d.style);
    QCOMPARE(c.match.params->sincos2d.grid, params.sincos2d.grid);
    if (params.rope2d.style == Rope2dStyle::Flux)
        QCOMPARE(c.match.params->rope2d.axesDim, params.rope2d.axesDim);
    if (params.rope2d.style == Rope2dStyle::QwenVit)
        QCOMPARE(c.match.params->mrope.spatialMergeSize, std::int64_t(2));
    QVERIFY2(c.verification.maxAbsError <= 2e-7, qPrintable(QString::number(c.verification.maxAbsError)));
}

void TestTableCheckRope2d::float32AnglesAreNamed()
{
    const Checked c = check(written(rope2d(Rope2dStyle::QwenVit, 80, 10000.0, 64, 64), true, true));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.table, u"rope2d-cos"_s);
    QVERIFY2(c.match.verdict == CheckVerdict::Correct,
             qPrintable(c.match.diagnosis + u" | "_s + c.match.deviations + u" | "_s
                        + QString::number(c.verification.deviationError) + u" at "_s
                        + QString::number(c.verification.deviationRow) + u","_s
                        + QString::number(c.verification.deviationColumn)));
    QCOMPARE(c.match.precision, std::optional(TablePrecision::Float32Angles));
}

// The Qwen ViT's frequencies with its patches row by row (spatial_merge_size 1): no Qwen-VL model's
// order (all merge 2 x 2), so a variant, never correct (ServiceNow/Fast-LLM#401).
void TestTableCheckRope2d::rowByRowIsNoQwenModels()
{
    Params p = rope2d(Rope2dStyle::QwenVit, 64, 10000.0, 8, 12);
    p.mrope.spatialMergeSize = 1;
    const Checked c = check(written(p, true));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.table, u"rope2d-cos"_s);
    QCOMPARE(word(c.match, u"style"_s), u"qwen-vit"_s);
    QCOMPARE(c.match.verdict, CheckVerdict::Variant);
    QVERIFY(c.match.params.has_value());
    QCOMPARE(c.match.params->mrope.spatialMergeSize, std::int64_t(1));
    QCOMPARE(c.verification.deviatingCells, std::int64_t(0));
}

void TestTableCheckRope2d::aChangedCellIsFound()
{
    RowMatrixXf t = written(rope2d(Rope2dStyle::Pixtral, 64, 10000.0, 16, 16), true);
    t(100, 7) = 0.5f;
    const Checked c = check(t);
    QCOMPARE(c.match.table, u"rope2d-cos"_s);
    QVERIFY(c.match.verdict != CheckVerdict::Correct);
    QCOMPARE(c.verification.worstRow, std::int64_t(100));
    QCOMPARE(c.verification.worstColumn, std::int64_t(7));
}

void TestTableCheckRope2d::aRopeTableIsRopes()
{
    // HF's 1-D rotary cos table, rotate_half: every pair turns at position 1.
    const Checked c = check(table(1024, 64, [](std::int64_t p, std::int64_t j) {
        return std::cos(double(p) / std::pow(10000.0, double(2 * (j % 32)) / 64.0));
    }));
    QCOMPARE(c.match.table, u"rope-cos"_s);
}

// A declared grid whose table's rows are another grid's: the words follow the grid fitted. The
// declared 16 x 24 grid read as 24 x 16 (its height and width exchanged, as timm's
// build_rotary_pos_embed with grid_indexing='xy' made them before pytorch-image-models#2541) is
// told as exchanged, never as candle's cut; the first 384 patches of a 12 x 32 grid (a wider grid
// cut to the patch count, huggingface/candle#2678) as that.
void TestTableCheckRope2d::anotherGridIsToldByItsFit()
{
    const Params declared = rope2d(Rope2dStyle::Axial, 64, 10000.0, 16, 24);
    for (const auto &[h, w, exchanged] : {std::tuple {24, 16, true}, std::tuple {12, 32, false}}) {
        const MatrixRows rows(
            std::make_shared<const RowMatrixXf>(written(rope2d(Rope2dStyle::Axial, 64, 10000.0, h, w), true)),
            StoredType::Float32, u"test"_s);
        const Checked c = concluded(rows, TableCheck::expect(rows, Encoding::Rope2d, declared, u"rope2d-cos"_s));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.match.mistakes, QStringList {u"rope2d-positions"_s});
        QVERIFY2(c.match.diagnosis.contains(u"a grid %1 patches wide"_s.arg(w)), qPrintable(c.match.diagnosis));
        QCOMPARE(c.match.diagnosis.contains(u"height and width exchanged"_s), exchanged);
        QCOMPARE(c.match.diagnosis.contains(u"candle#2678"_s), !exchanged);
    }
}

POSENC_TEST_GUILESS_MAIN(TestTableCheckRope2d)
} // namespace tst_tablecheckrope2d
#include "tst_tablecheckrope2d.moc"
