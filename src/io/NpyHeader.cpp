#include "io/NpyHeader.h"

#include "io/TensorInfo.h"

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A recursive-descent reader of exactly the literal forms numpy writes.
class DictParser
{
public:
    DictParser(QByteArrayView text, NpyTextEncoding encoding)
        : m_text(text)
        , m_encoding(encoding)
    { }

    std::optional<QString> parse(NpyHeader &header)
    {
        skipSpace();
        if (!take('{'))
            return u"the header is not a Python dict: it starts with byte 0x%1, not '{'"_s.arg(quint8(peek()), 2, 16,
                                                                                               QChar(u'0'));
        bool seenDescr = false, seenOrder = false, seenShape = false;
        for (;;) {
            skipSpace();
            if (take('}'))
                break;
            QString key;
            if (const auto error = parseString(key, u"a quoted key"_s))
                return error;
            skipSpace();
            if (!take(':'))
                return u"expected ':' after the key '%1' at byte %2 of the header"_s.arg(key).arg(m_pos);
            skipSpace();
            bool *seen = nullptr;
            std::optional<QString> error;
            if (key == u"descr"_s) {
                seen = &seenDescr;
                error = parseDescr(header.descr);
            } else if (key == u"fortran_order"_s) {
                seen = &seenOrder;
                error = parseBool(header.fortranOrder);
            } else if (key == u"shape"_s) {
                seen = &seenShape;
                error = parseShape(header.shape);
            } else {
                return u"the header has an unknown key '%1' (a .npy header has descr, fortran_order and shape)"_s.arg(
                    key);
            }
            if (*seen)
                return u"the header repeats the key '%1'"_s.arg(key);
            *seen = true;
            if (error)
                return error;
            skipSpace();
            if (take(','))
                continue;
            if (take('}'))
                break;
            return u"expected ',' or '}' at byte %1 of the header"_s.arg(m_pos);
        }
        for (const auto &[seen, key] :
             {std::pair {seenDescr, "descr"}, std::pair {seenOrder, "fortran_order"}, std::pair {seenShape, "shape"}}) {
            if (!seen)
                return u"the header has no '%1' key"_s.arg(QLatin1StringView(key));
        }
        const qsizetype dictEnd = m_pos;
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t'))
            ++m_pos;
        if (m_pos + 1 != m_text.size() || m_text[m_pos] != '\n') {
            if (m_pos == m_text.size())
                return u"the header does not end with a newline"_s;
            // The first byte that is neither padding nor the final newline, e.g. the '\r' of "\r\n".
            const qsizetype bad = m_text[m_pos] == '\n' ? m_pos + 1 : m_pos;
            return u"the header has byte 0x%1 at byte %2, after the dict that ends at byte %3; only spaces and a "
                   "final newline may follow it"_s.arg(quint8(m_text[bad]), 2, 16, QChar(u'0'))
                       .arg(bad)
                       .arg(dictEnd);
        }
        return std::nullopt;
    }

private:
    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }
    bool take(char c)
    {
        if (peek() != c || atEnd())
            return false;
        ++m_pos;
        return true;
    }
    void skipSpace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            ++m_pos;
    }

    std::optional<QString> parseString(QString &out, const QString &what)
    {
        const char quote = peek();
        if (quote != '\'' && quote != '"')
            return u"expected %1 at byte %2 of the header"_s.arg(what).arg(m_pos);
        const qsizetype start = ++m_pos;
        while (!atEnd() && peek() != quote) {
            if (peek() == '\\' || peek() == '\n')
                return u"the header has an escape or a line break inside a string, at byte %1"_s.arg(m_pos);
            ++m_pos;
        }
        if (atEnd())
            return u"the header has a string that is never closed, from byte %1"_s.arg(start - 1);
        const QByteArrayView bytes = m_text.sliced(start, m_pos - start);
        out = m_encoding == NpyTextEncoding::Latin1 ? QString::fromLatin1(bytes) : QString::fromUtf8(bytes);
        ++m_pos;
        return std::nullopt;
    }

    std::optional<QString> parseDescr(QString &descr)
    {
        if (peek() == '[')
            return u"structured dtypes (a list of fields in 'descr') are not supported"_s;
        if (peek() != '\'' && peek() != '"')
            return u"'descr' must be a string such as '<f4'"_s;
        return parseString(descr, u"a string"_s);
    }

    std::optional<QString> parseBool(bool &value)
    {
        if (m_text.sliced(m_pos).startsWith("True")) {
            value = true;
            m_pos += 4;
        } else if (m_text.sliced(m_pos).startsWith("False")) {
            value = false;
            m_pos += 5;
        } else {
            return u"'fortran_order' must be True or False"_s;
        }
        return std::nullopt;
    }

    std::optional<QString> parseShape(std::vector<std::int64_t> &shape)
    {
        const QString notTuple
            = u"'shape' must be a tuple of integers such as (3, 4); byte %1 of the header is not"_s.arg(m_pos);
        if (!take('('))
            return notTuple;
        skipSpace();
        if (take(')'))
            return std::nullopt;
        for (;;) {
            std::int64_t value = 0;
            if (const auto error = parseDimension(value))
                return error;
            if (shape.size() == std::size_t(kMaxRank))
                return u"the shape has more than %1 dimensions (numpy's limit)"_s.arg(kMaxRank);
            shape.push_back(value);
            skipSpace();
            if (take(',')) {
                skipSpace();
                if (take(')'))
                    return std::nullopt;
                continue;
            }
            if (take(')')) {
                // In Python "(5)" is the integer 5, not a tuple: a 1-tuple needs its comma.
                if (shape.size() == 1)
                    return u"'shape' (%1) is an integer in Python, not a tuple: a 1-tuple is written (%1,)"_s.arg(
                        shape.front());
                return std::nullopt;
            }
            return u"'shape' must be a tuple of integers such as (3, 4); byte %1 of the header is not"_s.arg(m_pos);
        }
    }

    std::optional<QString> parseDimension(std::int64_t &value)
    {
        const bool negative = take('-');
        const qsizetype start = m_pos;
        bool overflow = false;
        while (!atEnd() && peek() >= '0' && peek() <= '9') {
            const int digit = peek() - '0';
            if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
                overflow = true;
            else
                value = value * 10 + digit;
            ++m_pos;
        }
        if (m_pos == start)
            return u"'shape' must be a tuple of integers such as (3, 4); byte %1 of the header is not"_s.arg(m_pos);
        const QString digits = QString::fromLatin1(m_text.sliced(start, std::min<qsizetype>(m_pos - start, 40)));
        take('L'); // Python 2 wrote long integers as 3L
        if (negative && value == 0 && !overflow)
            return u"the shape has a dimension written -%1: a dimension has no sign, and numpy refuses it"_s.arg(
                digits);
        if (negative)
            return u"the shape has a negative dimension -%1"_s.arg(digits);
        if (overflow)
            return u"the shape has a dimension too large for a 64-bit size: %1"_s.arg(digits);
        return std::nullopt;
    }

    QByteArrayView m_text;
    NpyTextEncoding m_encoding;
    qsizetype m_pos = 0;
};

} // namespace

