// ALiBi's config reader, as HF transformers' models read their configs: modeling_bloom.py
// build_alibi_tensor, modeling_mpt.py build_mpt_alibi_tensor, which MptModel calls with its default
// alibi_bias_max 8 and no position table.
#include "AlibiConfig.h"

#include "core/NumberText.h"

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> AlibiConfig::layers(ConfigContext &c)
{
    const ConfigObject &t = c.text;
    const QString type = c.model.type;
    const bool mpt = type == u"mpt"_s;
    const std::int64_t heads
        = c.integerOr(mpt ? QStringList {u"n_heads"_s} : QStringList {u"n_head"_s, u"num_attention_heads"_s}, 1,
                      AlibiParams::kMaxHeads, mpt ? 16 : 8, true);
    const std::int64_t layers
        = c.integerOr(mpt ? QStringList {u"n_layers"_s} : QStringList {u"n_layer"_s, u"num_hidden_layers"_s}, 1,
                      ConfigBounds::kMaxLayers, mpt ? 24 : 2, false);
    const std::int64_t hidden
        = c.integerOr(mpt ? QStringList {u"d_model"_s} : QStringList {u"hidden_size"_s, u"n_embed"_s}, 1,
                      ConfigBounds::kMaxCount, mpt ? 2048 : 64, false);
    // The context: MPT's max_seq_len, else the key the row names ("context": Baichuan's
    // model_max_length, which its code sizes its mask with), else seq_length.
    QString contextKey = mpt ? u"max_seq_len"_s : c.model.raw.value(u"context"_s).toString(u"seq_length"_s);
    std::optional<std::int64_t> positions = t.integer(contextKey, 1, ConfigBounds::kMaxCount);
    if (mpt) {
        // HF's MptModel applies ALiBi with alibi_bias_max 8 whatever attn_config says, and adds
        // no position table.
        if (const auto attn = t.object(u"attn_config"_s)) {
            const auto on = attn->boolean(u"alibi"_s);
            const auto max = attn->number(u"alibi_bias_max"_s, 0.0, 1e6);
            if (on && !*on)
                c.find(u"mpt-alibi-ignored"_s,
                       u"%1 is false, but HF's MptModel adds ALiBi biases in every layer regardless"_s.arg(
                           attn->pathOf(u"alibi"_s)));
            if (max && *max != 8.0)
                c.find(u"mpt-alibi-ignored"_s,
                       u"%1 is %2, but HF's MptModel calls build_mpt_alibi_tensor with its default 8: the "
                       "slopes are 2^(-8k/H), not 2^(-%2k/H)"_s.arg(attn->pathOf(u"alibi_bias_max"_s),
                                                                    NumberText::exact(*max)));
        }
        if (t.boolean(u"learned_pos_emb"_s).value_or(false))
            c.find(u"learned-pos-emb-ignored"_s,
                   u"learned_pos_emb is true beside ALiBi: HF's MptModel has no position table and reads no "
                   "learned_pos_emb (MosaicML's own code adds its wpe only without alibi)"_s);
    }
    ConfigLayer layer;
    layer.layerType = u"full_attention"_s;
    layer.layers = layerRange(layers);
    layer.params = configParams(hidden, positions.value_or(2048));
    layer.params.encoding = Encoding::Alibi;
    layer.params.alibi.heads = heads;
    // An encoder's ALiBi (the row's "mask": "symmetric", JinaBert's -m |i - j| both ways), else causal.
    layer.params.alibi.mask
        = c.model.raw.value(u"mask"_s).toString() == u"symmetric"_s ? AlibiMask::Symmetric : AlibiMask::Causal;
    // heads, slopes and the rest are posenc describe's keys; the bias max is HF's.
    layer.values = {{u"alibi_bias_max"_s, 8.0},
                    {u"max_position_embeddings"_s, positions ? ConfigValue(*positions) : ConfigValue()}};
    settleLayer(c, layer,
                {{u"heads"_s, t.pathOf(mpt ? u"n_heads"_s : u"n_head"_s)}, {u"max-len"_s, t.pathOf(contextKey)}});
    return {layer};
}

QList<ConfigFindings::Kind> AlibiConfig::findings()
{
    return {
        {u"mpt-alibi-ignored"_s, Severity::Error,
         u"MPT's attn_config asks for other ALiBi than HF's MptModel applies (always ALiBi, bias max 8)"_s},
        {u"learned-pos-emb-ignored"_s, Severity::Note, u"MPT's learned_pos_emb: HF's MptModel has no such table"_s},
    };
}

} // namespace posenc
