// The families whose position is no rotation, as HF transformers' models read their configs:
// ALiBi (modeling_bloom.py build_alibi_tensor, modeling_mpt.py build_mpt_alibi_tensor, which
// MptModel calls with its default alibi_bias_max 8 and no position table), T5's buckets
// (T5Attention, the bias in the first layer of each stack), DeBERTa-v2's (DebertaV2Encoder,
// build_relative_position), learned tables (GPT-2's wpe, BERT's and RoBERTa's position_embeddings
// with padding_idx, BART's and OPT's offset of 2) and Whisper's sinusoids and learned table.
#include "ConfigContext.h"

#include "core/NumberText.h"
#include "core/t5/T5Buckets.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using ModelFamilies::Scheme;

constexpr std::int64_t kMaxCount = std::int64_t(1) << 40;
// Real models have a few hundred layers at most; the layer lists stay small.
constexpr std::int64_t kLayers = std::int64_t(1) << 16;

std::vector<std::int64_t> range(std::int64_t n)
{
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < n; ++i)
        v.push_back(i);
    return v;
}

Params base(std::int64_t hidden, std::int64_t positions)
{
    Params p;
    p.dModel = std::clamp<std::int64_t>(hidden, 1, Params::kMaxDModel);
    p.maxLen = std::clamp<std::int64_t>(positions, 1, Params::kMaxLen);
    return p;
}

class OtherReader
{
public:
    explicit OtherReader(ConfigContext &c)
        : m_c(c)
        , t(c.text)
    { }

    QList<ConfigLayer> layers()
    {
        switch (m_c.family.scheme) {
        case Scheme::Alibi:
            return {alibi()};
        case Scheme::T5:
            return t5();
        case Scheme::Deberta:
            return deberta();
        case Scheme::Learned:
            return learned();
        case Scheme::Whisper:
            return whisper();
        case Scheme::Rope:
            break;
        }
        return {};
    }

private:
    ConfigContext &m_c;
    const ConfigObject &t;

    ConfigLayer alibi()
    {
        const QString type = m_c.family.modelType;
        const bool mpt = type == u"mpt"_s;
        const std::int64_t heads
            = m_c.integerOr(mpt ? QStringList {u"n_heads"_s} : QStringList {u"n_head"_s, u"num_attention_heads"_s}, 1,
                            AlibiParams::kMaxHeads, mpt ? 16 : 8, true);
        const std::int64_t layers
            = m_c.integerOr(mpt ? QStringList {u"n_layers"_s} : QStringList {u"n_layer"_s, u"num_hidden_layers"_s}, 1,
                            kLayers, mpt ? 24 : 2, false);
        const std::int64_t hidden
            = m_c.integerOr(mpt ? QStringList {u"d_model"_s} : QStringList {u"hidden_size"_s, u"n_embed"_s}, 1,
                            kMaxCount, mpt ? 2048 : 64, false);
        std::optional<std::int64_t> positions = t.integer(mpt ? u"max_seq_len"_s : u"seq_length"_s, 1, kMaxCount);
        if (mpt) {
            // HF's MptModel applies ALiBi with alibi_bias_max 8 whatever attn_config says, and adds
            // no position table.
            if (const auto attn = t.object(u"attn_config"_s)) {
                const auto on = attn->boolean(u"alibi"_s);
                const auto max = attn->number(u"alibi_bias_max"_s, 0.0, 1e6);
                if (on && !*on)
                    m_c.find(u"mpt-alibi-ignored"_s,
                             u"%1 is false, but HF's MptModel adds ALiBi biases in every layer regardless"_s.arg(
                                 attn->pathOf(u"alibi"_s)));
                if (max && *max != 8.0)
                    m_c.find(u"mpt-alibi-ignored"_s,
                             u"%1 is %2, but HF's MptModel calls build_mpt_alibi_tensor with its default 8: the "
                             "slopes are 2^(-8k/H), not 2^(-%2k/H)"_s.arg(attn->pathOf(u"alibi_bias_max"_s),
                                                                          NumberText::exact(*max)));
            }
            if (t.boolean(u"learned_pos_emb"_s).value_or(false))
                m_c.find(u"learned-pos-emb-ignored"_s,
                         u"learned_pos_emb is true beside ALiBi: HF's MptModel has no position table and reads no "
                         "learned_pos_emb (MosaicML's own code adds its wpe only without alibi)"_s);
        }
        ConfigLayer layer;
        layer.layerType = u"full_attention"_s;
        layer.layers = range(layers);
        layer.params = base(hidden, positions.value_or(2048));
        layer.params.encoding = Encoding::Alibi;
        layer.params.alibi.heads = heads;
        layer.params.alibi.mask = AlibiMask::Causal;
        // heads, slopes and the rest are posenc describe's keys; the bias max is HF's.
        layer.values = {{u"alibi_bias_max"_s, 8.0},
                        {u"max_position_embeddings"_s, positions ? ConfigValue(*positions) : ConfigValue()}};
        settleLayer(m_c, layer,
                    {{u"heads"_s, t.pathOf(mpt ? u"n_heads"_s : u"n_head"_s)},
                     {u"max-len"_s, t.pathOf(mpt ? u"max_seq_len"_s : u"seq_length"_s)}});
        return layer;
    }

