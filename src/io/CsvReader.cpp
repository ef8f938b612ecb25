#include "io/CsvReader.h"

#include <QByteArray>

#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::CsvReader {

namespace {

constexpr qint64 kChunkBytes = qint64(1) << 20;

// The bytes of the source one at a time, read a chunk at a time into one reused buffer. Every
// line end reads as '\n': Windows' "\r\n" and the old Mac's lone '\r' alike.
class Bytes
{
public:
    explicit Bytes(ByteSource &source)
        : m_source(source)
        , m_buffer(int(std::min(kChunkBytes, std::max<qint64>(source.size(), 1))), Qt::Uninitialized)
    {
        // A UTF-8 byte-order mark (Excel's "CSV UTF-8", PowerShell's files) is no part of the first
        // cell. A failed read here fails again, with its reason, at the first byte.
        char head[3];
        if (source.size() >= 3 && source.read(0, 3, head) && QByteArrayView(head, 3) == "\xef\xbb\xbf")
            m_offset = 3;
    }
    // The next byte, -1 at the end, -2 when reading failed.
    int next()
    {
        if (m_pending != kNone) {
            const int c = m_pending;
            m_pending = kNone;
            return c;
        }
        const int c = raw();
        if (c != '\r')
            return c;
        const int after = raw();
        if (after != '\n')
            m_pending = after;
        return '\n';
    }

private:
    static constexpr int kNone = -3;

    int raw()
    {
        if (m_at == m_filled) {
            const qint64 n = std::min<qint64>(m_buffer.size(), m_source.size() - m_offset);
            if (n <= 0)
                return -1;
            if (!m_source.read(m_offset, n, m_buffer.data()))
                return -2;
            m_offset += n;
            m_filled = n;
            m_at = 0;
        }
        return static_cast<unsigned char>(m_buffer[m_at++]);
    }

