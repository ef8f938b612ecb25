#include "Preset.h"

#include "check/models/ModelExamples.h"
#include "core/OneLine.h"
#include "core/ParamText.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QString kPresetFormat = u"posenc-preset"_s;
constexpr qint64 kMaxPresetBytes = 1 << 20;

// What a preset may set: a parameter of the mathematics, never a file to read or a budget of
// this machine.
QStringList settableKeys()
{
    QStringList keys = ParamText::valueKeys();
    keys.removeAll(u"memory-budget"_s);
    return keys;
}

// The preset files in their order: by the number in front (2 before 10), then by name; a file
// without one after those with one.
QStringList inOrder(QStringList files)
{
    const auto order = [](const QString &file) {
        bool ok = false;
        const qlonglong n = file.section(u'-', 0, 0).toLongLong(&ok);
        return ok ? n : std::numeric_limits<qlonglong>::max();
    };
    std::stable_sort(files.begin(), files.end(), [&](const QString &a, const QString &b) {
        const qlonglong x = order(a), y = order(b);
        return x != y ? x < y : a < b;
    });
    return files;
}

} // namespace

std::variant<Params, QList<ParamError>> Preset::applyTo(const Params &base) const
{
    return ParamOverlay::over(base, params);
}

QString Preset::modelName() const
{
    // "Llama 4 Scout 17B-16E (Meta), RoPE layers", "Qwen2.5 7B Instruct with YaRN (Alibaba)": the
    // model is named before its maker, the part it is and what was added to it.
    QString name = title.section(u" ("_s, 0, 0).section(u", "_s, 0, 0);
    return name.section(u" with "_s, 0, 0).trimmed();
}

bool Preset::matches(const Params &current) const
{
    for (auto it = params.cbegin(); it != params.cend(); ++it) {
        // Compared as ParamText writes both, so that "0.1" matches the 0.1 a control read back.
        Params probe = current;
        if (ParamText::set(probe, it.key(), it.value())
            || ParamText::get(probe, it.key()) != ParamText::get(current, it.key()))
            return false;
    }
    return true;
}

