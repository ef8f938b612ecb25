#include "ConfigDropout.h"

#include <QHash>
#include <QSet>

using namespace Qt::StringLiterals;

namespace posenc::ConfigDropout {

namespace {

// The key each model's code drops its embeddings with, in transformers unless said:
// GPTJModel and GPT2Model, self.drop = nn.Dropout(config.embd_pdrop); GPTNeoXModel, emb_dropout =
// nn.Dropout(config.hidden_dropout), the key that also drops each layer's attention and MLP
// outputs; ModernBertEmbeddings, nn.Dropout(config.embedding_dropout);
// T5Stack, self.dropout(inputs_embeds) at dropout_rate; BertEmbeddings, RobertaEmbeddings and
// DebertaV2Embeddings at hidden_dropout_prob; WhisperEncoder, dropout of the features plus the
// table at config.dropout.
const QHash<QString, QString> &keys()
{
    static const QHash<QString, QString> byType {
        {u"gptj"_s, u"embd_pdrop"_s},
        {u"gpt2"_s, u"embd_pdrop"_s},
        {u"gpt_neox"_s, u"hidden_dropout"_s},
        {u"modernbert"_s, u"embedding_dropout"_s},
        {u"t5"_s, u"dropout_rate"_s},
        {u"bert"_s, u"hidden_dropout_prob"_s},
        {u"roberta"_s, u"hidden_dropout_prob"_s},
        {u"deberta-v2"_s, u"hidden_dropout_prob"_s},
        {u"whisper"_s, u"dropout"_s},
    };
    return byType;
}

// The models whose code feeds the embeddings to the first layer undropped, as the presets of the
// same models cite it (resources/presets, "input-dropout": "none"): LlamaModel and the decoders
// written after it, BloomModel (word_embeddings_layernorm, then the blocks), Phi3Model
// (MistralModel's: its config's embd_pdrop is read by no module). A multimodal config is read by its
// text model's model_type (ModelConfig::check): Qwen2VLTextModel, Qwen2_5_VLTextModel,
// Qwen3VLTextModel and Gemma4TextModel, hidden_states = inputs_embeds into the first layer.
// deepseek_v32 is DeepSeek-V3.2-Exp's own inference/model.py: Transformer.forward, h =
// self.embed(tokens) into the first block.
const QSet<QString> &none()
{
    static const QSet<QString> types {
        u"llama"_s,         u"llama4"_s,      u"llama4_text"_s,     u"mistral"_s,     u"mistral3"_s,
        u"ministral3"_s,    u"qwen2"_s,       u"qwen3"_s,           u"qwen3_next"_s,  u"qwen2_vl"_s,
        u"qwen2_vl_text"_s, u"qwen2_5_vl"_s,  u"qwen2_5_vl_text"_s, u"qwen3_vl"_s,    u"qwen3_vl_text"_s,
        u"gpt_oss"_s,       u"deepseek_v3"_s, u"deepseek_v32"_s,    u"kimi_k2"_s,     u"phi3"_s,
        u"gemma3"_s,        u"gemma3_text"_s, u"gemma4"_s,          u"gemma4_text"_s, u"bloom"_s,
        u"cohere2"_s,       u"exaone4"_s,     u"smollm3"_s,         u"glm4_moe"_s,
    };
    return types;
}

} // namespace

Read of(const QString &modelType, const QJsonObject &config, const QString &textConfig)
{
    Read read;
    if (none().contains(modelType)) {
        read.none = true;
        return read;
    }
    read.key = keys().value(modelType);
    if (read.key.isEmpty())
        return read;
    const QJsonObject text = textConfig.isEmpty() ? QJsonObject() : config.value(textConfig).toObject();
    for (const QJsonObject &object : {text, config}) {
        if (object.value(read.key).isDouble()) {
            read.p = object.value(read.key).toDouble();
            break;
        }
    }
    return read;
}

} // namespace posenc::ConfigDropout
