#include "GridResize.h"

#include "check/CellTolerance.h"
#include "check/CheckDiagnosis.h"
#include "check/SampleScore.h"
#include "check/TableSample.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::GridResize {

namespace {

// The cells the table's sample reads at most, and the layouts tried at most.
constexpr std::int64_t kSampleCells = std::int64_t(1) << 20;
constexpr std::size_t kMostLayouts = 4096;

// Where each of `steps` outputs samples an axis of `n`: the grid indices it reads and their weights,
// in float32 where torch computes them so.
struct Taps
{
    std::vector<std::vector<std::pair<std::int64_t, double>>> at;
};

// Bilinear (upsample_bilinear2d), or at align_corners torch.linspace(0, n - 1, steps) as
// fast_pos_embed_interpolate samples: two indices, the weight of the second the position's fraction.
Taps bilinearTaps(std::int64_t n, std::int64_t steps, bool alignCorners)
{
    Taps taps;
    for (std::int64_t i = 0; i < steps; ++i) {
        float x = 0.0f;
        if (alignCorners && steps > 1) {
            // torch.linspace(0, n - 1, steps) (ATen's kernel: from the start below the middle,
            // from the end after it), then .int() and idx - floor.
            const float end = float(n - 1), step = end / float(steps - 1);
            x = i < steps / 2 ? step * float(i) : end - step * float(steps - i - 1);
        } else if (!alignCorners) {
            // upsample_bilinear2d: area_pixel_compute_source_index, scale * (i + 0.5) - 0.5, at least 0.
            const float scale = float(n) / float(steps);
            x = std::max(scale * (float(i) + 0.5f) - 0.5f, 0.0f);
        }
        const std::int64_t lo = std::min<std::int64_t>(std::int64_t(x), n - 1);
        const std::int64_t hi = std::min<std::int64_t>(lo + 1, n - 1);
        const double frac = std::clamp(double(x - float(lo)), 0.0, 1.0);
        taps.at.push_back({{lo, 1.0 - frac}, {hi, frac}});
    }
    return taps;
}

// F.interpolate(mode="bicubic", align_corners=False) at a size (pytorch/pytorch,
// aten/src/ATen/native/UpSample.h: area_pixel_compute_source_index with cubic=true, so no clamp at
// 0; get_cubic_upsample_coefficients with A = -0.75; upsample_get_value_bounded clamps the four
// indices floor(x) - 1 .. floor(x) + 2 to the grid).
// `a` -0.5 is Keys' cubic, a port's own kernel (mlx-vlm's bicubic_interpolate before mlx-vlm#1241).
Taps bicubicTaps(std::int64_t n, std::int64_t steps, double a = -0.75)
{
    const auto near1 = [a](double x) { return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0; };
    const auto near2 = [a](double x) { return ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a; };
    Taps taps;
    const float scale = float(n) / float(steps);
    for (std::int64_t i = 0; i < steps; ++i) {
        const float x = scale * (float(i) + 0.5f) - 0.5f;
        const auto floor = std::int64_t(std::floor(x));
        const double t = double(x) - double(floor);
        const double w[4] = {near2(t + 1.0), near1(t), near1(1.0 - t), near2(2.0 - t)};
        std::vector<std::pair<std::int64_t, double>> at;
        for (int k = 0; k < 4; ++k)
            at.emplace_back(std::clamp<std::int64_t>(floor - 1 + k, 0, n - 1), w[k]);
        taps.at.push_back(std::move(at));
    }
    return taps;
}

// F.interpolate(mode="bicubic", antialias=True) (timm's resample_abs_pos_embed): ATen's
// _upsample_bicubic2d_aa, PIL's filter with a = -0.5 over the support 2 (times the scale when
// shrinking) around scale (i + 0.5), the weights normalised to sum 1 (UpSampleKernel.cpp,
// HelperInterpBase::_compute_indices_min_size_weights_aa).
Taps bicubicAntialiasTaps(std::int64_t n, std::int64_t steps)
{
    constexpr double a = -0.5;
    const auto filter = [](double x) {
        x = std::fabs(x);
        if (x < 1.0)
            return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
        return x < 2.0 ? (((x - 5.0) * x + 8.0) * x - 4.0) * a : 0.0;
    };
    const double scale = double(n) / double(steps);
    const double support = scale >= 1.0 ? 2.0 * scale : 2.0;
    const double invscale = scale >= 1.0 ? 1.0 / scale : 1.0;
    Taps taps;
    for (std::int64_t i = 0; i < steps; ++i) {
        const double center = scale * (double(i) + 0.5);
        const std::int64_t lo = std::max<std::int64_t>(std::int64_t(center - support + 0.5), 0);
        const std::int64_t size = std::min<std::int64_t>(std::int64_t(center + support + 0.5), n) - lo;
        std::vector<std::pair<std::int64_t, double>> at;
        double total = 0.0;
        for (std::int64_t j = 0; j < size; ++j) {
            const double w = filter((double(j + lo) - center + 0.5) * invscale);
            at.emplace_back(lo + j, w);
            total += w;
        }
        for (auto &tap : at)
            tap.second = total != 0.0 ? tap.second / total : 0.0;
        taps.at.push_back(std::move(at));
    }
    return taps;
}

// F.interpolate(mode="nearest"): the grid index min(floor(i · n / steps), n − 1).
Taps nearestTaps(std::int64_t n, std::int64_t steps)
{
    Taps taps;
    const float scale = float(n) / float(steps);
    for (std::int64_t i = 0; i < steps; ++i)
        taps.at.push_back({{std::min<std::int64_t>(std::int64_t(std::floor(float(i) * scale)), n - 1), 1.0}});
    return taps;
}

Taps tapsOf(std::int64_t n, std::int64_t steps, const Layout &l)
{
    switch (l.method) {
    case Method::Bicubic:
        return bicubicTaps(n, steps);
    case Method::BicubicAntialias:
        return bicubicAntialiasTaps(n, steps);
    case Method::Nearest:
        return nearestTaps(n, steps);
    case Method::BicubicKeys:
        return bicubicTaps(n, steps, -0.5);
    case Method::Bilinear:
        break;
    }
    return bilinearTaps(n, steps, l.alignCorners);
}

// How far a faithful float32 resize's sampling position may be from tapsOf's, in grid units: four
// units in the last place of the largest position, n − 1. torch's linspace is computed in float32
// as start + step · i below the middle and end − step · (steps − 1 − i) from it (pytorch/pytorch,
// aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp, linspace_kernel, the scalar lambda), but
// torch 1.13's CPU kernel also ran a vectorised lambda, Vectorized::arange(base, step), that adds
// step · k to each block's base: torch 1.13.0 linspace(0, 47, 80) differs from the scalar form by
// 3.8e-6 (one unit of 47), a cell of a 48 x 48 grid resized with it by up to 4.5e-7; and
// upsample_bilinear2d's scale * (i + 0.5) - 0.5 is rounded as its kernel's opmath type gives it.
double positionSlack(std::int64_t n)
{
    return 4.0 * std::ldexp(1.0, std::ilogb(double(std::max<std::int64_t>(n - 1, 1))) - 23);
}

// The largest difference between two grid rows next to each other along one axis (`stride` n:
// down the grid's rows; 1: along them), over every column: what a cell moves per grid unit there.
double largestStep(const RowMatrixXf &grid, std::int64_t n, std::int64_t stride)
{
    double step = 0.0;
    for (std::int64_t y = 0; y < n; ++y) {
        for (std::int64_t x = 0; x < n; ++x) {
            const std::int64_t at = y * n + x;
            if ((stride == 1 && x + 1 >= n) || (stride != 1 && y + 1 >= n))
                continue;
            step = std::max(step, double((grid.row(at + stride) - grid.row(at)).cwiseAbs().maxCoeff()));
        }
    }
    return step;
}

// The resized table: row r is patch (row, column) of frame r / (h w), listed in merge blocks.
class ResizeReference final : public TableReference
{
public:
    ResizeReference(std::shared_ptr<const RowMatrixXf> grid, const Layout &layout)
        : m_grid(std::move(grid))
        , m_layout(layout)
        , m_rows(tapsOf(layout.n, layout.h, layout))
        , m_columns(tapsOf(layout.n, layout.w, layout))
    { }