std::optional<QString> parseNpyHeader(QByteArrayView text, NpyTextEncoding encoding, NpyHeader &header)
{
    header = NpyHeader {};
    return DictParser(text, encoding).parse(header);
}

std::optional<ElementType> npyElementType(const QString &descr, QString &why)
{
    const auto unsupported = [&] {
        why = u"unsupported dtype '%1' (.npy matrices load from f2, f4, f8, c8, c16, i1..i8, u1..u8 and b1)"_s.arg(descr);
        return std::nullopt;
    };
    if (descr.size() >= 2 && descr[1] == u'O') {
        why = u"object arrays (dtype '%1') hold pickled Python objects and are refused"_s.arg(descr);
        return std::nullopt;
    }
    if (descr.size() < 3 || !QStringView(u"<>|=").contains(descr[0]))
        return unsupported();
    bool ok = false;
    const int bytes = descr.mid(2).toInt(&ok);
    if (!ok || descr.mid(2) != QString::number(bytes))
        return unsupported();
    ElementType type;
    type.bytes = bytes;
    type.bigEndian = descr[0] == u'>';
    switch (descr[1].unicode()) {
    case u'f':
        if (bytes != 2 && bytes != 4 && bytes != 8)
            return unsupported();
        type.kind = ElementType::Kind::Float;
        break;
    case u'i':
    case u'u':
        if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
            return unsupported();
        type.kind = descr[1] == u'i' ? ElementType::Kind::Signed : ElementType::Kind::Unsigned;
        break;
    case u'b':
        if (bytes != 1)
            return unsupported();
        type.kind = ElementType::Kind::Bool;
        break;
    default:
        return unsupported();
    }
    if (descr[0] == u'|' && bytes != 1) {
        why = u"dtype '%1' has no byte order, which only 1-byte types may omit"_s.arg(descr);
        return std::nullopt;
    }
    return type;
}

} // namespace posenc
