#include "RopeLayers.h"

#include "check/ModelConfigCheck.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeText.h"
#include "core/rope/RopeTypes.h"

using namespace Qt::StringLiterals;

namespace posenc::RopeLayers {

namespace {

RotaryNumbers numbers(const Params &params)
{
    const RopeParams &r = params.rope;
    RotaryNumbers n;
    n.inverseFrequencies = RopeFrequencies::table(params).inv;
    n.headDim = r.headDim;
    n.rotaryDim = RopeFrequencies::rotaryDim(r);
    n.interleaved = r.layout == RopeLayout::Interleaved;
    const RopeFrequencies::Description d = RopeFrequencies::describe(params);
    n.softmaxScaleFactor = d.softmaxScaleFactor;
    n.wavelengthMax = d.wavelengthMax;
    return n;
}

// The scaled types' words; none for default and proportional, whose frequencies are the model's.
bool scaled(const RopeParams &r)
{
    return r.type != RopeType::Default && r.type != RopeType::Proportional;
}

// The head of the layer: its config's (MLA's is wider than the rotary head), else the rows'.
std::int64_t headOf(const ConfigLayer &layer)
{
    return layer.scheme.headDim > 0 ? layer.scheme.headDim : layer.params.rope.headDim;
}

// The columns that turn: "all 128 columns", "64 of 128 (prefix)", "128 of 512 (proportional, the
// rest at frequency 0)", "64 of 192 (MLA tail, key shared)".
QString columns(const ConfigLayer &layer)
{
    const std::int64_t live = 2 * RopeFrequencies::livePairs(layer.params.rope);
    const std::int64_t head = headOf(layer);
    const QString place = layer.scheme.rotaryPlace;
    if (live == head)
        return u"all %1 columns"_s.arg(head);
    // MLA's rotary head is the tail alone (qk_rope_head_dim, narrower than the head), its key part
    // shared by every head; DeepSeek-V4's turns the last columns of the whole head.
    const bool mla = layer.params.rope.headDim < head;
    const QString where = place == u"mla-tail"_s ? (mla ? u"MLA tail, key shared"_s : u"the tail, the last columns"_s)
        : place == u"proportional"_s             ? u"proportional, the rest at frequency 0"_s
                                                 : place;
    return u"%1 of %2 (%3)"_s.arg(live).arg(head).arg(where);
}

QString words(const ConfigLayer &layer)
{
    const Params &p = layer.params;
    const RopeParams &r = p.rope;
    const QString scaling = scaled(r) ? u", "_s + RopeText::scalingText(p) : QString();
    return u"RoPE θ %1%2, %3, %4"_s.arg(RopeText::number(r.theta), scaling, columns(layer),
                                        r.layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s);
}

QString terse(const ConfigLayer &layer)
{
    const RopeParams &r = layer.params.rope;
    const QString scaling = scaled(r)
        ? u" %1%2"_s.arg(RopeTypes::word(r.type), r.factor ? u" ×"_s + NumberText::compact(*r.factor, 3) : QString())
        : QString();
    return u"RoPE %1%2, %3/%4"_s.arg(NumberText::compact(r.theta, 3), scaling)
        .arg(2 * RopeFrequencies::livePairs(r))
        .arg(headOf(layer));
}

} // namespace

RotaryLayers rotary()
{
    RotaryLayers layers;
    layers.numbers = numbers;
    layers.words = words;
    layers.terse = terse;
    layers.colourKey = [](const Params &p) { return u"rope:%1 %2"_s.arg(p.rope.theta).arg(int(p.rope.type)); };
    layers.theta = [](const Params &p) { return p.rope.theta; };
    return layers;
}

} // namespace posenc::RopeLayers
