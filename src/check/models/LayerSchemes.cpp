// The per-layer numbers of the model's attention code (LayerSchemes.h): the rules of the row's
// "softmax", "window", "chunk" and "qscale" (ModelTable), read as the attention classes read them:
// LlamaAttention's head_dim^-0.5, DeepseekV3Attention's qk_head_dim^-0.5 times yarn's
// get_mscale(factor, mscale_all_dim)^2, Gemma2Attention's query_pre_attn_scalar^-0.5, Gemma 3n's
// and 4's 1.0, GraniteAttention's attention_multiplier, Zamba2Attention's (head_dim / 2)^-0.5;
// Llama4TextAttention's temperature on its NoPE layers.
#include "LayerSchemes.h"

#include "check/ConfigContext.h"
#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"
#include "core/rope/RopeFrequencies.h"

#include <QHash>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A class default the key falls back to, or `fallback`.
double valueOf(const ConfigContext &c, const QString &key, double fallback)
{
    if (c.text.has(key))
        return c.text.number(key, -ConfigBounds::kInf, ConfigBounds::kInf).value_or(fallback);
    return c.model.number(key).value_or(fallback);
}

void softmax(const ConfigContext &c, ConfigLayer &layer)
{
    LayerScheme &s = layer.scheme;
    const QString rule = c.model.softmax;
    const double head = double(s.headDim);
    if (rule == u"mla"_s || rule == u"qk_head_dim"_s) {
        s.softmaxScale = 1.0 / std::sqrt(head);
        s.softmaxWords = u"qk_head_dim^-0.5"_s;
        s.softmaxTakesMscale = rule == u"mla"_s;
        const std::optional<RotaryLayers> &rotary = FamilyChecks::of(layer.params.encoding).rotary;
        if (rule == u"mla"_s && rotary && layer.described && layer.params.isValid()) {
            s.mscaleFactor = rotary->numbers(layer.params).softmaxScaleFactor;
            if (s.mscaleFactor != 1.0) {
                *s.softmaxScale *= s.mscaleFactor;
                s.softmaxWords += u" * get_mscale(factor, mscale_all_dim)^2"_s;
                s.softmaxCite = c.model.softmaxCite;
            }
        }
    } else if (rule == u"query_pre_attn_scalar"_s) {
        s.softmaxScale = 1.0 / std::sqrt(valueOf(c, u"query_pre_attn_scalar"_s, 256.0));
        s.softmaxWords = u"query_pre_attn_scalar^-0.5"_s;
    } else if (rule == u"one"_s) {
        s.softmaxScale = 1.0;
        s.softmaxWords = u"1 (q and k RMS-normed)"_s;
    } else if (rule == u"attention_multiplier"_s) {
        s.softmaxScale = valueOf(c, u"attention_multiplier"_s, 1.0);
        s.softmaxWords = u"attention_multiplier"_s;
    } else if (rule == u"key_multiplier"_s) {
        // FalconH1Attention.forward: key_states = k_proj(...) * key_multiplier, before RoPE and the
        // head_dim^-0.5 of the attention interface.
        s.softmaxScale = valueOf(c, u"key_multiplier"_s, 1.0) / std::sqrt(head);
        s.softmaxWords = u"head_dim^-0.5 * key_multiplier"_s;
    } else if (rule == u"half_head_dim"_s) {
        s.softmaxScale = 1.0 / std::sqrt(head / 2.0);
        s.softmaxWords = u"(head_dim / 2)^-0.5"_s;
    } else {
        s.softmaxScale = 1.0 / std::sqrt(head);
        s.softmaxWords = u"head_dim^-0.5"_s;
    }
}

