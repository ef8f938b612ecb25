#include "ParamText.h"

#include "ParamTable.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ParamText {

namespace {

ParamError syntaxError(const ParamSpec &row, const QString &text)
{
    return {row.key, row.allowed(Params {}), QString(), ParamError::quoted(text)};
}

// The row of a key that ParamText reads and writes: a flag whose value is text (not a matrix).
const ParamSpec *textRow(const QString &key)
{
    const ParamSpec *row = ParamTable::find(key);
    return row && row->isFlag && row->kind != ParamKind::Matrix ? row : nullptr;
}

template<typename Enum> QString wordOf(const QString &key, Enum value)
{
    return ParamTable::find(key)->choices.value(static_cast<int>(value));
}

} // namespace

QStringList valueKeys()
{
    return ParamTable::flagKeys(false);
}

QString describe(const QString &key)
{
    const ParamSpec *row = ParamTable::find(key);
    return row ? row->helpLine() : QString();
}

QString allowed(const QString &key)
{
    const ParamSpec *row = ParamTable::find(key);
    return row ? row->allowed(Params {}) : QString();
}

QString valueName(const QString &key)
{
    const ParamSpec *row = ParamTable::find(key);
    return row ? row->valueName : QString();
}

QString toString(Layout v)
{
    return wordOf(u"layout"_s, v);
}
QString toString(Angles v)
{
    return wordOf(u"angles"_s, v);
}
QString toString(Compose v)
{
    return wordOf(u"compose"_s, v);
}
QString toString(DropoutMode v)
{
    return wordOf(u"dropout-mode"_s, v);
}
QString toString(Encoding v)
{
    return wordOf(u"encoding"_s, v);
}

std::optional<double> parseFinite(const QString &text)
{
    return ParamTable::parseFinite(text);
}

std::optional<std::pair<std::int64_t, std::int64_t>> parseRange(const QString &text)
{
    return ParamTable::parseRange(text);
}

std::optional<std::vector<std::int64_t>> parseIndexList(const QString &text, std::int64_t maxCount)
{
    return ParamTable::parseIndexList(text, maxCount);
}

std::optional<ParamError> set(Params &params, const QString &key, const QString &text)
{
    const ParamSpec *row = textRow(key);
    if (!row)
        return ParamError {key, u"one of %1"_s.arg(valueKeys().join(u", "_s)), u"is not a parameter"_s, std::nullopt};
    const auto value = row->parse(text);
    if (!value)
        return syntaxError(*row, text);
    // A number that is not finite is refused with the range the parameter allows, as its check
    // words it, and changes nothing.
    if (const auto *d = std::get_if<double>(&*value); d && !std::isfinite(*d)) {
        Params probe = params;
        row->assign(probe, *value);
        if (auto error = row->check(probe))
            return error;
        return syntaxError(*row, text);
    }
    row->assign(params, *value);
    return std::nullopt;
}

QString get(const Params &params, const QString &key)
{
    const ParamSpec *row = textRow(key);
    return row ? row->text(params) : QString();
}

} // namespace posenc::ParamText
