// posenc check --expect-table of a learned n x n grid (GridResize): a table that is the grid resized
// to a patch grid as Qwen3-VL's Qwen3VLVisionModel.fast_pos_embed_interpolate does it
// (huggingface/transformers, models/qwen3_vl/modeling_qwen3_vl.py: bilinear at
// torch.linspace(0, n - 1, h) in float32, the patches in 2 x 2 merge blocks, repeated per frame) is
// correct; the same grid resized by F.interpolate(..., mode="bilinear", align_corners=False)
// (upsample_bilinear2d's source index scale * (i + 0.5) - 0.5, at least 0) is the mistake
// resized-without-align-corners. Both written here in float64 from those formulas, at a small size
// and at 102,400 patches.
#include "CheckTables.h"
#include "support/TestMain.h"

#include "check/GridResize.h"
#include "check/TableAgainstTable.h"
#include "check/TableCheck.h"

#include <QtTest>

#include <cmath>
#include <random>

namespace tst_gridresize {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

// A learned grid: smooth in both directions, as trained position embeddings are.
RowMatrixXf learnedGrid(std::int64_t n, std::int64_t d, unsigned seed)
{
    std::mt19937 engine(seed);
    std::uniform_real_distribution<double> phase(0.0, 6.283185307179586);
    std::vector<double> a(static_cast<std::size_t>(d)), b(static_cast<std::size_t>(d));
    for (std::int64_t j = 0; j < d; ++j) {
        a[std::size_t(j)] = phase(engine);
        b[std::size_t(j)] = phase(engine);
    }
    RowMatrixXf g(n * n, d);
    for (std::int64_t y = 0; y < n; ++y)
        for (std::int64_t x = 0; x < n; ++x)
            for (std::int64_t j = 0; j < d; ++j)
                g(y * n + x, j) = float(0.02 * std::sin(0.3 * double(y) + a[std::size_t(j)])
                                        * std::cos(0.2 * double(x) * double(j % 5 + 1) + b[std::size_t(j)]));
    return g;
}

// Where output i of `steps` samples an axis of n: torch.linspace(0, n - 1, steps) in float32 (its
// CPU kernel: start + step * i below the middle, end - step * (steps - 1 - i) from it), or
// F.interpolate's scale * (i + 0.5) - 0.5 with scale = n / steps in float32, clamped at 0.
float coordinate(std::int64_t i, std::int64_t n, std::int64_t steps, bool alignCorners)
{
    if (alignCorners) {
        if (steps == 1)
            return 0.0f;
        const float end = float(n - 1), step = end / float(steps - 1);
        return i < steps / 2 ? step * float(i) : end - step * float(steps - 1 - i);
    }
    const float scale = float(n) / float(steps);
    return std::max(scale * (float(i) + 0.5f) - 0.5f, 0.0f);
}

// The grid resized to h x w patches, listed `frames` times in merge blocks of m.
RowMatrixXf resized(const RowMatrixXf &grid, std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t m,
                    std::int64_t frames, bool alignCorners)
{
    const std::int64_t d = grid.cols();
    RowMatrixXf out(frames * h * w, d);
    std::int64_t row = 0;
    for (std::int64_t f = 0; f < frames; ++f)
        for (std::int64_t by = 0; by < h / m; ++by)
            for (std::int64_t bx = 0; bx < w / m; ++bx)
                for (std::int64_t iy = 0; iy < m; ++iy)
                    for (std::int64_t ix = 0; ix < m; ++ix, ++row) {
                        const float cy = coordinate(by * m + iy, n, h, alignCorners);
                        const float cx = coordinate(bx * m + ix, n, w, alignCorners);
                        const std::int64_t y0 = std::min<std::int64_t>(std::int64_t(cy), n - 1);
                        const std::int64_t x0 = std::min<std::int64_t>(std::int64_t(cx), n - 1);
                        const std::int64_t y1 = std::min(y0 + 1, n - 1), x1 = std::min(x0 + 1, n - 1);
                        const double dy = double(cy - float(y0)), dx = double(cx - float(x0));
                        for (std::int64_t j = 0; j < d; ++j)
                            out(row, j) = float(
                                (1 - dy) * (1 - dx) * grid(y0 * n + x0, j) + (1 - dy) * dx * grid(y0 * n + x1, j)
                                + dy * (1 - dx) * grid(y1 * n + x0, j) + dy * dx * grid(y1 * n + x1, j));
                    }
    return out;
}

Checked againstGrid(RowMatrixXf table, RowMatrixXf grid)
{
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(std::move(table)), StoredType::Float32, u"port"_s);
    auto reference = std::make_shared<const MatrixRows>(std::make_shared<const RowMatrixXf>(std::move(grid)),
                                                        StoredType::Float32, u"pos_embed"_s);
    auto found = TableCheck::expectTable(rows, reference);
    if (const auto *refused = std::get_if<TableCheck::TableRefusal>(&found))
        return concluded(rows, refused->message);
    return concluded(rows, std::get<TableMatch>(std::move(found)));
}

} // namespace

