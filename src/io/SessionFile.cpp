#include "SessionFile.h"

#include "Lesson.h"
#include "StandardInput.h"

#include "core/OneLine.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/Params.h"
#include "io/ByteSource.h"
#include "io/JsonTopLevel.h"
#include "io/ReadError.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Edits (insert, delete, replace a character) from a to b.
qsizetype editDistance(QStringView a, QStringView b)
{
    std::vector<qsizetype> row(std::size_t(b.size() + 1));
    for (qsizetype j = 0; j <= b.size(); ++j)
        row[std::size_t(j)] = j;
    for (qsizetype i = 1; i <= a.size(); ++i) {
        qsizetype diagonal = row[0];
        row[0] = i;
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const qsizetype above = row[std::size_t(j)];
            row[std::size_t(j)] = std::min({above + 1, row[std::size_t(j - 1)] + 1,
                                            diagonal + (a[i - 1].toLower() == b[j - 1].toLower() ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[std::size_t(b.size())];
}

// A key no parameter has, with the parameters nearest it (within a third of its letters): all of
// them, a hundred, made a paragraph of the window's message; posenc help parameters lists them.
QString notAParameter(const QString &key, const QStringList &keys)
{
    QStringList near;
    qsizetype best = std::max<qsizetype>(1, std::min<qsizetype>(key.size(), 64) / 3) + 1;
    for (const QString &k : keys) {
        if (key.size() > 64)
            break;
        const qsizetype d = editDistance(key, k);
        if (d < best) {
            best = d;
            near.clear();
        }
        if (d == best)
            near.append(k);
    }
    const QString quoted = quotedOneLine(key, u'"');
    if (near.isEmpty())
        return u"%1 is not a parameter (posenc help parameters lists them)"_s.arg(quoted);
    return u"%1 is not a parameter; the nearest: %2 (posenc help parameters lists them)"_s.arg(quoted,
                                                                                               near.join(u", "_s));
}

const QString kFormat = u"posenc-session"_s;

// Line and column of a byte offset, for parse errors a person can find in an editor.
QString placeOf(const QByteArray &json, qsizetype offset)
{
    qsizetype line = 1;
    qsizetype column = 1;
    for (qsizetype i = 0; i < std::min(offset, json.size()); ++i) {
        if (json[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return u"line %1, column %2"_s.arg(line).arg(column);
}

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Bool:
        return u"a boolean"_s;
    case QJsonValue::Double:
        return u"a number"_s;
    case QJsonValue::String:
        return u"a string"_s;
    case QJsonValue::Array:
        return u"an array"_s;
    case QJsonValue::Object:
        return u"an object"_s;
    case QJsonValue::Undefined:
        break;
    }
    return u"missing"_s;
}

} // namespace

QString SessionError::toString() const
{
    return ReadError {path, reason}.toString();
}

QStringList Session::parameterKeys()
{
    return ParamTable::flagKeys();
}

Session Session::fromParams(const Params &params)
{
    Session session;
    for (const QString &key : ParamTable::flagKeys()) {
        const ParamSpec &row = *ParamTable::find(key);
        const QString text = row.text(params);
        // A matrix is saved as the file it was read from, when it was read from one.
        if (row.kind == ParamKind::Matrix && text.isEmpty())
            continue;
        session.params.insert(key, text);
    }
    return session;
}

QByteArray Session::toJson() const
{
    QJsonObject values;
    for (auto it = params.cbegin(); it != params.cend(); ++it)
        values.insert(it.key(), it.value());
    QJsonObject root;
    root.insert(u"format"_s, kFormat);
    root.insert(u"version"_s, kVersion);
    root.insert(u"params"_s, values);
    root.insert(u"view"_s, view);
    if (!lesson.isEmpty())
        root.insert(u"lesson"_s, lesson);
    // QJsonObject keeps its keys sorted, so equal sessions give equal bytes.
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::variant<Session, SessionError> parseSession(const QByteArray &json, const QString &path)
{
    const auto fail = [&](const QString &reason) { return SessionError {path, reason}; };
    // Qt's parser takes a raw NUL inside a string, where JSON allows none, and a value would
    // then read as its text before it.
    if (const qsizetype nul = json.indexOf('\0'); nul >= 0)
        return fail(u"not a session file: %1: a NUL byte (a session file is text)"_s.arg(placeOf(json, nul)));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (const auto scalar = parseError.error != QJsonParseError::NoError ? jsonTopLevelScalar(json) : std::nullopt)
        return fail(u"not a session file: the top level is %1, not an object"_s.arg(*scalar));
    if (parseError.error != QJsonParseError::NoError)
        return fail(u"not a session file: %1: %2"_s.arg(placeOf(json, parseError.offset), parseError.errorString()));
    if (!document.isObject())
        return fail(u"not a session file: the top level is %1, not an object"_s.arg(document.isArray() ? u"an array"_s
                                                                                                       : u"empty"_s));
    const QJsonObject root = document.object();
    if (root.value(u"format"_s) != QJsonValue(kFormat))
        return fail(u"not a session file: \"format\" must be \"%1\""_s.arg(kFormat));
    const QJsonValue version = root.value(u"version"_s);
    if (!version.isDouble() || version.toDouble() != double(version.toInt()))
        return fail(u"\"version\" must be a whole number, got %1"_s.arg(typeName(version)));
    if (version.toInt() != Session::kVersion)
        return fail(u"session version %1 is not one this program reads (it reads version %2)"_s.arg(version.toInt())
                        .arg(Session::kVersion));
    for (auto it = root.constBegin(); it != root.constEnd(); ++it) {
        if (!QStringList {u"format"_s, u"version"_s, u"params"_s, u"view"_s, u"lesson"_s}.contains(it.key()))
            return fail(u"unknown key %1 at the top level (expected format, version, params, view, lesson)"_s.arg(
                quotedOneLine(it.key(), u'"')));
    }
    const QJsonValue params = root.value(u"params"_s);
    if (!params.isObject())
        return fail(u"\"params\" must be an object, got %1"_s.arg(typeName(params)));
    const QJsonValue view = root.value(u"view"_s);
    if (!view.isUndefined() && !view.isObject())
        return fail(u"\"view\" must be an object, got %1"_s.arg(typeName(view)));
    const QJsonValue lesson = root.value(u"lesson"_s);
    if (!lesson.isUndefined() && !lesson.isObject())
        return fail(u"\"lesson\" must be an object, got %1"_s.arg(typeName(lesson)));

    Session session;
    const QStringList keys = Session::parameterKeys();
    const QJsonObject values = params.toObject();
    for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
        if (!keys.contains(it.key()))
            return fail(notAParameter(it.key(), keys));
        if (!it.value().isString())
            return fail(u"parameter \"%1\" must be a string as on the command line (\"%1\": \"...\"), got %2"_s.arg(
                it.key(), typeName(it.value())));
        const QString value = it.value().toString();
        const auto control = std::find_if(value.cbegin(), value.cend(), [](QChar c) { return c.unicode() < 0x20; });
        if (control != value.cend())
            return fail(
                u"parameter \"%1\" holds the control character U+%2, which no parameter takes"_s.arg(it.key()).arg(
                    int(control->unicode()), 4, 16, QChar(u'0')));
        session.params.insert(it.key(), value);
    }
    session.view = view.toObject();
    session.lesson = lesson.toObject();
    // A lesson block is part of the file: one the window could not show refuses the file, with
    // the reason, rather than be dropped without a word.
    if (!session.lesson.isEmpty()) {
        if (auto refused = Lessons::fromSession(session, path); std::holds_alternative<SessionError>(refused))
            return std::get<SessionError>(std::move(refused));
    }
    return session;
}

std::variant<Session, SessionError> readSession(const QString &path)
{
    // A pipe or a device would block the read, or never end it; --embeddings refuses them too.
    // "-", standard input, is read whole into a regular file first (StandardInput).
    const auto where = StandardInput::file(path);
    if (!where)
        return SessionError {path, where.error().reason};
    if (const QString problem = fileNameProblem(path); !problem.isEmpty())
        return SessionError {path, problem};
    const QFileInfo info(where.value());
    if (!info.exists())
        return SessionError {path, absentFileReason(path)};
    if (!info.isFile())
        return SessionError {path, notRegularFileReason(info)};
    QFile file(where.value());
    if (!file.open(QIODevice::ReadOnly))
        return SessionError {path, file.errorString()};
    if (file.size() > Session::kMaxFileBytes)
        return SessionError {
            path,
            u"%1 bytes is too large for a session file (at most %2)"_s.arg(file.size()).arg(Session::kMaxFileBytes)};
    const QByteArray json = file.read(Session::kMaxFileBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return SessionError {path, file.errorString()};
    return parseSession(json, path);
}

std::optional<WriteError> writeSession(const QString &path, const Session &session)
{
    const QByteArray json = session.toJson();
    return writeAtomically(path, [&](QIODevice &device) { return device.write(json) == json.size(); });
}

} // namespace posenc
