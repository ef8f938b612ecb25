// posenc check --expect-table of a learned n x n grid against tables resized from it (issue 56;
// REPORT-r27a finding 5), each recorded with torch by tests/data/make_grid_resize_fixture.py as
// huggingface/transformers' models/qwen3_vl/modeling_qwen3_vl.py,
// Qwen3VLVisionModel.fast_pos_embed_interpolate computes it (bilinear at linspace(0, n - 1, h),
// the patches in 2 x 2 merge blocks), or as a port gets it wrong:
// - the grid resized to its own n x n patches (linspace(0, n - 1, n) is the identity) in merge
//   blocks: equal shapes, every row another patch's: the resize, correct (not a cell-by-cell mistake);
// - the resize computed in bfloat16 (weight_tensor in pos_embed.weight.dtype: the weights, the
//   products and the sum rounded to it): correct at bfloat16's rounding, not refused; torch 1.13's
//   F.interpolate(align_corners=False) of the bfloat16 grid (its source positions rounded to
//   bfloat16 too, cells up to 0.0057 off the float32 resize's) never correct;
// - the rows left row-major (the merge permute forgotten): merge-blocks-lost, never correct; of a
//   15 x 21 patch grid, which no merge block of 2 fits, a variant (spatial_merge_size 1);
// - the grid read transposed before the resize: grid-axes-swapped, not refused.
#include "CliCheckRun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace Qt::StringLiterals;

class TestCliGridResize : public QObject
{
    Q_OBJECT

    using Checked = CliCheck::Checked;

    static QString data(const QString &name) { return QFINDTESTDATA(u"../data/gridresize/"_s + name); }

    static Checked check(const QString &table, const QString &grid)
    {
        return CliCheck::checkFile(table, {u"--expect-table"_s, grid});
    }

private slots:
    void initTestCase()
    {
        for (const QString &name : {u"grid.npy"_s, u"equal.npy"_s, u"rowmajor.npy"_s, u"odd.npy"_s, u"transposed.npy"_s,
                                    u"grid_bf16.safetensors"_s, u"bf16.safetensors"_s, u"bf16_buggy.safetensors"_s})
            QVERIFY2(!data(name).isEmpty(), qPrintable(name));
    }

    // 24 x 24 grid, 24 x 24 patches in merge blocks: the same shape, the resize's rows.
    void equalShapeIsTheResize()
    {
        const Checked c = check(data(u"equal.npy"_s), data(u"grid.npy"_s));
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"merge blocks of 2"_s), qPrintable(c.shown));
        // The grid itself, row for row, stays the reference table's.
        const Checked same = check(data(u"grid.npy"_s), data(u"grid.npy"_s));
        QVERIFY2(same.exit == 0 && same.verdict() == u"correct"_s, qPrintable(same.shown));
    }

    // bfloat16 throughout, against the bfloat16 grid and the float32 one.
    void bf16ComputedResizeIsRead()
    {
        for (const QString &grid : {data(u"grid_bf16.safetensors"_s) + u":t"_s, data(u"grid.npy"_s)}) {
            const Checked fixed = check(data(u"bf16.safetensors"_s) + u":t"_s, grid);
            QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
            const Checked buggy = check(data(u"bf16_buggy.safetensors"_s) + u":t"_s, grid);
            QVERIFY2(buggy.exit != 0 && buggy.verdict() != u"correct"_s, qPrintable(buggy.shown));
        }
    }

    void mergePermuteForgottenIsNamed()
    {
        const Checked c = check(data(u"rowmajor.npy"_s), data(u"grid.npy"_s));
        QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"merge-blocks-lost"_s}, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"56 x 40 patches"_s), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"row-major"_s), qPrintable(c.shown));
    }

    // 15 x 21 patches take no merge blocks of 2: the row-major resize is spatial_merge_size 1's, a
    // variant (no Qwen3-VL config has it), neither correct nor a mistake.
    void oddGridRowMajorIsAVariant()
    {
        const Checked c = check(data(u"odd.npy"_s), data(u"grid.npy"_s));
        QVERIFY2(c.exit == 5 && c.verdict() == u"variant"_s, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"spatial_merge_size 1"_s), qPrintable(c.shown));
    }

    void transposedGridIsNamed()
    {
        const Checked c = check(data(u"transposed.npy"_s), data(u"grid.npy"_s));
        QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"grid-axes-swapped"_s}, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"read transposed"_s), qPrintable(c.shown));
    }
};

QTEST_GUILESS_MAIN(TestCliGridResize)
#include "tst_cligridresize.moc"
