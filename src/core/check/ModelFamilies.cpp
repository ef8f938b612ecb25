#include "ModelFamilies.h"

#include <QHash>

using namespace Qt::StringLiterals;

namespace posenc::ModelFamilies {

namespace {

Family rope(const QString &type, const QString &configClass, double theta, std::int64_t maxPositions)
{
    Family f;
    f.modelType = type;
    f.configClass = configClass;
    f.defaultTheta = theta;
    f.defaultMaxPositions = maxPositions;
    return f;
}

Family other(const QString &type, Scheme scheme, const QString &configClass, std::int64_t maxPositions)
{
    Family f;
    f.modelType = type;
    f.scheme = scheme;
    f.configClass = configClass;
    f.defaultMaxPositions = maxPositions;
    return f;
}

// Each default as the config class's __init__ (or its dataclass fields) writes it.
QHash<QString, Family> table()
{
    QHash<QString, Family> t;
    const auto add = [&t](const Family &f) { t.insert(f.modelType, f); };
    add(rope(u"llama"_s, u"LlamaConfig"_s, 10000.0, 2048));
    Family mistral = rope(u"mistral"_s, u"MistralConfig"_s, 10000.0, 4096 * 32);
    mistral.layerRule = LayerRule::AllSliding;
    add(mistral);
    add(rope(u"mixtral"_s, u"MixtralConfig"_s, 1e6, 4096 * 32));
    for (const QString &type : {u"qwen2"_s, u"qwen2_moe"_s, u"qwen3"_s, u"qwen3_moe"_s}) {
        Family q = rope(type, type.startsWith(u"qwen3"_s) ? u"Qwen3Config"_s : u"Qwen2Config"_s, 10000.0, 32768);
        q.layerRule = LayerRule::Qwen2;
        q.defaultLayers = 28;
        if (type.startsWith(u"qwen3"_s))
            q.defaultHeadDim = 128;
        add(q);
    }
    for (const QString &type : {u"qwen2_vl"_s, u"qwen2_vl_text"_s}) {
        Family qwenVl = rope(type, u"Qwen2VLTextConfig"_s, 1e6, 32768);
        qwenVl.layerRule = LayerRule::Qwen2;
        add(qwenVl);
    }
    Family gemma = rope(u"gemma"_s, u"GemmaConfig"_s, 10000.0, 8192);
    gemma.defaultHeadDim = 256;
    add(gemma);
    Family gemma2 = rope(u"gemma2"_s, u"Gemma2Config"_s, 10000.0, 8192);
    gemma2.defaultHeadDim = 256;
    gemma2.layerRule = LayerRule::Alternate;
    add(gemma2);
    // Gemma3TextConfig: default_theta {"global": 1e6, "local": 1e4}, 26 layers, head_dim 256.
    Family gemma3 = rope(u"gemma3_text"_s, u"Gemma3TextConfig"_s, 1e6, 131072);
    gemma3.defaultHeadDim = 256;
    gemma3.defaultLayers = 26;
    gemma3.defaultHeads = 8;
    gemma3.defaultHidden = 2304;
    gemma3.layerRule = LayerRule::Gemma3;
    gemma3.perLayerRope = true;
    add(gemma3);
    Family phi3 = rope(u"phi3"_s, u"Phi3Config"_s, 10000.0, 4096);
    phi3.defaultHidden = 3072;
    add(phi3);
    Family phi = rope(u"phi"_s, u"PhiConfig"_s, 10000.0, 2048);
    phi.defaultPartial = 0.5;
    phi.defaultHidden = 2048;
    add(phi);
    // GPTNeoXConfig: rotary_pct 0.25, rotary_emb_base 10000.
    Family neox = rope(u"gpt_neox"_s, u"GPTNeoXConfig"_s, 10000.0, 2048);
    neox.defaultPartial = 0.25;
    neox.defaultHidden = 6144;
    neox.defaultHeads = 64;
    neox.defaultLayers = 44;
    add(neox);
    // GPTJConfig: rotary_dim 64 of n_embd / n_head = 256; modeling_gptj.py fixes base 10000 and
    // turns pairs (2i, 2i + 1) (rotate_every_two).
    Family gptj = rope(u"gptj"_s, u"GPTJConfig"_s, 10000.0, 2048);
    gptj.layout = RopeLayout::Interleaved;
    gptj.defaultHeads = 16;
    gptj.defaultLayers = 28;
    add(gptj);
    // DeepseekV3Config: head_dim = qk_rope_head_dim (64), rope_interleave true.
    for (const QString &type : {u"deepseek_v2"_s, u"deepseek_v3"_s}) {
        Family ds = rope(type, type == u"deepseek_v3"_s ? u"DeepseekV3Config"_s : u"DeepseekV2Config"_s, 10000.0,
                         type == u"deepseek_v3"_s ? 4096 : 2048);
        ds.layout = RopeLayout::Interleaved;
        ds.defaultHeadDim = 64;
        ds.defaultHeads = 128;
        ds.defaultHidden = 7168;
        ds.defaultLayers = 61;
        add(ds);
    }
    // GptOssConfig: default_theta 150000, rope_parameters yarn factor 32 by default.
    Family oss = rope(u"gpt_oss"_s, u"GptOssConfig"_s, 150000.0, 131072);
    oss.defaultHeadDim = 64;
    oss.defaultHeads = 64;
    oss.defaultHidden = 2880;
    oss.defaultLayers = 36;
    oss.layerRule = LayerRule::Alternate;
    add(oss);
    // Llama4TextConfig: rope_theta 500000, no_rope_layers every 4th, complex (interleaved) pairs.
    Family llama4 = rope(u"llama4_text"_s, u"Llama4TextConfig"_s, 500000.0, 4096 * 32);
    llama4.layout = RopeLayout::Interleaved;
    llama4.defaultHeadDim = 128;
    llama4.defaultHeads = 40;
    llama4.defaultHidden = 5120;
    llama4.defaultLayers = 48;
    llama4.layerRule = LayerRule::Llama4;
    llama4.noRopeLayers = true;
    add(llama4);
    // SmolLM3Config: default_theta 2e6, NoPE every 4th layer.
    Family smol = rope(u"smollm3"_s, u"SmolLM3Config"_s, 2e6, 32768);
    smol.defaultHeads = 16;
    smol.defaultHidden = 2048;
    smol.defaultLayers = 36;
    smol.layerRule = LayerRule::SmolLM3;
    smol.noRopeLayers = true;
    add(smol);
    for (const QString &type : {u"olmo"_s, u"olmo2"_s, u"granite"_s, u"starcoder2"_s, u"cohere"_s, u"internlm2"_s})
        add(rope(type, type + u" config"_s, 10000.0, 2048));
    Family falcon = rope(u"falcon"_s, u"FalconConfig"_s, 10000.0, 2048);
    falcon.defaultHeads = 71;
    falcon.defaultHidden = 4544;
    add(falcon);

    add(other(u"bloom"_s, Scheme::Alibi, u"BloomConfig"_s, 0));
    add(other(u"mpt"_s, Scheme::Alibi, u"MptConfig"_s, 2048));
    for (const QString &type : {u"t5"_s, u"mt5"_s})
        add(other(type, Scheme::T5, type == u"t5"_s ? u"T5Config"_s : u"MT5Config"_s, 512));
    add(other(u"deberta-v2"_s, Scheme::Deberta, u"DebertaV2Config"_s, 512));
    add(other(u"gpt2"_s, Scheme::Learned, u"GPT2Config"_s, 1024));
    for (const QString &type : {u"bert"_s, u"roberta"_s, u"xlm-roberta"_s, u"camembert"_s})
        add(other(type, Scheme::Learned, type == u"bert"_s ? u"BertConfig"_s : u"RobertaConfig"_s, 512));
    add(other(u"bart"_s, Scheme::Learned, u"BartConfig"_s, 1024));
    add(other(u"opt"_s, Scheme::Learned, u"OPTConfig"_s, 2048));
    add(other(u"whisper"_s, Scheme::Whisper, u"WhisperConfig"_s, 448));
    return t;
}

const QHash<QString, Family> &families()
{
    static const QHash<QString, Family> t = table();
    return t;
}

} // namespace

Family of(const QString &modelType)
{
    const auto it = families().constFind(modelType);
    if (it != families().cend())
        return *it;
    Family f = rope(modelType, u"LlamaConfig"_s, 10000.0, 2048);
    f.known = false;
    return f;
}

QString textType(const QString &modelType)
{
    if (modelType == u"gemma3"_s)
        return u"gemma3_text"_s;
    if (modelType == u"llama4"_s)
        return u"llama4_text"_s;
    if (modelType == u"qwen2_vl"_s)
        return u"qwen2_vl_text"_s;
    return modelType;
}

QStringList knownTypes()
{
    QStringList types = families().keys();
    types.sort();
    return types;
}

} // namespace posenc::ModelFamilies
