#include "LayerLessonNumbers.h"

#include "check/FamilyCheck.h"
#include "check/ModelConfigCheck.h"
#include "check/models/BiasCodeLessonNumbers.h"
#include "check/models/LayerTypeWords.h"
#include "check/models/ModelExamples.h"
#include "core/FamilySpec.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/rope/RopeFrequencies.h"

#include <QStringList>

#include <algorithm>
#include <functional>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::LayerLessonNumbers {

using namespace LessonNumbers;

namespace {

// The layer types that count layers, in the config's order.
QList<const ConfigLayer *> counted(const ConfigCheck &check)
{
    QList<const ConfigLayer *> list;
    for (const ConfigLayer &l : check.layers) {
        if (!l.layers.empty())
            list.append(&l);
    }
    return list;
}

using LayerTypeWords::positionless;
using LayerTypeWords::rotary;

// How far a layer type's query sees: its window or chunk, else nothing.
std::optional<std::int64_t> reach(const ConfigLayer &l)
{
    return l.scheme.window ? l.scheme.window : l.scheme.chunk;
}

// The slowest turning pair's wavelength of a rotary layer type, after its scaling.
double slowest(const ConfigLayer &l)
{
    return FamilyChecks::of(l.params.encoding).rotary->numbers(l.params).wavelengthMax;
}

// The rotary layer type whose slowest pair is slowest.
const ConfigLayer *slowestType(const ConfigCheck &check)
{
    const ConfigLayer *found = nullptr;
    for (const ConfigLayer *l : counted(check)) {
        if (rotary(*l) && (!found || slowest(*l) > slowest(*found)))
            found = l;
    }
    return found;
}

// The rotary layer type that turns the tail of a wider head (DeepSeek's MLA: the last
// qk_rope_head_dim columns, after qk_nope_head_dim that do not turn), where the model's parameters
// are that tail's: its rotary dim is the config's.
const ConfigLayer *tailType(const ConfigCheck &check, const LessonModel &m)
{
    for (const ConfigLayer *l : counted(check)) {
        if (rotary(*l) && l->scheme.rotaryPlace == u"mla-tail"_s && m.params.encoding == Encoding::Rope
            && RopeFrequencies::rotaryDim(m.params.rope) == RopeFrequencies::rotaryDim(l->params.rope)
            && l->scheme.headDim > RopeFrequencies::rotaryDim(l->params.rope))
            return l;
    }
    return nullptr;
}

// The layer type whose queries are scaled by position.
const ConfigLayer *scaledType(const ConfigCheck &check)
{
    for (const ConfigLayer *l : counted(check)) {
        if (!l->scheme.query.isNone())
            return l;
    }
    return nullptr;
}

// Every example config as posenc check reads it, by name, read once.
const QList<std::pair<QString, std::shared_ptr<const ConfigCheck>>> &examples()
{
    static const auto list = [] {
        QList<std::pair<QString, std::shared_ptr<const ConfigCheck>>> read;
        for (const ModelExamples::Example &e : ModelExamples::all())
            read.append({e.name, std::make_shared<const ConfigCheck>(ModelConfig::check(e.config))});
        return read;
    }();
    return list;
}

// Whether a layer type places position as `params` do: its family, and every parameter of that
// family the parameters read (not idle), alike. A model's width and length are not compared: a
// preset of one layer type of a model (Gemma 4 26B A4B's full-attention layers) shares its scheme
// with another size of it (Gemma 4 31B's).
bool sameScheme(const ConfigLayer &l, const Params &params)
{
    if (!l.described || !l.params.isValid() || l.params.encoding != params.encoding)
        return false;
    for (const ParamSpec &row : ParamTable::rows()) {
        if (row.family != params.encoding || (row.idle && row.idle(params)))
            continue;
        if (ParamText::get(l.params, row.key) != ParamText::get(params, row.key))
            return false;
    }
    return true;
}

// Why a model given without a config has no numbers of its layers, and the way out: --config, with
// the examples that have a layer type of its position scheme ("gemma-4-31b") where there are some.
QString noConfig(const LessonModel &m)
{
    QStringList like;
    for (const auto &[name, check] : examples()) {
        const QList<const ConfigLayer *> layers = counted(*check);
        if (std::any_of(layers.begin(), layers.end(), [&](const ConfigLayer *l) { return sameScheme(*l, m.params); }))
            like.append(name);
    }
    const QString why = u"it comes with no config.json of its layers; give one with --config FILE"_s;
    if (like.isEmpty())
        return why;
    return why
        + u", or --config %1, an example of a model with a layer type of its position scheme"_s.arg(
            like.join(u" or --config "_s));
}

// A model whose own code finds its sequences from the attention mask's rows, not from the ids,
// by model_type: ModernBERT's _unpad_modernbert_input (transformers, models/modernbert/
// modeling_modernbert.py) takes cu_seqlens = the running sum of attention_mask.sum(-1), one
// sequence a row, and reads no position ids; ModernBertModel.forward takes cu_seqlens, indices and
// max_seqlen from its caller instead, and its flash path turns each token by its place in its
// sequence (ModernBertUnpaddedRotaryEmbedding: apply_rotary with cu_seqlens), not by the ids.
struct Unpadding
{
    QString code; // where the sequences are built
    QString forward; // what takes the caller's cu_seqlens
};

std::optional<Unpadding> unpadding(const ConfigCheck &c)
{
    if (c.modelType == u"modernbert"_s)
        return Unpadding {u"_unpad_modernbert_input, from attention_mask.sum(−1)"_s, u"ModernBertModel.forward"_s};
    return std::nullopt;
}

const QString kNoUnpadding = u"the model's code is not known to unpad by the mask alone"_s;

// A number of the model's config, or missing without one.
Entry ofConfig(const QString &key, const QString &description,
               std::function<Number(const ConfigCheck &, const LessonModel &)> value)
{
    return {key, description, std::function<Number(const LessonModel &)>([value](const LessonModel &m) {
                return m.config ? value(*m.config, m) : none(noConfig(m));
            })};
}

std::int64_t layersWhere(const ConfigCheck &check, const std::function<bool(const ConfigLayer &)> &which)
{
    std::int64_t n = 0;
    for (const ConfigLayer *l : counted(check))
        n += which(*l) ? std::int64_t(l->layers.size()) : 0;
    return n;
}

// Whether some of the model's layers have no position term, or all: its config's NoPE layers where
// it comes with a config, else the model's own encoding (LessonModel::encoding, the parameters' for
// a model of none). A model whose every layer places position hears what does, in its family's
// words: a term added to its input (Whisper's sinusoid) or one in every layer (RoPE, ALiBi, T5's
// buckets), whatever encoding a lesson draws it with (nope-order keeps none).
Number positionlessLayers(const LessonModel &m)
{
    if (m.config && layersWhere(*m.config, positionless) > 0)
        return condition(true, {});
    Params own = m.params;
    own.encoding = m.encoding.value_or(m.params.encoding);
    if (own.encoding == Encoding::None)
        return condition(true, {});
    const QString family = Families::spec(own.encoding).heading;
    return none(own.hasPositionTerm() ? u"it adds a position term to its input (%1)"_s.arg(family)
                                      : u"every one of its layers places position (%1)"_s.arg(family));
}

// Whether a layer type mixes tokens along the row without attention, carrying what it read into
// the tokens after it: a recurrent state (Gated DeltaNet, Lightning, KDA: "linear"; Mamba: "ssm")
// or a short causal convolution ("conv"), whatever the position ids say (transformers'
// Qwen3NextGatedDeltaNet.forward, models/qwen3_next/modeling_qwen3_next.py, reads no position ids).
// An MLP-only layer ("mlp") mixes nothing.
bool carriesAlong(const ConfigLayer &l)
{
    return l.scheme.encoding == u"linear"_s || l.scheme.encoding == u"ssm"_s || l.scheme.encoding == u"conv"_s;
}

// What those layers are, in words: "linear attention (a recurrent state)".
QString carriedWords(const ConfigCheck &check)
{
    QStringList words;
    for (const ConfigLayer *l : counted(check)) {
        if (!carriesAlong(*l))
            continue;
        const QString w = l->scheme.encoding == u"ssm"_s    ? u"Mamba state-space layers (a recurrent state)"_s
                          : l->scheme.encoding == u"conv"_s ? u"short causal convolutions"_s
                                                            : u"linear attention (a recurrent state)"_s;
        if (!words.contains(w))
            words.append(w);
    }
    return words.join(u" and "_s);
}

const QString kNoCarry = u"every layer that mixes tokens is attention"_s;

// Whether the named model's table embeds a diffusion timestep, not the positions of its tokens:
// its config is a diffusers timestep embedding (DiffusersConfig: the layer type "timestep"), or its
// preset names the scale c of diffusers' get_timestep_embedding (models/embeddings.py), which only a
// timestep embedding has. Such a table is added to no token embedding: UNet2DConditionModel feeds
// time_proj's output to TimestepEmbedding (Linear, SiLU, Linear), and each ResnetBlock2D adds
// time_emb_proj of it to its feature map (diffusers, models/unets/unet_2d_condition.py get_time_embed,
// models/resnet.py); the diffusion transformers' timestep embedders (FLUX's, Wan's) feed their blocks'
// modulation likewise.
bool embedsTimesteps(const LessonModel &m)
{
    if (m.config) {
        const auto &layers = m.config->layers;
        return std::any_of(layers.begin(), layers.end(),
                           [](const ConfigLayer &l) { return l.layerType == u"timestep"_s; });
    }
    return !m.name.isEmpty() && m.keys.contains(u"timestep-scale"_s);
}

// The model's context: the largest max_position_embeddings its layers read.
std::int64_t context(const ConfigCheck &check)
{
    std::int64_t most = 0;
    for (const ConfigLayer *l : counted(check))
        most = std::max(most, l->params.maxLen);
    return most;
}

// The config's model: the lesson model's name while the parameters are still the model's, else
// the config's own title without its notes ("meta-llama/Llama-4-Scout-17B-16E").
QString configModel(const LessonModel &m)
{
    if (!m.name.isEmpty())
        return m.name;
    const qsizetype note = m.configTitle.indexOf(u" ("_s);
    return note < 0 ? m.configTitle : m.configTitle.left(note);
}

// The query scale at `position`, one the model reaches: many-layers told Devstral Small 2, whose
// context ends at 393,215, its scale "at 1,000,000".
Number queryScaleAt(const ConfigCheck &check, std::int64_t position)
{
    const ConfigLayer *l = scaledType(check);
    if (!l)
        return none(u"no layer scales its queries by position"_s);
    if (position > context(check) - 1)
        return none(u"position %1 lies past the model's context of %2"_s.arg(position).arg(context(check)));
    return factor(l->scheme.query.at(position));
}

// What the model's attention multiplies its softmax scale by beyond 1/√d: yarn's
// get_mscale(f, mscale_all_dim)² where its code does so, as its config's scheme says (DeepSeek's
// MLA, transformers' DeepseekV3Attention.__init__); Ministral3Attention keeps head_dim^-0.5, so
// Devstral Small 2's yarn, with mscale_all_dim 1, was said to multiply every q·k by 1.9241. With no
// config, the parameter's own reading: mscale_all_dim is DeepSeek's (RopeFrequencies::describe).
double softmaxMscale(const LessonModel &m)
{
    if (m.params.encoding != Encoding::Rope)
        return 1.0;
    if (m.config) {
        const QList<const ConfigLayer *> layers = counted(*m.config);
        if (std::none_of(layers.begin(), layers.end(),
                         [](const ConfigLayer *l) { return l->scheme.softmaxTakesMscale; }))
            return 1.0;
    }
    return RopeFrequencies::describe(m.params).softmaxScaleFactor;
}

// The code that multiplies the model's softmax scale by that mscale²: its config's attention where
// the check's table cites it (DeepseekV2Attention only since transformers PR #47435; DeepSeek's own
// code and vLLM always), else DeepSeek-V3's, whose rule a scaling of mscale_all_dim follows.
QString softmaxCode(const LessonModel &m)
{
    if (m.config) {
        for (const ConfigLayer *l : counted(*m.config)) {
            if (l->scheme.softmaxTakesMscale && !l->scheme.softmaxCite.isEmpty())
                return u"transformers' "_s + l->scheme.softmaxCite;
        }
    }
    return u"transformers' DeepseekV3Attention.__init__, models/deepseek_v3/modeling_deepseek_v3.py"_s;
}

// Gemma 2 and 3 alternate sliding_attention and full_attention layers (their configs' layer_types):
// a sentence on the window says which layers have it.
QList<Entry> windowEntries()
{
    return {
        ofConfig(u"window_alternates"_s,
                 u"a condition: some attention layers attend within a sliding window and others do not"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const std::int64_t windowed
                         = layersWhere(c, [](const ConfigLayer &l) { return l.scheme.window.has_value(); });
                     const std::int64_t attending
                         = layersWhere(c, [](const ConfigLayer &l) { return l.scheme.headDim > 0; });
                     return condition(windowed > 0 && windowed < attending,
                                      u"its attention layers all have a window, or none has"_s);
                 }),
    };
}

