#include "RopePublishedForms.h"

#include "check/rope/RopeLongRopeForms.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::RopePublishedForms {

std::vector<RopeFit::Published> forms()
{
    const auto rope = [](RopeType type, std::int64_t headDim, double theta, RopeLayout layout = RopeLayout::Half) {
        Params p;
        p.encoding = Encoding::Rope;
        p.rope.type = type;
        RopeFrequencies::setHeadDim(p, headDim);
        p.rope.theta = theta;
        p.rope.layout = layout;
        return p;
    };
    const auto scaled = [](Params p, double factor, std::optional<std::int64_t> original) {
        p.rope.factor = factor;
        p.rope.originalMaxLen = original;
        return p;
    };
    Params llama4 = scaled(rope(RopeType::Llama3, 128, 500000.0, RopeLayout::Interleaved), 16.0, 8192);
    llama4.rope.highFreqFactor = 1.0;
    Params gptOss = scaled(rope(RopeType::Yarn, 64, 150000.0), 32.0, 4096);
    gptOss.rope.yarnTruncate = false;
    Params deepseek = scaled(rope(RopeType::Yarn, 64, 10000.0, RopeLayout::Interleaved), 40.0, 4096);
    deepseek.rope.mscale = 1.0;
    deepseek.rope.mscaleAllDim = 1.0;
    // transformers' DeepseekV3Attention with rope_interleave (DeepseekV3Config's default, true) calls
    // apply_rotary_pos_emb_interleave: Y's columns [evens | odds] (modeling_deepseek_v3.py).
    RopeFit::Published deepseekV3 {u"DeepSeek-V3"_s, deepseek};
    deepseekV3.deinterleaved = true;
    // DeepSeek-V2 and V2-Lite: DeepSeek-V3's YaRN at mscale = mscale_all_dim 0.707 (attention factor
    // 1). transformers' DeepseekV2Attention turns consecutive pairs in place (modeling_deepseek_v2.py,
    // apply_rotary_emb: view_as_complex); DeepSeek's own modeling_deepseek.py (the models' auto_map)
    // de-interleaves q and k before rotate_half (apply_rotary_pos_emb), as DeepSeek-V3's does: Y's
    // columns [evens | odds].
    Params deepseekV2Params = deepseek;
    deepseekV2Params.rope.mscale = 0.707;
    deepseekV2Params.rope.mscaleAllDim = 0.707;
    RopeFit::Published deepseekV2 {u"DeepSeek-V2"_s, deepseekV2Params};
    deepseekV2.source = u"deepseek-ai/DeepSeek-V2-Lite config.json (rope_scaling) and modeling_deepseek.py, "
                        "apply_rotary_pos_emb"_s;
    deepseekV2.deinterleaved = true;
    Params gemma4 = rope(RopeType::Proportional, 512, 1000000.0);
    gemma4.rope.partialRotaryFactor = 0.25;
    Params neox = rope(RopeType::Default, 96, 10000.0);
    neox.rope.partialRotaryFactor = 0.25;
    Params gptj = rope(RopeType::Default, 256, 10000.0, RopeLayout::Interleaved);
    gptj.rope.partialRotaryFactor = 0.25;
    Params qwen3Next = rope(RopeType::Default, 256, 10000000.0);
    qwen3Next.rope.partialRotaryFactor = 0.25;
    Params glm45 = rope(RopeType::Default, 128, 1000000.0);
    glm45.rope.partialRotaryFactor = 0.5;
    Params exaone4 = scaled(rope(RopeType::Llama3, 128, 1000000.0), 16.0, 8192);
    // Kimi K2: DeepSeek-V3's yarn with beta_fast = beta_slow = 1, so no pair is blended. Its code is
    // DeepSeek-V3's remote code (moonshotai/Kimi-K2-Instruct config.json auto_map:
    // modeling_deepseek.DeepseekV3ForCausalLM), whose apply_rotary_pos_emb de-interleaves q and k
    // (q.view(b, h, s, d // 2, 2).transpose(4, 3)) before rotate_half, as transformers'
    // apply_rotary_pos_emb_interleave does: Y's columns [evens | odds].
    Params kimiK2 = scaled(rope(RopeType::Yarn, 64, 50000.0, RopeLayout::Interleaved), 32.0, 4096);
    kimiK2.rope.betaFast = 1.0;
    kimiK2.rope.mscale = 1.0;
    kimiK2.rope.mscaleAllDim = 1.0;
    RopeFit::Published kimi {u"Kimi K2"_s, kimiK2};
    kimi.deinterleaved = true;
    Params devstral2 = scaled(rope(RopeType::Yarn, 128, 100000000.0), 48.0, 8192);
    devstral2.rope.mscale = 1.0;
    devstral2.rope.mscaleAllDim = 1.0;
    std::vector<RopeFit::Published> forms {
        // Meta's llama/model.py and mistral-inference turn consecutive pairs, transformers' halves.
        {.name = u"Llama 2 7B"_s, .params = rope(RopeType::Default, 128, 10000.0), .eitherPairing = true},
        {.name = u"Mistral 7B"_s, .params = rope(RopeType::Default, 128, 10000.0), .eitherPairing = true},
        // Llama 3 (8B and 70B) rotate with no rope_scaling: head_dim 4096 / 32 = 128 at theta 500000,
        // Meta's pairs interleaved, HF's halves (its conversion permutes q and k).
        {.name = u"Llama 3 8B"_s,
         .params = rope(RopeType::Default, 128, 500000.0),
         .source = u"meta-llama/llama3 llama/model.py, ModelArgs (rope_theta 500000, dim 4096, n_heads 32) and "
                   "precompute_freqs_cis"_s,
         .eitherPairing = true},
        {.name = u"Llama 3.1 8B"_s,
         .params = scaled(rope(RopeType::Llama3, 128, 500000.0), 8.0, 8192),
         .eitherPairing = true},
        {.name = u"Llama 3.2 1B"_s,
         .params = scaled(rope(RopeType::Llama3, 64, 500000.0), 32.0, 8192),
         .eitherPairing = true},
        {u"Llama 4 Scout"_s, llama4},
        {u"Qwen2.5 7B with YaRN"_s, scaled(rope(RopeType::Yarn, 128, 1000000.0), 4.0, 32768)},
        {u"Qwen3 8B"_s, rope(RopeType::Default, 128, 1000000.0)},
        {u"gpt-oss-20b"_s, gptOss},
        deepseekV3,
        deepseekV2,
        {u"Gemma 3 4B"_s, scaled(rope(RopeType::Linear, 256, 1000000.0), 8.0, std::nullopt)},
        {u"Gemma 4 26B A4B"_s, gemma4},
        {u"GPT-NeoX-20B"_s, neox},
        {u"GPT-J 6B"_s, gptj},
        {u"Phi-4"_s, rope(RopeType::Default, 128, 250000.0)},
        {u"Command R7B"_s, rope(RopeType::Default, 128, 50000.0, RopeLayout::Interleaved)},
        {u"EXAONE 4.0 32B"_s, exaone4},
        {u"SmolLM3 3B"_s, rope(RopeType::Default, 128, 5000000.0)},
        {u"Qwen3-Next 80B A3B"_s, qwen3Next},
        {u"GLM-4.5"_s, glm45},
        kimi,
        // DeepSeek-V3.2-Exp's own code (deepseek-ai/DeepSeek-V3.2-Exp inference/model.py,
        // apply_rotary_emb with interleaved=True in MLA: view_as_complex of consecutive pairs, the
        // output view_as_real(...).flatten(3)) writes its rotation interleaved back, in place; its
        // model has no transformers code of DeepSeek-V3's [evens | odds].
        {u"DeepSeek-V3.2-Exp"_s, deepseek},
        {u"Devstral Small 2"_s, devstral2},
        {u"ModernBERT base"_s, rope(RopeType::Default, 64, 160000.0)},
    };
    for (RopeFit::Published &form : RopeLongRopeForms::forms())
        forms.push_back(std::move(form));
    return forms;
}

QStringList withRotation(const QStringList &names, RopeLayout rotation, bool deinterleaved)
{
    const std::vector<RopeFit::Published> all = forms();
    QStringList kept;
    for (const QString &name : names) {
        const auto form = std::find_if(all.begin(), all.end(), [&](const auto &f) { return f.name == name; });
        // A form of no one model (RoFormer's default RoPE) is published in either layout.
        const bool keep = form == all.end()
            ? !deinterleaved
            : (form->params.rope.layout == rotation || form->eitherPairing) && (!deinterleaved || form->deinterleaved);
        if (keep && !kept.contains(name))
            kept.append(name);
    }
    return kept;
}

} // namespace posenc::RopePublishedForms
