#include "io/ModelConfigFile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::ModelConfigFile {

namespace {

// "byte 120 (line 4, column 17)": where a parse error is, for an editor.
QString placeOf(const QByteArray &json, qsizetype offset)
{
    qsizetype line = 1;
    qsizetype column = 1;
    const qsizetype end = std::clamp<qsizetype>(offset, 0, json.size());
    for (qsizetype i = 0; i < end; ++i) {
        if (json[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return u"byte %1 (line %2, column %3)"_s.arg(offset).arg(line).arg(column);
}

// Python's json module, which HF reads configs with, takes NaN and Infinity; JSON and Qt do not.
QString pythonLiteralNote(const QByteArray &json, qsizetype offset)
{
    const qsizetype from = std::clamp<qsizetype>(offset - 12, 0, json.size());
    const QByteArray around = json.mid(from, 24);
    if (around.contains("NaN") || around.contains("Infinity"))
        return u" (NaN and Infinity are Python's extensions of JSON: no value of a config is one)"_s;
    return {};
}

} // namespace

ReadResult<QJsonObject> parse(const QByteArray &bytes, const QString &path)
{
    const auto refuse = [&](const QString &reason) { return ReadError {path, reason}; };
    // Qt's parser takes a raw NUL inside a string, where JSON allows none.
    if (const qsizetype nul = bytes.indexOf('\0'); nul >= 0)
        return refuse(u"not JSON: a NUL byte at %1 (a config is text)"_s.arg(placeOf(bytes, nul)));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        return refuse(u"not JSON: %1 at %2%3"_s.arg(error.errorString(), placeOf(bytes, error.offset),
                                                    pythonLiteralNote(bytes, error.offset)));
    if (!document.isObject())
        return refuse(u"not a model config: its top level is %1, not an object"_s.arg(document.isArray() ? u"an array"_s
                                                                                                         : u"empty"_s));
    return document.object();
}

ReadResult<QJsonObject> read(const QString &path)
{
    // A pipe or a device could block the read or never end it.
    const QFileInfo info(path);
    if (!info.exists())
        return ReadError {path, u"no such file"_s};
    if (info.isDir())
        return ReadError {path, u"a directory, not a config file"_s};
    if (!info.isFile())
        return ReadError {path, u"not a regular file"_s};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError {path, file.errorString()};
    const auto tooLarge = [&](qint64 size) {
        return ReadError {path,
                          u"%1 bytes is too large for a model config (at most %2 bytes)"_s.arg(size).arg(kMaxBytes)};
    };
    if (file.size() > kMaxBytes)
        return tooLarge(file.size());
    // One byte more than the cap: a file that grew since its size was read is still refused.
    const QByteArray bytes = file.read(kMaxBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return ReadError {path, file.errorString()};
    if (bytes.size() > kMaxBytes)
        return tooLarge(bytes.size());
    return parse(bytes, path);
}

} // namespace posenc::ModelConfigFile
