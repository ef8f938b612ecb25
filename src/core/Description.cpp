#include "Description.h"

#include "core/FamilySpec.h"
#include "core/NumberText.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <type_traits>

using namespace Qt::StringLiterals;

namespace posenc::Description {

namespace {

// A list's items joined by ',' in text (as the parameters' lists are written), in [] in JSON.
template<typename T> QString listText(const std::vector<T> &items, bool json)
{
    QStringList parts;
    for (const T &item : items) {
        if constexpr (std::is_same_v<T, double>)
            parts.append(json ? jsonNumber(item) : NumberText::exact(item));
        else
            parts.append(QString::number(item));
    }
    return json ? u"["_s + parts.join(u", "_s) + u"]"_s : parts.join(u',');
}

} // namespace

// The keys of the encoding's family, or none for a family without derived numbers.
std::optional<Entries> entries(const Params &params)
{
    const FamilySpec &family = Families::spec(params.encoding);
    if (!family.describe)
        return std::nullopt;
    return family.describe(params);
}

QStringList keys(Encoding encoding)
{
    Params params;
    params.encoding = encoding;
    QStringList list;
    for (const auto &entry : entries(params).value_or(Entries()))
        list.append(entry.first);
    return list;
}

QString jsonNumber(double value)
{
    return std::isfinite(value) ? NumberText::exact(value) : u"null"_s;
}

Value orNull(const std::optional<double> &value)
{
    return value ? Value(*value) : Value();
}

Value orNull(const std::optional<std::int64_t> &value)
{
    return value ? Value(*value) : Value();
}

Entries keyed(const QList<std::pair<QString, QString>> &meanings, Values values)
{
    QStringList keys;
    for (const auto &[names, meaning] : meanings)
        keys += names.split(u", "_s);
    if (std::size_t(keys.size()) != values.size())
        qFatal("describe has %zu values for the %lld keys %s", values.size(), qlonglong(keys.size()),
               qPrintable(keys.join(u", "_s)));
    Entries entries;
    for (std::size_t i = 0; i < values.size(); ++i)
        entries.emplace_back(keys[qsizetype(i)], std::move(values[i]));
    return entries;
}

QString jsonString(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray {text}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

// The value as text: JSON's where `json`, else the same without the quotes of a word.
QString text(const Value &value, bool json)
{
    if (std::holds_alternative<std::monostate>(value))
        return u"null"_s;
    if (const auto *word = std::get_if<QString>(&value))
        return json ? jsonString(*word) : *word;
    if (const auto *integer = std::get_if<std::int64_t>(&value))
        return QString::number(*integer);
    if (const auto *truth = std::get_if<bool>(&value))
        return *truth ? u"true"_s : u"false"_s;
    if (const auto *numbers = std::get_if<std::vector<double>>(&value))
        return listText(*numbers, json);
    if (const auto *integers = std::get_if<std::vector<std::int64_t>>(&value))
        return listText(*integers, json);
    const double number = std::get<double>(value);
    return json ? jsonNumber(number) : NumberText::exact(number);
}

} // namespace posenc::Description