// Which of its layer types a rotary model's parameters are: the RoPE lessons say whose numbers they quote.
QList<Entry> ropeLayerEntries()
{
    return {
        // rope-decay told Gemma 3 its numbers without saying that they are its 5 full_attention
        // layers' θ = 1,000,000 (linear ×8), not its 29 sliding_attention layers' θ = 10,000.
        ofConfig(u"rope_layer_type"_s, u"the config's rotary layer type whose position scheme the parameters are"_s,
                 [](const ConfigCheck &c, const LessonModel &m) {
                     // Of the types that turn alike, the one that sees as far as the parameters do:
                     // gpt-oss-20b's full_attention layers, not its sliding_attention ones of window
                     // 128, where the parameters set no window.
                     const auto reach = [](const ConfigLayer &l, const Params &p) {
                         const auto window = l.scheme.windowBothSides ? std::nullopt : l.scheme.window;
                         return window == p.batch.window && l.scheme.chunk == p.batch.chunk;
                     };
                     for (const bool strict : {true, false})
                         for (const ConfigLayer *l : counted(c)) {
                             if (rotary(*l) && sameScheme(*l, m.params) && (!strict || reach(*l, m.params)))
                                 return word(l->layerType);
                         }
                     return none(u"the parameters turn as no rotary layer type of the config does"_s);
                 }),
    };
}