    std::int64_t cols() const override { return m_grid->cols(); }
    bool compared(std::int64_t) const override { return true; }
    std::int64_t position(std::int64_t row) const override { return row; }

    void forEachTile(const Block &block, const TileSink &sink) const override
    {
        constexpr std::int64_t kTileRows = 16;
        RowMatrixXf values(kTileRows, std::max<std::int64_t>(block.cols, 1));
        for (std::int64_t r0 = block.row0; r0 < block.rowEnd(); r0 += kTileRows) {
            const std::int64_t n = std::min(kTileRows, block.rowEnd() - r0);
            for (std::int64_t r = 0; r < n; ++r)
                fillRow(r0 + r, block.col0, block.cols, values.row(r).data());
            sink(Tile {r0, n, block.col0, block.cols, values.data(), values.cols()});
        }
    }

    const Layout &layout() const { return m_layout; }

private:
    void fillRow(std::int64_t row, std::int64_t col0, std::int64_t cols, float *out) const
    {
        const Layout &l = m_layout;
        if (row < l.prefix) { // a [CLS] row, the grid's own
            for (std::int64_t c = 0; c < cols; ++c)
                out[c] = (*m_grid)(row, col0 + c);
            return;
        }
        row -= l.prefix;
        const std::int64_t m = l.merge, patch = row % (l.h * l.w), block = patch / (m * m);
        const std::int64_t y = (block / (l.w / m)) * m + (patch % (m * m)) / m;
        const std::int64_t x = (block % (l.w / m)) * m + patch % m;
        // The grid's row of point (y, x): y·n + x, or read transposed x·n + y.
        const auto at = [n = l.n, t = l.transposed, p = l.prefix](std::int64_t gy, std::int64_t gx) {
            return p + (t ? gx * n + gy : gy * n + gx);
        };
        const auto &ys = m_rows.at[std::size_t(y)];
        const auto &xs = m_columns.at[std::size_t(x)];
        for (std::int64_t c = 0; c < cols; ++c) {
            double v = 0.0;
            for (const auto &[gy, wy] : ys) {
                for (const auto &[gx, wx] : xs)
                    v += wy * wx * double((*m_grid)(at(gy, gx), col0 + c));
            }
            out[c] = float(v);
        }
    }

