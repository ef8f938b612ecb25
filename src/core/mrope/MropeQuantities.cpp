// Multimodal RoPE's own quantities (docs/ARCHITECTURE.md, "The quantity table"): each token's
// (t, h, w) ids as get_rope_index returns them, each rotary pair's axis and frequency, and the cos
// and sin tables after the multimodal merge, as the attention applies them.
#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/mrope/MropePrompt.h"
#include "core/mrope/MropeRotation.h"
#include "core/rope/RopeFrequencies.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The ids read the prompt and its rules.
const QStringList kMropeIdReads
    = {u"encoding"_s,          u"prompt"_s,          u"vision-positions"_s, u"mrope-era"_s, u"spatial-merge-size"_s,
       u"tokens-per-second"_s, u"second-per-grid"_s, u"timestamp-tokens"_s};
// The frequencies read RoPE's rows, and the ids through dynamic's and longrope's sequence length.
const QStringList kMropeFrequencyReads = kMropeIdReads
    + QStringList {u"mrope-section"_s,         u"mrope-interleaved"_s, u"head-dim"_s,    u"rope-theta"_s,
                   u"partial-rotary-factor"_s, u"rope-type"_s,         u"rope-factor"_s, u"original-max-len"_s,
                   u"low-freq-factor"_s,       u"high-freq-factor"_s,  u"beta-fast"_s,   u"beta-slow"_s,
                   u"yarn-truncate"_s,         u"short-factor"_s,      u"long-factor"_s};
const QStringList kMropeTableReads
    = kMropeFrequencyReads + QStringList {u"rope-layout"_s, u"mscale"_s, u"mscale-all-dim"_s, u"attention-factor"_s};

std::optional<QString> needsMrope(const Params &params)
{
    if (params.encoding != Encoding::Mrope)
        return u"only the mrope encoding gives tokens (t, h, w) ids"_s;
    return std::nullopt;
}

std::uint64_t mropeCells(const Block &block)
{
    return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols);
}

std::int64_t promptTokens(const Params &p)
{
    const auto layout = MropeLayout::build(p.mrope);
    return std::holds_alternative<MropeLayout>(layout) ? std::get<MropeLayout>(layout).tokens() : 0;
}

// "qwen2.5-vl, mrope_section 16,24,24 interleaved, head_dim = 128, θ = 1e+06".
QStringList mropeParts(const Params &params)
{
    return {u"%1, mrope_section %2%3, head_dim = %4, θ = %5"_s
                .arg(ParamText::get(params, u"vision-positions"_s), ParamText::get(params, u"mrope-section"_s),
                     params.mrope.interleaved ? u" interleaved"_s : QString())
                .arg(params.rope.headDim)
                .arg(NumberText::compact(params.rope.theta, 6))};
}

// cos and sin carry RoPE's attention factor (the family reads RoPE's rows).
double mropeTableBound(const Params &params)
{
    return needsMrope(params) ? 1.0 : RopeFrequencies::table(RopeFrequencies::underRope(params)).attentionFactor;
}

QuantitySpec mropeTableQuantity(Quantity quantity, bool cosine)
{
    QuantitySpec q;
    q.quantity = quantity;
    q.name = cosine ? u"mrope-cos"_s : u"mrope-sin"_s;
    q.label = cosine ? u"M-RoPE cos"_s : u"M-RoPE sin"_s;
    q.help
        = u"the %1 table after the multimodal merge [tokens, rotary_dim], as the attention applies it:\n"
          "              pair j turns by the id of its axis times inv_freq_j, attention factor included (mrope)"_s.arg(
              cosine ? u"cos"_s : u"sin"_s);
    q.reads = kMropeTableReads;
    q.tiling = Tiling::WholeRows;
    q.missing = needsMrope;
    q.shape = [](const Params &p) { return Shape {promptTokens(p), RopeFrequencies::rotaryDim(p.rope)}; };
    // A row's ids and its pairs' values, in double, beside the block.
    q.workCells = [](const Params &p, const Block &block) {
        return mropeCells(block) + 8 * static_cast<std::uint64_t>(block.rows)
            + 2 * static_cast<std::uint64_t>(RopeFrequencies::pairs(p.rope));
    };
    q.fill = [cosine](const Engine &engine, const Block &block, BlockRef out, bool) {
        engine.source<MropeRotation>().fillTable(cosine, block, out);
    };
    q.bound = mropeTableBound;
    q.parameters = mropeParts;
    return q;
}

} // namespace