// The numbers that say what class a model is of: layers without position, whose code scales its
// softmax, whether its table is added to token embeddings (not a diffusion timestep's), and its
// layers that mix tokens without attention.
QList<Entry> classEntries()
{
    return {
        Entry(u"positionless_layers"_s,
              u"a condition: some layers of the model, or all, have no position term (its config's NoPE layers, "
              "or encoding none)"_s,
              positionlessLayers),
        // sum-vs-concat and why-sqrt-d taught SD 1.5's timestep table as X = s·E + PE, with an s
        // and a σ of embeddings its UNet never has.
        Entry(u"adds_to_tokens"_s,
              u"a condition: the model adds its position term to its token (or patch) embeddings"_s,
              [](const LessonModel &m) {
                  if (!m.params.hasPositionTerm())
                      return condition(false, u"%1 adds no position term to its input"_s.arg(
                                                  Families::spec(m.params.encoding).heading));
                  return condition(!embedsTimesteps(m),
                                   u"its table embeds a diffusion timestep, which its code feeds to an MLP for its "
                                   "blocks, and is added to no token embedding"_s);
              }),
        ofConfig(u"carried_layers"_s,
                 u"the layers that mix tokens without attention, carrying a state or a convolution along the row"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const std::int64_t n = layersWhere(c, carriesAlong);
                     return n > 0 ? integer(n) : none(kNoCarry);
                 }),
        ofConfig(u"carried_words"_s, u"what those layers are"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     return layersWhere(c, carriesAlong) > 0 ? word(carriedWords(c)) : none(kNoCarry);
                 }),
        ofConfig(u"attention_layers"_s, u"the layers that attend, which the position ids and the mask reach"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     return integer(layersWhere(c, [](const ConfigLayer &l) { return l.scheme.headDim > 0; }));
                 }),
        Entry(u"token_positions"_s,
              u"a condition: the model's positions are its tokens' (or patches'), not a diffusion timestep's"_s,
              [](const LessonModel &m) {
                  return condition(!embedsTimesteps(m), u"its table embeds a diffusion timestep, not the positions "
                                                        "of tokens"_s);
              }),
        // relative-position told SD 1.5's timestep table "which of two tokens comes first" and that
        // attention sees it through Q = XW_Q: the lessons' sentences on attention over positions take
        // this alternative first.
        Entry(u"timestep_embedding"_s,
              u"a condition: the model's table embeds a diffusion timestep, fed to an MLP, entering no attention "
              "over positions"_s,
              [](const LessonModel &m) {
                  return condition(embedsTimesteps(m), u"its positions are its tokens' (or patches'), which "
                                                       "attention reads"_s);
              }),
        // frequencies told SD 1.5's timestep table of "positions" p: a sentence on what a row is
        // indexed by names it as the model's code does, a timestep t.
        Entry(u"position_word"_s,
              u"what a row of the table is indexed by: \"position\", or a diffusion "
              "model's \"timestep\""_s,
              [](const LessonModel &m) { return word(embedsTimesteps(m) ? u"timestep"_s : u"position"_s); }),
        Entry(u"positions_word"_s, u"the same in the plural"_s,
              [](const LessonModel &m) { return word(embedsTimesteps(m) ? u"timesteps"_s : u"positions"_s); }),
        Entry(u"position_symbol"_s, u"its symbol: p, or a timestep's t"_s,
              [](const LessonModel &m) { return word(embedsTimesteps(m) ? u"t"_s : u"p"_s); }),
        Entry(u"rope_softmax_code"_s,
              u"the code that multiplies the softmax scale by get_mscale(f, mscale_all_dim)², where "
              "implementations differ each"_s,
              [](const LessonModel &m) {
                  return softmaxMscale(m) != 1.0 ? word(softmaxCode(m))
                                                 : none(u"its attention keeps its softmax scale"_s);
              }),
    };
}

} // namespace

