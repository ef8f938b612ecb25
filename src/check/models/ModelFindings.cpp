// The findings of a model's row and layers (ModelFindings.h). The threads they cite were found by
// searching the issue trackers of the engines and of HF transformers; where none was found for a
// claim, the finding says so.
#include "ModelFindings.h"

#include "check/ConfigContext.h"
#include "check/FamilyCheck.h"
#include "check/models/ConfigSources.h"
#include "check/models/LayerSchemes.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

std::vector<std::int64_t> layersWhere(const ConfigContext &c, const std::function<bool(const ConfigLayer &)> &which)
{
    std::vector<std::int64_t> all;
    for (const ConfigLayer &l : c.result.layers) {
        if (which(l))
            all.insert(all.end(), l.layers.cbegin(), l.layers.cend());
    }
    std::sort(all.begin(), all.end());
    return all;
}

QString scaleAt(const QueryScale &q, std::int64_t p)
{
    return NumberText::compact(q.at(p), 5);
}

void nopeLayers(ConfigContext &c)
{
    const auto nope = layersWhere(c, [](const ConfigLayer &l) { return l.scheme.encoding == u"none"_s; });
    if (nope.empty())
        return;
    const QString rule = c.model.nope.value(u"rule"_s).toString();
    QString why;
    if (rule == u"flags"_s)
        why = u"no_rope_layers 0 there: the list's name is reversed, 1 marks a layer where RoPE turns "
              "(transformers#37344, #37359; TensorRT-LLM#3382 fixed the interval for it)"_s;
    else if (rule == u"sliding-only"_s)
        why = u"%1 rotates only where sliding_window is set, so its full layers attend without position "
              "(vllm#11203 caught the condition written inverted)"_s.arg(c.model.configClass);
    else
        why = u"%1 applies no rotary embedding there"_s.arg(c.model.configClass);
    c.find(u"nope-layers"_s,
           u"layers %1 have no RoPE: %2; their attention sees order only through the causal mask"_s.arg(
               ConfigText::layerList(nope, c.plan.layerCount), why));
}

void chunkedLayers(ConfigContext &c)
{
    for (const ConfigLayer &l : c.result.layers) {
        if (!l.scheme.chunk)
            continue;
        c.find(u"chunked-layers-turn"_s,
               u"the %1 layers (chunks of %2 positions) are the ones where RoPE turns; the NoPE layers attend to the "
               "whole context (maxtext#1642 described the opposite)"_s.arg(l.layerType)
                   .arg(*l.scheme.chunk),
               l.layerType);
    }
}

void queryScales(ConfigContext &c)
{
    for (const ConfigLayer &l : c.result.layers) {
        const QueryScale &q = l.scheme.query;
        if (q.kind == QueryScale::Kind::Temperature)
            c.find(u"query-temperature"_s,
                   u"these layers multiply their queries by %1: 1 up to position %2, %3 from %4 and %5 at %6 (the "
                   "absolute token index, not position_ids); vLLM read attn_temperature_tuning as off by default and "
                   "ran them without it (vllm#16216; on for long contexts since vllm#16439)"_s.arg(q.words())
                       .arg(q.firstRise() - 1)
                       .arg(scaleAt(q, q.firstRise()))
                       .arg(q.firstRise())
                       .arg(scaleAt(q, c.plan.maxPositions - 1))
                       .arg(c.plan.maxPositions - 1),
                   l.layerType);
        else if (q.kind == QueryScale::Kind::Beta)
            c.find(u"query-scaling-beta"_s,
                   u"every query is multiplied by %1: %2 from position %3, %4 at %5; vLLM's MistralAttention looked "
                   "only for a top-level llama_4_scaling and skipped it (vllm#48621), HF used the cache position "
                   "instead of position_ids until transformers#44860 (no report of it applied twice was found)"_s
                       .arg(q.words(), scaleAt(q, q.firstRise()))
                       .arg(q.firstRise())
                       .arg(scaleAt(q, c.plan.maxPositions - 1))
                       .arg(c.plan.maxPositions - 1),
                   l.layerType);
    }
    const QString flag = c.model.qscale.value(u"switch"_s).toString();
    if (!flag.isEmpty() && c.text.json().value(flag).isBool() && !c.text.json().value(flag).toBool())
        c.find(u"query-temperature"_s,
               u"%1 is false: the NoPE layers run without the query temperature that long "
               "contexts were trained with"_s.arg(c.text.pathOf(flag)));
}