    QList<ConfigLayer> t5()
    {
        const std::int64_t heads = m_c.integerOr({u"num_heads"_s}, 1, 1 << 16, 8, false);
        const std::int64_t hidden = m_c.integerOr({u"d_model"_s}, 1, kMaxCount, 512, false);
        const std::int64_t encoderLayers = m_c.integerOr({u"num_layers"_s}, 1, kLayers, 6, false);
        const std::int64_t decoderLayers = m_c.integerOr({u"num_decoder_layers"_s}, 1, kLayers, encoderLayers, false);
        const std::int64_t buckets
            = m_c.integerOr({u"relative_attention_num_buckets"_s}, 1, T5Params::kMaxBuckets, 32, true);
        const std::int64_t maxDistance = m_c.integerOr({u"relative_attention_max_distance"_s}, 1, kMaxCount, 128, true);
        const std::int64_t positions = t.integer(u"n_positions"_s, 1, kMaxCount).value_or(512);
        QList<ConfigLayer> out;
        for (const bool decoder : {false, true}) {
            // _relative_position_bucket: a bidirectional half has buckets / 2, of which max_exact are
            // exact distances; the logarithmic rest needs max_distance above max_exact.
            const std::int64_t side = T5Buckets::sideBuckets(buckets, !decoder);
            const std::int64_t maxExact = side / 2;
            if ((!decoder && buckets % 2 != 0) || buckets < 2 || maxDistance <= maxExact) {
                t.problem(u"relative_attention_max_distance"_s,
                          u"above max_exact = %1 with an even relative_attention_num_buckets >= 2"_s.arg(maxExact),
                          u"%1 with %2 buckets"_s.arg(maxDistance).arg(buckets));
                return out;
            }
            ConfigLayer layer;
            layer.layerType = decoder ? u"decoder"_s : u"encoder"_s;
            layer.layers = range(decoder ? decoderLayers : encoderLayers);
            layer.params = base(hidden, positions);
            layer.params.encoding = Encoding::T5;
            layer.params.t5 = T5Params {buckets, maxDistance, decoder};
            // The buckets, max_exact and the rest are posenc describe's keys.
            layer.values = {{u"heads"_s, heads}, {u"bias_layer"_s, std::int64_t(0)}};
            settleLayer(m_c, layer,
                        {{u"t5-buckets"_s, t.pathOf(u"relative_attention_num_buckets"_s)},
                         {u"t5-max-distance"_s, t.pathOf(u"relative_attention_max_distance"_s)},
                         {u"max-len"_s, t.pathOf(u"n_positions"_s)}});
            out.append(layer);
        }
        return out;
    }

