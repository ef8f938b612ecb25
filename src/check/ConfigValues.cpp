#include "ConfigValues.h"

#include "check/ConfigNumber.h"
#include "core/NumberText.h"

#include <QJsonDocument>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// " in [lo, hi]", " >= lo", or nothing for any number.
QString rangeText(double lo, double hi)
{
    if (std::isinf(lo) && std::isinf(hi))
        return QString();
    if (std::isinf(hi))
        return u" >= %1"_s.arg(NumberText::exact(lo));
    return u" in [%1, %2]"_s.arg(NumberText::exact(lo), NumberText::exact(hi));
}

} // namespace

QString ConfigProblem::toString() const
{
    return u"%1: must be %2; got %3"_s.arg(key, allowed, got);
}

ConfigObject::ConfigObject(QJsonObject object, QString path, QList<ConfigProblem> *problems)
    : m_object(std::move(object))
    , m_path(std::move(path))
    , m_problems(problems)
{ }

QString ConfigObject::pathOf(const QString &key) const
{
    return m_path.isEmpty() ? key : m_path + u'.' + key;
}

bool ConfigObject::has(const QString &key) const
{
    const QJsonValue v = m_object.value(key);
    return !v.isUndefined() && !v.isNull();
}

void ConfigObject::problem(const QString &key, const QString &allowed, const QString &got) const
{
    // A key read once a layer (max_window_layers) is refused once, not once a layer.
    const ConfigProblem refused {pathOf(key), allowed, got};
    if (m_problems && !m_problems->contains(refused))
        m_problems->append(refused);
}

namespace {

// A string as JSON escapes it ("a\nb"), quoted; a lone surrogate, which Qt would write as U+FFFD, as
// the \uXXXX escape a file holds it in.
QString jsonString(const QString &s)
{
    const auto escaped = [](const QString &part) {
        const QString t = QString::fromUtf8(QJsonDocument(QJsonArray {part}).toJson(QJsonDocument::Compact));
        return t.mid(2, t.size() - 4); // inside ["..."]
    };
    QString text = u"\""_s, run;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        const bool paired = c.isHighSurrogate() ? i + 1 < s.size() && s[i + 1].isLowSurrogate()
                                                : !c.isLowSurrogate() || (i > 0 && s[i - 1].isHighSurrogate());
        if (paired) {
            run += c;
            continue;
        }
        text += escaped(run) + u"\\u%1"_s.arg(uint(c.unicode()), 4, 16, QChar(u'0'));
        run.clear();
    }
    return text + escaped(run) + u'"';
}

} // namespace

QString ConfigObject::jsonText(const QJsonValue &value)
{
    QString text;
    switch (value.type()) {
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Bool:
        return value.toBool() ? u"true"_s : u"false"_s;
    case QJsonValue::Double: {
        // As the file writes a whole number: 1000000, not 1e+06.
        const double d = value.toDouble();
        if (std::abs(d) < 1e15 && d == std::floor(d))
            return QString::number(static_cast<qint64>(d));
        // Past 2^53 whole numbers are a double's steps apart, and the file's digits are not kept: the
        // double read, and how far the file's number may be from it (half a step).
        if (std::isfinite(d) && std::abs(d) >= 0x1p53)
            return u"%1 (past 2^53, read as the nearest double: the file's number may differ from it by up to %2)"_s
                .arg(NumberText::exact(d),
                     NumberText::exact((std::nextafter(std::abs(d), HUGE_VAL) - std::abs(d)) / 2.0));
        return NumberText::exact(d);
    }
    case QJsonValue::String:
        if (const QString number = ConfigNumber::overflowed(value.toString()); !number.isEmpty())
            return u"%1 (past a double's range: Python's json reads it as infinite)"_s.arg(number.left(40));
        text = jsonString(value.toString());
        break;
    case QJsonValue::Array:
        text = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
        break;
    case QJsonValue::Object:
        text = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
        break;
    case QJsonValue::Undefined:
        return u"nothing"_s;
    }
    // A message is one line of reasonable length whatever the file holds.
    text.replace(u'\n', u' ');
    return text.size() > 60 ? text.left(57) + u"..."_s : text;
}

std::optional<double> ConfigObject::number(const QString &key, double lo, double hi) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    const QString allowed = u"a number"_s + rangeText(lo, hi);
    if (!v.isDouble()) {
        problem(key, allowed, jsonText(v));
        return std::nullopt;
    }
    const double d = v.toDouble();
    if (!(std::isfinite(d) && d >= lo && d <= hi)) {
        problem(key, allowed, jsonText(v));
        return std::nullopt;
    }
    return d;
}