void ropeNotes(ConfigContext &c)
{
    for (const ConfigLayer &l : c.result.layers) {
        // A rotary layer reads RoPE's rows (params.rope), whatever family turns it.
        if (!FamilyChecks::of(l.params.encoding).rotary)
            continue;
        const RopeParams &r = l.params.rope;
        if (r.type == RopeType::LongRope && r.originalMaxLen)
            c.find(u"longrope-factor-choice"_s,
                   u"the long factors apply when max(position_ids) + 1 > %1, chosen again at every forward pass "
                   "(dynamic_rope_update); llama.cpp chose them by the allocated context (llama.cpp#24875), vLLM by "
                   "max_model_len (vllm#27431), so a short prompt there can turn with the long ones"_s.arg(
                       *r.originalMaxLen),
                   l.layerType);
        if (r.layout == RopeLayout::Interleaved)
            c.find(u"interleaved-pairs"_s,
                   u"%1 turns pairs (2i, 2i + 1), not rotate_half's (i, i + r/2): a port with the other layout must "
                   "permute its query and key weights%2"_s.arg(c.model.type,
                                                               c.model.type.startsWith(u"cohere"_s)
                                                                   ? u" (llama.cpp runs Cohere2 with adjacent pairs, "
                                                                     "llama.cpp#10900; no report of it run with half "
                                                                     "pairs was found)"_s
                                                                   : QString()),
                   l.layerType);
        if (l.scheme.rotaryPlace == u"mla-tail"_s && c.model.headDim != u"mla"_s)
            c.find(u"rope-tail"_s,
                   u"RoPE turns the last %1 of each %2-wide head (x[..., -%1:]), the others pass unturned: a port "
                   "that turns the first %1 columns computes other scores"_s.arg(RopeFrequencies::rotaryDim(r))
                       .arg(l.scheme.headDim),
                   l.layerType);
        else if (l.scheme.rotaryPlace == u"mla-tail"_s)
            c.find(u"mla-rope-tail"_s,
                   u"MLA: RoPE turns the last %1 of each %2-wide query head (qk_rope_head_dim), and the key's %1 "
                   "rotated columns are one per token, shared by every head; a reader that takes hidden_size / "
                   "num_attention_heads = %3 as the rotary head is wrong"_s.arg(r.headDim)
                       .arg(l.scheme.headDim)
                       .arg(c.plan.hidden / std::max<std::int64_t>(c.plan.heads, 1)),
                   l.layerType);
        if (l.scheme.indexerHeadDim > 0)
            c.find(u"indexer-layout"_s,
                   u"the sparse-attention indexer rotates the first %1 of its %2 columns in %3 pairs while MLA's "
                   "tail turns interleaved ones: engines that reused MLA's rotation for the indexer lost accuracy "
                   "(sglang#13530, vllm-ascend#4641, xllm#853; GLM-5's indexer_rope_interleave, transformers#46842)"_s
                       .arg(l.scheme.indexerRotaryDim)
                       .arg(l.scheme.indexerHeadDim)
                       .arg(l.scheme.indexerLayout == u"half"_s ? u"rotate_half"_s : u"interleaved"_s),
                   l.layerType);
    }
}

