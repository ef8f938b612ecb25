#include "ConfigAttention.h"

#include <QHash>

using namespace Qt::StringLiterals;

namespace posenc::ConfigAttention {

namespace {

// The encoders' model_types, each with the config key that makes it a decoder instead, if any (in
// transformers): ModernBertModel._update_attention_mask, _prepare_4d_attention_mask of the padding
// alone and a window |i - j| <= local_attention // 2, and flash_attn_varlen_qkvpacked_func without
// causal; BertModel, RobertaModel and CamembertModel mask causally only where config.is_decoder;
// DebertaV2Model's get_attention_mask, the padding's outer product; T5Stack and MT5Stack mask
// causally only in the decoder (the config's layer is the encoder's first, T5Config.is_decoder
// False); WhisperEncoder.forward passes no causal mask to its layers; Gemma3TextModel and
// Gemma4TextModel take use_bidirectional_attention (EmbeddingGemma; Gemma 4's "all").
const QHash<QString, QString> &encoders()
{
    static const QHash<QString, QString> byType {
        {u"modernbert"_s, QString()},    {u"bert"_s, u"is_decoder"_s},
        {u"roberta"_s, u"is_decoder"_s}, {u"camembert"_s, u"is_decoder"_s},
        {u"deberta-v2"_s, QString()},    {u"t5"_s, QString()},
        {u"mt5"_s, QString()},           {u"whisper"_s, QString()},
    };
    return byType;
}

} // namespace

bool bothWays(const QString &modelType, const QJsonObject &config, const QString &textConfig)
{
    const QJsonObject text = textConfig.isEmpty() ? QJsonObject() : config.value(textConfig).toObject();
    const auto value = [&](const QString &key) { return text.contains(key) ? text.value(key) : config.value(key); };
    if (modelType == u"gemma3_text"_s || modelType == u"gemma3"_s || modelType == u"gemma4_text"_s
        || modelType == u"gemma4"_s) {
        const QJsonValue v = value(u"use_bidirectional_attention"_s);
        return v.isBool() ? v.toBool() : v.toString() == u"all"_s;
    }
    const auto known = encoders().constFind(modelType);
    if (known == encoders().cend())
        return false;
    return known->isEmpty() || !value(*known).toBool();
}

} // namespace posenc::ConfigAttention