    ByteSource &m_source;
    int m_pending = kNone;
    QByteArray m_buffer;
    qint64 m_offset = 0;
    qint64 m_filled = 0;
    qint64 m_at = 0;
};

// A cell's text as a message shows it: printable ASCII, other bytes as \xNN, at most 24 characters.
QString shown(const char *text, int length)
{
    QString out;
    for (int i = 0; i < length && out.size() < 24; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        out += c >= 0x20 && c < 0x7f ? QString(QChar(char16_t(c))) : u"\\x%1"_s.arg(int(c), 2, 16, QChar(u'0'));
    }
    return length > 24 ? out + u"..."_s : out;
}

struct Number
{
    float value = 0.0f;
    // Half a unit in its last digit is 0.5 * 10^roundingExponent; kExact for a short number.
    int roundingExponent = Table::kExact;
};

// A decimal number: [+-] digits [. digits] [e [+-] digits], and half a unit in its last digit;
// or the reason it is not one.
std::optional<Number> parseNumber(const char *text, int length, Infinities infinities, QString &why)
{
    int i = 0;
    if (i < length && (text[i] == '+' || text[i] == '-'))
        ++i;
    const int mantissa = i;
    int whole = 0, fraction = 0;
    while (i < length && text[i] >= '0' && text[i] <= '9') {
        ++i;
        ++whole;
    }
    if (i < length && text[i] == '.') {
        ++i;
        while (i < length && text[i] >= '0' && text[i] <= '9') {
            ++i;
            ++fraction;
        }
    }
    int exponent = 0;
    bool valid = whole + fraction > 0;
    if (valid && i < length && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        int sign = 1;
        if (i < length && (text[i] == '+' || text[i] == '-'))
            sign = text[i++] == '-' ? -1 : 1;
        int digits = 0;
        while (i < length && text[i] >= '0' && text[i] <= '9') {
            exponent = std::min(exponent * 10 + (text[i] - '0'), 100000);
            ++i;
            ++digits;
        }
        valid = digits > 0;
        exponent *= sign;
    }
    if (!valid || i != length) {
        QByteArray lower = QByteArray(text + mantissa, length - mantissa).toLower();
        const bool infinity = lower == "inf" || lower == "infinity";
        if (infinity && infinities == Infinities::Kept)
            return Number {text[0] == '-' ? -std::numeric_limits<float>::infinity()
                                          : std::numeric_limits<float>::infinity(),
                           Table::kExact};
        why = lower == "nan" || infinity ? u"is not a finite number"_s : u"is not a number"_s;
        return std::nullopt;
    }
    double value = 0.0;
    const char *begin = text[0] == '+' ? text + 1 : text;
    const auto [end, error] = std::from_chars(begin, text + length, value);
    if (error == std::errc::result_out_of_range && exponent < 0)
        value = 0.0; // below the smallest double: 0, as float32 holds it
    else if (error != std::errc() || end != text + length)
        value = std::numeric_limits<double>::infinity();
    if (!(std::fabs(value) <= double(std::numeric_limits<float>::max()))) {
        why = u"is past float32's range (3.4e38)"_s;
        return std::nullopt;
    }
    Number n;
    n.value = static_cast<float>(value);
    // Short numbers ("0", "1", "1.0", "2e-3") are taken as exact: "%g" and repr write exact values
    // so. A number of three significant digits or more shows the rounding of its last digit.
    int significant = 0;
    bool leading = true;
    for (int k = mantissa; k < length && text[k] != 'e' && text[k] != 'E'; ++k) {
        if (text[k] < '0' || text[k] > '9')
            continue;
        leading = leading && text[k] == '0';
        significant += leading ? 0 : 1;
    }
    // A last digit below 10^-127 rounds by nothing a float32 holds.
    if (significant >= 3 && exponent - fraction >= -127)
        n.roundingExponent = std::min(exponent - fraction, 127);
    return n;
}

// A column's name in a header line, as posenc table writes them ("pe_0", "pe_mean"): a letter or
// '_' first, then letters, digits, '_', '.' and '-'. No number is one ("inf" is read as a number).
bool isNameChar(int c, bool first)
{
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    return letter || (!first && ((c >= '0' && c <= '9') || c == '.' || c == '-'));
}

// A header's name: name characters, and not one of the words numpy and pandas write for a
// non-finite value (nan, inf, infinity in any case), which are a row's cells, refused as such.
bool isName(const char *text, int length)
{
    for (int k = 0; k < length; ++k) {
        if (!isNameChar(text[k], k == 0))
            return false;
    }
    const QByteArray word = QByteArray(text, length).toLower();
    return length > 0 && word != "nan" && word != "inf" && word != "infinity";
}

// One pass over the file: every cell handed to `cell(row, column, value, roundingExponent)`. The
// shape comes back in the out parameters.
using CellFunction = std::function<void(std::int64_t, std::int64_t, float, int)>;
std::optional<ReadError> parse(ByteSource &source, const CellFunction &cell, Infinities infinities, std::int64_t &rows,
                               std::int64_t &cols)
{
    const auto refuse = [&](std::int64_t line, const QString &reason) {
        return ReadError {source.name(), u"line %1: %2"_s.arg(line).arg(reason)};
    };
    Bytes bytes(source);
    enum class Separator { Unknown, Comma, Space };
    Separator separator = Separator::Unknown;
    rows = 0;
    cols = 0;
    std::int64_t line = 1;
    std::int64_t firstLine = 0;
    // A header line naming the columns (pandas' to_csv, posenc table): how many it names, and where.
    std::int64_t headerColumns = 0;
    std::int64_t headerLine = 0;
    char text[kMaxCellBytes];
    int c = bytes.next();
    for (;;) {
        // The start of a line: blank lines and '#' comments are skipped.
        while (c == ' ' || c == '\t' || c == '\r')
            c = bytes.next();
        if (c == -2)
            return ReadError {source.name(), u"cannot read the file: %1"_s.arg(source.errorString())};
        if (c == -1)
            break;
        if (c == '\n' || c == '#') {
            while (c == '#' || (c >= 0 && c != '\n'))
                c = bytes.next();
            if (c == '\n') {
                c = bytes.next();
                ++line;
            }
            continue;
        }
        // A row: cells, each followed by a separator or the end of the line.
        if (rows == 0)
            firstLine = line;
        std::int64_t column = 0;
        for (;;) {
            int length = 0;
            while (c >= 0 && c != ',' && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                if (length == kMaxCellBytes)
                    return refuse(line,
                                  u"column %1 is longer than %2 characters: '%3'"_s.arg(column + 1)
                                      .arg(kMaxCellBytes)
                                      .arg(shown(text, length)));
                text[length++] = char(c);
                c = bytes.next();
            }
            if (length == 0)
                return refuse(line, u"column %1 is empty"_s.arg(column + 1));
            QString why;
            const auto number = parseNumber(text, length, infinities, why);
            // Before any row, a line of names alone is the header: skipped, its names counted.
            if (!number && rows == 0 && column == 0 && headerLine == 0 && isName(text, length)) {
                headerLine = line;
                headerColumns = 1;
                bool inName = true;
                for (; c >= 0 && c != '\n'; c = bytes.next()) {
                    if (c == ',' || c == ' ' || c == '\t' || c == '\r') {
                        inName = false;
                    } else if (isNameChar(c, !inName)) {
                        headerColumns += inName ? 0 : 1;
                        inName = true;
                    } else {
                        return refuse(
                            line, u"a header line of column names, where '%1' is no name's character"_s.arg(QChar(c)));
                    }
                }
                break;
            }
            // A spreadsheet's semicolons beside decimal commas (a German locale's): the commas cut
            // its cells into fragments, and the separator it uses is named, not a fragment alone.
            if (!number && std::memchr(text, ';', std::size_t(length)))
                return refuse(line,
                              u"column %1: '%2' %3: this reader separates cells by commas or spaces and "
                              "reads '.' as the decimal point, where the file has ';' (a spreadsheet's "
                              "separator beside decimal commas)"_s.arg(column + 1)
                                  .arg(shown(text, length), why));
            if (!number)
                return refuse(line, u"column %1: '%2' %3"_s.arg(column + 1).arg(shown(text, length), why));
            if (column >= kMaxColumns)
                return refuse(line, u"more than %1 columns"_s.arg(kMaxColumns));
            if (rows > 0 && column >= cols)
                return refuse(line, u"more than the %1 columns of the first row (line %2)"_s.arg(cols).arg(firstLine));
            cell(rows, column, number->value, number->roundingExponent);
            ++column;
            while (c == ' ' || c == '\t' || c == '\r')
                c = bytes.next();
            if (c == -2)
                return ReadError {source.name(), u"cannot read the file: %1"_s.arg(source.errorString())};
            if (c == ',') {
                if (separator == Separator::Space)
                    return refuse(line,
                                  u"a comma after column %1, where the first row (line %2) separates its cells "
                                  "by spaces"_s.arg(column)
                                      .arg(firstLine));
                if (rows == 0)
                    separator = Separator::Comma;
                c = bytes.next();
                while (c == ' ' || c == '\t' || c == '\r')
                    c = bytes.next();
                if (c == '\n' || c < 0)
                    return refuse(line, u"column %1 is empty"_s.arg(column + 1));
                continue;
            }
            if (c == '\n' || c < 0)
                break;
            // Another cell after spaces.
            if (separator == Separator::Comma)
                return refuse(line,
                              u"column %1 ends with spaces and no comma, where the first row (line %2) "
                              "separates its cells by commas"_s.arg(column)
                                  .arg(firstLine));
            if (rows == 0)
                separator = Separator::Space;
        }
        if (headerLine == line) {
            // The header's line ends here; the rows follow.
        } else if (rows == 0) {
            cols = column;
            if (headerLine > 0 && headerColumns != cols)
                return refuse(
                    line,
                    u"%1 columns where the header (line %2) names %3"_s.arg(cols).arg(headerLine).arg(headerColumns));
        } else if (column != cols) {
            return refuse(line,
                          u"%1 columns where the first row (line %2) has %3: the rows are ragged"_s.arg(column)
                              .arg(firstLine)
                              .arg(cols));
        }
        if (headerLine != line)
            ++rows;
        if (c == '\n') {
            c = bytes.next();
            ++line;
        }
    }
    return std::nullopt;
}

} // namespace

