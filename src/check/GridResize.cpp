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

// Where each of `steps` outputs samples an axis of `n`: its two grid indices and the weight of the
// second, in float32 as torch computes them.
struct Taps
{
    std::vector<std::int64_t> lo, hi;
    std::vector<double> frac;
};

Taps tapsOf(std::int64_t n, std::int64_t steps, bool alignCorners)
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
        taps.lo.push_back(lo);
        taps.hi.push_back(std::min<std::int64_t>(lo + 1, n - 1));
        taps.frac.push_back(std::clamp(double(x - float(lo)), 0.0, 1.0));
    }
    return taps;
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
        , m_rows(tapsOf(layout.n, layout.h, layout.alignCorners))
        , m_columns(tapsOf(layout.n, layout.w, layout.alignCorners))
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
        const std::int64_t m = l.merge, patch = row % (l.h * l.w), block = patch / (m * m);
        const std::int64_t y = (block / (l.w / m)) * m + (patch % (m * m)) / m;
        const std::int64_t x = (block % (l.w / m)) * m + patch % m;
        const auto Y = std::size_t(y), X = std::size_t(x);
        const double dy = m_rows.frac[Y], dx = m_columns.frac[X];
        // The grid's row of point (y, x): y·n + x, or read transposed x·n + y.
        const auto at
            = [n = l.n, t = l.transposed](std::int64_t gy, std::int64_t gx) { return t ? gx * n + gy : gy * n + gx; };
        const std::int64_t corners[4] = {at(m_rows.lo[Y], m_columns.lo[X]), at(m_rows.lo[Y], m_columns.hi[X]),
                                         at(m_rows.hi[Y], m_columns.lo[X]), at(m_rows.hi[Y], m_columns.hi[X])};
        const double weights[4] = {(1 - dy) * (1 - dx), (1 - dy) * dx, dy * (1 - dx), dy * dx};
        for (std::int64_t c = 0; c < cols; ++c) {
            double v = 0.0;
            for (int k = 0; k < 4; ++k)
                v += weights[k] * double((*m_grid)(corners[k], col0 + c));
            out[c] = float(v);
        }
    }

    std::shared_ptr<const RowMatrixXf> m_grid;
    Layout m_layout;
    Taps m_rows, m_columns;
};

