#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// What each model_type's code does with its config, as data (docs/ARCHITECTURE.md, Model
// knowledge): one row of src/check/models/ModelSchemes.json per model_type, read by the rules of
// LayerPlan and the families' config readers. Each row cites the config class and the modeling
// file it was read from (HF transformers' main branch, or the model's own code where HF has none).
namespace posenc {

struct ModelRow
{
    QString type; // model_type
    QString configClass; // "LlamaConfig"
    QString file; // "models/llama/modeling_llama.py", or "remote: ..." for a model's own code
    QString cite; // the classes and functions the row was read from
    // How the row was read: "hand" (the code read by hand), "port" (a port of remote code read),
    // "fingerprint" (config defaults exact, rotary code equal to Llama's by fingerprint), or
    // "guess" (an unknown model_type read by Llama's rules).
    QString read;
    // Of a guess: the known model_type whose rules it is read by, which its name extends
    // ("exaone4" for "exaone4_5_text"); empty where it is read by Llama's.
    QString nearest;
    QString text; // a wrapper's text model type (gemma3 -> gemma3_text), else empty
    // The layer types whose code adds row c of its position table to column c and reads no position
    // ids ("by_column": Whisper's "encoder", MAE's "input"): a config of the model reads
    // positions-added by-column for them (ConfigAttention::byColumn).
    QStringList byColumn;

    // The family whose config reader reads it ("rope", "alibi", ...), and the keys that choose
    // another: [key, value, family] each.
    QString scheme;
    QJsonArray when;
    QJsonObject aliases; // HF's key -> the class's own name (hidden_size -> n_embd)
    QJsonObject defaults; // the class's defaults, by HF key
    QJsonObject ignored; // keys a config may carry that the code does not read, and why

    // RoPE: the head dim ("key": head_dim else hidden / heads; "hidden": hidden / heads whatever
    // head_dim says; "mla": qk_rope_head_dim, the tail of a head of qk_nope + qk_rope), and per
    // layer type the key that replaces it ({"full_attention": "global_head_dim"}).
    QString headDim;
    QJsonObject headDimByType;
    // How partial_rotary_factor is read: "ignored" (the default rope_type turns the whole head,
    // the scaled types honour it: Llama's compute_default_rope_parameters), "honoured",
    // "rotary_pct" (GPT-NeoX's name), "rotary_dim" (GPT-J's columns), "fixed" (the class's own).
    QString partial;
    // "half" (rotate_half), "interleaved" (pairs 2i, 2i + 1), or "rope_interleave" (the key chooses,
    // interleaved by default).
    QString layout;
    // Whether the model's own code (its checkpoints' auto_map) writes its interleaved rotation
    // de-interleaved, [evens | odds], where transformers' turns the pairs in place: DeepSeek-V2's
    // modeling_deepseek.py, apply_rotary_pos_emb (q.view(b, h, s, d // 2, 2).transpose(4, 3) before
    // rotate_half). Both orders are then the declared model's.
    bool ownCodeDeinterleaves = false;
    // Whether an interleaved model's rotary module returns its cos and sin as cat(freqs, freqs), the
    // half layout, which the model's apply function interleaves (GLM's cos[..., :d/2]
    // .repeat_interleave(2)) or meets with q and k de-interleaved (apply_rotary_pos_emb_interleave):
    // a dump of the module's output is then the half table, as faithful as the interleaved one.
    bool halfCosTable = false;
    // Where the turned columns sit: "prefix" (the first rotary_dim), or "suffix" (the last: DeepSeek-V4's
    // apply_rotary_pos_emb turns x[..., -rope_dim:]). MLA's head ("mla") is always a suffix.
    QString place;
    // The rope dicts: "one" for every layer type, "per-type" (the class converts rope_scaling and
    // its theta keys into a dict per layer type), "per-type-only" (it reads only per-type dicts).
    QString dicts;
    QJsonObject theta; // layer type (or "*") -> the key or keys of its theta
    QStringList scalingTo; // per-type: the layer types a legacy rope_scaling goes to
    QJsonObject defaultRope; // rope_parameters when the config gives none
    QJsonObject ropeTypes; // rope_type words the class renames (Phi-3's su -> longrope)
    QStringList ropeTypesAllowed; // the rope_types the class takes, empty for every type
    QJsonObject indexer; // DeepSeek-V3.2's sparse-attention indexer: its head dim key and layout

    QJsonObject layers; // the layer rule (LayerPlan)
    // What a "linear_attention" layer mixes tokens with, as HF main names every mixer that is not
    // attention so: "linear" (Gated DeltaNet, Lightning, KDA), "ssm" (Mamba), "conv" (LFM2's).
    QString mixer;
    bool readsLayerTypes = true; // whether a config's layer_types is read ("types": "ignored")
    QJsonObject nope; // which layers do not rotate
    QJsonObject window; // the sliding window: its key, and whether it is halved each side
    QJsonObject chunk; // the chunk of chunked attention: its key
    QJsonObject qscale; // the query scaling: its kind and keys
    // What multiplies q·k: "head_dim" (head_dim^-0.5), "mla" (qk_head_dim^-0.5 times yarn's
    // get_mscale(factor, mscale_all_dim)^2), "qk_head_dim", "query_pre_attn_scalar", "one",
    // "attention_multiplier", "half_head_dim", "key_multiplier" (head_dim^-0.5 times the keys' multiplier).
    QString softmax;
    // Where an "mla" model's code multiplies by that mscale², where implementations or versions of
    // it differ ("softmax_cite": transformers' DeepseekV2Attention only since PR #47435): the
    // check's softmax line and the lessons cite it.
    QString softmaxCite;

    QJsonObject raw; // the row as written, for a family reader's own keys (the learned family's first_row)

    bool known() const { return read != u"guess"; }
    // The default of `key`: a number, or nothing when the row gives none.
    std::optional<double> number(const QString &key) const;
    QString word(const QString &key) const;
    // The class's name for HF's `key` (n_embd for hidden_size), or `key`.
    QString keyName(const QString &key) const;
};

namespace ModelTable {

// Every row, in the table's order (by model_type).
const QList<ModelRow> &all();
// The row of `type`, or null.
const ModelRow *find(const QString &type);
// What an unknown model_type is read with, read "guess": the rules and defaults of the known
// model_type its name extends (nearestByName), else Llama's.
ModelRow guess(const QString &type);
// The known model_type an unknown one's name extends: the name less its trailing "_text", "_model",
// "_vl", "_moe" and minor-version parts ("_5"), one at a time, until a known one is left; empty when
// none is. A new release of a known series is saved under the series' name and a minor version
// (EXAONE 4.5's text model, exaone4_5_text, is Exaone4's code), a wrapper's text model under the
// wrapper's name and "_text".
QString nearestByName(const QString &type);
// The model types of the table.
QStringList types();
// The table as it is compiled in (ModelSchemes.json).
QByteArray json();

} // namespace ModelTable

} // namespace posenc
