#pragma once

#include "AtomicFile.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

#include <optional>
#include <variant>

namespace posenc {

struct Params;

// A saved session (docs/ARCHITECTURE.md, Command line): every parameter as the text its command-line flag
// takes, under the same key, and the window's view state, which only the window reads. A lesson
// is a session with a "lesson" block besides (io/Lesson.h); a plain session has none.
//
//   {"format": "posenc-session", "version": 1,
//    "params": {"d-model": "512", "max-len": "1024", ...}, "view": {...}}
//
// The JSON is written with sorted keys, so saving what was opened gives the same bytes.
struct Session
{
    static constexpr int kVersion = 1;
    static constexpr std::int64_t kMaxFileBytes = 16 << 20; // far above any real session

    QMap<QString, QString> params; // key -> text, as ParamText and the --embeddings flags read them
    QJsonObject view;
    QJsonObject lesson; // a lesson's name, question and explanation; empty in a plain session

    // The keys "params" may hold: ParamText's, "embeddings" and "tokens".
    static QStringList parameterKeys();
    // Every parameter of `params`, plus "embeddings" and "tokens" when its embeddings came
    // from a file.
    static Session fromParams(const Params &params);

    QByteArray toJson() const;
    friend bool operator==(const Session &, const Session &) = default;
};

// Why a session file could not be used: the path and the reason ("line 3, column 7: ...",
// "version 2 is newer than this program's 1").
struct SessionError
{
    QString path;
    QString reason;

    QString toString() const;
};

// Reads and checks a session file; nothing is applied anywhere, so a refused file changes
// nothing. Keys of "params" must be parameter keys; their values are strings whose ranges are
// checked later, by whoever applies them (Params::validate()).
std::variant<Session, SessionError> readSession(const QString &path);
std::variant<Session, SessionError> parseSession(const QByteArray &json, const QString &path);

// Writes the session whole or not at all.
std::optional<WriteError> writeSession(const QString &path, const Session &session);

} // namespace posenc
