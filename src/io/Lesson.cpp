#include "Lesson.h"

#include "LessonMarkup.h"
#include "LessonModels.h"
#include "Preset.h"

#include "check/models/LayerLessonNumbers.h"
#include "core/FamilySpec.h"
#include "core/LessonNumbers.h"
#include "core/OneLine.h"
#include "core/ParamOverlay.h"
#include "core/ParamText.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

struct Catalogue
{
    QList<Lesson> lessons;
    QList<SessionError> errors;
};

Catalogue readCatalogue()
{
    Catalogue catalogue;
    const QDir directory(QString::fromUtf16(Lessons::kDirectory));
    for (const QString &file : directory.entryList({u"*.json"_s}, QDir::Files, QDir::Name)) {
        auto read = Lessons::read(directory.filePath(file));
        if (auto *error = std::get_if<SessionError>(&read))
            catalogue.errors.append(*error);
        else
            catalogue.lessons.append(std::get<Lesson>(std::move(read)));
    }
    std::stable_sort(catalogue.lessons.begin(), catalogue.lessons.end(),
                     [](const Lesson &a, const Lesson &b) { return a.order < b.order; });
    return catalogue;
}

const Catalogue &catalogue()
{
    static const Catalogue read = readCatalogue();
    return read;
}

// A list of texts under `key`, or why not.
std::optional<QString> readTexts(const QJsonObject &block, const QString &key, QStringList &to)
{
    const QJsonValue value = block.value(key);
    if (value.isUndefined())
        return std::nullopt;
    if (!value.isArray())
        return u"\"%1\" must be a list of texts"_s.arg(key);
    for (const QJsonValue &each : value.toArray()) {
        if (!each.isString() || each.toString().isEmpty())
            return u"\"%1\" must be a list of texts"_s.arg(key);
        to.append(each.toString());
    }
    return std::nullopt;
}

// "model", "keep" and "needs": the lesson's default model, what it holds for any model and what it
// needs of one.
std::optional<QString> readModel(const QJsonObject &block, Lesson &lesson)
{
    lesson.model = block.value(u"model"_s).toString();
    if (!block.value(u"model"_s).isUndefined() && !Presets::find(lesson.model))
        return u"\"model\" must name a preset (posenc presets lists them); got %1"_s.arg(
            quotedOneLine(lesson.model, u'"'));
    if (auto problem = readTexts(block, u"keep"_s, lesson.keep))
        return problem;
    for (const QString &key : std::as_const(lesson.keep)) {
        if (!Session::parameterKeys().contains(key))
            return u"\"keep\" must list parameter keys; got %1"_s.arg(quotedOneLine(key, u'"'));
    }
    const QJsonValue needs = block.value(u"needs"_s);
    if (needs.isUndefined())
        return std::nullopt;
    const QJsonObject object = needs.toObject();
    lesson.needsWhat = object.value(u"what"_s).toString();
    if (auto problem = readTexts(object, u"keys"_s, lesson.needs))
        return u"\"needs\": "_s + *problem;
    if (auto problem = readTexts(object, u"any"_s, lesson.needsAny))
        return u"\"needs\": "_s + *problem;
    if (!needs.isObject() || (lesson.needs.isEmpty() && lesson.needsAny.isEmpty()) || lesson.needsWhat.isEmpty())
        return u"\"needs\" must be {\"keys\": [KEY, ...] or \"any\": [KEY, ...], \"what\": TEXT}"_s;
    return std::nullopt;
}

} // namespace

QJsonObject Lesson::viewState(const QString &modelConfig) const
{
    SessionView shown = SessionView::read(session.view);
    if (shown.views) {
        for (SessionView::Figure &figure : *shown.views) {
            if (figure.state.value(u"config"_s).toString() != QString::fromUtf16(kModelConfig))
                continue;
            // A view of the model's config draws it, or the figure's examples where it has none.
            if (modelConfig.isEmpty())
                figure.state.remove(u"config"_s);
            else
                figure.state.insert(u"config"_s, modelConfig);
        }
    }
    return shown.write(session.view);
}

SessionView Lesson::view(const QString &modelConfig) const
{
    return SessionView::read(viewState(modelConfig));
}

QString Lesson::mainFigure() const
{
    const auto main = view().figure(mainView);
    return main ? main->name : QString();
}