    QList<ConfigLayer> deberta()
    {
        const std::int64_t heads = m_c.integerOr({u"num_attention_heads"_s}, 1, 1 << 16, 12, false);
        const std::int64_t hidden = m_c.integerOr({u"hidden_size"_s}, 1, kMaxCount, 768, false);
        const std::int64_t layers = m_c.integerOr({u"num_hidden_layers"_s}, 1, kLayers, 12, false);
        const std::int64_t maxPositions = m_c.integerOr({u"max_position_embeddings"_s}, 1, kMaxCount, 512, true);
        QList<ConfigLayer> out;
        const bool biased = t.boolean(u"position_biased_input"_s).value_or(true);
        if (!t.has(u"position_biased_input"_s))
            m_c.implicitDefault(u"position_biased_input"_s, u"true (an absolute table added to the input)"_s);
        if (biased)
            out.append(learnedLayer(u"input"_s, hidden, maxPositions, 0, layers));
        if (!t.has(u"relative_attention"_s))
            m_c.implicitDefault(u"relative_attention"_s, u"false: no relative positions at all"_s);
        if (!t.boolean(u"relative_attention"_s).value_or(false))
            return out;
        if (biased)
            m_c.find(u"position-biased-input"_s,
                     u"position_biased_input is true: an absolute table of %1 rows enters the input besides the "
                     "relative buckets (DeBERTa-v3 sets it false)"_s.arg(maxPositions));
        std::int64_t span = t.integer(u"max_relative_positions"_s, -kMaxCount, kMaxCount).value_or(-1);
        if (span < 1)
            span = maxPositions; // DebertaV2Encoder: max_relative_positions < 1 means max_position_embeddings
        const std::int64_t buckets
            = t.integer(u"position_buckets"_s, -kMaxCount, DebertaParams::kMaxBuckets).value_or(-1);
        // pos_att_type: a list, or the older "p2c|c2p".
        const QString types = t.json().value(u"pos_att_type"_s).isArray()
            ? t.strings(u"pos_att_type"_s, 8).value_or(QStringList()).join(u'|')
            : t.string(u"pos_att_type"_s).value_or(QString());
        if (buckets > 0 && span - 1 <= buckets / 2) {
            t.problem(u"position_buckets"_s, u"at most 2 (max_relative_positions - 1) = %1"_s.arg(2 * (span - 1)),
                      QString::number(buckets));
            return out;
        }
        ConfigLayer layer;
        layer.layerType = u"attention"_s;
        layer.layers = range(layers);
        layer.params = base(hidden, maxPositions);
        layer.params.encoding = Encoding::Deberta;
        layer.params.deberta = DebertaParams {buckets > 0 ? buckets : 0, span};
        layer.values = {{u"heads"_s, heads},
                        {u"position_buckets"_s, buckets > 0 ? ConfigValue(buckets) : ConfigValue()},
                        {u"max_relative_positions"_s, span},
                        {u"attention_span"_s, buckets > 0 ? buckets : span},
                        {u"pos_att_type"_s, types},
                        {u"max_position_embeddings"_s, maxPositions}};
        if (buckets > 0)
            settleLayer(m_c, layer,
                        {{u"deberta-buckets"_s, t.pathOf(u"position_buckets"_s)},
                         {u"deberta-max-position"_s, t.pathOf(u"max_relative_positions"_s)}});
        out.append(layer);
        return out;
    }

    // A table of `rows` rows whose row `first` holds position 0.
    ConfigLayer learnedLayer(const QString &type, std::int64_t hidden, std::int64_t rows, std::int64_t first,
                             std::int64_t layers)
    {
        ConfigLayer layer;
        layer.layerType = type;
        layer.layers = range(layers);
        const std::int64_t positions = std::max<std::int64_t>(rows - first, 1);
        layer.params = base(hidden, positions);
        layer.params.encoding = Encoding::Learned;
        layer.params.learned.offset = std::min<std::int64_t>(first, Params::kMaxPositionOffset);
        layer.values = {{u"rows"_s, rows},
                        {u"first_position_row"_s, first},
                        {u"positions"_s, positions},
                        {u"hidden_size"_s, hidden}};
        return layer;
    }

