#include "Sincos2dTableCheck.h"

#include "check/sincos2d/Sincos2dDeclaredShape.h"
#include "check/sincos2d/Sincos2dDetrMap.h"

#include "check/DeclaredShape.h"
#include "check/FitNumbers.h"
#include "check/SampleScore.h"
#include "check/TableReference.h"
#include "check/rope/RopeRowPositions.h"
#include "core/NumberText.h"
#include "core/PositionalTable.h"
#include "core/sincos2d/Sincos2dTable.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::Sincos2dTableCheck {

namespace {

const QString kTable = u"sincos-2d"_s;
// Patches numbered width-major where the feature map flattens row by row: the grid's transpose.
const QString kGridOrder = u"sincos2d-grid-order"_s;
// A table declared with a cls token that lacks its zero row, or one declared without that has it.
const QString kClsMissing = u"cls-token-missing"_s;
const QString kClsExtra = u"cls-token-extra"_s;
constexpr double kTwoPi = 2.0 * std::numbers::pi;

// The reference's rows (Sincos2dTable), or with its halves swapped: the first half the row's.
class Sincos2dReference final : public TableReference
{
public:
    Sincos2dReference(const Params &params, bool swapped)
        : m_table(params, params.dModel)
        , m_cols(params.dModel)
        , m_swapped(swapped)
    { }