QStringList Lesson::slideFigures(const LessonModel &model, bool windowViews) const
{
    const SessionView shown = view(model.configName);
    const QList<SessionView::Figure> views = shown.views.value_or(QList<SessionView::Figure>());
    // The views the window shows: the maximised one, or the layout's rows x columns (four where a
    // session has no layout).
    qsizetype count = 4;
    static const QRegularExpression grid(u"^([1-9])x([1-9])$"_s);
    if (const auto match = grid.match(shown.layout.value_or(QString())); match.hasMatch())
        count = match.captured(1).toInt() * match.captured(2).toInt();
    QList<int> indices;
    if (shown.maximized >= 0 && shown.maximized < views.size())
        indices.append(shown.maximized);
    else
        for (int i = 0; i < std::min(count, views.size()); ++i)
            indices.append(i);
    if (!windowViews)
        indices.clear();
    QStringList figures;
    const auto add = [&figures](const QString &name) {
        if (!name.isEmpty() && !figures.contains(name))
            figures.append(name);
    };
    add(mainFigure());
    for (const int i : std::as_const(indices))
        add(views[i].name);
    const auto isView = [&views](const QString &name) {
        return std::any_of(views.begin(), views.end(),
                           [&name](const SessionView::Figure &f) { return f.name == name; });
    };
    // The views the text names, in the order it names them.
    static const QRegularExpression named(u"([a-z0-9]+(?:-[a-z0-9]+)*) views?\\b"_s);
    const LessonText::Rendered rendered = explain(model);
    const QString text = LessonText::plain(rendered.html);
    for (auto it = named.globalMatch(text); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (isView(name))
            add(name);
    }
    // The figures of the panels it refers to.
    for (const QString &panel : rendered.panels)
        add(panel.section(u": "_s, 0, 0));
    // The views that draw the numbers it quotes (LessonNumbers::Entry::figure): left-padding's
    // slide for BLOOM quoted its ALiBi bias against the row's first token and left out the
    // position-effect view that draws it, which its window shows.
    for (const QString &key : rendered.keys) {
        const QString figure = LessonNumbers::figureOf(key, LayerLessonNumbers::entries()).section(u": "_s, 0, 0);
        if (isView(figure))
            add(figure);
    }
    return figures;
}

QStringList Lesson::keptPanels(const LessonModel &model, const QString &figure) const
{
    // The panels its alternatives refer to, and those that draw the numbers it quotes: a number the
    // text quotes is on the slide (left-padding's for Whisper quoted ‖ΔPE‖ = 36.6 and gave up the
    // position-effect view's panel of it for room).
    return keptPanels(explain(model), figure);
}

QStringList Lesson::keptPanels(const LessonText::Rendered &rendered, const QString &figure)
{
    QStringList panels = rendered.panels;
    for (const QString &key : rendered.keys)
        panels.append(LessonNumbers::figureOf(key, LayerLessonNumbers::entries()));
    QStringList words;
    for (const QString &panel : std::as_const(panels)) {
        const QString named = panel.section(u": "_s, 1);
        if (panel.section(u": "_s, 0, 0) == figure && panel.contains(u": "_s) && !words.contains(named))
            words.append(named);
    }
    return words;
}

std::variant<Params, QList<ParamError>> Lesson::params() const
{
    return ParamOverlay::over(Params {}, LessonModels::textsFor(*this, LessonModels::defaultOf(*this)));
}

LessonText::Rendered Lesson::explain(const LessonModel &model, bool emphasise) const
{
    return text.render(model, emphasise);
}

namespace {

// Why a model has none of the keys of which a lesson needs one: each key's reason, those that state
// the same fact of the model and differ in what it is not said once ("its encoding is t5, not
// sinusoidal or rope"), the others joined.
QString anyReason(const QStringList &reasons)
{
    static const QString kNot = u", not "_s;
    const qsizetype cut = reasons.first().lastIndexOf(kNot);
    const QString head = cut < 0 ? QString() : reasons.first().left(cut + kNot.size());
    QStringList tails;
    for (const QString &reason : reasons) {
        if (head.isEmpty() || !reason.startsWith(head) || reason.indexOf(kNot, head.size()) >= 0)
            return reasons.join(u"; "_s);
        tails.append(reason.mid(head.size()));
    }
    return head + tails.join(u" or "_s);
}

} // namespace

std::optional<QString> Lesson::refusal(const LessonModel &model) const
{
    // Why the first key of `keys` the model lacks is missing; nothing when it has them all.
    const auto lacking = [&model](const QStringList &keys) -> std::optional<QString> {
        for (const QString &key : keys) {
            const auto number = LessonNumbers::number(key, model, LayerLessonNumbers::entries());
            if (!number || !number->present())
                return number ? number->missing : u"lacks %1"_s.arg(key);
        }
        return std::nullopt;
    };
    auto why = lacking(needs);
    if (!why && !needsAny.isEmpty()) {
        QStringList reasons;
        for (const QString &key : needsAny) {
            const auto any = lacking({key});
            if (!any)
                return std::nullopt;
            if (!reasons.contains(*any))
                reasons.append(*any);
        }
        why = anyReason(reasons);
    }
    if (!why)
        return std::nullopt;
    const QString who = model.name.isEmpty() ? u"the model given"_s : model.name;
    return u"the lesson %1 needs %2: for %3, %4"_s.arg(name, needsWhat, who, *why);
}

