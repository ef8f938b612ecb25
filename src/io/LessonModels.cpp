#include "LessonModels.h"

#include "check/ModelConfigCheck.h"
#include "check/models/ModelExamples.h"
#include "core/FamilySpec.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/positions/BatchLayout.h"

#include <QHash>
#include <QMutex>

using namespace Qt::StringLiterals;

namespace posenc {

bool ModelChoice::matches(const Params &params, const QStringList &kept) const
{
    for (auto it = texts.cbegin(); it != texts.cend(); ++it) {
        // How far the figures look, and what the lesson holds for any model, are not the model.
        if (it.key() == u"max-len"_s || kept.contains(it.key()))
            continue;
        // Nor is a family's parameter that the encoding, where the lesson keeps another, leaves
        // unread (SmolLM3's rope_theta under nope-order's encoding none): it computes nothing there.
        const ParamSpec *row = ParamTable::find(it.key());
        if (row && row->family && row->idle) {
            const auto idle = row->idle(params);
            if (idle && idle->code == IdleReason::Code::OtherEncoding)
                continue;
        }
        // Compared as ParamText writes both, so that "0.1" matches the 0.1 a control read back.
        Params probe = params;
        if (ParamText::set(probe, it.key(), it.value())
            || ParamText::get(probe, it.key()) != ParamText::get(params, it.key()))
            return false;
    }
    return true;
}

ModelChoice ModelChoice::ofPreset(const Preset &preset)
{
    ModelChoice choice;
    choice.name = preset.modelName();
    choice.preset = preset.name;
    choice.texts = preset.params;
    choice.noInputDropout = preset.inputDropout == u"none"_s;
    choice.noEmbeddingScale = preset.embeddingScale == u"none"_s;
    choice.embeddingInit = preset.embeddingInit;
    choice.paper = preset.reference == u"paper"_s;
    choice.article = preset.article == u"the"_s;
    choice.context = preset.context;
    choice.maxPositionEmbeddings = preset.maxPositionEmbeddings;
    choice.encoderDecoder = preset.stacks == u"encoder-decoder"_s;
    choice.source = preset.source;
    if (auto config = LessonModels::example(preset.config)) {
        choice.configName = preset.config;
        choice.config = std::move(config);
        choice.configTitle = ModelExamples::find(preset.config)->title;
    }
    return choice;
}

namespace LessonModels {

std::optional<ModelChoice> defaultOf(const Lesson &lesson)
{
    const Preset *preset = lesson.model.isEmpty() ? nullptr : Presets::find(lesson.model);
    return preset ? std::optional(ModelChoice::ofPreset(*preset)) : std::nullopt;
}

ParamTexts textsFor(const Lesson &lesson, const std::optional<ModelChoice> &choice)
{
    if (!choice)
        return lesson.session.params;
    const auto over = [&](bool keeping) {
        // The families' parameters, and a model's own others (ParamSpec::ofModel), are the model's:
        // those the model does not name are the defaults, never the lesson's settings of its own
        // model (a scaling's factor, Llama 4's temperature on a model without one), but for those
        // the lesson keeps.
        ParamTexts texts;
        for (auto it = lesson.session.params.cbegin(); it != lesson.session.params.cend(); ++it) {
            const ParamSpec *row = ParamTable::find(it.key());
            if (!(row && (row->family || row->ofModel)) || (keeping && lesson.keep.contains(it.key())))
                texts.insert(it.key(), it.value());
        }
        for (auto it = choice->texts.cbegin(); it != choice->texts.cend(); ++it) {
            if (!keeping || !lesson.keep.contains(it.key()))
                texts.insert(it.key(), it.value());
        }
        return texts;
    };
    // A KV cache and its decode steps are a causal decoder's (generation/utils.py): a model that
    // attends both ways, an encoder, reads its whole padded row at once, so the lesson's cache is
    // not its own, and no figure draws a prefill or decode steps for it.
    const auto uncached = [](ParamTexts texts) {
        const auto params = ParamOverlay::over(Params {}, texts);
        if (const Params *p = std::get_if<Params>(&params); p && p->batch.cache > 0 && BatchLayout::attendsBothWays(*p))
            texts.remove(u"cache"_s);
        return texts;
    };
    // The special rows are the model's tokens, not the lesson's (docs/ARCHITECTURE.md, Lessons):
    // where neither the lesson keeps nor the model names them, they are what its parameters say, a
    // patch table's cls row (MAE's get_2d_sincos_pos_embed(..., cls_token=True)), else none: no
    // [CLS] or [SEP] is given to a translation model or an audio encoder that has neither.
    const auto ownSpecial = [&](ParamTexts texts) {
        if (lesson.keep.contains(u"special"_s) || choice->texts.contains(u"special"_s))
            return texts;
        const auto params = ParamOverlay::over(Params {}, texts);
        const Params *p = std::get_if<Params>(&params);
        const bool cls = p && p->encoding == Encoding::Sincos2d && p->sincos2d.clsToken;
        texts.insert(u"special"_s, cls ? u"0"_s : u"none"_s);
        return texts;
    };
    // What the lesson keeps, unless the model cannot take it (a patch grid of fewer positions).
    const ParamTexts kept = over(true);
    if (std::holds_alternative<Params>(ParamOverlay::over(Params {}, kept)))
        return ownSpecial(uncached(kept));
    const ParamTexts model = over(false);
    return ownSpecial(uncached(std::holds_alternative<Params>(ParamOverlay::over(Params {}, model)) ? model : kept));
}

LessonModel model(const Params &params, const QList<ModelChoice> &candidates, const QStringList &kept)
{
    LessonModel model {params, {}, {}, {}, {}, {}, false, false, 0, false, std::nullopt, {}, {}, false, false, 0};
    for (const ModelChoice &choice : candidates) {
        if (!choice.name.isEmpty() && choice.matches(params, kept)) {
            model.name = choice.name;
            model.keys = choice.texts.keys();
            model.noInputDropout = choice.noInputDropout;
            model.noEmbeddingScale = choice.noEmbeddingScale;
            model.embeddingInit = choice.embeddingInit;
            model.paper = choice.paper;
            model.article = choice.article;
            model.encoderDecoder = choice.encoderDecoder;
            model.source = choice.source;
            if (choice.texts.contains(u"encoding"_s))
                model.encoding = Families::fromWord(choice.texts.value(u"encoding"_s));
            // The model's own context: its preset's above a capped max_len, else the max_len it
            // names, whatever the views' max_len a flag gave (rope-scaling told Llama 3.1 8B at
            // --max-len 16384 that it "runs to 16384").
            bool read = false;
            const std::int64_t own = choice.texts.value(u"max-len"_s).toLongLong(&read);
            model.context = choice.context > 0 ? choice.context : (read ? own : 0);
            model.maxPositionEmbeddings = choice.maxPositionEmbeddings;
            break;
        }
    }
    // The config is the chosen model's, the first candidate's, whatever the parameters: its views
    // draw it, and the numbers of its layers are its own.
    if (!candidates.isEmpty()) {
        model.config = candidates.first().config;
        model.configName = candidates.first().configName;
        model.configTitle = candidates.first().configTitle;
    }
    return model;
}

QString dropoutOwner(const LessonModel &model)
{
    if (model.name.isEmpty() || model.keys.contains(u"dropout"_s))
        return {};
    return u"the lesson's"_s;
}

std::shared_ptr<const ConfigCheck> example(const QString &name)
{
    static QHash<QString, std::shared_ptr<const ConfigCheck>> checks;
    static QMutex mutex;
    const QMutexLocker lock(&mutex);
    if (!checks.contains(name)) {
        const ModelExamples::Example *e = ModelExamples::find(name);
        checks.insert(name, e ? std::make_shared<const ConfigCheck>(ModelConfig::check(e->config)) : nullptr);
    }
    return checks.value(name);
}

} // namespace LessonModels

} // namespace posenc
