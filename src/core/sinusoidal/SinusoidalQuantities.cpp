// The sinusoid's own quantity: the error of float32 angles (docs/ARCHITECTURE.md, "Exact at any size").
#include "core/Engine.h"
#include "core/StreamStore.h"
#include "core/TitleText.h"

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
    q.help = u"float32-angle PE minus exact PE (sinusoidal)"_s;
    q.part = QuantityPart::Position;
    q.reads = {u"encoding"_s, u"d-model"_s, u"max-len"_s,         u"compose"_s,    u"pe-dims"_s,
               u"base"_s,     u"layout"_s,  u"flip-sin-to-cos"_s, u"freq-shift"_s, u"timestep-scale"_s};
    // In the split layout a pair's sine and cosine lie half a row apart.
    q.tiling = Tiling::WholeRows;
    q.missing = [](const Params &p) -> std::optional<QString> {
        if (p.encoding != Encoding::Sinusoidal)
            return u"only the sinusoidal encoding has angles to round"_s;
        return std::nullopt;
    };
    q.shape = [](const Params &p) { return Shape {p.maxLen, p.peColumns()}; };
    q.workCells = [](const Params &, const Block &block) {
        return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols);
    };
    q.fill = [](const Engine &engine, const Block &block, BlockRef out, bool streaming) {
        engine.positionTerm().kernel()->forEachErrorRow(block, [&](std::int64_t p, const float *values) {
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
        const double fastest = std::max(1.0, p.sinusoidal.timestepScale);
        return std::min(2.0, fastest * static_cast<double>(p.maxLen - 1) * std::ldexp(1.0, -23) + std::ldexp(1.0, -24));
    };
    q.parameters = TitleText::positionTermParts;
    return q;
}

} // namespace posenc
