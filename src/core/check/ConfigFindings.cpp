#include "ConfigFindings.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::ConfigFindings {

const QList<Kind> &catalogue()
{
    static const QList<Kind> kinds = {
        {u"unknown-rope-type"_s, Severity::Error,
         u"a rope_type HF has no function for: its rotary embedding raises KeyError"_s},
        {u"missing-required-key"_s, Severity::Error,
         u"a key HF's validator requires for the rope_type is absent (KeyError)"_s},
        {u"type-and-rope-type-differ"_s, Severity::Error,
         u"the legacy type and rope_type name different types: HF reads rope_type, older readers type"_s},
        {u"rope-scaling-overrides-parameters"_s, Severity::Error,
         u"rope_scaling and rope_parameters differ: HF reads rope_scaling and ignores rope_parameters"_s},
        {u"rope-theta-twice"_s, Severity::Error,
         u"rope_theta beside and inside the rope dict differ: transformers 5 reads the dict's, 4 the top level's"_s},
        {u"partial-rotary-factor-twice"_s, Severity::Error,
         u"partial_rotary_factor beside and inside the rope dict differ: HF versions disagree on which wins"_s},
        {u"original-twice"_s, Severity::Error,
         u"original_max_position_embeddings beside and inside the rope dict differ: HF takes the top level's"_s},
        {u"truncate-in-layer-dict"_s, Severity::Error,
         u"yarn's truncate false inside a per-layer dict: HF reads truncate from rope_parameters' top level"_s},
        {u"rope-parameters-mixed-keys"_s, Severity::Error,
         u"keys beside the per-layer dicts (truncate outside them): HF no longer reads them as per-layer"_s},
        {u"layer-dict-missing"_s, Severity::Error, u"the per-layer rope_parameters lack a layer type's dict"_s},
        {u"per-layer-dicts-unsupported"_s, Severity::Error,
         u"per-layer rope_parameters for a model whose HF rotary embedding reads one dict"_s},
        {u"llama3-low-above-high"_s, Severity::Error,
         u"llama3's low_freq_factor above high_freq_factor: the bands overlap"_s},
        {u"odd-rotary-dim"_s, Severity::Error,
         u"the rotary dim int(head_dim * partial_rotary_factor) is odd: HF turns one column more"_s},
        {u"factor-applied-twice"_s, Severity::Error,
         u"max_position_embeddings already holds the factor the scaling applies again"_s},
        {u"dynamic-ignores-original"_s, Severity::Error,
         u"dynamic with original_max_position_embeddings: HF scales from max_position_embeddings instead"_s},
        {u"factor-list-length"_s, Severity::Error,
         u"longrope's short_factor or long_factor does not hold rotary_dim / 2 values"_s},
        {u"mrope-section-sum"_s, Severity::Error, u"mrope_section does not add up to the rotary pairs"_s},
        {u"layer-types-length"_s, Severity::Error,
         u"layer_types or no_rope_layers does not list num_hidden_layers layers"_s},
        {u"phi3-rope-type"_s, Severity::Error, u"Phi-3's config takes only default and longrope (ValueError)"_s},
        {u"mpt-alibi-ignored"_s, Severity::Error,
         u"MPT's attn_config asks for other ALiBi than HF's MptModel applies (always ALiBi, bias max 8)"_s},
        {u"legacy-type-key"_s, Severity::Warning,
         u"the legacy key type instead of rope_type: HF converts it, readers of rope_type miss it"_s},
        {u"rope-theta-absent"_s, Severity::Warning, u"no rope_theta: the model class's default is assumed"_s},
        {u"implicit-default"_s, Severity::Warning, u"a key the position encoding reads is absent: HF's default"_s},
        {u"yarn-factor-mismatch"_s, Severity::Warning,
         u"yarn's factor is not max_position_embeddings / original_max_position_embeddings (HF warns)"_s},
        {u"longrope-factor-from-context"_s, Severity::Warning,
         u"longrope without factor: HF takes max_position_embeddings / original (and warns)"_s},
        {u"rope-scaling-duplicates-parameters"_s, Severity::Warning,
         u"rope_scaling and rope_parameters both given, alike: HF reads rope_scaling"_s},
        {u"unrecognized-rope-key"_s, Severity::Warning, u"a key HF's validator does not know for the rope_type"_s},
        {u"factor-below-one"_s, Severity::Warning, u"a scaling factor below 1 shortens the context (HF warns)"_s},
        {u"llama3-original-not-below-max"_s, Severity::Warning,
         u"llama3's original_max_position_embeddings is not below max_position_embeddings (HF warns)"_s},
        {u"beta-fast-below-slow"_s, Severity::Warning, u"yarn's beta_fast below beta_slow (HF warns)"_s},
        {u"top-level-rope-keys-ignored"_s, Severity::Warning,
         u"RoPE keys at the top level of a config whose text model reads text_config"_s},
        {u"model-type-missing"_s, Severity::Warning, u"no model_type: the family is recognised by its keys"_s},
        {u"model-type-unknown"_s, Severity::Warning,
         u"a model_type posenc has no HF defaults for: Llama's defaults are assumed"_s},
        {u"llama3-low-equals-high"_s, Severity::Note,
         u"llama3 with low_freq_factor = high_freq_factor (Llama 4 Scout): no blended band; HF warns"_s},
        {u"mscale-pair"_s, Severity::Note,
         u"yarn's mscale and mscale_all_dim: the temperature moves into the softmax scale"_s},
        {u"nope-layers"_s, Severity::Note, u"layers without RoPE (no_rope_layers 0)"_s},
        {u"sliding-layers-own-theta"_s, Severity::Note,
         u"sliding-window layers turn with their own theta, unscaled (Gemma 3's local layers)"_s},
        {u"proportional-not-partial"_s, Severity::Note,
         u"proportional's partial_rotary_factor is not partial rotary: the exponent divides by head_dim"_s},
        {u"rope-parameters-v5-form"_s, Severity::Note,
         u"rope_parameters, transformers 5's form: readers of rope_scaling see no scaling"_s},
        {u"yarn-context-not-extended"_s, Severity::Note,
         u"yarn with max_position_embeddings = original: the config does not state the extended context"_s},
        {u"interleaved-pairs"_s, Severity::Note,
         u"pairs (2i, 2i + 1), not rotate_half's (i, i + r/2): a port must match the layout"_s},
        {u"mrope-text-positions"_s, Severity::Note,
         u"M-RoPE: text turns as default RoPE, images by sections of the pairs"_s},
        {u"learned-offset"_s, Severity::Note, u"a learned table whose first rows belong to padding"_s},
        {u"half-dim-minus-one"_s, Severity::Note,
         u"a sinusoid whose exponent divides by half_dim - 1 (Whisper, fairseq, tensor2tensor)"_s},
        {u"position-biased-input"_s, Severity::Note,
         u"DeBERTa adds an absolute table to its input besides its relative buckets"_s},
        {u"learned-pos-emb-ignored"_s, Severity::Note, u"MPT's learned_pos_emb: HF's MptModel has no such table"_s},
    };
    return kinds;
}

QString severityWord(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return u"error"_s;
    case Severity::Warning:
        return u"warning"_s;
    case Severity::Note:
        return u"note"_s;
    }
    return u"note"_s;
}

ConfigFinding make(const QString &id, const QString &message, const QString &layerType)
{
    const QList<Kind> &kinds = catalogue();
    const auto kind = std::find_if(kinds.cbegin(), kinds.cend(), [&](const Kind &k) { return k.id == id; });
    Q_ASSERT(kind != kinds.cend());
    return ConfigFinding {id, kind != kinds.cend() ? kind->severity : Severity::Error, message, layerType};
}

} // namespace posenc::ConfigFindings
