// Sandwich's own quantities (docs/ARCHITECTURE.md, "The quantity table"): head K's bias matrix as
// NeMo's SandwichRelativePositionEmbedding returns it, and every head's bias against the distance,
// each cell its float64 value rounded once to float32.
#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/sandwich/SandwichBias.h"

#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

std::optional<QString> needsSandwich(const Params &params)
{
    return HeadBias::missing(SandwichBias::biasFamily(), params);
}

// "d = 64, causal, L = 512"; without the mask for the distances, which it does not change.
QString sandwichText(const Params &p, bool withMask)
{
    const QString mask = withMask ? ParamText::get(p, u"sandwich-mask"_s) + u", "_s : QString();
    return u"d = %1, %2L = %3"_s.arg(p.sandwich.headDim).arg(mask, NumberText::count(p.maxLen));
}

} // namespace

QuantitySpec makeSandwichBiasQuantity()
{
    return HeadBias::biasQuantity(SandwichBias::biasFamily(), Quantity::SandwichBias);
}

QuantitySpec makeSandwichDistanceQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::SandwichDistance;
    q.name = u"sandwich-distance"_s;
    q.label = u"Sandwich bias by distance"_s;
    q.help = u"each head's bias at distance r = 0..max_len-1 [max_len, H]: column h - 1 holds head h's\n"
             "              (sum_k cos(r / 10000^(2k/d)) - d/2) / (8h/H), the keys at or before the query (sandwich)"_s;
    q.reads = {u"encoding"_s, u"max-len"_s, u"sandwich-heads"_s, u"sandwich-head-dim"_s};
    q.tiling = Tiling::WholeRows;
    q.missing = needsSandwich;
    q.shape = [](const Params &p) { return Shape {p.maxLen, p.sandwich.heads}; };
    // The frequencies and each row's sum beside the block.
    q.workCells = [](const Params &p, const Block &block) {
        return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols)
            + static_cast<std::uint64_t>(SandwichBias::terms(p.sandwich.headDim));
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        const SandwichParams &p = engine.params().sandwich;
        const std::vector<double> w = SandwichBias::frequencies(p.headDim);
        for (std::int64_t r = 0; r < block.rows; ++r) {
            const double shifted = SandwichBias::cosineSum(w, block.row0 + r) - 0.5 * static_cast<double>(p.headDim);
            for (std::int64_t c = 0; c < block.cols; ++c)
                out(r, c) = static_cast<float>(shifted / SandwichBias::scale(p.heads, block.col0 + c + 1));
        }
    };
    q.bound = [](const Params &p) { return needsSandwich(p) ? 1.0 : SandwichBias::largest(p.sandwich, 1); };
    q.parameters = [](const Params &p) {
        return QStringList {p.sandwich.heads == 1 ? u"H = 1 head"_s : u"H = %1 heads"_s.arg(p.sandwich.heads),
                            sandwichText(p, false)};
    };
    return q;
}

} // namespace posenc