const QList<Entry> &entries()
{
    static const QList<Entry> list = QList<Entry> {
        ofConfig(u"config_model"_s, u"the model of the config the lesson reads"_s,
                 [](const ConfigCheck &, const LessonModel &m) { return properName(configModel(m)); }),
        Entry(u"rope_softmax_scaled"_s,
              u"a condition: the model's attention multiplies its softmax scale by get_mscale(f, mscale_all_dim)²"_s,
              [](const LessonModel &m) {
                  return condition(softmaxMscale(m) != 1.0, u"its attention keeps its softmax scale"_s);
              }),
        Entry(u"rope_softmax_scale"_s,
              u"get_mscale(f, mscale_all_dim)², what DeepSeek's attention multiplies 1/√d by"_s,
              [](const LessonModel &m) {
                  const double f = softmaxMscale(m);
                  return f != 1.0 ? factor(f) : none(u"its attention keeps its softmax scale"_s);
              }),
        Entry(u"rope_qk_scale"_s,
              u"what the scaling does to q·k in the model's attention: the attention factor squared, times its "
              "softmax's get_mscale(f, mscale_all_dim)² where its code applies one"_s,
              [](const LessonModel &m) {
                  if (m.params.encoding != Encoding::Rope)
                      return none(u"not here: the encoding is not rope"_s);
                  const double a = RopeFrequencies::attentionFactor(m.params);
                  return factor(a * a * softmaxMscale(m));
              }),
        ofConfig(u"layers"_s, u"the config's layers"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     return integer(layersWhere(c, [](const ConfigLayer &) { return true; }));
                 }),
        ofConfig(u"layer_kinds"_s, u"its layer types that count layers"_s,
                 [](const ConfigCheck &c, const LessonModel &) { return integer(counted(c).size()); }),
        ofConfig(u"several_kinds"_s, u"a condition: the layers are of more than one type"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     return condition(counted(c).size() > 1, u"every layer is of one type"_s);
                 }),
        ofConfig(u"one_kind"_s, u"a condition: every layer is of one type"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     return condition(counted(c).size() == 1, u"the layers are of several types"_s);
                 }),
        ofConfig(u"layer_types"_s, u"each layer type in words: its layers, what places position, how far it sees"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     return counted(c).isEmpty() ? none(u"the config counts no layers"_s) : word(LayerTypeWords::layerTypes(counted(c)));
                 }),
        ofConfig(u"nope_layers"_s, u"the layers with no position at all"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const std::int64_t n = layersWhere(c, positionless);
                     return n > 0 ? integer(n) : none(u"every layer places position"_s);
                 }),
        // Where a head's rotary columns sit (ConfigCheck's rotaryPlace): the code box and the
        // sentence that name the turned columns say so (docs/ARCHITECTURE.md, Lessons).
        ofConfig(u"rope_tail"_s,
                 u"a condition: RoPE turns the last columns of a wider head, after columns that do not turn"_s,
                 [](const ConfigCheck &c, const LessonModel &m) {
                     return condition(tailType(c, m) != nullptr,
                                      u"its rotary columns are not the tail of a wider head"_s);
                 }),
        ofConfig(u"head_width"_s, u"the query-key head's width where RoPE turns its tail: qk_nope + qk_rope"_s,
                 [](const ConfigCheck &c, const LessonModel &m) {
                     const ConfigLayer *l = tailType(c, m);
                     return l ? integer(l->scheme.headDim)
                              : none(u"its rotary columns are not the tail of a wider head"_s);
                 }),
        ofConfig(u"rope_tail_from"_s, u"the columns of such a head before its rotary tail: qk_nope_head_dim"_s,
                 [](const ConfigCheck &c, const LessonModel &m) {
                     const ConfigLayer *l = tailType(c, m);
                     return l ? integer(l->scheme.headDim - RopeFrequencies::rotaryDim(l->params.rope))
                              : none(u"its rotary columns are not the tail of a wider head"_s);
                 }),
        ofConfig(u"rope_layers"_s, u"the layers that turn queries and keys"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const std::int64_t n = layersWhere(c, rotary);
                     return n > 0 ? integer(n) : none(u"no layer turns queries and keys"_s);
                 }),
        ofConfig(u"slowest"_s, u"the wavelength of the slowest rotary pair of any layer type, after its scaling"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const ConfigLayer *l = slowestType(c);
                     return l ? positions(slowest(*l)) : none(u"no layer turns queries and keys"_s);
                 }),
        ofConfig(u"slowest_type"_s, u"the layer type of that slowest pair"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const ConfigLayer *l = slowestType(c);
                     return l ? word(l->layerType) : none(u"no layer turns queries and keys"_s);
                 }),
        ofConfig(u"slowest_reach"_s, u"how far that layer type's queries see: its window or chunk"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const ConfigLayer *l = slowestType(c);
                     return l && reach(*l) ? positions(double(*reach(*l)))
                                           : none(u"the slowest pair's layers see the whole context"_s);
                 }),
        ofConfig(u"slowest_beyond_reach"_s,
                 u"a condition: the slowest pair turns once in more positions than its layers see"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const ConfigLayer *l = slowestType(c);
                     const double seen = l && reach(*l) ? double(*reach(*l)) : double(context(c));
                     return condition(l && slowest(*l) > seen, u"every pair turns within what its layers see"_s);
                 }),
        ofConfig(u"context"_s, u"the model's context: the largest max_position_embeddings of its layers"_s,
                 [](const ConfigCheck &c, const LessonModel &) { return positions(double(context(c))); }),
        ofConfig(u"context_last"_s, u"the context's last position"_s,
                 [](const ConfigCheck &c, const LessonModel &) { return positions(double(context(c) - 1)); }),
        ofConfig(u"query_scale"_s, u"what multiplies the queries by position, as the model's code writes it"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const ConfigLayer *l = scaledType(c);
                     return l ? word(l->scheme.query.words()) : none(u"no layer scales its queries by position"_s);
                 }),
        ofConfig(u"query_scale_nope"_s, u"a condition: the layers whose queries are scaled have no position"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const ConfigLayer *l = scaledType(c);
                     return condition(l && positionless(*l), u"the scaled layers place position"_s);
                 }),
        ofConfig(u"query_scale_turns"_s, u"a condition: the layers whose queries are scaled turn them with RoPE"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const ConfigLayer *l = scaledType(c);
                     return condition(l && rotary(*l), u"no layer that turns its queries scales them"_s);
                 }),
        ofConfig(u"query_scale_type"_s, u"the layer type whose queries are scaled"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const ConfigLayer *l = scaledType(c);
                     return l ? word(l->layerType) : none(u"no layer scales its queries by position"_s);
                 }),
        ofConfig(u"query_scale_rise"_s, u"the first position whose query scale exceeds 1"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     const ConfigLayer *l = scaledType(c);
                     return l ? positions(double(l->scheme.query.firstRise()))
                              : none(u"no layer scales its queries by position"_s);
                 }),
        ofConfig(u"unpads_by_mask"_s,
                 u"a condition: the model's code finds its sequences from the attention mask's rows, not the ids"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     return condition(unpadding(c).has_value(), kNoUnpadding);
                 }),
        ofConfig(u"unpad_code"_s, u"where that code builds its sequences"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     return unpadding(c) ? word(unpadding(c)->code) : none(kNoUnpadding);
                 }),
        ofConfig(u"unpad_forward"_s, u"the forward that takes its caller's cu_seqlens"_s,
                 [](const ConfigCheck &c, const LessonModel &) {
                     return unpadding(c) ? word(unpadding(c)->forward) : none(kNoUnpadding);
                 }),
        ofConfig(u"query_scale_8000"_s, u"the query scale at position 8,000"_s,
                 [](const ConfigCheck &c, const LessonModel &) { return queryScaleAt(c, 8000); }),
        ofConfig(u"query_scale_1m"_s, u"the query scale at position 1,000,000"_s,
                 [](const ConfigCheck &c, const LessonModel &) { return queryScaleAt(c, 1000000); }),
        ofConfig(u"query_scale_end"_s, u"the query scale at the context's last position"_s,
                 [](const ConfigCheck &c, const LessonModel &) { return queryScaleAt(c, context(c) - 1); }),
    } + classEntries() + windowEntries() + ropeLayerEntries() + BiasCodeLessonNumbers::entries();
    return list;
}

} // namespace posenc::LayerLessonNumbers
