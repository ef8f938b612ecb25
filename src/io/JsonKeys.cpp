#include "io/JsonKeys.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace posenc {

namespace {

class KeyScanner
{
public:
    explicit KeyScanner(QByteArrayView json)
        : m_json(json)
    { }

    std::optional<QString> firstRepeated()
    {
        QSet<QString> seen;
        skipSpace();
        if (!take('{'))
            return std::nullopt;
        for (;;) {
            skipSpace();
            if (atEnd() || take('}'))
                return std::nullopt;
            take(',');
            skipSpace();
            if (peek() != '"')
                return std::nullopt;
            const QString key = decodeString();
            if (seen.contains(key))
                return key;
            seen.insert(key);
            skipSpace();
            take(':');
            skipValue();
        }
    }

private:
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

    // Moves past a string token starting at '"'; returns whether it held an escape.
    bool skipString()
    {
        bool escaped = false;
        ++m_pos;
        while (!atEnd() && peek() != '"') {
            if (peek() == '\\') {
                escaped = true;
                ++m_pos;
            }
            ++m_pos;
        }
        ++m_pos;
        return escaped;
    }

    QString decodeString()
    {
        const qsizetype start = m_pos;
        const bool escaped = skipString();
        const QByteArrayView token = m_json.sliced(start, std::min(m_pos, m_json.size()) - start);
        if (!escaped)
            return QString::fromUtf8(token.sliced(1, std::max<qsizetype>(token.size() - 2, 0)));
        // Escapes (\u00e9, \n, ...) are decoded by Qt's parser, so that "\u0061" equals "a".
        return QJsonDocument::fromJson('[' + token.toByteArray() + ']').array().at(0).toString();
    }

    void skipValue()
    {
        skipSpace();
        int depth = 0;
        while (!atEnd()) {
            const char c = peek();
            if (c == '"') {
                skipString();
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

std::optional<QString> firstRepeatedTopLevelKey(QByteArrayView json)
{
    return KeyScanner(json).firstRepeated();
}

} // namespace posenc
