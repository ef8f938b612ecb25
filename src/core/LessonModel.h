#pragma once

#include "Params.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace posenc {

struct ConfigCheck;

// The model a lesson is read for (docs/ARCHITECTURE.md, Lessons): its parameters, its name while
// they are a named model's (a preset's, a config's, the lesson's own default), and its config's
// layer types where the model comes with one. A lesson's text and numbers are a function of it.
struct LessonModel
{
    Params params;
    // "Qwen2.5 7B Instruct with YaRN"; empty: the parameters are no named model's (edited by hand).
    QString name;
    // The model's config.json as read and checked (every layer type), where one is known: the
    // lessons about a model's layers read it, and its views draw it.
    std::shared_ptr<const ConfigCheck> config;
    // The config as the model figures' "config" option names it: an example's name or a path.
    QString configName;
    // The model the config is ("meta-llama/Llama-4-Scout-17B-16E"), which stays its name when the
    // parameters are edited: the numbers of its layers are the config's.
    QString configTitle;
    // The parameter keys the named model sets itself (its preset's, its config layer's); the rest are
    // the lesson's, which a sentence must not call the model's. Empty while the model is unnamed.
    QStringList keys;
    // Whether the named model's reference code applies no dropout to its first layer's input (its
    // preset's "input-dropout": "none"): a model that names its "dropout" has one, and one that
    // does neither leaves it unsaid. False while the model is unnamed.
    bool noInputDropout = false;
    // Whether the named model's reference code multiplies its embeddings by nothing (its preset's
    // "embedding-scale": "none", its "scale" 1): s = 1 is its own. A model whose keys lack "scale"
    // leaves its s unsaid, and the s shown is the lesson's. False while the model is unnamed.
    bool noEmbeddingScale = false;
    // The named model's own context: its preset's where its max_len is capped below it
    // (Preset::context), else the max_len its preset or config names, which a flag may lower for
    // the views; 0: the model is unnamed or names none, and max_len is taken for it.
    std::int64_t context = 0;
    // Whether the named model is an encoder and a decoder (its preset's "stacks":
    // "encoder-decoder", its config's is_encoder_decoder), of which its parameters describe one;
    // params.batch.attention says which (both ways: the encoder). False while the model is unnamed.
    bool encoderDecoder = false;
    // The named model's own encoding, as its preset or config names it, where a lesson keeps
    // another for its figures (nope-order draws any model's embeddings with encoding none): what
    // places position in the model itself. Nothing while the model is unnamed or names none.
    std::optional<Encoding> encoding = std::nullopt;
    // Where the named model's numbers were read from: its preset's "source" (Preset::source), which
    // cites the code it read, or its config's modeling file; empty while the model is unnamed. A
    // sentence names the model's own code from it (BLOOM's ALiBi is built by models/bloom/, not MPT's).
    QString source = {};
    // How the named model's code starts its embeddings where no "init" can say it (its preset's
    // "embedding-init"): the σ shown is then the lesson's, and a sentence says why.
    QString embeddingInit = {};
    // Whether the named model's values are a paper's, with no code of its own (its preset's
    // "reference": "paper"): a sentence on what its code does names the paper instead.
    bool paper = false;
    // Whether the named model's name is a description a sentence names with "the" (its preset's
    // "article"): "at the TensorFlow Transformer tutorial's d", not "at TensorFlow Transformer
    // tutorial's d". False while the model is unnamed, or its name is a proper name.
    bool article = false;
    // The named model's config's max_position_embeddings, as its preset gives it, which
    // HF's dynamic NTK reads (ModelChoice::maxPositionEmbeddings); 0: unnamed, or not said.
    std::int64_t maxPositionEmbeddings = 0;
};

} // namespace posenc
