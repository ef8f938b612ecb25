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
// table at config.dropout. A config.json without the key takes its configuration class's default,
// as from_pretrained does (the code's default, not the docstring's where they differ):
// configuration_gpt2.py GPT2Config embd_pdrop=0.1; configuration_gptj.py GPTJConfig embd_pdrop=0.0
// (documented 0.1); configuration_gpt_neox.py GPTNeoXConfig hidden_dropout = 0.0;
// configuration_modernbert.py ModernBertConfig embedding_dropout = 0.0; configuration_t5.py
// T5Config dropout_rate=0.1; configuration_bert.py BertConfig hidden_dropout_prob=0.1, which
// RobertaConfig inherits; configuration_deberta_v2.py DebertaV2Config hidden_dropout_prob=0.1;
// configuration_whisper.py WhisperConfig dropout=0.0 (documented 0.1).
// Starcoder2Model.forward, nn.functional.dropout(inputs_embeds, p=config.embedding_dropout) (@
// 00d4b3d2142cb4ced2f51b90614b5d26bc045015), Starcoder2Config embedding_dropout = 0.0; PhiModel,
// embed_dropout = nn.Dropout(config.embd_pdrop) on inputs_embeds (its base_model_pp_plan names it
// between embed_tokens and the layers), PhiConfig embd_pdrop = 0.0 (@ 008e574391258935f3ecc3035c882e73bbcac419);
// CodeGenModel, drop = nn.Dropout(config.embd_pdrop) on inputs_embeds (plus token type embeddings)
// before the blocks, CodeGenConfig embd_pdrop=0.0 (documented 0.1).
struct Key
{
    QString key;
    double byDefault;
};

const QHash<QString, Key> &keys()
{
    static const QHash<QString, Key> byType {
        {u"gptj"_s, {u"embd_pdrop"_s, 0.0}},
        {u"gpt2"_s, {u"embd_pdrop"_s, 0.1}},
        {u"gpt_neox"_s, {u"hidden_dropout"_s, 0.0}},
        {u"modernbert"_s, {u"embedding_dropout"_s, 0.0}},
        {u"t5"_s, {u"dropout_rate"_s, 0.1}},
        {u"bert"_s, {u"hidden_dropout_prob"_s, 0.1}},
        {u"roberta"_s, {u"hidden_dropout_prob"_s, 0.1}},
        {u"deberta-v2"_s, {u"hidden_dropout_prob"_s, 0.1}},
        {u"whisper"_s, {u"dropout"_s, 0.0}},
        {u"starcoder2"_s, {u"embedding_dropout"_s, 0.0}},
        {u"phi"_s, {u"embd_pdrop"_s, 0.0}},
        {u"codegen"_s, {u"embd_pdrop"_s, 0.0}},
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
// self.embed(tokens) into the first block. ViTMAEEmbeddings.forward adds the table, masks and
// prepends the cls token, and drops nothing. OPTDecoder.forward (@
// 0184d2087e15afbd83ffa3cef25044a4f6c05047) adds inputs_embeds and pos_embeds and hands the sum to
// its first layer undropped (config.dropout acts inside the layers).
const QSet<QString> &none()
{
    static const QSet<QString> types {
        u"llama"_s,         u"llama4"_s,      u"llama4_text"_s,     u"mistral"_s,     u"mistral3"_s,
        u"ministral3"_s,    u"qwen2"_s,       u"qwen3"_s,           u"qwen3_next"_s,  u"qwen2_vl"_s,
        u"qwen2_vl_text"_s, u"qwen2_5_vl"_s,  u"qwen2_5_vl_text"_s, u"qwen3_vl"_s,    u"qwen3_vl_text"_s,
        u"gpt_oss"_s,       u"deepseek_v3"_s, u"deepseek_v32"_s,    u"kimi_k2"_s,     u"phi3"_s,
        u"gemma3"_s,        u"gemma3_text"_s, u"gemma4"_s,          u"gemma4_text"_s, u"bloom"_s,
        u"cohere2"_s,       u"exaone4"_s,     u"smollm3"_s,         u"glm4_moe"_s,    u"vit_mae"_s,
        u"opt"_s,
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
    const auto known = keys().constFind(modelType);
    if (known == keys().cend())
        return read;
    read.key = known->key;
    const QJsonObject text = textConfig.isEmpty() ? QJsonObject() : config.value(textConfig).toObject();
    for (const QJsonObject &object : {text, config}) {
        if (object.value(read.key).isDouble()) {
            read.p = object.value(read.key).toDouble();
            return read;
        }
    }
    read.p = known->byDefault;
    read.byDefault = true;
    return read;
}

} // namespace posenc::ConfigDropout
