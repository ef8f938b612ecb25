#include "LessonOptions.h"

#include "ConfigOptions.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::LessonOptions {

namespace {

// The model --config or --preset names, the lesson's own without them, or the refusal.
std::variant<std::optional<ModelChoice>, ParamOptions::Result> chosenModel(const QCommandLineParser &parser,
                                                                           const Lesson &lesson)
{
    const auto config = ConfigOptions::read(parser);
    if (const auto *refused = std::get_if<ParamOptions::Result>(&config))
        return *refused;
    if (const auto *chosen = std::get_if<ConfigOptions::Chosen>(&config)) {
        ModelChoice choice;
        // A model the table lacks is read as a guess (its scheme from its keys, the rest by the
        // rules of a known model): every sentence that names it says so.
        choice.name = chosen->check.basis == u"guess"_s
            ? u"%1 (model_type %2, read as a guess)"_s.arg(chosen->name, chosen->check.modelType)
            : chosen->name;
        choice.texts = chosen->texts;
        choice.configName = chosen->source;
        choice.config = std::make_shared<const ConfigCheck>(chosen->check);
        choice.configTitle = chosen->name;
        choice.noInputDropout = chosen->noInputDropout;
        choice.noEmbeddingScale = chosen->noEmbeddingScale;
        choice.encoderDecoder = chosen->encoderDecoder;
        choice.source = chosen->check.modelFile;
        return std::optional(std::move(choice));
    }
    if (!parser.isSet(u"preset"_s))
        return LessonModels::defaultOf(lesson);
    const QString name = parser.values(u"preset"_s).constLast();
    if (const Preset *preset = Presets::find(name))
        return std::optional(ModelChoice::ofPreset(*preset));
    ParamOptions::Result refused;
    refused.errors.append({u"preset"_s, u"one of %1 (posenc presets lists them)"_s.arg(Presets::names().join(u", "_s)),
                           QString(), ParamError::quoted(name)});
    return refused;
}

// The lesson's own lengths fitted to a model whose context is shorter than the max_len the lesson
// keeps (OPT's 2,048 learned positions under left-padding's 32,768), or to the --max-len given:
// max_len, the batch's row lengths and the cache, each scaled by that context over the lesson's
// max_len, so the lesson runs within what the model can place. Nothing when no length is over.
std::optional<ParamTexts> fitted(const QCommandLineParser &parser, const Lesson &lesson, const ModelChoice &choice,
                                 ParamTexts texts)
{
    if (!lesson.keep.contains(u"max-len"_s) || !texts.contains(u"max-len"_s))
        return std::nullopt;
    const qint64 kept = texts.value(u"max-len"_s).toLongLong();
    const qint64 context = parser.isSet(u"max-len"_s) ? parser.values(u"max-len"_s).constLast().toLongLong()
                                                      : choice.texts.value(u"max-len"_s).toLongLong();
    if (context <= 0 || kept <= context)
        return std::nullopt;
    const auto scaled
        = [&](const QString &n) { return QString::number(std::max<qint64>(1, n.toLongLong() * context / kept)); };
    texts.insert(u"max-len"_s, QString::number(context));
    if (texts.contains(u"cache"_s) && texts.value(u"cache"_s).toLongLong() > 0)
        texts.insert(u"cache"_s, scaled(texts.value(u"cache"_s)));
    const QString batch = texts.value(u"batch"_s);
    if (batch.contains(u':')) {
        QStringList lengths;
        for (const QString &n : batch.section(u':', 1).split(u','))
            lengths.append(scaled(n));
        texts.insert(u"batch"_s, batch.section(u':', 0, 0) + u':' + lengths.join(u','));
    }
    return texts;
}

// Whether the model's own parameters fail only for want of its trained position table: a config
// of learned positions (GPT-2's n_positions, BERT's max_position_embeddings) holds the table's
// size, not the table, and no --position-table was given.
bool lacksOnlyItsTable(const ParamOptions::Result &own, const QCommandLineParser &parser)
{
    const QString table = u"position-table"_s;
    if (own.params.encoding != Encoding::Learned || own.params.learned.table || own.errors.isEmpty()
        || !own.usage.isEmpty() || !own.fileError.isEmpty() || !own.overBudget.isEmpty()
        || parser.optionNames().contains(table))
        return false;
    return std::all_of(own.errors.cbegin(), own.errors.cend(),
                       [&table](const ParamError &error) { return error.key == table; });
}

// The one line a lesson that applies to a model of learned positions says where the model's table
// is not given: its numbers and figures read the table's rows (‖PE_p‖, the rows a batch adds).
QString tableNeeded(const Lesson &lesson, const LessonModel &model)
{
    const QString who = model.name.isEmpty() ? u"the model given"_s : model.name;
    return u"the lesson %1 needs the trained position table of %2, which its config gives the size of but "
           "not the rows: give it with --position-table FILE[:TENSOR] (a .npy or .safetensors matrix, its "
           "position embeddings)"_s.arg(lesson.name, who);
}

} // namespace

