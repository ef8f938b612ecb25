#pragma once

#include "SessionFile.h"
#include "SessionView.h"

#include "core/Params.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace posenc {

// A lesson: a session that answers one question people bring (docs/ARCHITECTURE.md, Lessons).
// Its parameters and views make the point; its explanation says it, with {key} placeholders
// that LessonNumbers fills with the numbers of the current parameters.
//
//   {"format": "posenc-session", "version": 1,
//    "lesson": {"name": "why-sqrt-d", "order": 4, "title": "...", "question": "...",
//               "explanation": "... ratio = {ratio} ...", "code": "...", "main": 0},
//    "params": {...}, "view": {"layout": "1x2", "views": [{"figure": "scale-compare", ...}, ...]}}
//
// "main" is the index in "views" of the figure `posenc export --lesson` writes; "code", the
// code the question is about, may be absent.
struct Lesson
{
    QString name; // the command line's NAME: lowercase words joined by '-'
    int order = 0; // where the menus list it
    QString title;
    QString question;
    QString explanation; // rich text with {key} placeholders
    QString code; // shown as code beside the explanation; empty when none
    int mainView = 0;
    Session session;

    // The lesson's views (its session's "view").
    SessionView view() const { return SessionView::read(session.view); }
    // The figure of its main view; empty when none.
    QString mainFigure() const;
    // The parameters of the lesson over the defaults, or every problem with them.
    std::variant<Params, QList<ParamError>> params() const;
};

namespace Lessons {

// The directory of the lessons compiled into the program (every file of resources/lessons, src/io/CMakeLists.txt).
inline constexpr char16_t kDirectory[] = u":/lessons";

// A lesson file: a session (parseSession) whose "lesson" block names it, asks its question and
// explains; the path and the reason when it is not one.
std::variant<Lesson, SessionError> parse(const QByteArray &json, const QString &path);
std::variant<Lesson, SessionError> read(const QString &path);
// The lesson of a session read elsewhere (File > Open session), by the same rules.
std::variant<Lesson, SessionError> fromSession(const Session &session, const QString &path);

// The lessons of the program, in their order; read once.
const QList<Lesson> &all();
// Files in the lessons directory that are not lessons (a build mistake, which tests catch).
const QList<SessionError> &errors();
const Lesson *find(const QString &name);
QStringList names();

} // namespace Lessons

} // namespace posenc