    QList<ConfigLayer> learned()
    {
        const QString type = m_c.family.modelType;
        if (type == u"gpt2"_s) {
            const std::int64_t rows = m_c.integerOr({u"n_positions"_s}, 1, kMaxCount, 1024, true);
            const std::int64_t hidden = m_c.integerOr({u"n_embd"_s}, 1, kMaxCount, 768, false);
            const std::int64_t layers = m_c.integerOr({u"n_layer"_s}, 1, kLayers, 12, false);
            return {learnedLayer(u"input"_s, hidden, rows, 0, layers)};
        }
        const std::int64_t hidden = m_c.integerOr({u"hidden_size"_s, u"d_model"_s}, 1, kMaxCount, 768, false);
        const std::int64_t layers
            = m_c.integerOr({u"num_hidden_layers"_s, u"encoder_layers"_s, u"num_layers"_s}, 1, kLayers, 12, false);
        std::int64_t maxPositions
            = m_c.integerOr({u"max_position_embeddings"_s}, 1, kMaxCount, m_c.family.defaultMaxPositions, true);
        if (type == u"bart"_s || type == u"opt"_s) {
            // BartLearnedPositionalEmbedding / OPTLearnedPositionalEmbedding: max_position_embeddings + 2
            // rows, position p at row p + 2.
            m_c.find(
                u"learned-offset"_s,
                u"%1's table has max_position_embeddings + 2 = %2 rows and position 0 at row 2 (its "
                "offset of 2): a table read from row 0 is shifted by two positions (transformers#20761)"_s.arg(type)
                    .arg(maxPositions + 2));
            if (type == u"opt"_s)
                return {learnedLayer(u"input"_s, hidden, maxPositions + 2, 2, layers)};
            const std::int64_t decoderLayers = m_c.integerOr({u"decoder_layers"_s}, 1, kLayers, layers, false);
            return {learnedLayer(u"encoder"_s, hidden, maxPositions + 2, 2, layers),
                    learnedLayer(u"decoder"_s, hidden, maxPositions + 2, 2, decoderLayers)};
        }
        const QString embedding = t.string(u"position_embedding_type"_s).value_or(u"absolute"_s);
        if (embedding != u"absolute"_s) {
            ConfigLayer layer;
            layer.layerType = u"attention"_s;
            layer.layers = range(layers);
            layer.params = base(hidden, maxPositions);
            layer.params.encoding = Encoding::None;
            layer.values = {{u"position_embedding_type"_s, embedding}, {u"max_position_embeddings"_s, maxPositions}};
            return {layer};
        }
        std::int64_t first = 0;
        if (type != u"bert"_s) {
            // RoBERTa's create_position_ids_from_input_ids: padding_idx + 1 onward.
            const std::int64_t pad = t.integer(u"pad_token_id"_s, 0, kMaxCount).value_or(1);
            first = pad + 1;
            m_c.find(u"learned-offset"_s,
                     u"position ids start at pad_token_id + 1 = %1: rows 0..%2 of the %3 belong to padding, so %4 "
                     "positions are usable, not %3 (transformers#20761)"_s.arg(first)
                         .arg(first - 1)
                         .arg(maxPositions)
                         .arg(maxPositions - first),
                     u"input"_s);
        }
        return {learnedLayer(u"input"_s, hidden, maxPositions, first, layers)};
    }

    QList<ConfigLayer> whisper()
    {
        const std::int64_t hidden = m_c.integerOr({u"d_model"_s}, 1, kMaxCount, 384, false);
        const std::int64_t source = m_c.integerOr({u"max_source_positions"_s}, 1, kMaxCount, 1500, true);
        const std::int64_t target = m_c.integerOr({u"max_target_positions"_s}, 1, kMaxCount, 448, true);
        const std::int64_t encoderLayers = m_c.integerOr({u"encoder_layers"_s}, 1, kLayers, 4, false);
        const std::int64_t decoderLayers = m_c.integerOr({u"decoder_layers"_s}, 1, kLayers, 4, false);
        ConfigLayer encoder;
        encoder.layerType = u"encoder"_s;
        encoder.layers = range(encoderLayers);
        encoder.params = base(hidden, source);
        encoder.params.encoding = Encoding::Sinusoidal;
        encoder.params.sinusoidal.base = 10000.0;
        encoder.params.sinusoidal.layout = Layout::Split;
        encoder.values = {{u"positions"_s, source},
                          {u"hidden_size"_s, hidden},
                          {u"layout"_s, u"split"_s},
                          {u"frequencies"_s, u"half-dim-minus-one"_s},
                          {u"base"_s, 10000.0}};
        m_c.find(u"half-dim-minus-one"_s,
                 u"Whisper's encoder adds sinusoids(%1, %2): sines then cosines (split), w_i = 10000^(-i / (%3 - 1)), "
                 "the half_dim - 1 denominator, not the paper's 2i/d"_s.arg(source)
                     .arg(hidden)
                     .arg(hidden / 2),
                 u"encoder"_s);
        return {encoder, learnedLayer(u"decoder"_s, hidden, target, 0, decoderLayers)};
    }
};

} // namespace

QList<ConfigLayer> otherLayers(ConfigContext &context)
{
    return OtherReader(context).layers();
}

} // namespace posenc