// The layouts of `rows` patches: frames first one, merge 2 (Qwen3-VL's spatial_merge_size) then 1;
// the grid read as it is, then transposed.
std::vector<Layout> layoutsOf(std::int64_t n, std::int64_t rows, bool transposed)
{
    std::vector<Layout> out;
    for (const std::int64_t m : {2, 1}) {
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
    return words;
}

// Whether the patches could be listed in Qwen3-VL's merge blocks of 2: h and w both even (its image
// processor makes them multiples of spatial_merge_size).
bool mergeable(const Layout &l)
{
    return l.h % 2 == 0 && l.w % 2 == 0;
}

// The resize a layout read from the table should have been: fast_pos_embed_interpolate's, at
// align_corners, the grid read as it is, in merge blocks of 2 where they fit.
Layout referenceOf(Layout l)
{
    l.alignCorners = true;
    l.transposed = false;
    if (mergeable(l))
        l.merge = 2;
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

// The match of a table `read` explains, compared with the resize it should be (referenceOf).
TableMatch matchOf(const Layout &read, const std::shared_ptr<const RowMatrixXf> &values, const QString &grid,
                   const CellTolerance &tolerance)
{
    const Layout want = referenceOf(read);
    TableMatch m;
    m.positionOffset = 0;
    m.firstPositionRow = 0;
    m.tolerance = tolerance;
    m.reference = std::make_shared<const ResizeReference>(values, want);
    m.referenceText = u"fast_pos_embed_interpolate: "_s + layoutWords(want, grid)
        + u", bilinear at linspace(0, n - 1, h) (align_corners)"_s;
    const bool mergeLost = read.merge == 1 && mergeable(read);
    if (read.alignCorners && !read.transposed && !mergeLost) {
        // Row-major where no merge block fits: spatial_merge_size 1, which no Qwen3-VL config has.
        m.verdict = read.merge == 2 ? CheckVerdict::Correct : CheckVerdict::Variant;
        if (m.verdict == CheckVerdict::Correct)
            m.correctAgainst = CheckDiagnosis::declaredReference(m.referenceText);
        m.diagnosis = u"every cell equals %1 within the rounding"_s.arg(m.referenceText);
        if (m.verdict == CheckVerdict::Variant)
            m.diagnosis += u", the patches row-major (spatial_merge_size 1): %1 x %2 patches fit no merge blocks of 2, "
                           "which every Qwen3-VL config's spatial_merge_size 2 needs (its image processor makes h "
                           "and w multiples of it)"_s.arg(read.h)
                               .arg(read.w);
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
        said.append(u"the patches listed row-major where fast_pos_embed_interpolate lists them in 2 x 2 merge blocks "
                    "(view(t, h/m, m, w/m, m, -1).permute(0, 1, 3, 2, 4, 5), spatial_merge_size 2 in every Qwen3-VL "
                    "config): the merge permute forgotten, so row r carries the embedding of another patch than the "
                    "r-th token's"_s);
    }
    m.diagnosis = u"%1: %2"_s.arg(layoutWords(read, grid), said.join(u"; "_s));
    return m;
}

// Whether a layout reads the grid row for row: the identity resize, listed row-major.
bool identity(const Layout &l)
{
    return l.t == 1 && l.h == l.n && l.w == l.n && l.merge == 1 && !l.transposed;
}

std::optional<std::variant<TableMatch, QString>> read(const TableRows &table, const TableRows &grid,
                                                      std::int64_t maxGridCells, bool skipIdentity)
{
    const auto n = std::int64_t(std::llround(std::sqrt(double(grid.rows()))));
    if (n < 2 || n * n != grid.rows() || grid.cols() != table.cols() || table.rows() <= 0)
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
    // Within float32's rounding of a sum of four weighted rows of the grid: a few units of the
    // largest value, and the table's own format; and within where a faithful float32 resize samples
    // the grid (positionSlack). A table of bfloat16 or float16 values: the grid, each weight, each
    // product and each of the three sums rounded to that format, six roundings of at most the
    // largest value (the weights sum to 1), eight half units said.
    CellTolerance tolerance
        = cellTolerance(storedFormat(table.storedType()), StoredType::Float32, table.textRounding(), largest, 2.0);
    tolerance.absolute += 8.0 * std::ldexp(largest, -24) + 1.01 * table.textRounding()
        + positionSlack(n) * (largestStep(*values, n, n) + largestStep(*values, n, 1));
    if (const ValueFormat half = halfFormat(table, *sample); half != ValueFormat::Float32)
        tolerance.absolute += 8.0 * halfUnit(half) * largest;
    const auto explainedBy = [&](const Layout &l) {
        const ResizeReference reference(values, l);
        const SampleScore score = scoreOnSample(reference, *sample, tolerance, nullptr, 0);
        return score.bad == 0 && score.compared > 0;
    };
    for (const bool transposed : {false, true}) {
        for (const Layout &l : layoutsOf(n, table.rows(), transposed)) {
            if (skipIdentity && identity(l))
                continue;
            Layout found = l;
            if (!explainedBy(found)) {
                found.alignCorners = false;
                if (!explainedBy(found))
                    continue;
            }
            return matchOf(found, values, grid.name(), tolerance);
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<std::variant<TableMatch, QString>> expect(const TableRows &table, const TableRows &grid,
                                                        std::int64_t maxGridCells)
{
    return read(table, grid, maxGridCells, false);
}

std::optional<TableMatch> expectSameShape(const TableRows &table, const TableRows &grid)
{
    const auto resized = read(table, grid, std::int64_t(1) << 26, true);
    if (const auto *match = resized ? std::get_if<TableMatch>(&*resized) : nullptr)
        return *match;
    return std::nullopt;
}

} // namespace posenc::GridResize