namespace Lessons {

std::variant<Lesson, SessionError> parse(const QByteArray &json, const QString &path)
{
    auto parsed = parseSession(json, path);
    if (auto *error = std::get_if<SessionError>(&parsed))
        return *error;
    return fromSession(std::get<Session>(parsed), path);
}

std::variant<Lesson, SessionError> fromSession(const Session &session, const QString &path)
{
    Lesson lesson;
    lesson.session = session;
    const QJsonObject block = lesson.session.lesson;
    const auto fail = [&](const QString &reason) { return SessionError {path, reason}; };
    if (block.isEmpty())
        return fail(u"not a lesson: it has no \"lesson\" block"_s);
    const auto text = [&](const QString &key) { return block.value(key).toString().trimmed(); };
    lesson.name = text(u"name"_s);
    static const QRegularExpression namePattern(u"^[a-z0-9]+(-[a-z0-9]+)*$"_s);
    if (!namePattern.match(lesson.name).hasMatch())
        return fail(u"\"lesson\": \"name\" must be lowercase words joined by '-', got %1"_s.arg(
            quotedOneLine(lesson.name, u'"')));
    // The texts the window lays out, each within its bound (LessonMarkup).
    const std::pair<QString, int> texts[]
        = {{u"title"_s, LessonMarkup::kMaxTitle}, {u"question"_s, LessonMarkup::kMaxQuestion}};
    for (const auto &[key, most] : texts) {
        if (text(key).isEmpty())
            return fail(u"\"lesson\": \"%1\" must be a text that is not empty"_s.arg(key));
        if (text(key).size() > most)
            return fail(u"\"lesson\": \"%1\" is %2 characters long; it may hold at most %3"_s.arg(key)
                            .arg(text(key).size())
                            .arg(most));
    }
    lesson.title = text(u"title"_s);
    lesson.question = text(u"question"_s);
    auto explanation = LessonText::read(block.value(u"explanation"_s), block.value(u"note"_s));
    if (const auto *problem = std::get_if<QString>(&explanation))
        return fail(u"\"lesson\": "_s + *problem);
    lesson.text = std::get<LessonText>(std::move(explanation));
    qsizetype length = 0;
    for (const QString &fragment : lesson.text.fragments()) {
        length += fragment.size();
        if (const auto refused = LessonMarkup::checkExplanation(fragment))
            return fail(u"\"lesson\": \"explanation\" "_s + *refused);
    }
    if (length > LessonMarkup::kMaxExplanation)
        return fail(u"\"lesson\": \"explanation\" is %1 characters long; it may hold at most %2"_s.arg(length).arg(
            LessonMarkup::kMaxExplanation));
    if (const auto problem = readModel(block, lesson))
        return fail(u"\"lesson\": "_s + *problem);
    auto code = LessonCode::read(block.value(u"code"_s));
    if (const auto *problem = std::get_if<QString>(&code))
        return fail(u"\"lesson\": "_s + *problem);
    lesson.code = std::get<LessonCode>(std::move(code));
    // Bounded as the window lays it out: one alternative at a time, from a bounded list.
    if (lesson.code.alternatives.size() > LessonMarkup::kMaxCodeAlternatives)
        return fail(
            u"\"lesson\": \"code\" has %1 alternatives; it may have at most %2"_s.arg(lesson.code.alternatives.size())
                .arg(LessonMarkup::kMaxCodeAlternatives));
    if (lesson.code.longest() > LessonMarkup::kMaxCode)
        return fail(u"\"lesson\": \"code\"%1 is %2 characters long; it may hold at most %3"_s
                        .arg(lesson.code.alternatives.size() > 1 ? u"'s longest alternative"_s : QString())
                        .arg(lesson.code.longest())
                        .arg(LessonMarkup::kMaxCode));
    lesson.order = block.value(u"order"_s).toInt(0);
    lesson.mainView = block.value(u"main"_s).toInt(0);
    if (lesson.mainFigure().isEmpty()) {
        const auto listed = lesson.view().views;
        const qsizetype views = listed ? listed->size() : 0;
        return fail(u"\"lesson\": \"main\" must be the index of a view of \"view\": \"views\" that names a figure "
                    "(%1); got %2"_s.arg(views > 0 ? u"0 to %1"_s.arg(views - 1) : u"there is none"_s)
                        .arg(block.value(u"main"_s).toVariant().toString()));
    }
    return lesson;
}

std::variant<Lesson, SessionError> read(const QString &path)
{
    auto session = readSession(path);
    if (const auto *error = std::get_if<SessionError>(&session))
        return *error;
    return fromSession(std::get<Session>(session), path);
}

const QList<Lesson> &all()
{
    return catalogue().lessons;
}

const QList<SessionError> &errors()
{
    return catalogue().errors;
}

const Lesson *find(const QString &name)
{
    const QList<Lesson> &lessons = all();
    const auto found
        = std::find_if(lessons.begin(), lessons.end(), [&](const Lesson &lesson) { return lesson.name == name; });
    return found == lessons.end() ? nullptr : &*found;
}

QStringList names()
{
    QStringList list;
    for (const Lesson &lesson : all())
        list.append(lesson.name);
    return list;
}

} // namespace Lessons

} // namespace posenc