    std::shared_ptr<const RowMatrixXf> m_grid;
    Layout m_layout;
    Taps m_rows, m_columns;
};

// The layouts of `rows` patches: frames first one, merge `merge` (the declared spatial_merge_size, else
// Qwen3-VL's 2) then 1; the grid read as it is, then transposed.
std::vector<Layout> layoutsOf(std::int64_t n, std::int64_t rows, bool transposed, std::int64_t merge)
{
    std::vector<Layout> out;
    for (const std::int64_t m : merge > 1 ? std::vector<std::int64_t> {merge, 1} : std::vector<std::int64_t> {1}) {
        for (std::int64_t t = 1; t <= rows && out.size() < kMostLayouts; ++t) {
            if (rows % t != 0)
                continue;
            const std::int64_t frame = rows / t;
            for (std::int64_t h = m; h <= frame && out.size() < kMostLayouts; h += m) {
                if (frame % h == 0 && (frame / h) % m == 0)
                    out.push_back({n, t, h, frame / h, m, true, transposed});
            }
        }
    }
    return out;
}

QString layoutWords(const Layout &l, const QString &grid)
{
    QString words = u"%1's %2 x %2 grid resized to %3 x %4 patches"_s.arg(grid).arg(l.n).arg(l.h).arg(l.w);
    if (l.merge > 1)
        words += u" in merge blocks of %1"_s.arg(l.merge);
    if (l.t > 1)
        words += u", %1 frames"_s.arg(l.t);
    if (l.prefix > 0)
        words += u", its [CLS] row kept first"_s;
    return words;
}

// Whether the patches could be listed in merge blocks of m > 1: h and w both multiples of it (Qwen3-VL's
// image processor makes them multiples of spatial_merge_size).
bool mergeable(const Layout &l, std::int64_t m)
{
    return m > 1 && l.h % m == 0 && l.w % m == 0;
}

// The resize a layout read from the table should have been: fast_pos_embed_interpolate's, at
// align_corners, the grid read as it is, in merge blocks of the declared spatial_merge_size where they
// fit; undeclared, listed as the table lists them (no model says how).
Layout referenceOf(Layout l, std::optional<std::int64_t> merge)
{
    l.alignCorners = true;
    l.transposed = false;
    l.method = Method::Bilinear;
    if (merge)
        l.merge = mergeable(l, *merge) ? *merge : 1;
    return l;
}

// The table's values' format where narrower than float32: a resize computed in bfloat16 or
// float16, in the grid's dtype, whose every weight, product and sum is rounded to it.
ValueFormat halfFormat(const TableRows &table, const TableSample &sample)
{
    const ValueFormat stored = storedFormat(table.storedType());
    if (stored != ValueFormat::Float32 || table.storedType() == StoredType::Integer)
        return stored;
    return representableFormat(sample.values.data(), sample.values.size());
}

// The words of a resize's method.
QString howOf(const Layout &l)
{
    switch (l.method) {
    case Method::Bicubic:
        return u"F.interpolate(..., mode=\"bicubic\", align_corners=False) (A = -0.75), as transformers' "
               "interpolate_pos_encoding (ViT, DINOv2) resizes a position embedding"_s;
    case Method::BicubicAntialias:
        return u"F.interpolate(..., mode=\"bicubic\", antialias=True) (A = -0.5, PIL's kernel), as timm's "
               "resample_abs_pos_embed resizes a position embedding"_s;
    case Method::Nearest:
        return u"F.interpolate(..., mode=\"nearest\"), each patch the grid's row at floor(i n / h)"_s;
    case Method::BicubicKeys:
        return u"a bicubic of A = -0.5 (Keys' cubic) without antialias, a port's own kernel (torch's "
               "mode=\"bicubic\" takes A = -0.75: mlx-vlm#1241)"_s;
    case Method::Bilinear:
        break;
    }
    return l.alignCorners ? u"bilinear at linspace(0, n - 1, h) (align_corners=True)"_s
                          : u"F.interpolate(..., mode=\"bilinear\", align_corners=False)"_s;
}

// A resize of the grid by another method than fast_pos_embed_interpolate's bilinear one, listed
// row-major: ViT's interpolation of its position embeddings to another image size, a variant of the
// declared grid with the method named, streamed against that resize.
TableMatch otherMethod(TableMatch m, const Layout &read, const std::shared_ptr<const RowMatrixXf> &values,
                       const QString &grid)
{
    m.reference = std::make_shared<const ResizeReference>(values, read);
    m.referenceText = layoutWords(read, grid) + u" by "_s + howOf(read);
    m.verdict = CheckVerdict::Variant;
    m.mistakes.clear();
    m.diagnosis = u"every cell equals %1 within the rounding: a resize of the declared grid, not the grid itself "
                  "(a form of it for another image size; the declared grid, or a table of the grid's own "
                  "%2 x %2 rows, is what a check at its own size compares)"_s.arg(m.referenceText)
                      .arg(read.n);
    return m;
}

// Against a declared resize (--resize-method): the table resized by the declared method is correct
// against it; by another, the mistake resize-method, streamed against the declared method's resize of
// the same patches (the table's own resize the reading, TableMatch::asRead).
TableMatch declaredMatch(TableMatch m, const Layout &read, const std::shared_ptr<const RowMatrixXf> &values,
                         const QString &grid, const DeclaredResize &declared)
{
    Layout want = read;
    want.method = declared.method;
    want.alignCorners = declared.method == Method::Bilinear && declared.alignCorners;
    m.reference = std::make_shared<const ResizeReference>(values, want);
    m.referenceText = layoutWords(want, grid) + u" by "_s + howOf(want);
    m.mistakes.clear();
    if (want.method == read.method && want.alignCorners == read.alignCorners) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = CheckDiagnosis::declaredReference(m.referenceText);
        m.diagnosis = u"every cell equals %1 within the rounding"_s.arg(m.referenceText);
        return m;
    }
    m.verdict = CheckVerdict::Mistake;
    m.mistakes = {kResizeMethod};
    m.asRead = std::make_shared<const ResizeReference>(values, read);
    m.asReadTolerance = m.tolerance;
    m.diagnosis = u"%1 by %2, where the declaration (--resize-method) gives %3"_s.arg(layoutWords(read, grid),
                                                                                      howOf(read), howOf(want));
    return m;
}

