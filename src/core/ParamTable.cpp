#include "ParamTable.h"

#include "FamilySpec.h"
#include "NumberText.h"
#include "SharedParamRows.h"
#include "TrContext.h"
#include "positions/BatchParamRows.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

std::optional<std::int64_t> parseInt(const QString &text)
{
    bool ok = false;
    const qlonglong v = text.trimmed().toLongLong(&ok);
    return ok ? std::optional<std::int64_t>(v) : std::nullopt;
}

// Any double, NaN and infinities included: the row's check reports those with the range.
std::optional<double> parseDouble(const QString &text)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

QString indexList(const std::vector<std::int64_t> &values)
{
    if (values.empty())
        return u"none"_s;
    QStringList parts;
    for (const std::int64_t v : values)
        parts.append(QString::number(v));
    return parts.join(u',');
}

// Each number as the shortest text that reads back as the same double.
QString numberListText(const std::vector<double> &values)
{
    if (values.empty())
        return u"none"_s;
    QStringList parts;
    for (const double v : values)
        parts.append(NumberText::exact(v));
    return parts.join(u',');
}

constexpr TrContext tr {"ParamTable"};

} // namespace

// --- ParamSpec --------------------------------------------------------------------------------

QString ParamSpec::text(const ParamValue &v) const
{
    return std::visit(
        [this](const auto &x) -> QString {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return kind == ParamKind::Matrix ? QString() : unsetText;
            else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>)
                return QString::number(x);
            else if constexpr (std::is_same_v<T, double>)
                return QString::number(x, 'g', 17);
            else if constexpr (std::is_same_v<T, bool>)
                return x ? u"true"_s : u"false"_s;
            else if constexpr (std::is_same_v<T, QString>)
                return x;
            else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>)
                return indexList(x);
            else if constexpr (std::is_same_v<T, std::vector<double>>)
                return numberListText(x);
            else
                return x.source;
        },
        v);
}

QString ParamSpec::text(const Params &params) const
{
    return text(value(params));
}

QString ParamSpec::helpLine() const
{
    if (!helpShowsDefault)
        return help;
    const ParamValue fallback = value(Params {});
    const auto *d = std::get_if<double>(&fallback);
    return u"%1 (default %2)"_s.arg(help, d ? NumberText::exact(*d) : text(fallback));
}

QString ParamSpec::flag() const
{
    if (kind == ParamKind::Switch)
        return u"--"_s + key;
    return u"--%1 %2"_s.arg(isFlag ? key : parentKey, valueName);
}

// --- Row builders ------------------------------------------------------------------------------

namespace ParamRows {

QString wrapHelp(const QString &text)
{
    QStringList lines;
    QString line;
    for (const QString &word : text.split(u' ')) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > kHelpWidth) {
            lines.append(line);
            line.clear();
        }
        line += (line.isEmpty() ? QString() : u" "_s) + word;
    }
    lines.append(line);
    return lines.join(u"\n      "_s);
}

QString integerRange(std::int64_t lo, std::int64_t hi, const QString &note)
{
    return u"an integer in [%1, %2]%3"_s.arg(lo).arg(hi).arg(note);
}

ParamSpec integer(QString key, ParamGroup group, std::function<std::int64_t &(Params &)> field,
                  std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds, QString note)
{
    return integer(std::move(key), group, std::move(field), std::move(bounds),
                   [note](const Params &) { return note; });
}

