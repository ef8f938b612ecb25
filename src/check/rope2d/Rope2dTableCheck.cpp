#include "Rope2dTableCheck.h"

#include "check/DeclaredShape.h"
#include "check/DeclaredWords.h"
#include "check/FitNumbers.h"
#include "check/PairAngles.h"
#include "check/SampleScore.h"
#include "check/TableReference.h"
#include "check/rope2d/Rope2dPairAxes.h"
#include "check/rope2d/Rope2dWindowOrder.h"
#include "core/NumberText.h"
#include "core/PositionalTable.h"
#include "core/rope2d/Rope2dRotation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::Rope2dTableCheck {

namespace {

const QString kCos = u"rope2d-cos"_s;
const QString kSin = u"rope2d-sin"_s;
const QString kPositions = u"rope2d-positions"_s;

QString styleWord(Rope2dStyle style)
{
    static const QStringList words {u"qwen-vit"_s, u"pixtral"_s, u"flux"_s, u"axial"_s, u"hunyuan"_s};
    return words.value(int(style));
}

// The style's table (Rope2dRotation), its tiles a few rows at a time; position(row) the patch's
// larger id, which float32 angles' error grows with.
class Rope2dReference final : public TableReference
{
public:
    Rope2dReference(const Params &params, bool cosine)
        : m_rotation(params)
        , m_cosine(cosine)
    { }

