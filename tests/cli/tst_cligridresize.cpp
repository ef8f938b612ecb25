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
// - the rows left row-major (the merge permute forgotten): with --spatial-merge-size 2 declared
//   merge-blocks-lost, never correct; with no model declared a variant that says so (a grid alone does
//   not say how a model lists its patches: REPORT-r28a finding 7), with 1 declared correct; of a
//   15 x 21 patch grid, which no merge block of 2 fits, a variant (spatial_merge_size 1);
// - a bicubic resize (DINOv2's interpolate_pos_encoding: F.interpolate(mode="bicubic",
//   align_corners=False), models/dinov2/modeling_dinov2.py), written here from float64 as ATen's
//   upsample_bicubic2d computes it (cubic convolution, A = −0.75, source (i + 0.5) n / h − 0.5, the
//   taps clamped to the grid): read as that resize, a variant of the declared grid with its method
//   named; a table no resize explains refused as no resize of the grid, never as "of one
//   shape";
// - the grid read transposed before the resize: grid-axes-swapped, not refused.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/CubicWeights.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

namespace tst_cligridresize {
using namespace Qt::StringLiterals;

class TestCliGridResize : public QObject
{
    Q_OBJECT

    using Checked = CliCheck::Checked;

    static QString data(const QString &name) { return QFINDTESTDATA(u"../data/gridresize/"_s + name); }

    static Checked check(const QString &table, const QString &grid, const QStringList &more = {})
    {
        return CliCheck::checkFile(table, QStringList {u"--expect-table"_s, grid} + more);
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
        const Checked c = check(data(u"rowmajor.npy"_s), data(u"grid.npy"_s), {u"--spatial-merge-size"_s, u"2"_s});
        QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"merge-blocks-lost"_s}, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"56 x 40 patches"_s), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"row-major"_s), qPrintable(c.shown));
        // No model declared: the row-major resize is a variant that names what a merge size of 2 makes it.
        const Checked undeclared = check(data(u"rowmajor.npy"_s), data(u"grid.npy"_s));
        QVERIFY2(undeclared.exit == 5 && undeclared.verdict() == u"variant"_s, qPrintable(undeclared.shown));
        QVERIFY2(undeclared.diagnosis().contains(u"--spatial-merge-size 2"_s), qPrintable(undeclared.shown));
        // A model that lists its patches row-major (spatial_merge_size 1): correct.
        const Checked one = check(data(u"rowmajor.npy"_s), data(u"grid.npy"_s), {u"--spatial-merge-size"_s, u"1"_s});
        QVERIFY2(one.exit == 0 && one.verdict() == u"correct"_s, qPrintable(one.shown));
    }

    // An 8 x 8 grid of 4 columns (float64 formula) resized bicubically to 12 x 12 patches.
    void bicubicResizeIsReadAsOne()
    {
        const int n = 8, h = 12, d = 4;
        std::vector<double> grid;
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                for (int c = 0; c < d; ++c)
                    grid.push_back(std::sin(0.7 * y + 0.3 * c) * std::cos(0.45 * x - 0.2 * c) + 0.1 * c);
        const auto at = [&](int y, int x, int c) {
            y = std::clamp(y, 0, n - 1);
            x = std::clamp(x, 0, n - 1);
            return grid[std::size_t((y * n + x) * d + c)];
        };
        std::vector<double> table;
        const double scale = double(n) / double(h);
        for (int i = 0; i < h; ++i)
            for (int j = 0; j < h; ++j) {
                const double ry = scale * (i + 0.5) - 0.5, rx = scale * (j + 0.5) - 0.5;
                const int y0 = int(std::floor(ry)), x0 = int(std::floor(rx));
                double wy[4], wx[4];
                resizeref::cubicWeights(ry - y0, -0.75, wy);
                resizeref::cubicWeights(rx - x0, -0.75, wx);
                for (int c = 0; c < d; ++c) {
                    double v = 0.0;
                    for (int a = 0; a < 4; ++a)
                        for (int b = 0; b < 4; ++b)
                            v += wy[a] * wx[b] * at(y0 - 1 + a, x0 - 1 + b, c);
                    table.push_back(v);
                }
            }
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString g = CliCheck::write(dir, u"grid.npy"_s, npy({n * n, d}, grid));
        const QString t = CliCheck::write(dir, u"bicubic.npy"_s, npy({h * h, d}, table));
        const Checked c = check(t, g);
        QVERIFY2(c.exit == 5 && c.verdict() == u"variant"_s && c.diagnosis().contains(u"bicubic"_s),
                 qPrintable(c.shown));
        // The same cells but one, moved past any resize's rounding: no resize of the grid, refused.
        table[5] += 0.5;
        const QString off = CliCheck::write(dir, u"off.npy"_s, npy({h * h, d}, table));
        const CliRun::Run run = CliRun::posenc({u"check"_s, off, u"--expect-table"_s, g});
        QVERIFY2(run.exitCode == 2, qPrintable(run.out + run.err));
        QVERIFY2(run.err.contains(u"no bilinear resize of the grid"_s) && run.err.contains(u"bicubic"_s)
                     && !run.err.contains(u"of one shape"_s),
                 qPrintable(run.out + run.err));
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

POSENC_TEST_GUILESS_MAIN(TestCliGridResize)
} // namespace tst_cligridresize
#include "tst_cligridresize.moc"