    std::int64_t cols() const override { return m_cols; }
    std::int64_t rows() const override { return m_table.rows(); }
    bool compared(std::int64_t) const override { return true; }
    std::int64_t position(std::int64_t row) const override { return row; }
    void forEachTile(const Block &block, const TileSink &sink) const override
    {
        // Tiles of the stream's run of rows, which its reads of the table are multiples of.
        constexpr std::int64_t kTileRows = PositionalTable::kRunRows;
        RowMatrixXf values(kTileRows, m_cols);
        for (std::int64_t r0 = block.row0; r0 < block.rowEnd(); r0 += kTileRows) {
            const std::int64_t n = std::min(kTileRows, block.rowEnd() - r0);
            m_table.fill(Block {r0, n, 0, m_cols}, values.topRows(n));
            if (m_swapped) {
                for (std::int64_t r = 0; r < n; ++r)
                    std::rotate(values.row(r).data(), values.row(r).data() + m_cols / 2, values.row(r).data() + m_cols);
            }
            sink(Tile {r0, n, block.col0, block.cols, values.data() + block.col0, m_cols});
        }
    }

private:
    Sincos2dTable m_table;
    std::int64_t m_cols;
    bool m_swapped;
};

// The coordinate x a half [sin(x w_k) | cos(x w_k)] of q pairs holds, w_k = 10000^(-k / q): the
// slowest pair's angle (x below 2π / w_(q-1)), refined pair by pair towards the fastest; nothing
// when the pairs do not agree on one x within `slack` radians.
std::optional<double> coordinateOf(const float *half, std::int64_t q, double slack)
{
    std::vector<double> w(static_cast<std::size_t>(q)), a(static_cast<std::size_t>(q));
    for (std::int64_t k = 0; k < q; ++k) {
        const double s = half[k], c = half[q + k];
        if (std::fabs(s * s + c * c - 1.0) > 4.0 * slack)
            return std::nullopt; // not a sine and cosine of one angle
        w[std::size_t(k)] = 1.0 / std::pow(10000.0, double(k) / double(q));
        a[std::size_t(k)] = std::atan2(s, c);
    }
    const double slowest = a.back();
    double x = (slowest < 0.0 ? slowest + kTwoPi : slowest) / w.back();
    for (std::int64_t k = q - 2; k >= 0; --k) {
        const double turns = std::round((x * w[std::size_t(k)] - a[std::size_t(k)]) / kTwoPi);
        x = (a[std::size_t(k)] + turns * kTwoPi) / w[std::size_t(k)];
    }
    // Every pair at the angle x gives it.
    for (std::int64_t k = 0; k < q; ++k) {
        const double off = x * w[std::size_t(k)] - a[std::size_t(k)];
        if (std::fabs(off - kTwoPi * std::round(off / kTwoPi)) > slack * (1.0 + x * w[std::size_t(k)] * 1e-3))
            return std::nullopt;
    }
    return x;
}

struct Coordinates
{
    std::int64_t n; // the patch, row - cls
    double first, second; // the coordinates the two halves hold
};

struct Layout
{
    bool cls = false;
    bool swapped = false;
    std::int64_t height = 0, width = 0;
    double stepW = 1.0, stepH = 1.0; // a patch's coordinate step along each axis
};

// Whether a coordinate read is b: within `tolerance` of it, relative beyond 1 (1e-4 of float32's
// sines; a half format's leave the fastest pair's angle, and so the coordinate, a few 10^-3 off).
bool near(double a, double b, double tolerance = 1e-4)
{
    return std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
}

// The tolerance of a coordinate read from sines of `slack` (coordinatesOf).
double coordinateTolerance(double slack)
{
    return std::max(1e-4, slack / 4.0);
}

// Whether every sampled patch sits at (n / W, n % W) times the steps.
bool consistent(const std::vector<Coordinates> &coords, const Layout &l, double tolerance)
{
    return std::all_of(coords.begin(), coords.end(), [&](const Coordinates &c) {
        const double column = l.swapped ? c.second : c.first, row = l.swapped ? c.first : c.second;
        return near(column, double(c.n % l.width) * l.stepW, tolerance)
            && near(row, double(c.n / l.width) * l.stepH, tolerance);
    });
}

// The grid and the halves' order that place every sampled patch, the smallest width first.
std::optional<Layout> layoutOf(const std::vector<Coordinates> &coords, std::int64_t patches, bool cls, double tolerance)
{
    const auto at = [&](std::int64_t n) -> const Coordinates * {
        for (const Coordinates &c : coords) {
            if (c.n == n)
                return &c;
        }
        return nullptr;
    };
    const Coordinates *zero = at(0), *one = at(1);
    if (!zero || !one || !near(zero->first, 0.0, tolerance) || !near(zero->second, 0.0, tolerance))
        return std::nullopt;
    Layout l;
    l.cls = cls;
    // A grid of one column: the column's half never moves, the row's moves a step a patch.
    l.width = 1;
    l.height = patches;
    l.stepH = one->second;
    if (l.stepH > 0.0 && consistent(coords, l, tolerance))
        return l;
    // Patch 1 is the next column of row 0: the half that moved is the column's.
    l.swapped = near(one->first, 0.0, tolerance) && !near(one->second, 0.0, tolerance);
    l.stepW = l.swapped ? one->second : one->first;
    if (!(l.stepW > 0.0))
        return std::nullopt;
    for (std::int64_t w = 2; w <= patches; ++w) {
        if (patches % w != 0)
            continue;
        l.width = w;
        l.height = patches / w;
        // MAE's and DiT's indices, or diffusers' base_size / size a step on each axis.
        l.stepH = near(l.stepW, 1.0, tolerance) ? 1.0 : l.stepW * double(w) / double(l.height);
        if (consistent(coords, l, tolerance))
            return l;
    }
    return std::nullopt;
}

Params paramsOf(const Layout &l, std::int64_t cols, std::int64_t rows, std::optional<double> base, double scale)
{
    Params p;
    p.encoding = Encoding::Sincos2d;
    p.dModel = cols;
    p.maxLen = std::clamp<std::int64_t>(rows, 1, Params::kMaxLen);
    p.sincos2d.grid = {l.height, l.width};
    p.sincos2d.clsToken = l.cls;
    p.sincos2d.baseSize = base;
    p.sincos2d.interpolationScale = scale;
    return p;
}

QString gridWords(const Params &p)
{
    QString words = u"a grid of %1 x %2 patches"_s.arg(p.sincos2d.grid[0]).arg(p.sincos2d.grid[1]);
    if (p.sincos2d.clsToken)
        words += u", a zero row first for the cls token"_s;
    if (p.sincos2d.baseSize)
        words += u", diffusers' coordinates (base_size %1, interpolation_scale %2)"_s.arg(
            NumberText::exact(*p.sincos2d.baseSize), NumberText::exact(p.sincos2d.interpolationScale));
    return words;
}

// A cell's tolerance: the table's format and text rounding, every value within 1 in size, and the
// angles of a float32 computation (RT-DETR's omega = 1 / temperature^(k / q) and grid @ omega in
// float32, as cellTolerance bounds them: (|ln w| + 4) 2^-22 per unit of coordinate times w, at
// most 4 * 2^-22 at w = 1) up to the largest coordinate: the grid's side, or diffusers' base_size
// over interpolation_scale.
CellTolerance toleranceOf(const TableEvidence &e, const Params &p)
{
    CellTolerance t = cellTolerance(e.format, e.table.storedType(), e.table.textRounding(), 1.0, 2.0);
    const double side = double(std::max(p.sincos2d.grid[0], p.sincos2d.grid[1]));
    const double largest = p.sincos2d.baseSize ? *p.sincos2d.baseSize / p.sincos2d.interpolationScale : side - 1.0;
    t.absolute += std::max(largest, 0.0) * 4.0 * 0x1p-22;
    return t;
}

TableMatch matchOf(const TableEvidence &e, const Params &p, bool swapped)
{
    TableMatch m;
    m.table = kTable;
    m.findings = {{u"grid"_s, u"%1x%2"_s.arg(p.sincos2d.grid[0]).arg(p.sincos2d.grid[1])},
                  {u"cls_token"_s, p.sincos2d.clsToken},
                  {u"base_size"_s, p.sincos2d.baseSize ? MatchValue(*p.sincos2d.baseSize) : MatchValue()},
                  {u"interpolation_scale"_s, p.sincos2d.interpolationScale},
                  {u"halves"_s, swapped ? u"row, column"_s : u"column, row"_s}};
    m.positionOffset = 0;
    m.firstPositionRow = 0;
    m.precision = tablePrecision(e.format, false);
    m.reference = std::make_shared<const Sincos2dReference>(p, swapped);
    m.tolerance = toleranceOf(e, p);
    if (p.isValid() && !swapped) // posenc writes MAE's order, the column first
        m.params = p;
    if (swapped) {
        // RT-DETR's order, a published form (issue 56): huggingface/transformers
        // src/transformers/models/rt_detr/modeling_rt_detr.py, RTDetrHybridEncoder.
        // build_2d_sincos_position_embedding concatenates [h.sin, h.cos, w.sin, w.cos] of
        // meshgrid(grid_w, grid_h, indexing="xy") since #41380; the original's "ij" meshgrid gave the
        // same on a square map. Its omega, 1 / temperature^(k / (d/4)), is MAE's per half.
        m.referenceText = u"build_2d_sincos_position_embedding (RT-DETR), %1"_s.arg(gridWords(p));
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = u"RT-DETR's build_2d_sincos_position_embedding (transformers modeling_rt_detr.py, "
                           "RTDetrHybridEncoder) at this grid"_s;
        m.diagnosis = u"RT-DETR's 2-D sin-cos table (build_2d_sincos_position_embedding): %1; the first half holds "
                      "the row (h.sin, h.cos) and the second the column, MAE's get_2d_sincos_pos_embed the other way "
                      "round"_s.arg(gridWords(p));
    } else {
        m.referenceText = u"get_2d_sincos_pos_embed, %1"_s.arg(gridWords(p));
        m.verdict = CheckVerdict::Correct;
        // The function is the reference at any grid and width: its temperature 10000 is fixed.
        m.correctAgainst = u"MAE's get_2d_sincos_pos_embed (models_mae.py) at this grid"_s;
        m.diagnosis = u"MAE's 2-D sin-cos table (get_2d_sincos_pos_embed, as DiT and diffusers): %1; the first half "
                      "holds the column (meshgrid(grid_w, grid_h))"_s.arg(gridWords(p));
    }
    return m;
}

// Undeclared, a grid of H x W patches (H != W) read from a table is the grid of one of two
// computations: the form read at H x W, or the form with the halves the other way round at W x H with
// its patches numbered width-major (meshgrid(grid_w, grid_h, indexing="ij") flattened against a
// feature map flattened row by row: RT-DETR's build_2d_sincos_position_embedding before
// transformers#41380). Row k holds (k / W, k % W) in the first and (k % W, k / W) in the second, the
// same numbers; the table cannot tell them apart, the declared grid can (expectOrders names it).
void sayExchangedGrid(TableMatch &m, const Params &p, bool swapped)
{
    // diffusers' coordinates divide each axis by its own size: exchanged, they are other numbers.
    const std::int64_t h = p.sincos2d.grid[0], w = p.sincos2d.grid[1];
    if (h == w || p.sincos2d.baseSize)
        return;
    const QString grid = u"read undeclared, the grid is %1 x %2 (%1 rows of %2 patches), the one the table's rows "
                         "place their patches on; the same table is %3's order (the %4 first) on a %2 x %1 grid "
                         "with its patches numbered width-major, the grid-order bug of RT-DETR's "
                         "build_2d_sincos_position_embedding before transformers#41380 (meshgrid(grid_w, grid_h, "
                         "indexing=\"ij\")): where the grid is known, --expect sincos-2d --grid H,W compares the "
                         "table with it and names that bug (sincos2d-grid-order)"_s.arg(h)
                             .arg(w)
                             .arg(swapped ? u"MAE"_s : u"RT-DETR"_s, swapped ? u"column"_s : u"row"_s);
    m.correctAgainst += u" (%1 x %2, read from the table: the grid is not declared)"_s.arg(h).arg(w);
    m.diagnosis += u"; "_s + grid;
}

std::vector<Coordinates> coordinatesOf(const TableEvidence &e, std::int64_t cls, double slack)
{
    const std::int64_t q = e.cols() / 4;
    std::vector<Coordinates> out;
    for (std::int64_t i = 0; i < e.sample.size(); ++i) {
        const std::int64_t row = e.sample.rows[std::size_t(i)];
        if (row < cls)
            continue;
        const float *values = e.sample.values.row(i).data();
        const auto first = coordinateOf(values, q, slack), second = coordinateOf(values + 2 * q, q, slack);
        if (!first || !second)
            return {};
        out.push_back({row - cls, *first, *second});
    }
    return out;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    if (e.infinite || e.sameRow || e.cols() < 4 || e.cols() % 4 != 0 || e.cols() > Params::kMaxDModel)
        return std::nullopt;
    const bool cls = e.sample.values.row(0).cwiseAbs().maxCoeff() == 0.0f;
    const std::int64_t patches = e.rows() - (cls ? 1 : 0);
    const double slack = e.format == ValueFormat::Float32 ? 1e-4 : 2e-2;
    const std::vector<Coordinates> coords = coordinatesOf(e, cls ? 1 : 0, slack);
    const auto layout = coords.empty() ? std::nullopt : layoutOf(coords, patches, cls, coordinateTolerance(slack));
    if (!layout || layout->height > Sincos2dParams::kMaxSide || layout->width > Sincos2dParams::kMaxSide)
        return std::nullopt;
    // Diffusers' coordinates: base_size / interpolation_scale is W times a column's step; the common
    // scales are tried, the reference's float32 division deciding.
    std::vector<std::pair<std::optional<double>, double>> settings {{std::nullopt, 1.0}};
    if (!near(layout->width == 1 ? layout->stepH : layout->stepW, 1.0, coordinateTolerance(slack))) {
        settings.clear();
        for (const double scale : {1.0, 2.0, 0.5, 3.0, 4.0}) {
            // base_size / interpolation_scale: a column's step times W (a row's times H in one column).
            const double span
                = layout->width == 1 ? layout->stepH * double(layout->height) : layout->stepW * double(layout->width);
            for (const double base : FitNumbers::roundings(span * scale, 7))
                settings.push_back({base, scale});
        }
    }
    std::optional<TableCandidate> best;
    for (const auto &[base, scale] : settings) {
        const Params p = paramsOf(*layout, e.cols(), e.rows(), base, scale);
        const CellTolerance tolerance = toleranceOf(e, p);
        const Sincos2dReference reference(p, layout->swapped);
        const SampleScore score = scoreOnSample(reference, e.sample, tolerance);
        TableCandidate c;
        c.compared = score.compared;
        c.bad = score.bad;
        c.claims = explains(c.compared, c.bad);
        c.residual = score.relativeResidual();
        if (c.claims) {
            c.match = matchOf(e, p, layout->swapped);
            sayExchangedGrid(c.match, p, layout->swapped);
            return c;
        }
        if (!best || c.residual < best->residual) {
            c.nearest = u"nearest 2-D sin-cos table: %1"_s.arg(gridWords(p));
            c.unclaimed
                = u"the 2-D sin-cos table of %1 leaves %2 of the sampled cells beyond the tolerance"_s.arg(gridWords(p))
                      .arg(c.bad);
            best = c;
        }
    }
    return best;
}

bool explainsWith(const TableEvidence &e, const Params &p, bool swapped)
{
    const SampleScore score = scoreOnSample(Sincos2dReference(p, swapped), e.sample, toleranceOf(e, p));
    return explains(score.compared, score.bad);
}

// The declared grid at other coordinates: diffusers' i / (H / base_size) / interpolation_scale with
// another base_size or interpolation_scale than declared, or MAE's indices where diffusers' are
// declared (huggingface/diffusers#6783: PixArt-XL-2-256x256's interpolation_scale forced to 1 where
// it was trained at 0.5). The coordinates' step is read from the rows as the undeclared fit reads
// it, and the declared interpolation_scale (then base_size) rescaled by it: the mistake
// positions-scaled, its factor and the parameter's two values said.
std::optional<TableMatch> scaledCoordinates(const TableEvidence &e, const Params &params)
{
    const std::int64_t cls = params.sincos2d.clsToken ? 1 : 0;
    const std::int64_t h = params.sincos2d.grid[0], w = params.sincos2d.grid[1];
    const double slack = e.format == ValueFormat::Float32 ? 1e-4 : 2e-2;
    const std::vector<Coordinates> coords = coordinatesOf(e, cls, slack);
    const auto layout
        = coords.empty() ? std::nullopt : layoutOf(coords, e.rows() - cls, cls != 0, coordinateTolerance(slack));
    if (!layout || layout->height != h || layout->width != w)
        return std::nullopt;
    const double interpolation = params.sincos2d.interpolationScale;
    const std::optional<double> base = params.sincos2d.baseSize;
    // A column's step as declared, and as the rows hold it (a row's in a grid of one column).
    const double declaredStep = base ? *base / double(w == 1 ? h : w) / interpolation : 1.0;
    const double step = w == 1 ? layout->stepH : layout->stepW;
    const double factor = step / declaredStep;
    if (!(factor > 0.0) || near(factor, 1.0, coordinateTolerance(slack)))
        return std::nullopt;
    std::vector<Params> candidates;
    Params p = params;
    if (base) {
        for (const double scale : FitNumbers::roundings(interpolation / factor, 7)) {
            p.sincos2d.interpolationScale = scale;
            candidates.push_back(p);
        }
        p.sincos2d.interpolationScale = interpolation;
        for (const double b : FitNumbers::roundings(*base * factor, 7)) {
            p.sincos2d.baseSize = b;
            candidates.push_back(p);
        }
    } else {
        for (const double b : FitNumbers::roundings(step * double(w == 1 ? h : w), 7)) {
            p.sincos2d.baseSize = b;
            p.sincos2d.interpolationScale = 1.0;
            candidates.push_back(p);
        }
    }
    for (const Params &c : candidates) {
        if (!c.isValid() || !explainsWith(e, c, layout->swapped))
            continue;
        TableMatch m = matchOf(e, c, layout->swapped);
        m.verdict = CheckVerdict::Mistake;
        m.correctAgainst.clear();
        m.mistakes = {RopeRowPositions::kPositionsScaled};
        m.referenceText = u"get_2d_sincos_pos_embed, %1"_s.arg(gridWords(params));
        const QString theirs = !base
            ? u"base_size %1 (diffusers' coordinates), where MAE's indices (no base_size)"_s.arg(
                NumberText::exact(*c.sincos2d.baseSize))
            : c.sincos2d.interpolationScale != interpolation
            ? u"interpolation_scale %1, where %2"_s.arg(NumberText::exact(c.sincos2d.interpolationScale),
                                                        NumberText::exact(interpolation))
            : u"base_size %1, where %2"_s.arg(NumberText::exact(*c.sincos2d.baseSize), NumberText::exact(*base));
        m.diagnosis
            = u"the grid's coordinates are %1 times the declared ones (a column's step %2 where the declaration "
              "gives %3): the table is get_2d_sincos_pos_embed at %4 %5 (diffusers' coordinates i / (H / "
              "base_size) / interpolation_scale; PixArt-XL-2-256x256 was trained at interpolation_scale 0.5, "
              "diffusers#6783)"_s.arg(NumberText::compact(factor, 7), NumberText::compact(step, 7),
                                      NumberText::compact(declaredStep, 7), theirs, u"was declared"_s);
        return m;
    }
    return std::nullopt;
}

// The declared grid in either published order of the halves (a declaration names no order);
// where neither explains the table but the grid's transpose does, the patches were numbered
// width-major (transformers#41380: meshgrid(grid_w, grid_h, indexing="ij") flattened against a
// feature map flattened row by row).
TableMatch expectOrders(const TableEvidence &e, const Params &params)
{
    // DETR's map flattened over the declared grid ([H·W, C]): held to the --map-form declared, else
    // read as MAE's and RT-DETR's tables first.
    const auto detr = [&] {
        return Sincos2dDetrMap::readFlattened(e.table, params.sincos2d.grid[0], params.sincos2d.grid[1], &params,
                                              e.declared.mapForm);
    };
    if (!e.declared.mapForm.isEmpty() && e.declared.mapForm != Sincos2dDetrMap::kLoftrWord && !params.sincos2d.clsToken)
        if (auto map = detr())
            return *map;
    for (const bool swapped : {false, true}) {
        if (explainsWith(e, params, swapped))
            return matchOf(e, params, swapped);
    }
    if (auto scaled = scaledCoordinates(e, params))
        return *scaled;
    // Undeclared, a DETR map of no published form is said, not taken for the declared reference
    // (the family's default is MAE's table): unknown, as a [C, H, W] map's reading is a variant.
    // A named mistake (its padding) is said; a map no form holds is left to the tables' reading.
    if (auto map = params.sincos2d.clsToken ? std::nullopt : detr(); map
        && (map->verdict == CheckVerdict::Correct || map->verdict == CheckVerdict::Variant
            || !map->mistakes.isEmpty())) {
        if (map->verdict == CheckVerdict::Variant)
            map->verdict = CheckVerdict::Unknown;
        return *map;
    }
    TableMatch m = matchOf(e, params, false);
    Params transposed = params;
    transposed.sincos2d.grid = {params.sincos2d.grid[1], params.sincos2d.grid[0]};
    if (params.sincos2d.grid[0] == params.sincos2d.grid[1] || !transposed.isValid())
        return m;
    for (const bool swapped : {false, true}) {
        if (!explainsWith(e, transposed, swapped))
            continue;
        m.verdict = CheckVerdict::Mistake;
        m.correctAgainst.clear();
        m.mistakes = {kGridOrder};
        m.diagnosis = u"the patches are numbered width-major: row k holds the patch at row k mod %1, column k / %1 of "
                      "the declared %1 x %2 grid, where a feature map flattened row by row ([B, C, H, W] to "
                      "[B, H·W, C]) holds row k / %2, column k mod %2 (meshgrid(grid_w, grid_h, indexing=\"ij\") "
                      "flattened, transformers#41380; indexing=\"xy\" is the fix)"_s.arg(params.sincos2d.grid[0])
                          .arg(params.sincos2d.grid[1]);
        return m;
    }
    return m;
}

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &params, const QString &table)
{
    if (table != kTable)
        return u"the 2-D sin-cos family's table is '%1', not '%2'"_s.arg(kTable, table);
    if (!params.isValid() || params.encoding != Encoding::Sincos2d)
        return u"the parameters are not a valid 2-D sin-cos table's"_s;
    const Sincos2dTable reference(params, params.dModel);
    if (params.dModel == e.cols() && reference.rows() != e.rows()) {
        // One row short of the declared grid's, or one over: the cls token's zero row left out, or
        // added where the model has none, the rows compared with the grid as the table holds it.
        Params held = params;
        held.sincos2d.clsToken = !params.sincos2d.clsToken;
        held.maxLen = std::clamp<std::int64_t>(e.rows(), 1, Params::kMaxLen);
        const auto heldExplains = [&] {
            const SampleScore score = scoreOnSample(Sincos2dReference(held, false), e.sample, toleranceOf(e, held));
            return explains(score.compared, score.bad);
        };
        // Named only where the grid as the table holds it explains the sample; otherwise the
        // shapes simply differ.
        if (held.isValid() && Sincos2dTable(held, held.dModel).rows() == e.rows() && heldExplains()) {
            TableMatch m = matchOf(e, held, false);
            const bool missing = params.sincos2d.clsToken;
            m.mistakes.prepend(missing ? kClsMissing : kClsExtra);
            m.verdict = CheckVerdict::Mistake;
            m.correctAgainst.clear();
            const QString words = missing
                ? u"the cls token's row is missing: get_2d_sincos_pos_embed(cls_token=True) puts a row of zeros "
                  "before the %1 patches, %2 rows in all (MAE's pos_embed); this table has the patches' %1 only"_s
                : u"a row too many: the declared model has no cls token (%1 rows, one per patch); this table has %2"_s;
            const std::int64_t patches = params.sincos2d.grid[0] * params.sincos2d.grid[1];
            m.diagnosis = missing ? words.arg(patches).arg(patches + 1) : words.arg(patches).arg(e.rows());
            return m;
        }
    }
    if (params.dModel != e.cols() || reference.rows() != e.rows()) {
        // The table of another grid or embed_dim, every other parameter the declared one
        // (Sincos2dDeclaredShape): named by the parameter, both values said.
        for (const Params &read : Sincos2dDeclaredShape::candidates(params, e.rows(), e.cols())) {
            if (explainsWith(e, read, false) || explainsWith(e, read, true))
                return Sincos2dDeclaredShape::named(expectOrders(e, read), params, read);
        }
        return u"the grid gives a table of %1 x %2; this one is %3 x %4"_s.arg(reference.rows())
            .arg(params.dModel)
            .arg(e.rows())
            .arg(e.cols());
    }
    return expectOrders(e, params);
}