class TestGridResize : public QObject
{
    Q_OBJECT

private slots:
    void resizes_data();
    void resizes();
    void aTableNoResizeGivesIsRefused();
};

void TestGridResize::resizes_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<qint64>("h");
    QTest::addColumn<qint64>("w");
    QTest::addColumn<qint64>("merge");
    QTest::addColumn<qint64>("frames");
    QTest::addColumn<bool>("alignCorners");
    QTest::newRow("8 x 8 to 12 x 20, merge 2, align_corners")
        << qint64(8) << qint64(12) << qint64(20) << qint64(2) << qint64(1) << true;
    QTest::newRow("8 x 8 to 12 x 20, merge 2, without")
        << qint64(8) << qint64(12) << qint64(20) << qint64(2) << qint64(1) << false;
    QTest::newRow("16 x 16 down to 6 x 10, 3 frames, without")
        << qint64(16) << qint64(6) << qint64(10) << qint64(2) << qint64(3) << false;
    QTest::newRow("48 x 48 to 320 x 320 (102,400 patches), align_corners")
        << qint64(48) << qint64(320) << qint64(320) << qint64(2) << qint64(1) << true;
    QTest::newRow("48 x 48 to 320 x 320 (102,400 patches), without")
        << qint64(48) << qint64(320) << qint64(320) << qint64(2) << qint64(1) << false;
}

void TestGridResize::resizes()
{
    QFETCH(qint64, n);
    QFETCH(qint64, h);
    QFETCH(qint64, w);
    QFETCH(qint64, merge);
    QFETCH(qint64, frames);
    QFETCH(bool, alignCorners);
    const RowMatrixXf grid = learnedGrid(n, 32, 7);
    const Checked c = againstGrid(resized(grid, n, h, w, merge, frames, alignCorners), grid);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    const QString shape = u"resized to %1 x %2 patches"_s.arg(h).arg(w);
    QVERIFY2(c.match.referenceText.contains(shape), qPrintable(c.match.referenceText));
    if (alignCorners) {
        QVERIFY2(c.match.verdict == CheckVerdict::Correct,
                 qPrintable(c.match.diagnosis + u" | "_s + c.match.deviations));
        QCOMPARE(c.verification.deviatingCells, std::int64_t(0));
        return;
    }
    QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
    QCOMPARE(c.match.mistakes, QStringList {GridResize::kWithoutAlignCorners});
    QVERIFY2(c.match.diagnosis.contains(u"without align_corners"_s), qPrintable(c.match.diagnosis));
    // Streamed against fast_pos_embed_interpolate's resize: the cells deviate.
    QVERIFY(c.verification.deviatingCells > 0);
}

void TestGridResize::aTableNoResizeGivesIsRefused()
{
    const RowMatrixXf grid = learnedGrid(8, 16, 3);
    RowMatrixXf other = resized(learnedGrid(8, 16, 4), 8, 12, 20, 2, 1, true);
    const Checked c = againstGrid(other, grid);
    // Refused as no bilinear resize of the grid (REPORT-r28a finding 7), not as tables of two shapes.
    QVERIFY2(c.error.contains(u"no bilinear resize of the grid"_s), qPrintable(c.error));
}

POSENC_TEST_GUILESS_MAIN(TestGridResize)
} // namespace tst_gridresize
#include "tst_gridresize.moc"