std::optional<std::int64_t> ConfigObject::integer(const QString &key, std::int64_t lo, std::int64_t hi) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    const QString allowed = u"a whole number in [%1, %2]"_s.arg(lo).arg(hi);
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || !(d >= double(lo) && d <= double(hi)) || d != std::floor(d)) {
        problem(key, allowed, jsonText(v));
        return std::nullopt;
    }
    return static_cast<std::int64_t>(d);
}

std::optional<bool> ConfigObject::boolean(const QString &key) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    if (!v.isBool()) {
        problem(key, u"true or false"_s, jsonText(v));
        return std::nullopt;
    }
    return v.toBool();
}

namespace {

// The words a config names things with (model_type, rope_type, a layer type) are short, one line.
constexpr qsizetype kMaxWord = 256;

// A lone surrogate (JSON's \ud800 unpaired) is no character: Python's json keeps it in the str, and no
// name transformers looks a word up by holds one (AutoConfig.from_pretrained's CONFIG_MAPPING, a
// rope_type's function), so the word names nothing.
bool isWordText(const QString &text)
{
    return text.size() <= kMaxWord && QStringView(text).isValidUtf16()
        && std::none_of(text.cbegin(), text.cend(), [](QChar c) { return c.unicode() < 0x20; });
}

bool isWord(const QJsonValue &v)
{
    return v.isString() && isWordText(v.toString());
}

QString wordText()
{
    return u"a string of at most %1 characters, without control characters or lone surrogates"_s.arg(kMaxWord);
}

} // namespace

std::optional<QString> ConfigObject::string(const QString &key) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    if (!isWord(v)) {
        problem(key, wordText(), jsonText(v));
        return std::nullopt;
    }
    return v.toString();
}

std::optional<ConfigObject> ConfigObject::object(const QString &key) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    if (!v.isObject()) {
        problem(key, u"an object or null"_s, jsonText(v));
        return std::nullopt;
    }
    return ConfigObject(v.toObject(), pathOf(key), m_problems);
}

std::optional<std::vector<double>> ConfigObject::numbers(const QString &key, double lo, double hi,
                                                         qsizetype maxCount) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    const QString allowed = u"a list of at most %1 numbers%2"_s.arg(maxCount).arg(rangeText(lo, hi));
    if (!v.isArray() || v.toArray().size() > maxCount) {
        problem(key, allowed, v.isArray() ? u"%1 values"_s.arg(v.toArray().size()) : jsonText(v));
        return std::nullopt;
    }
    std::vector<double> list;
    for (const QJsonValue &item : v.toArray()) {
        const double d = item.toDouble(std::nan(""));
        if (!item.isDouble() || !(std::isfinite(d) && d >= lo && d <= hi)) {
            problem(key, allowed, u"%1 at index %2"_s.arg(jsonText(item)).arg(list.size()));
            return std::nullopt;
        }
        list.push_back(d);
    }
    return list;
}

std::optional<std::vector<std::int64_t>> ConfigObject::integers(const QString &key, std::int64_t lo, std::int64_t hi,
                                                                qsizetype maxCount) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    const QString allowed = u"a list of at most %1 whole numbers in [%2, %3]"_s.arg(maxCount).arg(lo).arg(hi);
    if (!v.isArray() || v.toArray().size() > maxCount) {
        problem(key, allowed, v.isArray() ? u"%1 values"_s.arg(v.toArray().size()) : jsonText(v));
        return std::nullopt;
    }
    std::vector<std::int64_t> list;
    for (const QJsonValue &item : v.toArray()) {
        const double d = item.toDouble(std::nan(""));
        if (!item.isDouble() || !(d >= double(lo) && d <= double(hi)) || d != std::floor(d)) {
            problem(key, allowed, u"%1 at index %2"_s.arg(jsonText(item)).arg(list.size()));
            return std::nullopt;
        }
        list.push_back(static_cast<std::int64_t>(d));
    }
    return list;
}

std::optional<QStringList> ConfigObject::strings(const QString &key, qsizetype maxCount) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    // Worded only for a problem: a layer list is read on every check of its config.
    const auto allowed = [&] {
        return u"a list of at most %1 strings of at most %2 characters, without control characters or lone "
               "surrogates"_s.arg(maxCount)
                   .arg(kMaxWord);
    };
    const QJsonArray array = v.toArray();
    if (!v.isArray() || array.size() > maxCount) {
        problem(key, allowed(), v.isArray() ? u"%1 values"_s.arg(array.size()) : jsonText(v));
        return std::nullopt;
    }
    QStringList list;
    list.reserve(array.size());
    for (const QJsonValue &item : array) {
        QString text = item.toString();
        if (!item.isString() || !isWordText(text)) {
            problem(key, allowed(), u"%1 at index %2"_s.arg(jsonText(item)).arg(list.size()));
            return std::nullopt;
        }
        list.append(std::move(text));
    }
    return list;
}

} // namespace posenc