ParamSpec integer(QString key, ParamGroup group, std::function<std::int64_t &(Params &)> field,
                  std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds,
                  std::function<QString(const Params &)> note)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::Integer;
    s.valueName = u"N"_s;
    s.value = [field](const Params &p) { return ParamValue(field(const_cast<Params &>(p))); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *i = std::get_if<std::int64_t>(&v))
            field(p) = *i;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (const auto v = parseInt(t))
            return ParamValue(*v);
        return std::nullopt;
    };
    s.bounds = bounds;
    s.allowed = [bounds, note](const Params &p) {
        const auto [lo, hi] = bounds(p);
        return integerRange(lo, hi, note(p));
    };
    s.check = [field, bounds, note, key = s.key](const Params &p) -> std::optional<ParamError> {
        const auto [lo, hi] = bounds(p);
        const std::int64_t v = field(const_cast<Params &>(p));
        if (v >= lo && v <= hi)
            return std::nullopt;
        return ParamError {key, integerRange(lo, hi, note(p)), QString(), QString::number(v)};
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec evenInteger(QString key, ParamGroup group, std::function<std::int64_t &(Params &)> field,
                      std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds,
                      std::function<bool(const Params &)> even, QString evenNote, QString note, QString whyEven)
{
    ParamSpec s = integer(std::move(key), group, field, bounds);
    const auto allowed = [bounds, even, evenNote, note](const Params &p) {
        const auto [lo, hi] = bounds(p);
        return even(p) ? u"an even integer in [%1, %2]%3"_s.arg(lo).arg(hi).arg(evenNote) : integerRange(lo, hi, note);
    };
    s.allowed = allowed;
    s.check = [field, bounds, even, allowed, whyEven, key = s.key](const Params &p) -> std::optional<ParamError> {
        const auto [lo, hi] = bounds(p);
        const std::int64_t n = field(const_cast<Params &>(p));
        if (n < lo || n > hi)
            return ParamError {key, allowed(p), QString(), QString::number(n)};
        if (even(p) && n % 2 != 0)
            return ParamError {key, allowed(p), whyEven, QString::number(n)};
        return std::nullopt;
    };
    return s;
}

ParamSpec choiceOf(QString key, ParamGroup group, std::function<int(const Params &)> get,
                   std::function<void(Params &, int)> set, QStringList words)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::Choice;
    s.valueName = words.join(u'|');
    s.choices = words;
    s.value = [get, words](const Params &p) { return ParamValue(words.value(get(p))); };
    s.assign = [set, words](Params &p, const ParamValue &v) {
        if (const auto *w = std::get_if<QString>(&v); w && words.contains(*w))
            set(p, static_cast<int>(words.indexOf(*w)));
    };
    s.parse = [words](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed();
        if (words.contains(w))
            return ParamValue(w);
        return std::nullopt;
    };
    s.allowed = [words](const Params &) { return u"one of %1"_s.arg(words.join(u", "_s)); };
    s.check = [](const Params &) { return std::nullopt; };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec optionalNumber(QString key, ParamGroup group, std::function<std::optional<double> &(Params &)> field)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::OptionalNumber;
    s.valueName = u"F|unset"_s;
    s.unsetText = u"unset"_s;
    s.value = [field](const Params &p) {
        const auto &v = field(const_cast<Params &>(p));
        return v ? ParamValue(*v) : ParamValue(std::monostate {});
    };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (std::holds_alternative<std::monostate>(v))
            field(p).reset();
        else if (const auto *d = std::get_if<double>(&v))
            field(p) = *d;
    };
    // Any double, NaN and infinities included: the row's check reports those with the range.
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed();
        if (w.isEmpty() || w == u"unset"_s)
            return ParamValue(std::monostate {});
        if (const auto v = parseDouble(w))
            return ParamValue(*v);
        return std::nullopt;
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec numberList(QString key, ParamGroup group, std::function<std::vector<double> &(Params &)> field,
                     std::int64_t maxCount)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::NumberList;
    s.valueName = u"LIST|none"_s;
    s.value = [field](const Params &p) { return ParamValue(field(const_cast<Params &>(p))); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *list = std::get_if<std::vector<double>>(&v))
            field(p) = *list;
    };
    s.parse = [maxCount](const QString &t) -> std::optional<ParamValue> {
        if (auto v = parseNumberList(t, maxCount))
            return ParamValue(std::move(*v));
        return std::nullopt;
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

std::optional<std::vector<double>> parseNumberList(const QString &text, std::int64_t maxCount)
{
    std::vector<double> values;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed == u"none"_s)
        return values;
    const QStringList items = trimmed.split(u',');
    if (items.size() > maxCount)
        return std::nullopt;
    for (const QString &item : items) {
        const auto v = ParamTable::parseFinite(item);
        if (!v || !(*v > 0.0))
            return std::nullopt;
        values.push_back(*v);
    }
    return values;
}

