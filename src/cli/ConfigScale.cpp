#include "ConfigScale.h"

#include <QSet>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ConfigScale {

namespace {

// The models whose code feeds the token embeddings to the first layer unmultiplied, as the presets
// of the same models cite it, class, commit and lines (resources/presets, "embedding-scale":
// "none"): embed_tokens = nn.Embedding(...), inputs_embeds = self.embed_tokens(input_ids),
// hidden_states = inputs_embeds in LlamaModel, Llama4TextModel, MistralModel, Ministral3Model,
// Qwen2Model, Qwen3Model, Qwen3NextModel, Phi3Model, DeepseekV3Model (which Kimi K2 runs),
// GptOssModel, Cohere2Model, Exaone4Model, SmolLM3Model, Glm4MoeModel and the text models of
// Qwen2-VL, Qwen2.5-VL and Qwen3-VL; GPTJModel (wte, then drop), GPTNeoXModel (embed_in, then
// emb_dropout), BloomModel (word_embeddings, then word_embeddings_layernorm), T5Stack (the shared
// nn.Embedding, then dropout), DebertaV2Embeddings (word_embeddings, then LayerNorm),
// ModernBertEmbeddings (tok_embeddings, then norm and drop), MptModel (wte, then the blocks; @
// 0206c7b0f3a56f3876a66bda1baa00741950221e); DeepSeek-V3.2-Exp's own inference/model.py
// (Transformer.forward's h = self.embed(tokens), a ParallelEmbedding whose forward is
// F.embedding(x, self.weight)). WhisperEncoder and WhisperDecoder set embed_scale from
// scale_embedding but their forwards never read it, so s = 1 whatever the config says.
// ViTMAEEmbeddings.forward adds the table to the patch embeddings as the projection gives them.
// OPTDecoder.forward (models/opt/modeling_opt.py @ 0184d2087e15afbd83ffa3cef25044a4f6c05047):
// hidden_states = inputs_embeds + pos_embeds, inputs_embeds = self.embed_tokens(input_ids) through
// project_in (a linear map, where word_embed_proj_dim differs from hidden_size); OPTConfig has no
// scale key.
const QSet<QString> &none()
{
    static const QSet<QString> types {
        u"llama"_s,       u"llama4"_s,          u"llama4_text"_s, u"mistral"_s,       u"ministral3"_s,
        u"qwen2"_s,       u"qwen3"_s,           u"qwen3_next"_s,  u"qwen2_vl"_s,      u"qwen2_vl_text"_s,
        u"qwen2_5_vl"_s,  u"qwen2_5_vl_text"_s, u"qwen3_vl"_s,    u"qwen3_vl_text"_s, u"phi3"_s,
        u"deepseek_v3"_s, u"kimi_k2"_s,         u"gpt_oss"_s,     u"cohere2"_s,       u"exaone4"_s,
        u"smollm3"_s,     u"glm4_moe"_s,        u"gptj"_s,        u"gpt_neox"_s,      u"bloom"_s,
        u"t5"_s,          u"deberta-v2"_s,      u"whisper"_s,     u"modernbert"_s,    u"deepseek_v32"_s,
        u"mpt"_s,         u"vit_mae"_s,         u"opt"_s,
    };
    return types;
}

// Gemma3TextModel and Gemma4TextModel (transformers, models/gemma3/modeling_gemma3.py @
// 0018aa647bb13801f061e2d1027c326f531b59fb, models/gemma4/modeling_gemma4.py @
// 0246b4f3335464614ef1de66531f9131a44ec801): embed_tokens = Gemma*TextScaledWordEmbedding(...,
// embed_scale=self.config.hidden_size**0.5), whose forward multiplies by
// self.embed_scale.to(self.weight.dtype), a float32 buffer cast to the weights' dtype ("Gemma3
// downcasts the below to bfloat16, causing sqrt(3072)=55.4256 to become 55.5").
const QSet<QString> &gemma()
{
    static const QSet<QString> types {u"gemma3"_s, u"gemma3_text"_s, u"gemma4"_s, u"gemma4_text"_s};
    return types;
}

// Rounded to `bits` significant bits, ties to even (the default rounding mode).
double roundedTo(double value, int bits)
{
    if (value == 0.0 || !std::isfinite(value))
        return value;
    int exponent = 0;
    const double mantissa = std::frexp(value, &exponent);
    return std::ldexp(std::nearbyint(std::ldexp(mantissa, bits)), exponent - bits);
}

} // namespace

std::optional<double> inDtype(double value, const QString &dtype)
{
    const double single = double(float(value)); // torch.tensor(python float) holds float32
    if (dtype == u"float32"_s)
        return single;
    if (dtype == u"bfloat16"_s)
        return roundedTo(single, 8);
    if (dtype == u"float16"_s)
        return roundedTo(single, 11);
    return std::nullopt;
}

Read of(const QString &modelType, const QJsonObject &config, const QString &textConfig)
{
    Read read;
    if (none().contains(modelType)) {
        read.none = true;
        return read;
    }
    if (!gemma().contains(modelType))
        return read;
    const QJsonObject text = textConfig.isEmpty() ? QJsonObject() : config.value(textConfig).toObject();
    const auto first = [&](const QString &key) {
        for (const QJsonObject &object : {text, config}) {
            if (object.contains(key))
                return object.value(key);
        }
        return QJsonValue();
    };
    const QJsonValue hidden = first(u"hidden_size"_s);
    // transformers 5 writes "dtype", earlier versions "torch_dtype".
    QJsonValue dtype = first(u"dtype"_s);
    if (!dtype.isString())
        dtype = first(u"torch_dtype"_s);
    if (hidden.isDouble() && hidden.toDouble() > 0.0 && dtype.isString())
        read.s = inDtype(std::sqrt(hidden.toDouble()), dtype.toString());
    return read;
}

} // namespace posenc::ConfigScale
