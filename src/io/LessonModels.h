#pragma once

#include "Lesson.h"
#include "Preset.h"

#include "core/LessonModel.h"
#include "core/ParamOverlay.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace posenc {

// A named model a lesson can be read for (docs/ARCHITECTURE.md, Lessons): a preset, a config's
// layer type, or the lesson's own default; its name, its parameters and its config where it has
// one.
struct ModelChoice
{
    QString name; // "Qwen2.5 7B Instruct"
    QString preset; // the preset it is ("qwen2-5-7b"); empty for a config
    ParamTexts texts; // its parameters, as a preset keeps them
    QString configName; // its config as a figure's "config" option names it; empty: none
    std::shared_ptr<const ConfigCheck> config;
    QString configTitle; // the config's model ("meta-llama/Llama-4-Scout-17B-16E")
    // Its reference code applies no dropout to its first layer's input (Preset::inputDropout);
    // false where its texts name "dropout" or its source does not say.
    bool noInputDropout = false;
    // Its reference code multiplies its embeddings by nothing, s = 1 (Preset::embeddingScale).
    bool noEmbeddingScale = false;
    // How its code starts its embeddings where its texts cannot say (Preset::embeddingInit).
    QString embeddingInit;
    // Its values are a paper's, with no code of its own (Preset::reference).
    bool paper = false;
    // Its name takes "the" in a sentence (Preset::article).
    bool article = false;
    // Its own context where its max_len is capped below it (Preset::context); 0: max_len is it.
    std::int64_t context = 0;
    // Its config's max_position_embeddings as its preset gives it (Preset::maxPositionEmbeddings); 0:
    // not said.
    std::int64_t maxPositionEmbeddings = 0;
    // It is an encoder and a decoder (Preset::stacks, the config's is_encoder_decoder).
    bool encoderDecoder = false;
    // Where its numbers were read from: its preset's source, its config's modeling file.
    QString source;

    // Whether `params` still hold every parameter of the choice (Preset::matches) but max_len, how
    // far the figures look, and the keys `kept` that a lesson holds for any model.
    bool matches(const Params &params, const QStringList &kept = {}) const;

    static ModelChoice ofPreset(const Preset &preset);
};

namespace LessonModels {

// The lesson's own model, its "model" preset; none where it names none.
std::optional<ModelChoice> defaultOf(const Lesson &lesson);
// The parameter texts a lesson is read with for `choice`: the lesson's "params", the choice's
// texts over them but for the keys the lesson keeps, unless the model's parameters refuse what it
// keeps. Without a choice, the lesson's own.
ParamTexts textsFor(const Lesson &lesson, const std::optional<ModelChoice> &choice);
// The model `params` are: named after the first of `candidates` whose parameters they still
// hold, else unnamed; its config the first candidate's, the model chosen (the views draw it
// whatever the parameters).
LessonModel model(const Params &params, const QList<ModelChoice> &candidates, const QStringList &kept = {});
// Whose dropout p the dropout figures state for `model` (their option FigureText::kDropoutOwner,
// "p = 0.1, the lesson's"): the lesson's where the named model sets no "dropout" of its own (its
// code drops none at its input, LessonModel::noInputDropout, or its source does not say, which the
// lesson's text tells); empty for the model's own p, or parameters no model names. The window's
// lessons and their export say the same (LessonController, LessonPage).
QString dropoutOwner(const LessonModel &model);
// An example config (ModelExamples) read and checked, once; null for a name that is none.
std::shared_ptr<const ConfigCheck> example(const QString &name);

} // namespace LessonModels

} // namespace posenc