// The match of a table `read` explains, compared with the resize it should be (referenceOf).
TableMatch matchOf(const Layout &read, const std::shared_ptr<const RowMatrixXf> &values, const QString &grid,
                   const CellTolerance &tolerance, std::optional<std::int64_t> merge,
                   std::optional<DeclaredResize> declared)
{
    const Layout want = referenceOf(read, merge);
    TableMatch m;
    m.positionOffset = 0;
    m.firstPositionRow = 0;
    m.tolerance = tolerance;
    // A declared resize names another method; fast_pos_embed_interpolate's own, declared, reads as below
    // (resized-without-align-corners for F.interpolate's bilinear default).
    const bool declaredOwn
        = declared && declared->method == Method::Bilinear && declared->alignCorners && read.method == Method::Bilinear;
    if (declared && !declaredOwn && !read.transposed)
        return declaredMatch(std::move(m), read, values, grid, *declared);
    if (read.method != Method::Bilinear)
        return otherMethod(std::move(m), read, values, grid);
    m.reference = std::make_shared<const ResizeReference>(values, want);
    m.referenceText = u"fast_pos_embed_interpolate: "_s + layoutWords(want, grid)
        + u", bilinear at linspace(0, n - 1, h) (align_corners)"_s;
    // The merge blocks lost only where a model's spatial_merge_size is declared (--spatial-merge-size):
    // a grid alone says nothing of how its patches are listed (REPORT-r28a finding 7).
    const bool mergeLost = merge && read.merge == 1 && mergeable(read, *merge);
    const bool otherMerge = merge && read.merge > 1 && read.merge != want.merge;
    if (read.alignCorners && !read.transposed && !mergeLost && !otherMerge) {
        // Row-major: spatial_merge_size 1, which no Qwen3-VL config has, where none was declared.
        m.verdict = read.merge > 1 || merge == 1 ? CheckVerdict::Correct : CheckVerdict::Variant;
        if (m.verdict == CheckVerdict::Correct)
            m.correctAgainst = CheckDiagnosis::declaredReference(m.referenceText);
        m.diagnosis = u"every cell equals %1 within the rounding"_s.arg(m.referenceText);
        if (m.verdict == CheckVerdict::Variant && !merge && mergeable(read, 2))
            m.diagnosis
                += u", the patches row-major (spatial_merge_size 1, no model declared): Qwen3-VL's configs give "
                   "spatial_merge_size 2, whose fast_pos_embed_interpolate lists the patches in 2 x 2 merge "
                   "blocks, so with --spatial-merge-size 2 this table is merge-blocks-lost"_s;
        else if (m.verdict == CheckVerdict::Variant)
            m.diagnosis
                += u", the patches row-major (spatial_merge_size 1): %1 x %2 patches fit no merge blocks of %3, "
                   "which a model of spatial_merge_size %3 needs (Qwen3-VL's image processor makes h and w "
                   "multiples of it)"_s.arg(read.h)
                       .arg(read.w)
                       .arg(merge.value_or(2));
        return m;
    }
    m.verdict = CheckVerdict::Mistake;
    m.asRead = std::make_shared<const ResizeReference>(values, read);
    m.asReadTolerance = tolerance;
    QStringList said;
    if (read.transposed) {
        m.mistakes.append(CheckMistakes::kGridAxesSwapped);
        said.append(u"the grid read transposed, x and y exchanged: patch (y, x) takes the grid's point (x, y), row "
                    "x·n + y where fast_pos_embed_interpolate indexes h_idxs·n + w_idxs (the reference's grid read "
                    "transposed)"_s);
    }
    if (!read.alignCorners) {
        m.mistakes.append(kWithoutAlignCorners);
        said.append(u"without align_corners: every cell is F.interpolate(..., mode=\"bilinear\", "
                    "align_corners=False)'s, which samples the grid at (i + 0.5) n / h - 0.5, where Qwen3-VL's "
                    "fast_pos_embed_interpolate takes linspace(0, n - 1, h), the grid's corners on the patches' "
                    "corners"_s);
    }
    if (mergeLost) {
        m.mistakes.append(kMergeBlocksLost);
        said.append(u"the patches listed row-major where fast_pos_embed_interpolate lists them in %1 x %1 merge "
                    "blocks (view(t, h/m, m, w/m, m, -1).permute(0, 1, 3, 2, 4, 5), the declared spatial_merge_size "
                    "%1): the merge permute forgotten, so row r carries the embedding of another patch than the "
                    "r-th token's"_s.arg(*merge));
    }
    if (otherMerge)
        said.append(u"the patches listed in merge blocks of %1 where the declared spatial_merge_size %2 lists them "
                    "%3"_s.arg(read.merge)
                        .arg(*merge)
                        .arg(want.merge > 1 ? u"in blocks of %1"_s.arg(want.merge) : u"row-major"_s));
    m.diagnosis = u"%1: %2"_s.arg(layoutWords(read, grid), said.join(u"; "_s));
    return m;
}