QuantitySpec makeMropePositionsQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::MropePositions;
    q.name = u"mrope-positions"_s;
    q.label = u"M-RoPE position ids"_s;
    q.help = u"one row per token of the prompt: its kind (0 text, 1 image, 2 video) and its t, h and w ids,\n"
             "              as get_rope_index returns them (mrope)"_s;
    q.columnNames = {u"kind"_s, u"t"_s, u"h"_s, u"w"_s};
    q.reads = kMropeIdReads;
    q.tiling = Tiling::WholeRows;
    q.missing = needsMrope;
    q.shape = [](const Params &p) { return Shape {promptTokens(p), 4}; };
    q.workCells = [](const Params &, const Block &block) {
        return mropeCells(block) + 8 * static_cast<std::uint64_t>(block.rows);
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        std::vector<MropeIds> ids(static_cast<std::size_t>(block.rows));
        engine.source<MropeLayout>().ids(block.row0, block.rows, ids.data());
        for (std::int64_t r = 0; r < block.rows; ++r) {
            const MropeIds &id = ids[static_cast<std::size_t>(r)];
            const std::int64_t values[] = {static_cast<std::int64_t>(id.kind), id.t, id.h, id.w};
            for (std::int64_t c = 0; c < block.cols; ++c)
                out(r, c) = static_cast<float>(values[block.col0 + c]);
        }
    };
    // An id is at most the prompt's largest.
    q.bound = [](const Params &p) {
        const auto layout = MropeLayout::build(p.mrope);
        if (needsMrope(p) || !std::holds_alternative<MropeLayout>(layout))
            return 1.0;
        return static_cast<double>(std::max<std::int64_t>(std::get<MropeLayout>(layout).maxId(), 1));
    };
    q.parameters = mropeParts;
    return q;
}

QuantitySpec makeMropeAxesQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::MropeAxes;
    q.name = u"mrope-axes"_s;
    q.label = u"M-RoPE axes"_s;
    q.help = u"one row per rotary pair: the pair, its axis (0 t, 1 h, 2 w) and its inverse frequency (mrope)"_s;
    q.columnNames = {u"pair"_s, u"axis"_s, u"inv_freq"_s};
    q.reads = kMropeFrequencyReads;
    q.tiling = Tiling::WholeRows;
    q.missing = needsMrope;
    q.shape = [](const Params &p) { return Shape {RopeFrequencies::pairs(p.rope), 3}; };
    q.workCells = [](const Params &p, const Block &block) {
        return mropeCells(block) + 4 * static_cast<std::uint64_t>(RopeFrequencies::pairs(p.rope));
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool) {
        const MropeRotation &rotation = engine.source<MropeRotation>();
        for (std::int64_t r = 0; r < block.rows; ++r) {
            const auto j = static_cast<std::size_t>(block.row0 + r);
            const double values[]
                = {static_cast<double>(j), static_cast<double>(rotation.axes()[j]), rotation.inverseFrequencies()[j]};
            for (std::int64_t c = 0; c < block.cols; ++c)
                out(r, c) = static_cast<float>(values[block.col0 + c]);
        }
    };
    q.bound = [](const Params &) { return 2.0; }; // the axis, 0 to 2; the frequencies below 1
    q.parameters = mropeParts;
    return q;
}

QuantitySpec makeMropeCosQuantity()
{
    return mropeTableQuantity(Quantity::MropeCos, true);
}

QuantitySpec makeMropeSinQuantity()
{
    return mropeTableQuantity(Quantity::MropeSin, false);
}

} // namespace posenc