std::optional<IdleReason> otherEncoding(const Params &params, Encoding family)
{
    if (params.encoding == family)
        return std::nullopt;
    return IdleReason {IdleReason::Code::OtherEncoding,
                       tr("only encoding %1 reads it; the encoding is %2.")
                           .arg(Families::word(family), Families::word(params.encoding))};
}

std::function<std::optional<IdleReason>(const Params &)> familyIdle(Encoding family)
{
    return [family](const Params &p) { return otherEncoding(p, family); };
}

// A number field that takes any finite number in the row's range; NaN and infinities parse, so
// that the check refuses them with the range.
ParamSpec numberRow(QString key, ParamGroup group, std::function<double &(Params &)> field)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::Number;
    s.valueName = u"NUMBER"_s;
    s.value = [field](const Params &p) { return ParamValue(field(const_cast<Params &>(p))); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *d = std::get_if<double>(&v))
            field(p) = *d;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (const auto v = parseDouble(t))
            return ParamValue(*v);
        return std::nullopt;
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec switchRow(QString key, ParamGroup group, std::function<bool &(Params &)> field)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::Switch;
    s.valueName = u"true|false"_s;
    s.helpShowsDefault = false;
    s.value = [field](const Params &p) { return ParamValue(field(const_cast<Params &>(p))); };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (const auto *b = std::get_if<bool>(&v))
            field(p) = *b;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        const QString w = t.trimmed().toLower();
        if (w == u"true"_s || w == u"1"_s || w == u"yes"_s)
            return ParamValue(true);
        if (w == u"false"_s || w == u"0"_s || w == u"no"_s)
            return ParamValue(false);
        return std::nullopt;
    };
    s.allowed = [](const Params &) { return u"true or false"_s; };
    s.check = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec optionalInteger(QString key, ParamGroup group, std::function<std::optional<std::int64_t> &(Params &)> field,
                          std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds, QString note)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::OptionalInteger;
    s.valueName = u"N|auto"_s;
    s.value = [field](const Params &p) {
        const auto &v = field(const_cast<Params &>(p));
        return v ? ParamValue(*v) : ParamValue(std::monostate {});
    };
    s.assign = [field](Params &p, const ParamValue &v) {
        if (std::holds_alternative<std::monostate>(v))
            field(p).reset();
        else if (const auto *i = std::get_if<std::int64_t>(&v))
            field(p) = *i;
    };
    s.parse = [](const QString &t) -> std::optional<ParamValue> {
        if (t.trimmed() == u"auto"_s)
            return ParamValue(std::monostate {});
        if (const auto v = parseInt(t))
            return ParamValue(*v);
        return std::nullopt;
    };
    s.bounds = bounds;
    s.allowed = [bounds, note](const Params &p) {
        const auto [lo, hi] = bounds(p);
        return u"auto or "_s + integerRange(lo, hi, note);
    };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

ParamSpec matrixRow(QString key, ParamGroup group, QString valueName, QString help)
{
    ParamSpec s;
    s.key = std::move(key);
    s.group = group;
    s.kind = ParamKind::Matrix;
    s.valueName = std::move(valueName);
    s.help = std::move(help);
    s.helpShowsDefault = false;
    s.assign = [](Params &, const ParamValue &) {};
    s.parse = [](const QString &t) -> std::optional<ParamValue> { return ParamValue(MatrixValue {nullptr, t}); };
    s.allowed = [](const Params &) { return u"a readable .npy or .safetensors file"_s; };
    s.check = [](const Params &) { return std::nullopt; };
    s.idle = [](const Params &) { return std::nullopt; };
    return s;
}

std::optional<std::int64_t> parseInteger(const QString &text)
{
    return parseInt(text);
}

std::optional<double> parseNumber(const QString &text)
{
    return parseDouble(text);
}

} // namespace ParamRows

// --- The table ------------------------------------------------------------------------------------