// Whether a layout reads the grid row for row: the identity resize, listed row-major.
bool identity(const Layout &l)
{
    return l.t == 1 && l.h == l.n && l.w == l.n && l.merge == 1 && !l.transposed;
}

std::optional<std::variant<TableMatch, QString>> read(const TableRows &table, const TableRows &grid,
                                                      std::int64_t maxGridCells, bool skipIdentity,
                                                      std::optional<std::int64_t> merge,
                                                      std::optional<DeclaredResize> declared = std::nullopt)
{
    // A square grid, or one after a [CLS] row (ViT's, DINOv2's: 1 + n^2 rows, the first kept apart).
    std::int64_t prefix = 0;
    auto n = std::int64_t(std::llround(std::sqrt(double(grid.rows()))));
    if (n * n != grid.rows()) {
        prefix = 1;
        n = std::int64_t(std::llround(std::sqrt(double(grid.rows() - 1))));
    }
    if (n < 2 || n * n + prefix != grid.rows() || grid.cols() != table.cols() || table.rows() <= prefix)
        return std::nullopt;
    if (grid.rows() * grid.cols() > maxGridCells)
        return u"the grid %1 holds %2 cells, more than a resize is compared with (%3)"_s.arg(grid.name())
            .arg(grid.rows() * grid.cols())
            .arg(maxGridCells);
    auto cells = std::make_shared<RowMatrixXf>(grid.rows(), grid.cols());
    QString error;
    if (!grid.read(0, grid.rows(), cells->data(), error))
        return u"%1: %2"_s.arg(grid.name(), error);
    const std::shared_ptr<const RowMatrixXf> values = cells;
    const std::optional<TableSample> sample = readSample(table, kSampleCells, error);
    if (!sample)
        return error;
    const double largest = values->cwiseAbs().maxCoeff();
    const RowMatrixXf patches = values->bottomRows(n * n);
    // Within float32's rounding of a sum of four weighted rows of the grid: a few units of the
    // largest value, and the table's own format; and within where a faithful float32 resize samples
    // the grid (positionSlack). A table of bfloat16 or float16 values: the grid, each weight, each
    // product and each of the three sums rounded to that format, six roundings of at most the
    // largest value (the weights sum to 1), eight half units said.
    CellTolerance tolerance
        = cellTolerance(storedFormat(table.storedType()), StoredType::Float32, table.textRounding(), largest, 2.0);
    tolerance.absolute += 8.0 * std::ldexp(largest, -24) + 1.01 * table.textRounding()
        + positionSlack(n) * (largestStep(patches, n, n) + largestStep(patches, n, 1));
    if (const ValueFormat half = halfFormat(table, *sample); half != ValueFormat::Float32)
        tolerance.absolute += 8.0 * halfUnit(half) * largest;
    const auto explainedBy = [&](const Layout &l) {
        const ResizeReference reference(values, l);
        const SampleScore score = scoreOnSample(reference, *sample, tolerance, nullptr, 0);
        return score.bad == 0 && score.compared > 0;
    };
    for (const bool transposed : {false, true}) {
        for (const Layout &l : layoutsOf(n, table.rows() - prefix, transposed, merge.value_or(2))) {
            if (skipIdentity && identity(l))
                continue;
            Layout found = l;
            found.prefix = prefix;
            if (!explainedBy(found)) {
                found.alignCorners = false;
                if (!explainedBy(found))
                    continue;
            }
            return matchOf(found, values, grid.name(), tolerance, merge, declared);
        }
    }
    // Another method, row-major, one frame: sixteen weighted rows summed (bicubic), more with
    // antialias where the grid shrinks: a few more units of the largest value.
    CellTolerance wider = tolerance;
    wider.absolute += 32.0 * std::ldexp(largest, -24);
    for (const Method method : {Method::Bicubic, Method::BicubicAntialias, Method::Nearest, Method::BicubicKeys}) {
        for (Layout l : layoutsOf(n, table.rows() - prefix, false, 1)) {
            if (l.t != 1 || (skipIdentity && identity(l)))
                continue;
            l.prefix = prefix;
            l.alignCorners = false;
            l.method = method;
            const ResizeReference reference(values, l);
            const SampleScore score = scoreOnSample(reference, *sample, wider, nullptr, 0);
            if (score.bad == 0 && score.compared > 0)
                return matchOf(l, values, grid.name(), wider, merge, declared);
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<std::variant<TableMatch, QString>> expect(const TableRows &table, const TableRows &grid,
                                                        std::int64_t maxGridCells, std::optional<std::int64_t> merge,
                                                        std::optional<DeclaredResize> declared)
{
    return read(table, grid, maxGridCells, false, merge, declared);
}

std::optional<DeclaredResize> resizeOf(const QString &word)
{
    if (word == u"bilinear"_s)
        return DeclaredResize {Method::Bilinear, false};
    if (word == u"bilinear-align-corners"_s)
        return DeclaredResize {Method::Bilinear, true};
    if (word == u"bicubic"_s)
        return DeclaredResize {Method::Bicubic, false};
    if (word == u"bicubic-antialias"_s)
        return DeclaredResize {Method::BicubicAntialias, false};
    if (word == u"nearest"_s)
        return DeclaredResize {Method::Nearest, false};
    return std::nullopt;
}

QStringList resizeWords()
{
    return {u"bilinear"_s, u"bilinear-align-corners"_s, u"bicubic"_s, u"bicubic-antialias"_s, u"nearest"_s};
}

std::optional<TableMatch> expectSameShape(const TableRows &table, const TableRows &grid,
                                          std::optional<std::int64_t> merge)
{
    const auto resized = read(table, grid, std::int64_t(1) << 26, true, merge);
    if (const auto *match = resized ? std::get_if<TableMatch>(&*resized) : nullptr)
        return *match;
    return std::nullopt;
}

} // namespace posenc::GridResize
