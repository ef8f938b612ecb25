// The rotary family's own quantities (docs/ARCHITECTURE.md, "The quantity table"): its
// frequencies, its cos and sin tables as HF returns them, what the rotation does to a score, and
// the rotation applied to s*E.
#include "core/Engine.h"
#include "core/NumberText.h"
#include "core/StreamStore.h"
#include "core/TitleText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeRotation.h"
#include "core/rope/RopeScore.h"
#include "core/rope/RopeTypes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What the frequencies read: the rotary dim, the base, the type and its keys, and max_len, from
// which dynamic takes its sequence and longrope its choice of factors.
const QStringList kRopeFrequencyReads
    = {u"encoding"_s,  u"max-len"_s,     u"head-dim"_s,         u"rope-theta"_s,      u"partial-rotary-factor"_s,
       u"rope-type"_s, u"rope-factor"_s, u"original-max-len"_s, u"low-freq-factor"_s, u"high-freq-factor"_s,
       u"beta-fast"_s, u"beta-slow"_s,   u"yarn-truncate"_s,    u"short-factor"_s,    u"long-factor"_s};
// The cos and sin tables add the layout and the attention factor's keys.
const QStringList kRopeTableReads
    = kRopeFrequencyReads + QStringList {u"rope-layout"_s, u"mscale"_s, u"mscale-all-dim"_s, u"attention-factor"_s};
// s*E's first head_dim columns: the embeddings' keys (d_model sets s = sqrt(d)).
const QStringList kRopeInputReads = kRopeTableReads
    + QStringList {u"rotary-place"_s, u"d-model"_s, u"scale"_s, u"init"_s, u"embeddings"_s, u"tokens"_s, u"seed"_s};

std::optional<QString> needsRope(const Params &params)
{
    if (params.encoding != Encoding::Rope)
        return u"only the rope encoding rotates queries and keys"_s;
    return std::nullopt;
}

// A bound of 1: cos and sin, a score of unit vectors, the inverse frequencies below 1.
double unitBound(const Params &)
{
    return 1.0;
}

// cos and sin carry the attention factor; the rotation keeps a pair's norm, times that factor.
double attentionBound(const Params &params)
{
    return needsRope(params) ? 1.0 : RopeFrequencies::attentionFactor(params);
}

// "head_dim = 128, rope_type yarn, θ = 10000, L = 4,096".
QStringList ropeParts(const Params &params)
{
    return {u"head_dim = %1, rope_type %2, θ = %3, L = %4"_s.arg(params.rope.headDim)
                .arg(RopeTypes::word(params.rope.type), NumberText::compact(params.rope.theta, 6),
                     NumberText::count(params.maxLen))};
}

std::uint64_t ropeBlockCells(const Params &, const Block &block)
{
    return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols);
}

QuantitySpec ropeTableQuantity(Quantity quantity, bool cosine)
{
    QuantitySpec q;
    q.quantity = quantity;
    q.name = cosine ? u"rope-cos"_s : u"rope-sin"_s;
    q.label = cosine ? u"RoPE cos"_s : u"RoPE sin"_s;
    q.help = u"the rotary %1 table as HF returns it [max_len, rotary_dim], the attention factor\n"
             "              included; half: theta_0..theta_(h-1) twice, interleaved: each twice in a row (rope)"_s.arg(
                 cosine ? u"cos"_s : u"sin"_s);
    q.reads = kRopeTableReads;
    // Half's columns c and h + c hold the same pair: the fill goes through whole rows.
    q.tiling = Tiling::WholeRows;
    q.missing = needsRope;
    q.shape = [](const Params &p) { return Shape {p.maxLen, RopeFrequencies::rotaryDim(p.rope)}; };
    q.workCells = ropeBlockCells;
    q.fill = [cosine](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        engine.source<RopeRotation>().fillTable(cosine, block, out, streaming);
    };
    q.bound = attentionBound;
    q.parameters = ropeParts;
    return q;
}

} // namespace

QuantitySpec makeRopeFrequenciesQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::RopeFrequencies;
    q.name = u"rope-frequencies"_s;
    q.label = u"RoPE frequencies"_s;
    q.help
        = u"one row per rotary pair: inverse frequency after scaling, before, wavelength 2 pi /\n"
          "              theta after, before, and the band (yarn's ramp; llama3's 0 kept, 1 blended, 2 divided) (rope)"_s;
    q.columnNames = {u"inv_freq"_s, u"inv_freq_unscaled"_s, u"wavelength"_s, u"wavelength_unscaled"_s, u"band"_s};
    q.reads = kRopeFrequencyReads;
    q.tiling = Tiling::WholeRows;
    q.missing = needsRope;
    q.shape = [](const Params &p) { return Shape {RopeFrequencies::pairs(p.rope), 5}; };
    q.workCells = [](const Params &p, const Block &block) {
        // The table of every pair, in double, beside the block.
        return ropeBlockCells(p, block) + 6 * static_cast<std::uint64_t>(RopeFrequencies::pairs(p.rope));
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        const RopeFrequencies::Table table = RopeFrequencies::table(engine.params());
        // A frequency of 0 (proportional's tail) never turns: its wavelength is infinite.
        const auto wavelength = [](double inv) {
            return inv > 0.0 ? 2.0 * std::numbers::pi / inv : std::numeric_limits<double>::infinity();
        };
        for (std::int64_t r = 0; r < block.rows; ++r) {
            const auto i = static_cast<std::size_t>(block.row0 + r);
            const double values[] = {table.inv[i], table.invBefore[i], wavelength(table.inv[i]),
                                     wavelength(table.invBefore[i]), table.band[i]};
            for (std::int64_t c = 0; c < block.cols; ++c)
                out(r, c) = static_cast<float>(values[block.col0 + c]);
        }
    };
    q.bound = unitBound;
    q.parameters = ropeParts;
    return q;
}