// A guessed reading (a model_type posenc's table lacks) reads the keys Llama's rules name (or a
// learned table's); the model's own code may read others that speak of position, as GLM-4's
// chatglm code turns half of each head with base 10000 * rope_ratio over seq_length positions, none
// of which Llama's rules read. Each such key of the text config is named with its value: the guess
// below may be wrong where the model computes from them.
void unreadPositionKeys(ConfigContext &c)
{
    if (c.model.read != u"guess"_s)
        return;
    // Read: the keys its numbers came from (each source's "key <path>", a guess's "guess key <path>",
    // and each parameter's key, with the objects they sit in), the two keys that choose a learned
    // table (evidenceOf, ModelConfigCheck.cpp; a key that chose RoPE, rope_ratio, is named, as no
    // number came from it), and the context, max_position_embeddings or its class's name for it.
    QSet<QString> read {c.text.pathOf(u"position_embedding_type"_s), c.text.pathOf(u"sinusoidal_pos_embds"_s),
                        c.text.pathOf(u"max_position_embeddings"_s)};
    for (auto it = c.model.aliases.begin(); it != c.model.aliases.end(); ++it)
        read.insert(c.text.pathOf(it.value().toString()));
    const auto readPath = [&](QString path) {
        for (; !path.isEmpty(); path = path.section(u'.', 0, -2))
            read.insert(path);
    };
    for (const ConfigLayer &layer : c.result.layers) {
        for (const auto &[name, source] : layer.sources)
            readPath(ConfigSources::keyOf(source));
        for (const QString &path : layer.readFrom)
            readPath(path);
    }
    const QStringList unread = ModelFindings::positionKeys(c.text, read);
    if (!unread.isEmpty())
        c.find(u"position-keys-unread"_s,
               u"the config holds %1, which this guess does not read: model_type %2's own code may compute its "
               "positions from these, and then not as the layers below say"_s.arg(unread.join(u", "_s), c.model.type));
}

} // namespace