    std::int64_t cols() const override { return m_rotation.headDim(); }
    std::int64_t rows() const override { return m_rotation.patches(); }
    bool compared(std::int64_t) const override { return true; }
    std::int64_t position(std::int64_t row) const override
    {
        const auto [r, c] = m_rotation.patchAt(row);
        return std::max(r + m_rotation.originOf(Rope2dRotation::kRow),
                        c + m_rotation.originOf(Rope2dRotation::kColumn));
    }
    void forEachTile(const Block &block, const TileSink &sink) const override
    {
        // Tiles of the stream's run of rows, which its reads of the table are multiples of.
        constexpr std::int64_t kTileRows = PositionalTable::kRunRows;
        RowMatrixXf values(kTileRows, std::max<std::int64_t>(block.cols, 1));
        for (std::int64_t r0 = block.row0; r0 < block.rowEnd(); r0 += kTileRows) {
            const std::int64_t n = std::min(kTileRows, block.rowEnd() - r0);
            m_rotation.fillTable(m_cosine, Block {r0, n, block.col0, block.cols}, values.topRows(n).leftCols(block.cols));
            sink(Tile {r0, n, block.col0, block.cols, values.data(), values.cols()});
        }
    }
    const Rope2dRotation &rotation() const { return m_rotation; }

private:
    Rope2dRotation m_rotation;
    bool m_cosine;
};

// What the sample shows: each pair's value per sampled row, and whether it is a cos table (patch
// (0, 0) turns no pair: a row of ones, or of zeros).
using Pairs = PairAngles::PairSample;

// A style and its pairs, from patch 1 (one column right of patch 0 in every style's order).
struct Shape
{
    Rope2dStyle style = Rope2dStyle::QwenVit;
    std::vector<std::int64_t> axesDim; // flux
    double theta = 0.0; // as estimated
    // The thetas the two angles it was estimated from allow, within their slack
    // (PairSample::angleSlack): a half format's rounding leaves a wide span.
    double thetaLo = 0.0, thetaHi = 0.0;
};

// theta from two pairs of row 1, the angle of b over that of a being theta^(-1 / k); and its span.
void estimateTheta(Shape &s, const PairAngles::PairSample &p, std::int64_t a, std::int64_t b, double k)
{
    const double angleA = p.angle(1, a), angleB = p.angle(1, b), slackA = p.slack(1, a), slackB = p.slack(1, b);
    s.theta = std::pow(angleB / angleA, -k);
    const double ratioLo = (angleB - slackB) / (angleA + slackA), ratioHi = (angleB + slackB) / (angleA - slackA);
    s.thetaLo = angleA > slackA ? std::pow(ratioHi, -k) : 0.0;
    s.thetaHi = ratioLo > 0.0 ? std::pow(ratioLo, -k) : std::numeric_limits<double>::infinity();
}

// The thetas a shape is tried at, the fewest digits first: the estimate's roundings, and those of its
// span's ends that lie within the span (where a half format's rounding leaves the estimate too far
// off for its own few digits to reach the table's).
std::vector<double> thetasOf(const Shape &s)
{
    std::vector<double> out = FitNumbers::roundings(s.theta, 7);
    for (const double end : {s.thetaLo, s.thetaHi}) {
        for (const double theta : FitNumbers::roundings(end, 7)) {
            if (theta >= s.thetaLo && theta <= s.thetaHi && std::find(out.begin(), out.end(), theta) == out.end())
                out.push_back(theta);
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](double x, double y) { return FitNumbers::digitsOf(x) < FitNumbers::digitsOf(y); });
    return out;
}

// FLUX's shape of axes [2 still, 2 width, 2 width] pairs, theta from the rows' first pair c0 and the
// next, whose angles' ratio is theta^(-2 / d1).
Shape fluxShape(Shape s, std::int64_t still, std::int64_t width, const Pairs &p, std::int64_t c0)
{
    s.style = Rope2dStyle::Flux;
    s.axesDim = {2 * still, 2 * width, 2 * width};
    estimateTheta(s, p, c0, c0 + 1, double(width));
    return s;
}

// Whether pair j turns by 1 rad in row i, or not at all, within its angle's slack.
bool turnsByOne(const Pairs &p, std::int64_t i, std::int64_t j)
{
    return std::fabs(p.angle(i, j) - 1.0) < 1e-3 + p.slack(i, j);
}

bool turns(const Pairs &p, std::int64_t i, std::int64_t j)
{
    return std::fabs(p.angle(i, j)) > 1e-3 + p.slack(i, j);
}

std::optional<Shape> shapeOf(const Pairs &p, std::int64_t pairs)
{
    if (p.value.rows() < 2 || pairs < 2)
        return std::nullopt;
    const auto at1 = [&](std::int64_t j) { return p.angle(1, j); };
    const auto still = [&](std::int64_t from, std::int64_t to) {
        for (std::int64_t j = from; j < to; ++j) {
            if (turns(p, 1, j))
                return false;
        }
        return true;
    };
    const std::int64_t q = pairs / 2;
    Shape s;
    if (p.half) {
        // Rows on pairs [0, q), columns on [q, 2q): the Qwen ViT's column ladder starts at 1,
        // Pixtral's at theta^(-2 / head_dim).
        if (pairs % 2 != 0 || !still(0, q) || q + 1 >= pairs || at1(q) <= 0.0)
            return std::nullopt;
        s.style = turnsByOne(p, 1, q) ? Rope2dStyle::QwenVit : Rope2dStyle::Pixtral;
        estimateTheta(s, p, q, q + 1, double(2 * pairs) / 4.0); // theta^(-4 / head_dim)
        return s;
    }
    if (turnsByOne(p, 1, 0)) { // axial: columns on [0, q), then rows
        if (pairs % 2 != 0 || !still(q, pairs) || q < 2)
            return std::nullopt;
        s.style = Rope2dStyle::Axial;
        estimateTheta(s, p, 0, 1, double(2 * pairs) / 4.0);
        return s;
    }
    // FLUX: axis 0 never turns, axis 1 the rows, axis 2 the columns from the first pair at angle 1.
    std::int64_t c0 = 0;
    while (c0 < pairs && !turnsByOne(p, 1, c0))
        ++c0;
    std::int64_t r0 = 0;
    const auto everTurns = [&](std::int64_t j) {
        for (std::int64_t i = 0; i < p.value.rows(); ++i) {
            if (turns(p, i, j))
                return true;
        }
        return false;
    };
    while (r0 < c0 && !everTurns(r0))
        ++r0;
    std::int64_t rowPairs = c0 - r0;
    if (rowPairs == 0 && c0 < pairs - 1 && still(0, c0)) {
        // A grid of one row or one column: one of the two axes never turns, and FLUX's EmbedND gives
        // them one width (axes_dim [d0, d1, d1]). One column: the turning pairs from c0 are the rows,
        // the still ones after them the columns; one row: those from c0 are the columns.
        std::int64_t last = pairs;
        while (last > c0 && !everTurns(last - 1))
            --last;
        if (last < pairs && pairs - last == last - c0)
            return fluxShape(s, c0, last - c0, p, c0);
        if (last == pairs && 2 * c0 > pairs)
            return fluxShape(s, c0 - (pairs - c0), pairs - c0, p, c0);
        return std::nullopt;
    }
    if (c0 >= pairs - 1 || r0 == 0 || rowPairs == 0 || c0 + rowPairs > pairs || !still(0, c0))
        return std::nullopt;
    s.style = Rope2dStyle::Flux;
    s.axesDim = {2 * r0, 2 * rowPairs, 2 * rowPairs};
    if (const std::int64_t rest = pairs - c0 - rowPairs; rest > 0)
        s.axesDim.push_back(2 * rest);
    estimateTheta(s, p, c0, c0 + 1, double(rowPairs)); // theta^(-2 / d2), d2 = 2 rowPairs
    return s;
}

// The id a sampled row turns an axis's pairs by. The slowest pair's angle is read every way that
// puts the id in [0, `largestId`] (the angle or its mirror, cos: -angle, sin: pi - angle, up to whole
// turns): on a wide grid it passes half a turn (Qwen ViT's slowest pair at head_dim 16 turns
// 0.001 a patch, so row 4095 is at 4.1 rad, where its cos reads 2.19). Each reading is refined pair
// by pair towards the fastest (PairAngles::refined: a pair that only agrees within its angle's slack
// says nothing finer); of the whole ones, the one the pairs agree with best is the id. With it, how
// far from whole a reading may be: its pairs' least slack in ids, twice (the estimate within a pair's
// slack of its angle, the angle within that of the true one).
std::pair<double, double> idOf(const Pairs &p, std::int64_t i,
                               const std::vector<std::pair<double, std::int64_t>> &slowFirst, std::int64_t largestId)
{
    constexpr double kTurn = 2.0 * std::numbers::pi;
    const auto [slowest, j0] = slowFirst.front();
    const double a = p.angle(i, j0), slack0 = p.slack(i, j0);
    const double largest = slowest * double(largestId);
    double whole = std::numeric_limits<double>::infinity();
    for (const auto &[inv, j] : slowFirst)
        whole = std::min(whole, 2.0 * p.slack(i, j) / inv);
    whole += 0.01;
    double best = -1.0, bestGap = std::numeric_limits<double>::infinity();
    for (const double base : {a, p.cosine ? -a : std::numbers::pi - a}) {
        for (double turned = base; turned <= largest + kTurn; turned += kTurn) {
            if (turned < -0.01 * slowest - slack0 || turned > largest + 0.01 * slowest + slack0)
                continue;
            double x = PairAngles::leastId(turned, slack0, slowest), gap = 0.0;
            for (const auto &[inv, j] : slowFirst) {
                double off = 0.0;
                x = PairAngles::refined(x, p.angle(i, j), p.slack(i, j), p.cosine, inv, &off);
                gap += off;
            }
            // Ids are whole: a reading a whole number of turns of every pair away is not (at theta
            // 10000, 2000 pi turns pairs of inv_freq 1, 0.1, 0.01 and 0.001 whole turns alike).
            if (std::fabs(x - std::round(x)) > whole)
                gap += 1.0;
            if (gap < bestGap) {
                bestGap = gap;
                best = x;
            }
        }
    }
    return {best, whole};
}

struct Placed
{
    std::int64_t n, row, column;
};

// Each sampled patch's (row, column) under `params` (its frequencies), or nothing when an id is
// not a whole number.
std::optional<std::vector<Placed>> placesOf(const Pairs &p, const TableEvidence &e, const Params &params)
{
    const Rope2dRotation rotation(params);
    std::vector<std::pair<double, std::int64_t>> rows, columns;
    for (std::int64_t j = 0; j < rotation.pairs(); ++j) {
        const int axis = rotation.axes()[std::size_t(j)];
        if (axis == Rope2dRotation::kRow || axis == Rope2dRotation::kColumn)
            (axis == Rope2dRotation::kRow ? rows : columns)
                .push_back({rotation.inverseFrequencies()[std::size_t(j)], j});
    }
    if (rows.empty() || columns.empty())
        return std::nullopt;
    std::sort(rows.begin(), rows.end());
    std::sort(columns.begin(), columns.end());
    std::vector<Placed> out;
    for (std::int64_t i = 0; i < p.value.rows(); ++i) {
        // No side of the grid is longer than its patches, nor than the longest side a grid has.
        const std::int64_t largestId = std::min(e.rows(), Sincos2dParams::kMaxSide) - 1;
        const auto [r, rowWhole] = idOf(p, i, rows, largestId);
        const auto [c, columnWhole] = idOf(p, i, columns, largestId);
        if (!(r > -0.01 && c > -0.01) || std::fabs(r - std::round(r)) > rowWhole
            || std::fabs(c - std::round(c)) > columnWhole)
            return std::nullopt;
        out.push_back({e.sample.rows[std::size_t(i)], std::int64_t(std::round(r)), std::int64_t(std::round(c))});
    }
    return out;
}

// The grid (and the Qwen ViT's merge size) that puts every sampled patch where it was read.
bool placeGrid(Params &params, const std::vector<Placed> &placed, std::int64_t patches)
{
    const std::vector<std::int64_t> merges = params.rope2d.style == Rope2dStyle::QwenVit
        ? std::vector<std::int64_t> {2, 1, 4, 3}
        : std::vector<std::int64_t> {1};
    for (const std::int64_t m : merges) {
        params.mrope.spatialMergeSize = m;
        for (std::int64_t w = m; w <= std::min(patches, Sincos2dParams::kMaxSide); w += m) {
            if (patches % w != 0 || (patches / w) % m != 0 || patches / w > Sincos2dParams::kMaxSide)
                continue;
            params.sincos2d.grid = {patches / w, w};
            const Rope2dRotation rotation(params);
            const bool fits = std::all_of(placed.begin(), placed.end(), [&](const Placed &x) {
                return rotation.patchAt(x.n) == std::pair(x.row, x.column);
            });
            if (fits) {
                params.rope2d.patch.clear(); // the centre
                return true;
            }
        }
    }
    return false;
}

Params paramsOf(const Shape &s, double theta, std::int64_t cols, std::int64_t rows)
{
    Params p;
    p.encoding = Encoding::Rope2d;
    p.dModel = std::clamp<std::int64_t>(cols, 1, Params::kMaxDModel);
    p.maxLen = std::clamp<std::int64_t>(rows, 1, Params::kMaxLen);
    p.rope.headDim = cols;
    p.rope.theta = theta;
    p.rope2d.style = s.style;
    if (s.style == Rope2dStyle::Flux)
        p.rope2d.axesDim = s.axesDim;
    return p;
}

// The tolerance of a table whose angles are float(id) * float(inv), as torch forms them: a few
// units of 2^-24 of each pair's angle, which grows with the patch's ids.
// Whether the style's table is HF's rotate_half layout, a pair's columns (c, c + pairs).
bool halfLayout(const Params &p)
{
    return p.rope2d.style == Rope2dStyle::QwenVit || p.rope2d.style == Rope2dStyle::Pixtral
        || p.rope2d.style == Rope2dStyle::Hunyuan;
}

CellTolerance float32Angles(CellTolerance t, const Params &params, bool half)
{
    const Rope2dRotation rotation(params);
    t.perPosition.assign(std::size_t(rotation.headDim()), 0.0);
    for (std::int64_t j = 0; j < rotation.pairs(); ++j) {
        const double allowance = 3.0 * 0x1p-24 * rotation.inverseFrequencies()[std::size_t(j)];
        for (const std::int64_t c : half ? std::vector {j, j + rotation.pairs()} : std::vector {2 * j, 2 * j + 1})
            t.perPosition[std::size_t(c)] = allowance;
    }
    return t;
}

QString words(const Params &p)
{
    QString style = styleWord(p.rope2d.style);
    if (p.rope2d.style == Rope2dStyle::Flux) {
        QStringList dims;
        for (const std::int64_t d : p.rope2d.axesDim)
            dims.append(QString::number(d));
        style += u" (axes_dim %1)"_s.arg(dims.join(u", "_s));
    }
    if (p.rope2d.style == Rope2dStyle::QwenVit)
        style += u" (merge %1)"_s.arg(p.mrope.spatialMergeSize);
    const auto [row0, column0] = p.rope2d.originIds();
    const QString origin = row0 != 0 || column0 != 0 ? u", ids from (%1, %2)"_s.arg(row0).arg(column0) : QString();
    return u"%1, a grid of %2 x %3 patches%6, head_dim %4, theta %5"_s.arg(style)
        .arg(p.sincos2d.grid[0])
        .arg(p.sincos2d.grid[1])
        .arg(p.rope.headDim)
        .arg(NumberText::exact(p.rope.theta))
        .arg(origin);
}

// The models whose 2-D RoPE ships at a style and theta (resources/presets, each from its code): a
// table of theirs, at any grid and head, is correct against them; another theta is a variant.
QString publishedAs(const Params &p)
{
    const double theta = p.rope.theta;
    switch (p.rope2d.style) {
    case Rope2dStyle::QwenVit:
        // Every Qwen-VL's vision config has spatial_merge_size 2 (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): the
        // patches in 2 x 2 blocks. Row by row (merge 1) the frequencies are theirs, the order no
        // model's (ServiceNow/Fast-LLM#401's pre-fix table read as correct): a variant.
        return theta == 10000.0 && p.mrope.spatialMergeSize == 2
            ? u"Qwen2-VL's and Qwen2.5-VL's vision rotary (VisionRotaryEmbedding, theta 10000, spatial_merge_size 2)"_s
            : QString();
    case Rope2dStyle::Pixtral:
        return theta == 10000.0 ? u"Pixtral's PixtralRotaryEmbedding (theta 10000)"_s : QString();
    case Rope2dStyle::Flux:
        if (theta == 10000.0 && p.rope2d.axesDim == std::vector<std::int64_t> {16, 56, 56})
            return u"FLUX.1's EmbedND (axes_dim 16, 56, 56, theta 10000)"_s;
        if (theta == 2000.0 && p.rope2d.axesDim == std::vector<std::int64_t> {32, 32, 32, 32})
            return u"FLUX.2's EmbedND (axes_dim 32, 32, 32, 32, theta 2000)"_s;
        return QString();
    case Rope2dStyle::Axial:
        // naver-ai/rope-vit, models/vit_rope.py: compute_axial_cis(dim, end_x, end_y, theta=100.0).
        return theta == 100.0 ? u"RoPE-ViT's axial RoPE (compute_axial_cis, theta 100)"_s : QString();
    case Rope2dStyle::Hunyuan:
        // Tencent-Hunyuan/HunyuanImage-3.0 hunyuan_image_3/modeling_hunyuan_image_3.py, build_2d_rope(base=10000).
        return theta == 10000.0 ? u"HunyuanImage 3.0's build_2d_rope (theta 10000)"_s : QString();
    }
    return QString();
}

TableMatch matchOf(const TableEvidence &e, const Params &p, bool cosine, bool f32)
{
    TableMatch m;
    m.table = cosine ? kCos : kSin;
    m.findings = {{u"style"_s, styleWord(p.rope2d.style)},
                  {u"grid"_s, u"%1x%2"_s.arg(p.sincos2d.grid[0]).arg(p.sincos2d.grid[1])},
                  {u"base"_s, p.rope.theta}};
    m.positionOffset = 0;
    m.firstPositionRow = 0;
    m.precision = tablePrecision(e.format, f32);
    m.reference = std::make_shared<const Rope2dReference>(p, cosine);
    m.tolerance = cellTolerance(e.format, e.table.storedType(), e.table.textRounding(), 1.0, 2.0);
    if (f32)
        m.tolerance = float32Angles(m.tolerance, p, halfLayout(p));
    if (p.isValid())
        m.params = p;
    m.referenceText = u"2-D RoPE, "_s + words(p);
    m.verdict = CheckVerdict::Correct;
    m.correctAgainst = publishedAs(p);
    m.diagnosis = u"2-D RoPE's %1 table: %2"_s.arg(cosine ? u"cos"_s : u"sin"_s, words(p));
    if (p.rope2d.style == Rope2dStyle::Flux)
        m.notes.append(p.rope2d.axesDim.size() >= 4
                           ? u"FLUX.2 puts its text tokens at (0, 0, 0, l): they turn on axis 3 alone"_s
                           : u"FLUX puts its text tokens at (0, 0, 0), the rotation of patch (0, 0): text and "
                             "that patch are at distance 0 on every axis"_s);
    return m;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    if (e.infinite || e.sameRow || e.cols() < 4 || e.cols() % 2 != 0 || e.cols() > RopeParams::kMaxHeadDim)
        return std::nullopt;
    const auto pairs = PairAngles::read(e);
    const auto shape = pairs ? shapeOf(*pairs, e.cols() / 2) : std::nullopt;
    if (!shape || !std::isfinite(shape->theta) || shape->theta <= 1.0)
        return std::nullopt;
    // theta rounded to the fewest digits whose table explains the sample.
    std::optional<TableCandidate> nearest;
    for (const double theta : thetasOf(*shape)) {
        Params p = paramsOf(*shape, theta, e.cols(), e.rows());
        const auto placed = placesOf(*pairs, e, p);
        if (!placed || !placeGrid(p, *placed, e.rows()) || !p.isValid())
            continue;
        const Rope2dReference reference(p, pairs->cosine);
        const CellTolerance exact = cellTolerance(e.format, e.table.storedType(), e.table.textRounding(), 1.0, 2.0);
        const CellTolerance wide = float32Angles(exact, p, pairs->half);
        const SampleScore score = scoreOnSample(reference, e.sample, exact, &wide);
        // Float32 angles (torch's outer product of ids and inv_freq) where they explain the cells the
        // exact angles leave beyond the rounding: most of them, not a changed cell or two.
        const bool f32 = score.bad > 0 && 2 * score.badWithFloat32Angles < score.bad;
        TableCandidate c;
        c.compared = score.compared;
        c.bad = f32 ? score.badWithFloat32Angles : score.bad;
        c.claims = explains(c.compared, c.bad);
        c.residual = score.relativeResidual();
        if (c.claims) {
            c.match = matchOf(e, p, pairs->cosine, f32);
            return c;
        }
        if (!nearest || c.residual < nearest->residual) {
            c.nearest = u"nearest 2-D RoPE table: "_s + words(p);
            c.unclaimed
                = u"2-D RoPE's table of %1 leaves %2 of the sampled cells beyond the tolerance"_s.arg(words(p)).arg(
                    c.bad);
            nearest = c;
        }
    }
    return nearest;
}

// The rows of a declared table that deviates, read as the first patches of a row-major grid of
// another width: candle's pixtral took the first h·w rows of the 64 x 64 maximum grid's table for an
// h x w image (huggingface/candle#2678), a width exchanged with the height gives the same. The width
// whose table explains the sample, or nothing.
std::optional<std::int64_t> otherWidth(const TableEvidence &e, const Params &params, bool cosine,
                                       const CellTolerance &exact, const CellTolerance &wide)
{
    if (params.rope2d.style == Rope2dStyle::QwenVit)
        return std::nullopt; // its patches go in merge blocks, not row by row
    constexpr std::int64_t kWidest = 1024;
    for (std::int64_t w = 1; w <= kWidest; ++w) {
        if (w == params.sincos2d.grid[1])
            continue;
        Params q = params;
        q.sincos2d.grid = {(e.rows() + w - 1) / w, w};
        if (!q.isValid())
            continue;
        const SampleScore s = scoreOnSample(Rope2dReference(q, cosine), e.sample, exact, &wide);
        if (s.compared > 0 && std::min(s.bad, s.badWithFloat32Angles) == 0)
            return w;
    }
    return std::nullopt;
}

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &params, const QString &table);