CommandOption option()
{
    return {{QString::fromUtf16(kKey)},
            u"NAME"_s,
            u"a lesson's parameters and views (posenc lessons lists them), for the model --preset or --config names; "
            "parameter flags override them"_s,
            Lessons::names()};
}

void add(QCommandLineParser &parser)
{
    CommandOptions::add(parser, {option()});
}

std::variant<const Lesson *, QString> lesson(const QCommandLineParser &parser)
{
    const QString key = QString::fromUtf16(kKey);
    if (!parser.isSet(key))
        return static_cast<const Lesson *>(nullptr);
    const QString name = parser.values(key).constLast();
    const Lesson *found = Lessons::find(name);
    if (!found)
        return u"--lesson: must be one of %1 (posenc lessons lists them); got %2"_s.arg(Lessons::names().join(u", "_s),
                                                                                        ParamError::quoted(name));
    if (parser.isSet(u"session"_s))
        return u"--lesson, --session: give one of them; each sets every parameter"_s;
    return found;
}

Read read(const QCommandLineParser &parser, const Lesson &lesson, const ParamOptions::Clues &clues)
{
    Read read;
    auto chosen = chosenModel(parser, lesson);
    if (auto *refused = std::get_if<ParamOptions::Result>(&chosen)) {
        read.result = std::move(*refused);
        return read;
    }
    read.choice = std::get<std::optional<ModelChoice>>(std::move(chosen));
    const QString origin = read.choice && !read.choice->name.isEmpty()
        ? u"the lesson %1 for %2"_s.arg(lesson.name, read.choice->name)
        : u"the lesson %1"_s.arg(lesson.name);
    read.result = ParamOptions::read(parser, LessonModels::textsFor(lesson, read.choice), origin, clues);
    if (read.result.exitCode() != 0 && read.choice) {
        if (const auto texts = fitted(parser, lesson, *read.choice, LessonModels::textsFor(lesson, read.choice))) {
            ParamOptions::Result fit = ParamOptions::read(parser, *texts, origin, clues);
            if (fit.exitCode() == 0)
                read.result = std::move(fit);
        }
    }
    if (read.result.exitCode() != 0) {
        // A lesson that does not apply to the model says what it needs in one line, rather than
        // refusing its own parameters laid over the model (left-padding's max_len and cache over
        // MAE's patch grid).
        if (read.choice) {
            const ParamOptions::Result own = ParamOptions::read(parser, read.choice->texts, origin, clues);
            if (own.exitCode() == 0 || lacksOnlyItsTable(own, parser)) {
                const LessonModel model = LessonModels::model(own.params, {*read.choice}, lesson.keep);
                if (const auto refused = lesson.refusal(model)) {
                    read.result = own;
                    read.result.errors.clear();
                    read.result.usage = *refused;
                } else if (own.exitCode() != 0) {
                    read.result = own;
                    read.result.errors.clear();
                    read.result.usage = tableNeeded(lesson, model);
                }
            }
        }
        return read;
    }
    QList<ModelChoice> candidates;
    if (read.choice)
        candidates.append(*read.choice);
    read.model = LessonModels::model(read.result.params, candidates, lesson.keep);
    if (const auto refused = lesson.refusal(read.model))
        read.result.usage = *refused;
    return read;
}

} // namespace posenc::LessonOptions