namespace ModelFindings {

QStringList positionKeys(const ConfigObject &o, const QSet<QString> &read)
{
    // A key speaks of position where one of its words does, or it names a sequence's length or a
    // long-context scaling (Qwen's use_dynamic_ntk, use_logn_attn); not max_length (a generation
    // setting of every PretrainedConfig), seq_classif_dropout, or Reformer's LSH num_buckets.
    static const QRegularExpression positional(
        u"(^|_)(rope|rotary|theta|positions?|positional|pos|alibi|relative|ctx|context|ntk|logn)(_|$)"
        "|seq_len|sequence_len"_s);
    QStringList keys;
    qsizetype more = 0;
    for (auto it = o.json().begin(); it != o.json().end(); ++it) {
        const QJsonValue &value = it.value();
        // A key that turns a scheme off (use_alibi false) or holds nothing says nothing of it.
        if (value.isNull() || value == QJsonValue(false) || (value.isObject() && value.toObject().isEmpty())
            || read.contains(o.pathOf(it.key())) || !positional.match(it.key()).hasMatch())
            continue;
        // Eight at most, each key as a message may show it (ConfigText::keyList), its value shortened.
        if (keys.size() == 8)
            ++more;
        else
            keys.append(u"%1 %2"_s.arg(ConfigText::keyList({o.pathOf(it.key())}), ConfigObject::jsonText(value)));
    }
    if (more > 0)
        keys.append(u"%1 more"_s.arg(more));
    return keys;
}

void reportRow(ConfigContext &c)
{
    const ModelRow &row = c.model;
    if (row.read == u"guess"_s && !row.nearest.isEmpty())
        c.find(u"model-type-unknown"_s,
               u"model_type %1 is not in posenc's table of models: read from its position keys, by the rules and "
               "defaults of %2, the known model_type its name extends, so its layers below are a guess"_s.arg(
                   row.type, row.nearest));
    else if (row.read == u"guess"_s && row.scheme != u"learned"_s) // a learned guess says its own (scheme-guessed)
        c.find(u"model-type-unknown"_s,
               u"model_type %1 is not in posenc's table of models: read from its position keys, by Llama's rules "
               "and LlamaConfig's defaults where no key says, so its layers below are a guess"_s.arg(row.type));
    else if (row.read == u"fingerprint"_s)
        c.find(u"model-read-by-fingerprint"_s,
               u"%1's defaults are its class's, and its rotary code is Llama's by fingerprint; its layer rule was not "
               "read by hand"_s.arg(row.configClass));
    for (auto it = row.ignored.begin(); it != row.ignored.end(); ++it) {
        if (c.text.contains(it.key()))
            c.find(u"key-not-read"_s, u"%1 is in the config: %2"_s.arg(c.text.pathOf(it.key()), it.value().toString()));
    }
}

void reportLayers(ConfigContext &c)
{
    if (LayerSchemes::bidirectional(c) && c.plan.slidingWindow)
        c.find(u"bidirectional-window"_s,
               u"%1 is on: the sliding layers see %2 tokens each side, before and after (%3 // 2 + 1 = %4, "
               "exclusive), not %3 before; a causal port of this encoder computes other scores"_s
                   .arg(c.text.pathOf(c.model.window.value(u"bidirectional"_s).toString()))
                   .arg(*c.plan.slidingWindow / 2)
                   .arg(*c.plan.slidingWindow)
                   .arg(*c.plan.slidingWindow / 2 + 1));
    nopeLayers(c);
    chunkedLayers(c);
    queryScales(c);
    ropeNotes(c);
    unreadPositionKeys(c);
}

QList<ConfigFindings::Kind> kinds()
{
    return {
        {u"layer-rule-fails"_s, Severity::Error,
         u"the config class cannot compute its layer types from the config (a word or zero as the period)"_s},
        {u"model-type-unknown"_s, Severity::Warning,
         u"a model_type posenc's table lacks: Llama's rules and defaults are assumed, the layers a guess"_s},
        {u"scheme-unknown"_s, Severity::Warning,
         u"a model_type posenc's table lacks whose keys name no position scheme posenc reads: nothing is read, "
         "RoPE not assumed, the keys that speak of position named"_s},
        {u"scheme-guessed"_s, Severity::Warning,
         u"a model_type posenc's table lacks read as a learned table by its keys (position_embedding_type absolute, "
         "sinusoidal_pos_embds false): a guess"_s},
        {u"scheme-by-key"_s, Severity::Note,
         u"a key chooses another scheme than the class's, read as the remote code the config's auto_map names"_s},
        {u"key-not-read"_s, Severity::Warning, u"a key the model's own code read, which HF's class no longer reads"_s},
        {u"position-keys-unread"_s, Severity::Warning,
         u"a guessed reading leaves keys that speak of position unread (rope_ratio, seq_length): the model's own "
         "code may compute from them"_s},
        {u"model-read-by-fingerprint"_s, Severity::Note,
         u"a model whose rotary code equals Llama's by fingerprint: its layer rule was not read by hand"_s},
        {u"nope-layers"_s, Severity::Note, u"layers without RoPE (NoPE), and why the code leaves them so"_s},
        {u"bidirectional-window"_s, Severity::Note,
         u"a bidirectional encoder's sliding window: sliding_window // 2 each side (EmbeddingGemma)"_s},
        {u"chunked-layers-turn"_s, Severity::Note,
         u"Llama 4's chunked layers are its RoPE layers; its NoPE layers are global"_s},
        {u"query-temperature"_s, Severity::Note,
         u"Llama 4's NoPE layers scale their queries by position (attn_temperature_tuning)"_s},
        {u"query-scaling-beta"_s, Severity::Note,
         u"Mistral 3 scales every query by 1 + beta ln(1 + floor(p / L0)) (llama_4_scaling_beta)"_s},
        {u"longrope-factor-choice"_s, Severity::Note,
         u"LongRoPE's long factors are chosen per forward pass by the current length"_s},
        {u"interleaved-pairs"_s, Severity::Note,
         u"pairs (2i, 2i + 1), not rotate_half's (i, i + r/2): a port must match the layout"_s},
        {u"rope-tail"_s, Severity::Note,
         u"RoPE turns the last columns of the head (DeepSeek-V4's x[..., -rope_dim:]), not the first"_s},
        {u"mla-rope-tail"_s, Severity::Note,
         u"MLA: RoPE on the tail of each head (qk_rope_head_dim), the key's part shared by every head"_s},
        {u"indexer-layout"_s, Severity::Note,
         u"DeepSeek-V3.2's indexer rotates in another layout than its MLA (rotate_half against interleaved)"_s},
    };
}

} // namespace ModelFindings

} // namespace posenc