namespace Presets {

std::variant<Preset, PresetError> read(const QString &path)
{
    const auto fail = [&](const QString &reason) { return PresetError {path, reason}; };
    // "1-transformer-base.json" is transformer-base, listed first.
    static const QRegularExpression fileName(u"^(?:[0-9]+-)?([a-z0-9]+(?:-[a-z0-9]+)*)\\.json$"_s);
    const auto named = fileName.match(QFileInfo(path).fileName());
    if (!named.hasMatch())
        return fail(u"a preset's file is named ORDER-NAME.json or NAME.json, NAME lowercase words joined by '-'"_s);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(file.errorString());
    if (file.size() > kMaxPresetBytes)
        return fail(u"%1 bytes is too large for a preset (at most %2)"_s.arg(file.size()).arg(kMaxPresetBytes));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(u"not JSON: %1 at byte %2"_s.arg(parseError.errorString()).arg(parseError.offset));
    const QJsonObject root = document.object();
    if (root.value(u"format"_s) != QJsonValue(kPresetFormat))
        return fail(u"not a preset: \"format\" must be \"%1\""_s.arg(kPresetFormat));
    if (root.value(u"version"_s) != QJsonValue(Preset::kVersion))
        return fail(u"\"version\" must be %1"_s.arg(Preset::kVersion));
    const QStringList known = {u"format"_s,         u"version"_s,
                               u"title"_s,          u"cite"_s,
                               u"source"_s,         u"note"_s,
                               u"config"_s,         u"params"_s,
                               u"input-dropout"_s,  u"embedding-scale"_s,
                               u"context"_s,        u"stacks"_s,
                               u"embedding-init"_s, u"reference"_s,
                               u"article"_s,        u"max-position-embeddings"_s};
    for (auto it = root.constBegin(); it != root.constEnd(); ++it) {
        if (!known.contains(it.key()))
            return fail(u"unknown key \"%1\" (expected %2)"_s.arg(it.key(), known.join(u", "_s)));
    }
    Preset preset;
    preset.name = named.captured(1);
    preset.title = root.value(u"title"_s).toString();
    preset.cite = root.value(u"cite"_s).toString();
    preset.source = root.value(u"source"_s).toString();
    preset.note = root.value(u"note"_s).toString();
    preset.config = root.value(u"config"_s).toString();
    if (!preset.config.isEmpty() && !ModelExamples::find(preset.config))
        return fail(u"\"config\" must name an example config (%1); got %2"_s.arg(ModelExamples::names(),
                                                                                 quotedOneLine(preset.config, u'"')));
    if (preset.title.isEmpty() || preset.cite.isEmpty() || preset.source.isEmpty())
        return fail(u"a preset names its \"title\", \"cite\" and \"source\", as strings"_s);
    if (!root.value(u"params"_s).isObject())
        return fail(u"\"params\" must be an object"_s);
    const QJsonObject values = root.value(u"params"_s).toObject();
    if (values.isEmpty())
        return fail(u"\"params\" names no parameter"_s);
    const QStringList keys = settableKeys();
    for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
        if (!keys.contains(it.key()))
            return fail(
                u"\"%1\" is not a parameter a preset may set; those are %2"_s.arg(it.key(), keys.join(u", "_s)));
        if (!it.value().isString())
            return fail(u"parameter \"%1\" must be a string, as on the command line"_s.arg(it.key()));
        preset.params.insert(it.key(), it.value().toString());
    }
    // Either the model's dropout or why there is none, never both (Preset::inputDropout).
    const QJsonValue inputDropout = root.value(u"input-dropout"_s);
    if (!inputDropout.isUndefined()) {
        preset.inputDropout = inputDropout.toString();
        if (preset.inputDropout != u"none"_s && preset.inputDropout != u"unsaid"_s)
            return fail(u"\"input-dropout\" must be \"none\" or \"unsaid\"; got %1"_s.arg(
                inputDropout.isString() ? u"\"%1\""_s.arg(preset.inputDropout) : u"no string"_s));
        if (preset.params.contains(u"dropout"_s))
            return fail(u"\"input-dropout\" and the \"dropout\" of \"params\": give one of them (the model's p, or why "
                        "there is none)"_s);
    }
    // A key whose one value is `word`, read into `into`; what is wrong with it, if anything.
    const auto fact = [&](const QString &key, const QString &word, QString &into) -> std::optional<QString> {
        const QJsonValue value = root.value(key);
        if (value.isUndefined())
            return std::nullopt;
        into = value.toString();
        if (into == word)
            return std::nullopt;
        return u"\"%1\" must be \"%2\"; got %3"_s.arg(key, word,
                                                      value.isString() ? u"\"%1\""_s.arg(into) : u"no string"_s);
    };
    // No multiplier is s = 1, which the parameters set (Preset::embeddingScale).
    if (const auto problem = fact(u"embedding-scale"_s, u"none"_s, preset.embeddingScale))
        return fail(*problem);
    if (preset.embeddingScale == u"none"_s && preset.params.value(u"scale"_s) != u"1"_s)
        return fail(u"\"embedding-scale\": \"none\" is s = 1: \"params\" must set \"scale\": \"1\""_s);
    // The code's init where "params" cannot hold it, never beside an "init" (Preset::embeddingInit).
    const QJsonValue embeddingInit = root.value(u"embedding-init"_s);
    if (!embeddingInit.isUndefined()) {
        preset.embeddingInit = embeddingInit.toString();
        if (preset.embeddingInit.isEmpty())
            return fail(u"\"embedding-init\" must be a phrase naming the code's init"_s);
        if (preset.params.contains(u"init"_s))
            return fail(u"\"embedding-init\" and the \"init\" of \"params\": give one of them"_s);
    }
    // A paper's values (Preset::reference).
    if (const auto problem = fact(u"reference"_s, u"paper"_s, preset.reference))
        return fail(*problem);
    // Which stacks the model has (Preset::stacks).
    if (const auto problem = fact(u"stacks"_s, u"encoder-decoder"_s, preset.stacks))
        return fail(*problem);
    // How a sentence names the model (Preset::article).
    if (const auto problem = fact(u"article"_s, u"the"_s, preset.article))
        return fail(*problem);
    const auto applied = preset.applyTo(Params {});
    if (const auto *errors = std::get_if<QList<ParamError>>(&applied))
        return fail(u"%1: %2"_s.arg(errors->front().key, errors->front().sentence()));
    // The model's context above a max_len capped below it (Preset::context).
    const QJsonValue context = root.value(u"context"_s);
    if (!context.isUndefined()) {
        const std::int64_t maxLen = std::get<Params>(applied).maxLen;
        const double value = context.toDouble(-1.0);
        if (!context.isDouble() || value != std::floor(value) || value <= double(maxLen) || value > 1e12)
            return fail(u"\"context\" must be an integer above the preset's max_len %1 (the model's own context "
                        "where max_len is capped), at most 1e12"_s.arg(maxLen));
        preset.context = std::int64_t(value);
    }
    // The config's max_position_embeddings where the source gives it (Preset::maxPositionEmbeddings).
    const QJsonValue positions = root.value(u"max-position-embeddings"_s);
    if (!positions.isUndefined()) {
        const double value = positions.toDouble(-1.0);
        if (!positions.isDouble() || value != std::floor(value) || value < 1.0 || value > 1e12)
            return fail(u"\"max-position-embeddings\" must be an integer from 1 to 1e12 (the config's "
                        "max_position_embeddings, as the source gives it)"_s);
        preset.maxPositionEmbeddings = std::int64_t(value);
    }
    return preset;
}

Loaded load(const QString &folder)
{
    Loaded loaded;
    const QDir dir(folder);
    for (const QString &name : inOrder(dir.entryList({u"*.json"_s}, QDir::Files, QDir::Name))) {
        auto result = read(dir.filePath(name));
        if (auto *preset = std::get_if<Preset>(&result))
            loaded.presets.append(std::move(*preset));
        else
            loaded.problems.append(std::get<PresetError>(result));
    }
    return loaded;
}

const Loaded &shipped()
{
    static const Loaded read = load();
    return read;
}

namespace {

// A name as the shipped names are written: lower case, each run of other characters one '-'
// ("Llama-3.1-8B" and "qwen2.5_7b" are llama-3-1-8b and qwen2-5-7b).
QString nameForm(const QString &name)
{
    QString form;
    for (const QChar c : name.toLower()) {
        if ((c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9'))
            form.append(c);
        else if (!form.isEmpty() && !form.endsWith(u'-'))
            form.append(u'-');
    }
    if (form.endsWith(u'-'))
        form.chop(1);
    return form;
}

} // namespace

const Preset *find(const QString &name)
{
    const QList<Preset> &presets = shipped().presets;
    const QString form = nameForm(name);
    const auto found
        = std::find_if(presets.begin(), presets.end(), [&](const Preset &preset) { return preset.name == form; });
    return found == presets.end() ? nullptr : &*found;
}

QStringList names()
{
    QStringList list;
    for (const Preset &preset : shipped().presets)
        list.append(preset.name);
    return list;
}

} // namespace Presets

} // namespace posenc
