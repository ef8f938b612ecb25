#include "io/JsonKeys.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <optional>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using Verdict = HeaderScan::Verdict;

const QString kMetadataKey = u"__metadata__"_s;

// A token-level walk that never builds a value: memory is one set of keys per object scanned.
class HeaderScanner
{
public:
    explicit HeaderScanner(QByteArrayView json)
        : m_json(json)
    { }

    HeaderScan scan()
    {
        if (!take('{'))
            return lost();
        QSet<QString> names;
        for (;;) {
            skipSpace();
            if (take('}'))
                return {};
            if (peek() != '"')
                return lost();
            const auto name = decodeString();
            if (!name)
                return lost();
            if (names.contains(*name))
                return refuse(u"the name '%1' appears more than once in the header"_s.arg(*name));
            names.insert(*name);
            if (!takeColon())
                return lost();
            if (peek() == '{') {
                const QString prefix = *name == kMetadataKey ? u"'__metadata__'"_s : u"tensor '%1'"_s.arg(*name);
                const HeaderScan entry = scanObject(prefix, *name != kMetadataKey);
                if (entry.verdict != Verdict::Clean)
                    return entry;
            } else {
                skipValue();
            }
            skipSpace();
            if (take(','))
                continue;
            if (take('}'))
                return {};
            return lost();
        }
    }

private:
    static HeaderScan refuse(const QString &reason) { return {Verdict::Refused, reason}; }
    static HeaderScan lost() { return {Verdict::Unverifiable, {}}; }

    bool atEnd() const { return m_pos >= m_json.size(); }
    char peek() const { return atEnd() ? '\0' : m_json[m_pos]; }
    bool take(char c)
    {
        if (atEnd() || peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    void skipSpace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            ++m_pos;
    }
    bool takeColon()
    {
        skipSpace();
        const bool colon = take(':');
        skipSpace();
        return colon;
    }

    // Moves past a string token starting at '"'; false when it is never closed.
    bool skipString(bool &escaped)
    {
        ++m_pos;
        while (!atEnd() && peek() != '"') {
            if (peek() == '\\') {
                escaped = true;
                ++m_pos;
            }
            ++m_pos;
        }
        return take('"');
    }

    std::optional<QString> decodeString()
    {
        const qsizetype start = m_pos;
        bool escaped = false;
        if (!skipString(escaped))
            return std::nullopt;
        const QByteArrayView token = m_json.sliced(start, m_pos - start);
        if (!escaped)
            return QString::fromUtf8(token.sliced(1, token.size() - 2));
        // Escapes (\u00e9, \n, ...) are decoded by Qt's parser, so that "\u0061" equals "a".
        const QJsonDocument document = QJsonDocument::fromJson('[' + token.toByteArray() + ']');
        if (!document.isArray() || !document.array().at(0).isString())
            return std::nullopt;
        return document.array().at(0).toString();
    }

    // The keys of the object at '{', one level deep; in a tensor entry also the integers of
    // 'shape' and 'data_offsets'.
    HeaderScan scanObject(const QString &prefix, bool isTensor)
    {
        take('{');
        QSet<QString> keys;
        for (;;) {
            skipSpace();
            if (take('}'))
                return {};
            if (peek() != '"')
                return lost();
            const auto key = decodeString();
            if (!key)
                return lost();
            if (keys.contains(*key))
                return refuse(u"%1 repeats the key '%2'"_s.arg(prefix, *key));
            keys.insert(*key);
            if (!takeColon())
                return lost();
            const bool isShape = *key == u"shape"_s;
            if (isTensor && (isShape || *key == u"data_offsets"_s) && peek() == '[') {
                const HeaderScan integers
                    = scanIntegers(prefix, isShape ? u"shape dimension"_s : u"data offset"_s, isShape);
                if (integers.verdict != Verdict::Clean)
                    return integers;
            } else {
                skipValue();
            }
            skipSpace();
            if (take(','))
                continue;
            if (take('}'))
                return {};
            return lost();
        }
    }

    // The numbers of the array at '[' must be written as integers; a shape has at most kMaxRank.
    HeaderScan scanIntegers(const QString &prefix, const QString &what, bool isShape)
    {
        take('[');
        int count = 0;
        for (;;) {
            skipSpace();
            if (take(']'))
                return {};
            const char c = peek();
            if (c == '-' || (c >= '0' && c <= '9')) {
                const qsizetype start = m_pos;
                while (!atEnd() && QByteArrayView("+-.0123456789eE").contains(peek()))
                    ++m_pos;
                const QByteArrayView number = m_json.sliced(start, m_pos - start);
                if (number.contains('.') || number.contains('e') || number.contains('E'))
                    return refuse(u"%1: %2 %3 is not written as an integer"_s.arg(
                        prefix, what, QString::fromLatin1(number.first(std::min<qsizetype>(number.size(), 40)))));
            } else {
                skipValue(); // a string or an object: the entry's own check names it
            }
            if (isShape && ++count > kMaxRank)
                return refuse(u"%1: 'shape' has more than %2 dimensions"_s.arg(prefix).arg(kMaxRank));
            skipSpace();
            if (take(','))
                continue;
            if (take(']'))
                return {};
            return lost();
        }
    }

    // Moves past one value of any kind, nested to any depth, without recursion.
    void skipValue()
    {
        skipSpace();
        int depth = 0;
        while (!atEnd()) {
            const char c = peek();
            if (c == '"') {
                bool escaped = false;
                skipString(escaped);
                if (depth == 0)
                    return;
                continue;
            }
            if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (depth == 0)
                    return;
                --depth;
                if (depth == 0) {
                    ++m_pos;
                    return;
                }
            } else if (c == ',' && depth == 0) {
                return;
            }
            ++m_pos;
        }
    }

    QByteArrayView m_json;
    qsizetype m_pos = 0;
};

} // namespace

HeaderScan scanSafetensorsHeader(QByteArrayView json)
{
    return HeaderScanner(json).scan();
}

} // namespace posenc