QuantitySpec makeRopeCosQuantity()
{
    return ropeTableQuantity(Quantity::RopeCos, true);
}

QuantitySpec makeRopeSinQuantity()
{
    return ropeTableQuantity(Quantity::RopeSin, false);
}

QuantitySpec makeRopeScoreQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::RopeScore;
    q.name = u"rope-score"_s;
    q.label = u"RoPE score against distance"_s;
    q.help = u"one row per distance k < max_len: <q, R(k) q> / |q|^2 for q all ones over head_dim (the\n"
             "              columns a partial rotary leaves unturned add 1 each); the mean and std of <q, R(k) k>\n"
             "              over 256 seeded random unit pairs; RoFormer's decay bound (rope)"_s;
    q.columnNames = {u"ones_score"_s, u"random_mean"_s, u"random_std"_s, u"decay_bound"_s};
    q.reads = kRopeFrequencyReads + QStringList {u"seed"_s};
    q.tiling = Tiling::WholeRows;
    q.missing = needsRope;
    q.shape = [](const Params &p) { return Shape {p.maxLen, RopeScore::kColumns}; };
    q.workCells = [](const Params &p, const Block &block) {
        // The samples' coefficients, their Cholesky factor and Gram matrix (up to 2h = kSamples),
        // the anchors' offsets and a chunk's angles and products, in double; with the factor, E[s^2]'s
        // h^2 + h exponentials (six doubles each), a tile's turned coefficients and grid and the
        // block's second moments (RopeScore::secondMoments).
        const auto h = static_cast<std::uint64_t>(RopeFrequencies::pairs(p.rope));
        const auto samples = static_cast<std::uint64_t>(RopeScore::kSamples);
        const auto tile = static_cast<std::uint64_t>(RopeScore::kSpectrumTile);
        const std::uint64_t factor
            = 2 * h <= samples ? 8 * h * h + 8 * (h * h + h) + 4 * tile + static_cast<std::uint64_t>(block.rows) : 0;
        return ropeBlockCells(p, block) + 2 * (samples * (2 * h + 1) + factor + 64 * 2 * h + 256 * (4 * h + samples));
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        engine.source<RopeScore>().fill(block, out);
    };
    q.bound = unitBound;
    q.parameters = ropeParts;
    return q;
}

QuantitySpec makeRopeInputQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::RopeInput;
    q.name = u"rope-input"_s;
    q.label = u"R(p) · s·E"_s;
    q.help = u"R(p) applied to the rows of s*E's first head_dim columns [max_len, head_dim], as\n"
             "              apply_rotary_pos_emb does (the last rotary_dim columns under --rotary-place suffix),\n"
             "              unrotated columns passed through (rope)"_s;
    q.reads = kRopeInputReads;
    q.tiling = Tiling::WholeRows;
    q.missing = needsRope;
    q.shape = [](const Params &p) { return Shape {p.maxLen, p.rope.headDim}; };
    q.workCells = [](const Params &p, const Block &block) {
        return ropeBlockCells(p, block) + 64 * static_cast<std::uint64_t>(p.rope.headDim);
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        const RopeRotation &rotation = engine.source<RopeRotation>();
        const Embeddings &embeddings = engine.embeddings();
        const std::int64_t headDim = rotation.headDim();
        const auto scale = static_cast<float>(engine.params().scale());
        // s*E's rows a chunk at a time, scaled as the embedding table scales them.
        constexpr std::int64_t kChunkRows = 64;
        thread_local RowMatrixXf t_rows;
        for (std::int64_t r0 = 0; r0 < block.rows; r0 += kChunkRows) {
            const std::int64_t rows = std::min(kChunkRows, block.rows - r0);
            t_rows.resize(rows, headDim);
            embeddings.fill({block.row0 + r0, rows, 0, headDim}, t_rows);
            t_rows *= scale;
            rotation.rotateRows({block.row0 + r0, rows, block.col0, block.cols}, t_rows.data(), headDim,
                                out.middleRows(r0, rows));
        }
    };
    q.bound = [](const Params &p) { return Quantities::embeddingBound(p) * std::max(1.0, attentionBound(p)); };
    q.parameters = [](const Params &p) {
        return ropeParts(p) << u"%1, %2"_s.arg(TitleText::scaleText(p), TitleText::sigmaText(p));
    };
    return q;
}

} // namespace posenc