ReadResult<Table> read(ByteSource &source, std::int64_t maxCells, Infinities infinities)
{
    std::int64_t rows = 0, cols = 0;
    // First pass: the shape, every cell checked, nothing kept but how many cells show each rounding.
    std::int64_t cells = 0;
    bool over = false;
    std::map<int, std::int64_t> roundings;
    const auto count = [&](std::int64_t, std::int64_t, float, int exponent) {
        ++cells;
        over = over || cells > maxCells;
        if (exponent != Table::kExact)
            ++roundings[exponent];
    };
    if (auto error = parse(source, count, infinities, rows, cols))
        return *error;
    // A table of no rows is no table: said as what the file holds, not as a shape of (0, 0).
    if (rows == 0)
        return ReadError {source.name(),
                          source.size() == 0
                              ? u"the file is empty"_s
                              : u"the file holds no row of numbers: only a header line, blank lines or '#' "
                                "comments"_s};
    if (over)
        return ReadError {source.name(),
                          u"the file holds %1 cells (%2 rows of %3), more than the %4 the memory budget holds as "
                          "float32"_s.arg(cells)
                              .arg(rows)
                              .arg(cols)
                              .arg(maxCells),
                          ReadError::Kind::OverBudget};
    // The rounding most cells show is the table's; a cell written with fewer digits keeps its own.
    Table table;
    int common = Table::kExact;
    std::int64_t commonCells = 0;
    for (const auto &[exponent, n] : roundings) {
        if (n > commonCells) {
            common = exponent;
            commonCells = n;
        }
    }
    table.textRounding = common == Table::kExact ? 0.0 : Table::rounding(common);
    const bool coarser = !roundings.empty() && roundings.rbegin()->first > common;
    table.values.resize(rows, cols);
    if (coarser)
        table.cellRounding.assign(std::size_t(rows * cols), std::int8_t(Table::kExact));
    std::int64_t rows2 = 0, cols2 = 0;
    bool changed = false;
    const auto store = [&](std::int64_t r, std::int64_t c, float v, int exponent) {
        if (r >= rows || c >= cols) {
            changed = true;
            return;
        }
        table.values(r, c) = v;
        if (coarser && exponent != Table::kExact && exponent > common)
            table.cellRounding[std::size_t(r * cols + c)] = std::int8_t(exponent);
    };
    if (auto error = parse(source, store, infinities, rows2, cols2))
        return *error;
    if (changed || rows2 != rows || cols2 != cols)
        return ReadError {source.name(), u"the file changed while it was being read"_s};
    return table;
}

} // namespace posenc::CsvReader