// A declared grid whose patches the table's rows are not (DeclaredShape): the declared rotation on
// another grid of the rows' patches, every other parameter the declared one, whose table holds the
// sample (a square grid where H x W is declared); the mistake grid, both grids said.
std::optional<TableMatch> otherGrid(const TableEvidence &e, const Params &params, const QString &table)
{
    const CellTolerance exact = cellTolerance(e.format, e.table.storedType(), e.table.textRounding(), 1.0, 2.0);
    const std::vector<std::int64_t> &mine = params.sincos2d.grid;
    for (const auto &[h, w] : DeclaredShape::otherGrids(e.rows(), mine[0], mine[1])) {
        Params q = params;
        q.sincos2d.grid = {h, w};
        if (!q.isValid() || Rope2dRotation(q).patches() != e.rows())
            continue;
        const CellTolerance wide = float32Angles(exact, q, halfLayout(q));
        const SampleScore s = scoreOnSample(Rope2dReference(q, table == kCos), e.sample, exact, &wide);
        if (!explains(s.compared, std::min(s.bad, s.badWithFloat32Angles)))
            continue;
        auto read = expect(e, q, table);
        auto *m = std::get_if<TableMatch>(&read);
        if (!m)
            return std::nullopt;
        const QString said = u"grid: the table is the 2-D RoPE table of a %1 x %2 grid (%3 patches), %4 is %5 x %6 "
                             "(%7 patches)"_s.arg(h)
                                 .arg(w)
                                 .arg(h * w)
                                 .arg(DeclaredWords::referenceOf())
                                 .arg(mine[0])
                                 .arg(mine[1])
                                 .arg(mine[0] * mine[1]);
        return DeclaredShape::named(std::move(*m), {DeclaredShape::kGrid}, said, u"grid %1 x %2"_s.arg(h).arg(w));
    }
    return std::nullopt;
}

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &params, const QString &table)
{
    if (table != kCos && table != kSin)
        return u"2-D RoPE's tables are '%1' and '%2', not '%3'"_s.arg(kCos, kSin, table);
    if (!params.isValid() || params.encoding != Encoding::Rope2d)
        return u"the parameters are not a valid 2-D RoPE's"_s;
    const Rope2dRotation rotation(params);
    if (rotation.headDim() == e.cols() && rotation.patches() != e.rows()) {
        if (auto named = otherGrid(e, params, table))
            return std::move(*named);
    }
    if (rotation.headDim() != e.cols() || rotation.patches() != e.rows())
        return u"the parameters give a table of %1 x %2; this one is %3 x %4"_s.arg(rotation.patches())
            .arg(rotation.headDim())
            .arg(e.rows())
            .arg(e.cols());
    // Float32 angles where the sample needs them, as identify takes them: every published 2-D RoPE
    // forms ids x inv_freq in float32 (candle's pixtral, HF's PixtralRotaryEmbedding), a faithful
    // computation at the table's precision.
    const bool cosine = table == kCos;
    const Rope2dReference reference(params, cosine);
    const CellTolerance exact = cellTolerance(e.format, e.table.storedType(), e.table.textRounding(), 1.0, 2.0);
    const CellTolerance wide = float32Angles(exact, params, halfLayout(params));
    const SampleScore score = scoreOnSample(reference, e.sample, exact, &wide);
    const bool f32 = score.bad > 0 && 2 * score.badWithFloat32Angles < score.bad;
    TableMatch m = matchOf(e, params, cosine, f32);
    if ((f32 ? score.badWithFloat32Angles : score.bad) == 0)
        return m;
    if (const auto w = otherWidth(e, params, cosine, exact, wide)) {
        m.mistakes = {kPositions};
        m.verdict = CheckVerdict::Mistake;
        m.correctAgainst.clear();
        // The story follows the fitted grid: the declared one with its height and width exchanged
        // (a meshgrid indexed the other way, the patches read column-major), or a wider one cut
        // to the patch count (huggingface/candle#2678's pixtral), or only the width read.
        const std::int64_t h = params.sincos2d.grid[0], width = params.sincos2d.grid[1];
        const QString story = *w == h && e.rows() == h * width
            ? u": the declared grid with its height and width exchanged, a %1 x %2 grid read where %2 x %1 is "
              "declared (rows and columns of the patches transposed, as a meshgrid indexed the other way makes "
              "them)"_s.arg(width)
                  .arg(h)
            : *w > width ? u": the table of a wider grid cut to the image's patch count (huggingface/candle#2678)"_s
                         : QString();
        m.diagnosis = u"the rows are the first %1 patches of a grid %2 patches wide, patch k at (k div %2, k mod %2), "
                      "where the declared %3 x %4 grid puts it at (k div %4, k mod %4)%5"_s.arg(e.rows())
                          .arg(*w)
                          .arg(h)
                          .arg(width)
                          .arg(story);
    }
    return m;
}

} // namespace

TableHypothesis hypothesis()
{
    TableHypothesis h;
    h.tables = {kCos, kSin};
    h.findingKeys = {u"style"_s, u"grid"_s, u"base"_s};
    h.help = u"2-D RoPE's cos or sin table of a patch grid (patches x head_dim): the style (qwen-vit with its merge "
             "order, pixtral, flux with its axes, axial; hunyuan declared), the grid and rope_theta"_s;
    h.mistakes = {kPositions, Rope2dPairAxes::kPairAxes, CheckMistakes::kGridAxesSwapped, DeclaredShape::kGrid};
    h.fit = fit;
    h.expect = expect;
    // A declared table whose pairs turn at the declared frequencies, some or all with the other axis;
    // else a Qwen-VL vision table in Qwen2.5-VL's window order (unknown: an order not declared).
    h.nameDeclaredDefect = [](const TableMatch &declared, const TableRows &table) {
        if (auto named = Rope2dPairAxes::name(declared, table))
            return named;
        return Rope2dWindowOrder::name(declared, table);
    };
    return h;
}

} // namespace posenc::Rope2dTableCheck
