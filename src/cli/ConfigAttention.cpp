#include "ConfigAttention.h"

#include "check/models/ModelTable.h"

#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::ConfigAttention {

namespace {

// The encoders' model_types whose config holds no word of its mask (in transformers):
// ModernBertModel._update_attention_mask, _prepare_4d_attention_mask of the padding alone and a
// window |i - j| <= local_attention // 2, and flash_attn_varlen_qkvpacked_func without causal;
// DebertaV2Model's get_attention_mask, the padding's outer product; T5Stack and MT5Stack mask
// causally only in the decoder (the config's layer is the encoder's first, T5Config.is_decoder
// False); WhisperEncoder.forward passes no causal mask to its layers; ViTMAESelfAttention sets
// is_causal False and is given no mask.
bool knownEncoder(const QString &modelType)
{
    static const QStringList types = {u"modernbert"_s, u"deberta-v2"_s, u"t5"_s,        u"mt5"_s,    u"whisper"_s,
                                      u"bert"_s,       u"roberta"_s,    u"camembert"_s, u"vit_mae"_s};
    return types.contains(modelType);
}

// A masked language model's head reads the tokens on both sides of a mask (BertForMaskedLM,
// EuroBertForMaskedLM, ModernBertForMaskedLM): its architecture names an encoder.
bool maskedLanguageModel(const QJsonObject &config)
{
    const QJsonArray architectures = config.value(u"architectures"_s).toArray();
    return std::any_of(architectures.begin(), architectures.end(),
                       [](const QJsonValue &a) { return a.toString().endsWith(u"ForMaskedLM"_s); });
}

} // namespace

bool bothWays(const QString &modelType, const QJsonObject &config, const QString &textConfig)
{
    const QJsonObject text = textConfig.isEmpty() ? QJsonObject() : config.value(textConfig).toObject();
    const auto value = [&](const QString &key) { return text.contains(key) ? text.value(key) : config.value(key); };
    // The config's own words first. BertModel, RobertaModel and their copies mask causally where
    // is_decoder (BertModel.forward: get_extended_attention_mask(..., is_decoder)); NomicBertConfig's
    // causal and a config's is_causal say the mask itself; Gemma3TextModel and Gemma4TextModel
    // take use_bidirectional_attention (EmbeddingGemma's true, Gemma 4's "all").
    if (value(u"is_decoder"_s).toBool())
        return false;
    for (const QString &key : {u"is_causal"_s, u"causal"_s}) {
        if (value(key).isBool())
            return !value(key).toBool();
    }
    const QJsonValue bidirectional = value(u"use_bidirectional_attention"_s);
    if (!bidirectional.isUndefined() && !bidirectional.isNull())
        return bidirectional.isBool() ? bidirectional.toBool() : bidirectional.toString() == u"all"_s;
    // Then the model's code, and a masked LM's or a BERT-like's config: token types are the
    // sentence pairs of BERT's pre-training (BertEmbeddings.token_type_embeddings), which the
    // BERT-likes' configs carry as type_vocab_size (XLM-RoBERTa's, and the encoders built on it
    // such as jina-embeddings-v3, NomicBERT's) and no decoder's does.
    return knownEncoder(modelType) || maskedLanguageModel(config) || value(u"type_vocab_size"_s).toInt() > 0;
}

bool byColumn(const QString &modelType, const QString &layerType)
{
    // The model table's row says which of its layer types its code adds by column
    // (ModelSchemes.json's "by_column", each with the code it was read from).
    const ModelRow *row = ModelTable::find(modelType);
    return row && row->byColumn.contains(layerType);
}

bool encoderDecoder(const QJsonObject &config)
{
    return config.value(u"is_encoder_decoder"_s).toBool();
}

} // namespace posenc::ConfigAttention