// MAE's and DiT's tables of the presets (resources/presets, each from the model's code).
QList<PublishedForm> publishedForms(std::int64_t cols)
{
    const auto form = [](std::int64_t d, std::int64_t side, bool cls) {
        Params p;
        p.encoding = Encoding::Sincos2d;
        p.dModel = d;
        p.maxLen = side * side + (cls ? 1 : 0);
        p.sincos2d.grid = {side, side};
        p.sincos2d.clsToken = cls;
        return p;
    };
    const QList<PublishedForm> all {
        {u"MAE ViT-B/16"_s, u"facebookresearch/mae models_mae.py (224 px, patch 16)"_s, kTable, form(768, 14, true)},
        {u"MAE ViT-L/16"_s, u"facebookresearch/mae models_mae.py (224 px, patch 16)"_s, kTable, form(1024, 14, true)},
        {u"MAE ViT-H/14"_s, u"facebookresearch/mae models_mae.py (224 px, patch 14)"_s, kTable, form(1280, 16, true)},
        {u"DiT-XL/2, 256 px"_s, u"facebookresearch/DiT models.py (latent 32, patch 2)"_s, kTable,
         form(1152, 16, false)},
        {u"DiT-XL/2, 512 px"_s, u"facebookresearch/DiT models.py (latent 64, patch 2)"_s, kTable,
         form(1152, 32, false)},
    };
    QList<PublishedForm> forms;
    for (const PublishedForm &f : all) {
        if (f.params.dModel == cols)
            forms.append(f);
    }
    return forms;
}

} // namespace

TableHypothesis hypothesis()
{
    TableHypothesis h;
    h.tables = {kTable};
    h.findingKeys = {u"grid"_s, u"cls_token"_s, u"base_size"_s, u"interpolation_scale"_s, u"halves"_s};
    h.help = u"the 2-D sin-cos table of MAE, DiT and diffusers ([H·W (+1), d]): the grid, the cls token's zero row, "
             "diffusers' base_size, and the halves' order (the column first, as MAE's meshgrid(grid_w, grid_h) gives "
             "it, or "
             "the row first, as RT-DETR's build_2d_sincos_position_embedding)"_s;
    h.mistakes = {kGridOrder, kClsMissing, kClsExtra, DeclaredShape::kGrid, DeclaredShape::kDModel,
                  RopeRowPositions::kPositionsScaled};
    h.fit = fit;
    h.expect = expect;
    h.referenceCode
        = u"facebookresearch/mae util/pos_embed.py, get_2d_sincos_pos_embed; huggingface/transformers src/transformers/models/rt_detr/modeling_rt_detr.py, RTDetrHybridEncoder.build_2d_sincos_position_embedding"_s;
    h.publishedForms = publishedForms;
    return h;
}

} // namespace posenc::Sincos2dTableCheck
