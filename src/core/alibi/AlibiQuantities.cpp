// ALiBi's own quantities (docs/ARCHITECTURE.md, "The quantity table"): the slope of every head,
// and the bias matrix of head K, each cell exact to float32 against the reference's get_slopes.
#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/alibi/AlibiSlopes.h"

#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

std::optional<QString> needsAlibi(const Params &params)
{
    return HeadBias::missing(AlibiSlopes::biasFamily(), params);
}

std::uint64_t blockCells(const Block &block)
{
    return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols);
}

} // namespace

QuantitySpec makeAlibiSlopesQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::AlibiSlopes;
    q.name = u"alibi-slopes"_s;
    q.label = u"ALiBi slopes"_s;
    q.help = u"one row per head k = 1..H: k, its slope m_k (get_slopes), log2 m_k, and 1 where the slope\n"
             "              comes from the interleave of twice the power of two below H, else 0 (alibi)"_s;
    q.columnNames = {u"head"_s, u"slope"_s, u"log2_slope"_s, u"interleaved"_s};
    q.reads = {u"encoding"_s, u"heads"_s};
    q.tiling = Tiling::WholeRows;
    q.missing = needsAlibi;
    q.shape = [](const Params &p) { return Shape {p.alibi.heads, 4}; };
    // Every head's slope, in double, beside the block.
    q.workCells = [](const Params &p, const Block &block) {
        return blockCells(block) + 2 * static_cast<std::uint64_t>(p.alibi.heads);
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        const std::int64_t heads = engine.params().alibi.heads;
        const std::vector<double> slopes = AlibiSlopes::all(heads);
        const std::int64_t geometric = AlibiSlopes::geometricHeads(heads);
        for (std::int64_t r = 0; r < block.rows; ++r) {
            const std::int64_t k = block.row0 + r + 1; // heads are numbered from 1
            const double m = slopes[static_cast<std::size_t>(k - 1)];
            const double values[] = {static_cast<double>(k), m, std::log2(m), k > geometric ? 1.0 : 0.0};
            for (std::int64_t c = 0; c < block.cols; ++c)
                out(r, c) = static_cast<float>(values[block.col0 + c]);
        }
    };
    // A slope is below 1: m_1 = 2^(-8/H) is the largest.
    q.bound = [](const Params &) { return 1.0; };
    q.parameters = [](const Params &p) {
        return QStringList {p.alibi.heads == 1 ? u"H = 1 head"_s : u"H = %1 heads"_s.arg(p.alibi.heads)};
    };
    return q;
}

QuantitySpec makeAlibiBiasQuantity()
{
    return HeadBias::biasQuantity(AlibiSlopes::biasFamily(), Quantity::AlibiBias);
}

} // namespace posenc
