#include "ModelText.h"

#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeText.h"
#include "core/rope/RopeTypes.h"

using namespace Qt::StringLiterals;

namespace posenc::ModelText {

namespace {

QString mixerWords(const QString &encoding)
{
    if (encoding == u"linear"_s)
        return u"linear attention, no position"_s;
    if (encoding == u"ssm"_s)
        return u"Mamba (SSM), no position"_s;
    if (encoding == u"conv"_s)
        return u"short convolution, no position"_s;
    return u"MLP only, no mixing"_s;
}

// The columns that turn: "128 of 128", "64 of 128 (prefix)", "128 of 512 (proportional)",
// "64 of 192 (MLA tail)".
QString columns(const ConfigLayer &layer)
{
    const RopeParams &r = layer.params.rope;
    const std::int64_t live = 2 * RopeFrequencies::livePairs(r);
    const std::int64_t head = layer.scheme.headDim > 0 ? layer.scheme.headDim : r.headDim;
    const QString place = layer.scheme.rotaryPlace;
    if (live == head)
        return u"all %1 columns"_s.arg(head);
    const QString where = place == u"mla-tail"_s ? u"MLA tail, key shared"_s
        : place == u"proportional"_s             ? u"proportional, the rest at frequency 0"_s
                                                 : place;
    return u"%1 of %2 (%3)"_s.arg(live).arg(head).arg(where);
}

} // namespace

bool isMixer(const QString &encoding)
{
    return encoding == u"linear"_s || encoding == u"ssm"_s || encoding == u"conv"_s || encoding == u"mlp"_s;
}

QString position(const ConfigLayer &layer)
{
    const QString encoding = layer.scheme.encoding;
    if (isMixer(encoding))
        return mixerWords(encoding);
    const Params &p = layer.params;
    // RoPE's words need the layer's columns from its config (rotary dim, partial rotary): the
    // one family named here; every other family words itself (FamilySpec::layerWords).
    if (p.encoding == Encoding::Rope) {
        const RopeParams &r = p.rope;
        const bool plain = r.type == RopeType::Default || r.type == RopeType::Proportional;
        const QString scaling = plain ? QString() : u", "_s + RopeText::scalingText(p);
        return u"RoPE θ %1%2, %3, %4"_s.arg(RopeText::number(r.theta), scaling, columns(layer),
                                            r.layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s);
    }
    const FamilySpec &spec = Families::spec(p.encoding);
    return spec.layerWords ? spec.layerWords(p) : spec.heading;
}

QString span(const ConfigLayer &layer)
{
    const LayerScheme &s = layer.scheme;
    if (isMixer(s.encoding))
        return {};
    if (s.window)
        return s.windowBothSides ? u"window %1 each side"_s.arg(*s.window) : u"window %1"_s.arg(*s.window);
    if (s.chunk)
        return u"chunks of %1"_s.arg(*s.chunk);
    return u"whole context"_s;
}

QString query(const LayerScheme &scheme)
{
    const QueryScale &q = scheme.query;
    switch (q.kind) {
    case QueryScale::Kind::None:
        return {};
    case QueryScale::Kind::Temperature:
        return u"q × (1 + %1 ln(⌊(p + 1) / %2⌋ + 1))"_s.arg(NumberText::compact(q.scale, 4)).arg(q.length);
    case QueryScale::Kind::Beta:
        return u"q × (1 + %1 ln(1 + ⌊p / %2⌋))"_s.arg(NumberText::compact(q.scale, 4)).arg(q.length);
    }
    return {};
}

QString terse(const ConfigLayer &layer)
{
    const LayerScheme &s = layer.scheme;
    QStringList parts;
    if (isMixer(s.encoding))
        parts.append(s.encoding);
    else if (layer.params.encoding == Encoding::Rope) {
        const RopeParams &r = layer.params.rope;
        const QString scaled = r.type == RopeType::Default || r.type == RopeType::Proportional
            ? QString()
            : u" %1%2"_s.arg(RopeTypes::word(r.type),
                             r.factor ? u" ×"_s + NumberText::compact(*r.factor, 3) : QString());
        parts.append(u"RoPE %1%2, %3/%4"_s.arg(NumberText::compact(r.theta, 3), scaled)
                         .arg(2 * RopeFrequencies::livePairs(r))
                         .arg(s.headDim > 0 ? s.headDim : r.headDim));
    } else
        parts.append(layer.params.encoding == Encoding::None ? u"NoPE"_s : Families::word(layer.params.encoding));
    if (s.window)
        parts.append(u"win %1"_s.arg(*s.window));
    if (s.chunk)
        parts.append(u"chunk %1"_s.arg(*s.chunk));
    if (!s.query.isNone())
        parts.append(u"q scaled"_s);
    return parts.join(u" · "_s);
}

QString layerNotes(const ConfigCheck &check)
{
    std::int64_t total = 0;
    std::int64_t turning = 0;
    std::int64_t nope = 0;
    std::int64_t mixers = 0;
    for (const ConfigLayer &l : check.layers) {
        const auto n = std::int64_t(l.layers.size());
        total += n;
        if (l.params.encoding == Encoding::Rope)
            turning += n;
        else if (isMixer(l.scheme.encoding))
            mixers += n;
        else if (l.params.encoding == Encoding::None)
            nope += n;
    }
    if (turning == 0 && nope == 0)
        return {};
    QStringList parts {u"%1 of %2 layers turn (RoPE)"_s.arg(turning).arg(total)};
    if (nope > 0)
        parts.append(u"%1 attend without position (NoPE)"_s.arg(nope));
    if (mixers > 0)
        parts.append(u"%1 mix without attention"_s.arg(mixers));
    if (check.basis == u"guess"_s)
        parts.append(u"model_type unknown: a guess by Llama's rules"_s);
    return parts.join(u"; "_s);
}

} // namespace posenc::ModelText
