#include "LessonCode.h"

#include "LessonNeeds.h"
#include "Preset.h"

#include "check/ModelConfigCheck.h"
#include "check/models/LayerLessonNumbers.h"
#include "core/LessonNumbers.h"
#include "core/OneLine.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// transformers' model folders in a citation: "models/gpt_neox/modeling_gpt_neox.py" -> "gpt_neox".
const QRegularExpression &modelFolder()
{
    static const QRegularExpression folder(u"\\bmodels/([a-z0-9_]+)/"_s);
    return folder;
}

void addFolders(QStringList &to, const QString &text)
{
    for (auto it = modelFolder().globalMatch(text); it.hasNext();) {
        const QString folder = it.next().captured(1);
        if (!to.contains(folder))
            to.append(folder);
    }
}

std::variant<LessonCode::Alternative, QString> readAlternative(const QJsonValue &value)
{
    if (value.isString())
        return LessonCode::Alternative {value.toString(), {}, {}};
    if (!value.isObject())
        return u"an alternative of \"code\" is a text or {\"needs\": [KEY, ...], \"text\": CODE, \"other\": LINE}"_s;
    const QJsonObject object = value.toObject();
    for (const QString &key : object.keys()) {
        if (key != u"needs"_s && key != u"text"_s && key != u"other"_s)
            return u"an alternative of \"code\" has only \"needs\", \"text\" and \"other\"; got %1"_s.arg(
                quotedOneLine(key, u'"'));
    }
    if (!object.value(u"text"_s).isString() || object.value(u"text"_s).toString().trimmed().isEmpty())
        return u"an alternative of \"code\" has its code as \"text\", a text that is not empty"_s;
    const QJsonValue other = object.value(u"other"_s);
    if (!(other.isString() || other.isUndefined()) || other.toString().contains(u'\n')
        || !(other.isUndefined() || other.toString().startsWith(u"# "_s)))
        return u"an alternative's \"other\" is one comment line, \"# ...\""_s;
    LessonCode::Alternative alternative {object.value(u"text"_s).toString(), {}, other.toString()};
    const QJsonValue needs = object.value(u"needs"_s);
    if (!(needs.isArray() || needs.isUndefined()))
        return u"an alternative's \"needs\" is a list of keys"_s;
    if (auto problem = LessonNeeds::read(needs, alternative.needs))
        return *problem;
    return alternative;
}

// A comment line broken at spaces into comment lines no wider than the code's widest, so that the
// box does not widen for it (LessonRoom gives the panel the code's width): as few lines as that
// takes, of even lengths (no word left alone on the last), each a comment of its own ("# ").
QString wrapped(const QString &line, const QString &code)
{
    qsizetype widest = 0;
    for (const QString &each : code.split(u'\n'))
        widest = std::max(widest, each.size());
    // Words, a parenthesis kept whole: "(i, i + d/2)" is not broken.
    QStringList words;
    int depth = 0;
    for (const QString &word : line.mid(2).split(u' ', Qt::SkipEmptyParts)) {
        if (depth > 0)
            words.last() += u' ' + word;
        else
            words.append(word);
        depth += int(word.count(u'(')) - int(word.count(u')'));
    }
    const auto wrap = [&words](qsizetype width) {
        QStringList lines;
        QString current;
        for (const QString &word : std::as_const(words)) {
            if (!current.isEmpty() && current.size() + 1 + word.size() > width) {
                lines.append(current);
                current = u"# "_s + word;
            } else {
                current = current.isEmpty() ? u"# "_s + word : current + u' ' + word;
            }
        }
        lines.append(current);
        return lines;
    };
    const QStringList fewest = wrap(widest);
    // The narrowest width that keeps that many lines.
    qsizetype width = widest;
    while (width > 1 && wrap(width - 1).size() == fewest.size())
        --width;
    return wrap(width).join(u'\n');
}

} // namespace

std::variant<LessonCode, QString> LessonCode::read(const QJsonValue &value)
{
    LessonCode code;
    if (value.isUndefined() || value.isNull() || (value.isString() && value.toString().isEmpty()))
        return code;
    if (!(value.isString() || value.isArray()) || (value.isArray() && value.toArray().isEmpty()))
        return u"\"code\" is a text, or a list of alternatives each chosen by the model's numbers"_s;
    const QJsonArray list = value.isArray() ? value.toArray() : QJsonArray {value};
    for (const QJsonValue &each : list) {
        auto read = readAlternative(each);
        if (const auto *problem = std::get_if<QString>(&read))
            return u"\"code\": alternative %1: %2"_s.arg(code.alternatives.size() + 1).arg(*problem);
        code.alternatives.append(std::get<Alternative>(std::move(read)));
    }
    return code;
}

qsizetype LessonCode::longest() const
{
    qsizetype length = 0;
    for (const Alternative &alternative : alternatives)
        length = std::max(length, alternative.text.size() + alternative.other.size());
    return length;
}

const LessonCode::Alternative *LessonCode::chosen(const LessonModel &model) const
{
    // The first alternative whose facts the model has; alternatives that need the same facts
    // compute the same thing, each as one family's code writes it, and the model's own is shown
    // where it is one of them.
    const Alternative *first = nullptr;
    QStringList own;
    for (const Alternative &alternative : alternatives) {
        if (first && alternative.needs != first->needs)
            continue;
        if (!LessonNeeds::missing(alternative.needs, model).isEmpty())
            continue;
        if (!first) {
            first = &alternative;
            own = ownFolders(model);
        }
        if (own.contains(citedFolder(alternative.text)))
            return &alternative;
    }
    return first;
}

QString LessonCode::forModel(const LessonModel &model) const
{
    const Alternative *alternative = chosen(model);
    if (!alternative)
        return {};
    // Parameters of no named model and no config (the lesson's own, or edited) have no code to be
    // another's of: the box cites its source, and says no more.
    const bool someones = !model.name.isEmpty() || model.config;
    const QString cited = citedFolder(alternative->text);
    if (!someones || cited.isEmpty() || alternative->other.isEmpty() || ownFolders(model).contains(cited))
        return alternative->text;
    const LessonNumbers::Filled line
        = LessonNumbers::fill(alternative->other, model, false, LayerLessonNumbers::entries());
    return wrapped(line.complete() ? line.text : alternative->other, alternative->text) + u'\n' + alternative->text;
}

QString LessonCode::citedFolder(const QString &code)
{
    const QRegularExpressionMatch match = modelFolder().match(code);
    return match.hasMatch() ? match.captured(1) : QString();
}

QStringList LessonCode::ownFolders(const LessonModel &model)
{
    QStringList folders;
    // The config's model_type's modeling file (ModelTable), which posenc check read it as.
    if (model.config)
        addFolders(folders, model.config->modelFile);
    // A shipped preset's source cites the code its numbers were read from.
    if (!model.name.isEmpty()) {
        for (const Preset &preset : Presets::shipped().presets) {
            if (preset.modelName() == model.name)
                addFolders(folders, preset.source);
        }
    }
    return folders;
}

} // namespace posenc
