#pragma once

#include "core/ParamOverlay.h"
#include "core/Params.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <variant>

namespace posenc {

// A named set of parameter values from a published source (the paper, a tutorial, a library's
// defaults), shipped as resources/presets/ORDER-NAME.json (1-transformer-base.json): the window's
// chooser lists them in that order, and `posenc --preset NAME` (any command) takes one by NAME.
//
//   {"format": "posenc-preset", "version": 1,
//    "title": "Transformer base (Vaswani et al. 2017)", "cite": "Vaswani et al. 2017, sections ...",
//    "source": "Vaswani et al. 2017, “Attention Is All You Need”: d_model 512 (section 3.1), ...",
//    "note": "The paper fixes no max_len: ...", "config": "llama-4-scout",
//    "params": {"d-model": "512", "dropout": "0.1", ...}}
//
// "params" holds what the source says, as a session's "params" do (the command line's keys and
// values); the parameters it does not name stay as they are when the preset is chosen.
//
// What the model's reference code does to the input of its first layer is recorded in one of three
// ways (docs/ARCHITECTURE.md, Lessons): "params" names its "dropout", which "source" cites by its
// config key and value ("embd_pdrop 0.0"); "input-dropout": "none", the code has no such dropout,
// which "source" shows in the code it names; or "input-dropout": "unsaid", the source is no model's
// and says nothing of it (PyTorch's nn.Embedding, fairseq's initialisation).
//
// What the code multiplies the token embeddings by, s in X = s·E, is "params"' "scale" where the
// code has a multiplier ("sqrt", or Gemma's normalizer as its dtype holds it, "50.5"), which "source"
// cites; or "embedding-scale": "none" with "scale": "1", the code has no multiplier, which "source"
// shows in the code it names. A preset with neither leaves the model's s unsaid, and a lesson says
// the s it shows is not the model's (docs/ARCHITECTURE.md, Lessons).
//
// Where "params"' "max-len" is below the model's own context, to keep the window responsive,
// "context" holds the context the source gives (Llama 4 Scout's max_position_embeddings 10485760),
// and the lessons say that of the model, not max_len.
//
// "max-position-embeddings" records the model config's max_position_embeddings, as "source" or
// "config" gives it (lessons name it where it is above the original context a scaling stretches).
//
// "params"' "attention": "both-ways" records that the model's queries see the keys after them as
// well as before (an encoder: BERT-likes, the T5 and Whisper encoders, the vision and diffusion
// transformers), which "source" or "note" cites in its code; absent, the attention is causal
// unless the family's own parameters say otherwise (FamilySpec::attendsBothWays).
//
// "params"' "positions-added": "by-column" records that the model's code adds row c of its position
// table to column c of its input and reads no position ids (WhisperEncoder.forward), which "source"
// cites. "stacks": "encoder-decoder" that the model has an encoder and a decoder, of which "params"
// describe the one its "attention" names (both ways: the encoder).
struct Preset
{
    static constexpr int kVersion = 1;

    QString name; // the command line's NAME: its file's name without order and extension
    QString title; // what the chooser lists: "Transformer base (Vaswani et al. 2017)"
    QString cite; // the source in a line: "Vaswani et al. 2017, Table 3, “big”"
    QString source; // where the values come from, precisely enough to check them
    QString note; // what the source leaves open and how the preset treats it; may be empty
    // The example config of the same model (ModelExamples: "llama-4-scout"), whose every layer type
    // the lessons about a model's layers read; empty where the program has none.
    QString config;
    ParamTexts params; // key -> text, as ParamText reads them
    // "none": the reference code applies no dropout to its first layer's input; "unsaid": the
    // source does not say; empty: "params" names the model's "dropout".
    QString inputDropout;
    // "none": the reference code multiplies the embeddings by nothing, and "params"' "scale" is 1;
    // empty: "params"' "scale", if any, is the code's multiplier.
    QString embeddingScale;
    // How the model's code starts its embeddings where no "init" can say it (The Annotated
    // Transformer's xavier_uniform_, whose σ follows the vocabulary size): a phrase a lesson quotes
    // after "starts its embeddings with"; empty: "params"' "init", if any, says it.
    QString embeddingInit;
    // "paper": the values are a paper's, with no code of its own to cite (Transformer base and big);
    // empty: "source" cites the model's code or config.
    QString reference;
    // The model's own context where "params"' "max-len" is below it; 0: max-len is the model's.
    std::int64_t context = 0;
    // The model config's max_position_embeddings as "source" or "config" gives it, which may be neither
    // max-len nor "context": Qwen2.5 7B Instruct's 32768 below the 131072 its README's YaRN reaches.
    // HF's dynamic NTK reads it, not original-max-len. 0: the preset does not say it.
    std::int64_t maxPositionEmbeddings = 0;
    // "encoder-decoder": the model has both stacks; empty: one stack.
    QString stacks;
    // "the": the model's name is a description a sentence names with "the" ("the TensorFlow
    // Transformer tutorial's d", "the SD 1.5 UNet timestep embedding"); empty: a proper name.
    QString article;

    // The model the preset gives: its title before the maker ("Llama 4 Scout 17B-16E").
    QString modelName() const;
    // `base` with every parameter this preset names set, or the problems that refuse it (a
    // loaded matrix whose columns are not the preset's d_model).
    std::variant<Params, QList<ParamError>> applyTo(const Params &base) const;
    // Whether every parameter the preset names has the preset's value in `params`.
    bool matches(const Params &params) const;

    friend bool operator==(const Preset &, const Preset &) = default;
};

// A preset file that cannot be used: its path and why.
struct PresetError
{
    QString path;
    QString reason;
};

namespace Presets {

// The folder the shipped presets are compiled into (every file of resources/presets, src/io/CMakeLists.txt).
inline constexpr char16_t kShippedFolder[] = u":/presets";

// Reads and checks one preset: its file name must be ORDER-NAME.json or NAME.json with NAME
// lowercase words joined by '-', its keys parameters a preset may set (not a file to load, not the
// memory budget), and its values must give valid parameters from the defaults.
std::variant<Preset, PresetError> read(const QString &path);

struct Loaded
{
    QList<Preset> presets; // in the order of their file names
    QList<PresetError> problems;
};
// Every *.json preset of `folder`.
Loaded load(const QString &folder = QString::fromUtf16(kShippedFolder));

// The shipped presets, read once; those that do not read are mistakes of the build, which
// tests catch.
const Loaded &shipped();
// The shipped preset called `name`, or none; the name as a model card writes it reads too
// ("Llama-3.1-8B" is llama-3-1-8b): case, '.', '_' and spaces aside.
const Preset *find(const QString &name);
// The names of the shipped presets, in their order.
QStringList names();

} // namespace Presets

} // namespace posenc
