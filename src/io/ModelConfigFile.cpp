#include "io/ModelConfigFile.h"

#include "check/ConfigNumber.h"
#include "io/ByteSource.h"
#include "io/JsonTopLevel.h"
#include "io/MemoryFiles.h"
#include "io/StandardInput.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

#include <algorithm>
#include <charconv>

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

bool isNumberByte(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Whether a number JSON allows but a double cannot hold is too large (1e400), not too small
// (1e-400): the decimal exponent of its first significant digit.
bool pastTheTop(const QByteArray &token)
{
    const qsizetype e = std::max(token.indexOf('e'), token.indexOf('E'));
    const QByteArray mantissa = e < 0 ? token : token.left(e);
    const qint64 exponent = e < 0 ? 0 : std::clamp<qint64>(token.mid(e + 1).toLongLong(), -1000000, 1000000);
    const qsizetype point = mantissa.contains('.') ? mantissa.indexOf('.') : mantissa.size();
    for (qsizetype i = 0; i < mantissa.size(); ++i) {
        if (mantissa[i] >= '1' && mantissa[i] <= '9')
            return exponent + (i < point ? point - i - 1 : point - i) > 0;
    }
    return false;
}

// Where Qt's parser refused a number that ends at `end`: a number JSON allows whose value a double
// cannot hold is written as Python's json reads it, 0 for one too small (1e-400) and, for one too
// large (1e400), a string of ConfigNumber's marker and its text, which the check refuses by its
// key. False where the text there is no number of JSON's grammar.
bool replaceUnheldNumber(QByteArray &json, qsizetype end)
{
    static const QRegularExpression grammar(u"^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?$"_s);
    end = std::clamp<qsizetype>(end, 0, json.size());
    qsizetype begin = end;
    while (begin > 0 && isNumberByte(json[begin - 1]))
        --begin;
    const QByteArray token = json.mid(begin, end - begin);
    if (token.isEmpty() || !grammar.match(QString::fromLatin1(token)).hasMatch())
        return false;
    double value = 0.0;
    const auto [last, error] = std::from_chars(token.constData(), token.constData() + token.size(), value);
    if (error != std::errc::result_out_of_range || last != token.constData() + token.size())
        return false;
    QByteArray replacement = token.startsWith('-') ? "-0" : "0";
    if (pastTheTop(token)) {
        const QByteArray text = QJsonDocument(QJsonArray {ConfigNumber::overflowMarker() + QString::fromLatin1(token)})
                                    .toJson(QJsonDocument::Compact);
        replacement = text.mid(1, text.size() - 2); // the string, quoted and escaped
    }
    json.replace(begin, end - begin, replacement);
    return true;
}

} // namespace

ReadResult<QJsonObject> parse(const QByteArray &bytes, const QString &path)
{
    const auto refuse = [&](const QString &reason) { return ReadError {path, reason}; };
    // Qt's parser takes a raw NUL inside a string, where JSON allows none.
    if (const qsizetype nul = bytes.indexOf('\0'); nul >= 0)
        return refuse(u"not JSON: a NUL byte at %1 (a config is text)"_s.arg(placeOf(bytes, nul)));
    // transformers reads a config as open(json_file, encoding="utf-8") then json.loads(text)
    // (configuration_utils.py, PreTrainedConfig._dict_from_json_file), and json.loads refuses the
    // byte-order mark that "utf-8" decoding keeps; Qt's parser would skip it, reading a config the
    // model's own loader cannot.
    if (bytes.startsWith("\xEF\xBB\xBF"))
        return refuse(u"not JSON as transformers reads it: the file begins with a UTF-8 byte-order mark, which "
                      "json.loads refuses (\"Unexpected UTF-8 BOM\"); save it as UTF-8 without one"_s);
    QJsonParseError error;
    QByteArray json = bytes;
    QJsonDocument document = QJsonDocument::fromJson(json, &error);
    // Each number a double cannot hold, as Python's json reads it (a config holds a few hundred
    // numbers at most: a file of them is refused after these many).
    for (int replaced = 0; error.error == QJsonParseError::IllegalNumber && replaced < 4096; ++replaced) {
        if (!replaceUnheldNumber(json, error.offset))
            break;
        document = QJsonDocument::fromJson(json, &error);
    }
    if (const auto scalar = error.error != QJsonParseError::NoError ? jsonTopLevelScalar(bytes) : std::nullopt)
        return refuse(u"not a model config: its top level is %1, not an object"_s.arg(*scalar));
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
    // A config the Python module holds in memory (a dict).
    if (const auto bytes = MemoryFiles::file(path)) {
        if (bytes->size() > kMaxBytes)
            return ReadError {
                path,
                u"%1 bytes is too large for a model config (at most %2 bytes)"_s.arg(bytes->size()).arg(kMaxBytes)};
        return parse(*bytes, path);
    }
    // A pipe or a device could block the read or never end it; "-", standard input, is read whole
    // into a regular file first (StandardInput).
    const auto where = StandardInput::file(path);
    if (!where)
        return where.error();
    const QFileInfo info(where.value());
    if (!info.exists())
        return ReadError {path, absentFileReason(path)};
    if (info.isDir())
        return ReadError {path, u"a directory, not a config file"_s};
    if (!info.isFile())
        return ReadError {path, notRegularFileReason(info)};
    QFile file(where.value());
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