void attention(const ConfigContext &c, ConfigLayer &layer, const LayerGroup &group)
{
    LayerScheme &s = layer.scheme;
    const ModelRow &row = c.model;
    s.headDim = c.plan.headDimOf(group.type);
    if (row.headDim == u"mla"_s)
        s.headDim += std::int64_t(valueOf(c, u"qk_nope_head_dim"_s, 128.0));
    // The tail of the head turns where the row says so, and where a model the table lacks names its
    // rotary part qk_rope_head_dim (DeepSeek's MLA and its successors put it last).
    const bool tail
        = row.headDim == u"mla"_s || row.place == u"suffix"_s || (!row.known() && c.text.has(u"qk_rope_head_dim"_s));
    if (group.rope)
        s.rotaryPlace = tail                                   ? u"mla-tail"_s
            : layer.params.rope.type == RopeType::Proportional ? u"proportional"_s
                                                               : u"prefix"_s;
    // A tail narrower than the layer's head (DeepSeek-V4's x[..., -rope_dim:]) is where rope-input
    // turns its columns; MLA's rotary head is its tail alone, all of it turning.
    RopeParams &rope = layer.params.rope;
    if (group.rope && tail && FamilyChecks::of(layer.params.encoding).rotary
        && RopeFrequencies::rotaryDim(rope) < rope.headDim)
        rope.place = RotaryPlace::Suffix;
    // DeepSeek-V4's every attention block has its sliding-window branch (window.every_layer).
    const bool windowed = group.type == u"sliding_attention"_s || row.window.value(u"every_layer"_s).toBool();
    if (windowed && c.plan.slidingWindow) {
        // ModernBERT's local_attention is the whole span: local_attention // 2 each side. So is a
        // bidirectional Gemma's sliding_window: its class keeps sliding_window // 2 + 1 and its mask
        // |q - k| < that (Gemma3TextConfig.__post_init__, _bidirectional_window_overlay).
        const bool halved = row.window.value(u"halved"_s).toBool() || LayerSchemes::bidirectional(c);
        s.window = halved ? *c.plan.slidingWindow / 2 : *c.plan.slidingWindow;
        s.windowBothSides = halved;
    }
    if (group.type == u"chunked_attention"_s) {
        const QString key = row.chunk.value(u"key"_s).toString(u"attention_chunk_size"_s);
        s.chunk = std::int64_t(valueOf(c, key, 8192.0));
    }
    // Llama 4's temperature on the layers that do not turn, when attn_temperature_tuning is true
    // (an integer as Python reads it: 4 is true).
    const QJsonObject &q = row.qscale;
    if (q.value(u"kind"_s).toString() == u"temperature"_s && !group.rope) {
        const QString flag = q.value(u"switch"_s).toString();
        if (valueOf(c, flag, 1.0) != 0.0
            && !(c.text.json().value(flag).isBool() && !c.text.json().value(flag).toBool()))
            s.query = QueryScale {QueryScale::Kind::Temperature, valueOf(c, q.value(u"scale"_s).toString(), 0.1),
                                  std::int64_t(valueOf(c, q.value(u"length"_s).toString(), 8192.0))};
    }
    softmax(c, layer);
    if (!row.indexer.isEmpty() && group.rope) {
        s.indexerHeadDim = std::int64_t(valueOf(c, row.indexer.value(u"key"_s).toString(), 128.0));
        s.indexerRotaryDim = c.plan.headDim;
        s.indexerLayout = row.indexer.value(u"layout"_s).toString();
    }
}

} // namespace

namespace LayerSchemes {

bool bidirectional(const ConfigContext &c)
{
    const QString key = c.model.window.value(u"bidirectional"_s).toString();
    if (key.isEmpty())
        return false;
    // Gemma3TextConfig takes a flag; Gemma4TextConfig "all" (its "vision" leaves the text causal).
    const QJsonValue v = c.text.json().value(key);
    return v.isBool() ? v.toBool() : v.toString() == u"all"_s;
}

void fill(ConfigContext &c, QList<ConfigLayer> &layers)
{
    QHash<QString, const LayerGroup *> groups; // by name: linear in the layer types
    for (const LayerGroup &g : c.plan.groups)
        groups.insert(g.name, &g);
    for (ConfigLayer &layer : layers) {
        LayerScheme &s = layer.scheme;
        s.encoding = Families::word(layer.params.encoding);
        const LayerGroup *group = groups.value(layer.layerType);
        if (!group)
            continue; // a family without layer types of its own (ALiBi, T5, ...): its family's word
        if (group->mixer != u"attention"_s) {
            s.encoding = group->mixer;
            // Cross-attention attends without position, at its head's scale (MllamaTextCrossAttention).
            if (group->mixer == u"cross_attention"_s) {
                s.headDim = c.plan.headDimOf(group->type);
                softmax(c, layer);
            }
            continue;
        }
        attention(c, layer, *group);
    }
}

} // namespace LayerSchemes

} // namespace posenc
