#include "Lesson.h"

#include "LessonMarkup.h"

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

} // namespace

QString Lesson::mainFigure() const
{
    const auto main = view().figure(mainView);
    return main ? main->name : QString();
}

std::variant<Params, QList<ParamError>> Lesson::params() const
{
    return ParamOverlay::over(Params {}, session.params);
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
        return fail(u"\"lesson\": \"name\" must be lowercase words joined by '-', got \"%1\""_s.arg(lesson.name));
    // The texts the window lays out, each within its bound (LessonMarkup).
    const std::pair<QString, int> texts[] = {{u"title"_s, LessonMarkup::kMaxTitle},
                                             {u"question"_s, LessonMarkup::kMaxQuestion},
                                             {u"explanation"_s, LessonMarkup::kMaxExplanation}};
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
    lesson.explanation = text(u"explanation"_s);
    if (const auto refused = LessonMarkup::checkExplanation(lesson.explanation))
        return fail(u"\"lesson\": \"explanation\" "_s + *refused);
    lesson.code = block.value(u"code"_s).toString();
    if (lesson.code.size() > LessonMarkup::kMaxCode)
        return fail(u"\"lesson\": \"code\" is %1 characters long; it may hold at most %2"_s.arg(lesson.code.size())
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
