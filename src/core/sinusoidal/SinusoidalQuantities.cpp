// The sinusoid's own quantity: the error of float32 angles (docs/ARCHITECTURE.md, "Exact at any size"),
// which RoPE's cos and sin share: transformers forms p·θ_i in float32 too.
#include "core/Engine.h"
#include "core/StreamStore.h"
#include "core/TitleText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeRotation.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

QuantitySpec makeErrorQuantity()
{
    QuantitySpec q;
    q.quantity = Quantity::Error;
    q.name = u"error"_s;
    q.label = u"float32-angle PE − exact PE"_s;
    q.help = u"float32-angle PE minus exact PE (sinusoidal); float32-angle sin | cos minus exact, [max_len,\n"
             "              rotary_dim], the rotary pairs' sines then their cosines (rope)"_s;
    q.part = QuantityPart::Position;
    // The sinusoid's table, and RoPE's frequencies and attention factor (RopeQuantities' reads).
    q.reads = {u"encoding"_s,    u"d-model"_s,          u"max-len"_s,          u"compose"_s,
               u"pe-dims"_s,     u"base"_s,             u"layout"_s,           u"flip-sin-to-cos"_s,
               u"freq-shift"_s,  u"timestep-scale"_s,   u"head-dim"_s,         u"rope-theta"_s,
               u"partial-rotary-factor"_s, u"rope-type"_s, u"rope-factor"_s,   u"original-max-len"_s,
               u"low-freq-factor"_s, u"high-freq-factor"_s, u"beta-fast"_s,    u"beta-slow"_s,
               u"yarn-truncate"_s, u"short-factor"_s,   u"long-factor"_s,      u"mscale"_s,
               u"mscale-all-dim"_s, u"attention-factor"_s};
    // In the split layout a pair's sine and cosine lie half a row apart.
    q.tiling = Tiling::WholeRows;
    q.missing = [](const Params &p) -> std::optional<QString> {
        if (p.encoding != Encoding::Sinusoidal && p.encoding != Encoding::Rope)
            return u"only the sinusoidal encoding and rope have angles to round"_s;
        return std::nullopt;
    };
    q.shape = [](const Params &p) {
        return p.encoding == Encoding::Rope ? Shape {p.maxLen, 2 * RopeFrequencies::pairs(p.rope)}
                                            : Shape {p.maxLen, p.peColumns()};
    };
    q.workCells = [](const Params &, const Block &block) {
        return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols);
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        const PositionalTable &kernel = engine.params().encoding == Encoding::Rope
            ? engine.source<RopeRotation>().kernel()
            : *engine.positionTerm().kernel();
        kernel.forEachErrorRow(block, [&](std::int64_t p, const float *values) {
            float *dst = out.row(p - block.row0).data();
            if (streaming)
                streamCopy(dst, values, block.cols);
            else
                std::copy(values, values + block.cols, dst);
        });
    };
    // The angle's rounding in float32, (L - 1) c 2^-23 with w_0 = c the fastest (the timestep
    // scale, 1 but for diffusers' scale), plus the sine's, 2^-24.
    q.bound = [](const Params &p) {
        if (p.encoding == Encoding::Rope) {
            // RoPE's fastest θ_i and its attention factor a: a p θ_0 2^-23, and a value up to a < 2
            // rounded by 2^-24.
            const RopeFrequencies::Table table = RopeFrequencies::table(p);
            const double fastest = table.inv.empty() ? 0.0 : *std::max_element(table.inv.begin(), table.inv.end());
            return std::min(2.0, table.attentionFactor * fastest * static_cast<double>(p.maxLen - 1)
                                         * std::ldexp(1.0, -23) + std::ldexp(1.0, -24));
        }
        const double fastest = std::max(1.0, p.sinusoidal.timestepScale);
        return std::min(2.0, fastest * static_cast<double>(p.maxLen - 1) * std::ldexp(1.0, -23) + std::ldexp(1.0, -24));
    };
    q.parameters = TitleText::positionTermParts;
    return q;
}

} // namespace posenc
