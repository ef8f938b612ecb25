// 2-D RoPE's own quantities (docs/ARCHITECTURE.md, "The quantity table"): each pair's axis and
// frequency, the cos and sin tables of the patch grid in the model's own order, and the score of
// one patch against the grid.
#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/rope2d/Rope2dRotation.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QStringList kRope2dReads = {u"encoding"_s, u"rope-2d-style"_s,      u"grid"_s,      u"axes-dim"_s,
                                  u"head-dim"_s, u"spatial-merge-size"_s, u"rope-theta"_s};

std::optional<QString> needsRope2d(const Params &params)
{
    if (params.encoding != Encoding::Rope2d)
        return u"only the rope-2d encoding rotates by a patch's row and column"_s;
    return std::nullopt;
}

std::uint64_t rope2dCells(const Block &block)
{
    return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols);
}

std::int64_t rope2dHeadDim(const Params &p)
{
    return p.rope.headDim;
}

// Each axis's values at every coordinate, kept by the source, in float32.
std::uint64_t sourceCells(const Params &p)
{
    const std::vector<std::int64_t> &g = p.sincos2d.grid;
    return 2 * static_cast<std::uint64_t>(rope2dHeadDim(p)) * static_cast<std::uint64_t>(g[0] + g[1] + 1);
}

// "qwen-vit, grid 32 × 32, head_dim = 80, θ = 10000".
QStringList rope2dParts(const Params &params)
{
    return {u"%1, grid %2 × %3, head_dim = %4, θ = %5"_s.arg(ParamText::get(params, u"rope-2d-style"_s))
                .arg(params.sincos2d.grid[0])
                .arg(params.sincos2d.grid[1])
                .arg(params.rope.headDim)
                .arg(NumberText::compact(params.rope.theta, 6))};
}

// cos, sin and a score of unit vectors lie in [-1, 1].
double rope2dUnitBound(const Params &)
{
    return 1.0;
}

QuantitySpec rope2dTableQuantity(Quantity quantity, bool cosine)
{
    QuantitySpec q;
    q.quantity = quantity;
    q.name = cosine ? u"rope2d-cos"_s : u"rope2d-sin"_s;
    q.label = cosine ? u"2-D RoPE cos"_s : u"2-D RoPE sin"_s;
    q.help = u"the %1 table of the grid's patches [H·W, head_dim], one row per patch in the model's order\n"
             "              (qwen-vit: merge blocks; else row-major) and its columns' pairing (rope-2d)"_s.arg(
                 cosine ? u"cos"_s : u"sin"_s);
    q.reads = kRope2dReads + QStringList {u"rope-2d-origin"_s}; // the ids start at the grid's origin
    q.tiling = Tiling::WholeRows;
    q.missing = needsRope2d;
    q.shape = [](const Params &p) { return Shape {p.sincos2d.grid[0] * p.sincos2d.grid[1], rope2dHeadDim(p)}; };
    q.workCells = [](const Params &p, const Block &block) { return rope2dCells(block) + sourceCells(p); };
    q.fill = [cosine](const Engine &engine, const Block &block, BlockRef out, bool) {
        engine.source<Rope2dRotation>().fillTable(cosine, block, out);
    };
    q.bound = rope2dUnitBound;
    q.parameters = rope2dParts;
    return q;
}

} // namespace

QuantitySpec makeRope2dFrequenciesQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::Rope2dFrequencies;
    q.name = u"rope2d-frequencies"_s;
    q.label = u"2-D RoPE frequencies"_s;
    q.help = u"one row per rotary pair: the pair, its axis (0 t, 1 h the row, 2 w the column, 3 l) and its\n"
             "              inverse frequency (rope-2d)"_s;
    q.columnNames = {u"pair"_s, u"axis"_s, u"inv_freq"_s};
    q.reads = kRope2dReads;
    q.tiling = Tiling::WholeRows;
    q.missing = needsRope2d;
    q.shape = [](const Params &p) { return Shape {rope2dHeadDim(p) / 2, 3}; };
    q.workCells = [](const Params &p, const Block &block) { return rope2dCells(block) + sourceCells(p); };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        const Rope2dRotation &rotation = engine.source<Rope2dRotation>();
        for (std::int64_t r = 0; r < block.rows; ++r) {
            const auto j = static_cast<std::size_t>(block.row0 + r);
            const double values[] = {double(j), double(rotation.axes()[j]), rotation.inverseFrequencies()[j]};
            for (std::int64_t c = 0; c < block.cols; ++c)
                out(r, c) = static_cast<float>(values[block.col0 + c]);
        }
    };
    q.bound = [](const Params &) { return 3.0; }; // the axis, 0 to 3; the frequencies below 1
    q.parameters = rope2dParts;
    return q;
}

QuantitySpec makeRope2dCosQuantity()
{
    return rope2dTableQuantity(Quantity::Rope2dCos, true);
}

QuantitySpec makeRope2dSinQuantity()
{
    return rope2dTableQuantity(Quantity::Rope2dSin, false);
}

QuantitySpec makeRope2dScoreQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::Rope2dScore;
    q.name = u"rope2d-score"_s;
    q.label = u"2-D RoPE score against a patch"_s;
    q.help = u"<R(p0) q, R(p) q> / |q|^2 for q all ones and p0 the --patch, over the grid [H, W] (rope-2d)"_s;
    q.reads = kRope2dReads + QStringList {u"patch"_s};
    q.tiling = Tiling::WholeRows;
    q.missing = needsRope2d;
    q.shape = [](const Params &p) { return Shape {p.sincos2d.grid[0], p.sincos2d.grid[1]}; };
    q.workCells = [](const Params &p, const Block &block) {
        return rope2dCells(block) + sourceCells(p) + 2 * static_cast<std::uint64_t>(block.rows + block.cols);
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        const Params &p = engine.params();
        const auto [row, column] = p.rope2d.patchIn(p.sincos2d.grid);
        engine.source<Rope2dRotation>().fillScore(block, out, row, column);
    };
    q.bound = rope2dUnitBound;
    q.parameters = [](const Params &p) {
        const auto [row, column] = p.rope2d.patchIn(p.sincos2d.grid);
        return rope2dParts(p) << u"patch (%1, %2)"_s.arg(row).arg(column);
    };
    return q;
}

} // namespace posenc