namespace ParamTable {

namespace {

// `f` of the parameters, seen as under `family` while the encoding is one of `borrowers`.
template<typename Result>
std::function<Result(const Params &)> borrowed(std::function<Result(const Params &)> f, Encoding family,
                                               QList<Encoding> borrowers)
{
    if (!f)
        return f;
    return [f = std::move(f), family, borrowers = std::move(borrowers)](const Params &p) {
        return borrowers.contains(p.encoding) ? f(familyUnder(p, family)) : f(p);
    };
}

// A family's row read by other families too (FamilySpec::borrows, asOwn): its check, idle, range
// and formula under a borrowing family are those under its own.
void lend(ParamSpec &row)
{
    QList<Encoding> borrowers;
    for (const FamilySpec &other : Families::all()) {
        for (const BorrowedRows &b : other.borrows) {
            if (b.asOwn && b.family == *row.family && (b.keys.isEmpty() || b.keys.contains(row.key)))
                borrowers.append(other.encoding);
        }
    }
    if (borrowers.isEmpty())
        return;
    const Encoding family = *row.family;
    row.check = borrowed(std::move(row.check), family, borrowers);
    row.idle = borrowed(std::move(row.idle), family, borrowers);
    row.allowed = borrowed(std::move(row.allowed), family, borrowers);
    row.bounds = borrowed(std::move(row.bounds), family, borrowers);
    row.formula = borrowed(std::move(row.formula), family, borrowers);
}

} // namespace

const QList<ParamSpec> &rows()
{
    // In the order of --help and of the controls: the model, each family's group in the order of
    // FamilyList.h, then what every family shares.
    static const QList<ParamSpec> table = [] {
        QList<ParamSpec> all = SharedParamRows::model();
        for (const FamilySpec &family : Families::all()) {
            for (ParamSpec row : family.rows()) {
                row.group = ParamGroup::Family;
                row.family = family.encoding;
                lend(row);
                all.append(std::move(row));
            }
        }
        all += SharedParamRows::embeddings();
        all += SharedParamRows::dropout();
        all += BatchParamRows::rows();
        all += SharedParamRows::run();
        for (ParamSpec &row : all) {
            if (row.objectName.isEmpty()) {
                // "d-model" -> "dModel"
                const QStringList words = row.key.split(u'-');
                row.objectName = words.first();
                for (qsizetype i = 1; i < words.size(); ++i)
                    row.objectName += words[i].left(1).toUpper() + words[i].mid(1);
            }
            if (row.label.isEmpty())
                row.label = row.key;
        }
        return all;
    }();
    return table;
}

const ParamSpec *find(const QString &key)
{
    for (const ParamSpec &row : rows()) {
        if (row.key == key)
            return &row;
    }
    return nullptr;
}

QStringList flagKeys(bool withMatrices)
{
    QStringList keys;
    for (const ParamSpec &row : rows()) {
        if (row.isFlag && (withMatrices || row.kind != ParamKind::Matrix))
            keys.append(row.key);
    }
    return keys;
}

QStringList changedKeys(const Params &a, const Params &b)
{
    QStringList keys;
    for (const ParamSpec &row : rows()) {
        if (row.isFlag && !(row.value(a) == row.value(b)))
            keys.append(row.key);
    }
    return keys;
}

std::optional<std::vector<std::int64_t>> parseIndexList(const QString &text, std::int64_t maxCount)
{
    std::vector<std::int64_t> values;
    if (text.trimmed() == u"none"_s)
        return values;
    for (const QString &item : text.split(u',')) {
        if (item.contains(u':')) {
            const auto range = parseRange(item);
            std::int64_t length = 0;
            if (!range || range->first >= range->second || __builtin_sub_overflow(range->second, range->first, &length)
                || length > maxCount - std::int64_t(values.size()))
                return std::nullopt;
            for (std::int64_t v = range->first; v < range->second; ++v)
                values.push_back(v);
        } else {
            const auto v = parseInt(item);
            if (!v)
                return std::nullopt;
            if (std::int64_t(values.size()) >= maxCount)
                return std::nullopt;
            values.push_back(*v);
        }
    }
    return values;
}

std::optional<std::pair<std::int64_t, std::int64_t>> parseRange(const QString &text)
{
    const QStringList parts = text.split(u':');
    if (parts.size() != 2)
        return std::nullopt;
    const auto a = parseInt(parts[0]);
    const auto b = parseInt(parts[1]);
    if (!a || !b)
        return std::nullopt;
    return std::pair {*a, *b};
}

std::optional<double> parseFinite(const QString &text)
{
    const auto v = parseDouble(text);
    return v && std::isfinite(*v) ? v : std::nullopt;
}

} // namespace ParamTable

} // namespace posenc
