#include "ParamText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ParamText {

namespace {

struct KeyInfo
{
    const char16_t *key;
    const char16_t *valueName;
    const char16_t *description;
    // What a value must be, for a text that does not read as one: the range Params::validate()
    // checks, or the words the key takes.
    const char16_t *allowed;
};

constexpr KeyInfo kKeys[] = {
    {u"d-model", u"N", u"model width d: columns of every table (default 512)", u"an integer in [1, 1048576]"},
    {u"max-len", u"N", u"positions L: rows 0..L-1 of every table (default 1024)", u"an integer in [1, 16777216]"},
    {u"base", u"B", u"frequency base b of w_i = b^(-2i/d) (default 10000)", u"a finite number greater than 1"},
    {u"layout", u"interleaved|split", u"sin/cos columns interleaved (paper, PyTorch) or split in halves (TensorFlow)",
     u"one of interleaved, split"},
    {u"angles", u"exact|float32",
     u"angle p*w formed in double (exact) or rounded to float32 first, as float32 code does", u"one of exact, float32"},
    {u"scale", u"sqrt|NUMBER", u"embedding scale s in X = s*E + PE: sqrt(d_model), 1 or any number (default sqrt)",
     u"sqrt, 1 or a finite number >= 0"},
    {u"init", u"normal|scaled-normal|SIGMA",
     u"random embeddings N(0, sigma^2): sigma 1, d^-1/2 or SIGMA (default normal)",
     u"normal, scaled-normal or a finite sigma >= 0"},
    {u"compose", u"sum|concat", u"X = s*E + PE, or [s*E | PE] with the PE in the last pe-dims columns",
     u"one of sum, concat"},
    {u"pe-dims", u"K|auto", u"PE columns of concat (default auto: d_model/2)", u"auto or an integer in [0, d_model]"},
    {u"dropout", u"P", u"dropout probability p in [0, 1] (default 0.1)", u"a probability in [0, 1]"},
    {u"dropout-mode", u"sum|embedding|protect-special|masked-fill", u"where dropout acts (default sum)",
     u"one of sum, embedding, protect-special, masked-fill"},
    {u"special", u"LIST|none",
     u"positions protect-special leaves untouched; negative counts from the end (default 0,-1)",
     u"none or a list of at most 16777216 positions such as 0,-1 or 0:4, each in [-seq_len, seq_len - 1]"},
    {u"seq-len", u"N|auto", u"sequence length; masked-fill zeroes positions >= N (default auto: max_len)",
     u"auto or an integer in [1, max_len]"},
    {u"seed", u"N", u"seed of the random embeddings and the dropout mask (default 0)",
     u"an integer in [0, 18446744073709551615]"},
    {u"eval", u"true|false", u"evaluation mode: dropout is the identity", u"true or false"},
    {u"memory-budget", u"GIB", u"largest allocation one request may make, in GiB (default 2)",
     u"a number of GiB in (0, 1048576]"},
};

const KeyInfo *find(const QString &key)
{
    for (const KeyInfo &k : kKeys) {
        if (key == QString::fromUtf16(k.key))
            return &k;
    }
    return nullptr;
}

template<typename Enum> struct EnumName
{
    Enum value;
    const char16_t *name;
};

constexpr EnumName<Layout> kLayouts[] = {{Layout::Interleaved, u"interleaved"}, {Layout::Split, u"split"}};
constexpr EnumName<Angles> kAngles[] = {{Angles::Exact, u"exact"}, {Angles::Float32, u"float32"}};
constexpr EnumName<Compose> kComposes[] = {{Compose::Sum, u"sum"}, {Compose::Concat, u"concat"}};
constexpr EnumName<DropoutMode> kModes[] = {{DropoutMode::Sum, u"sum"},
                                            {DropoutMode::Embedding, u"embedding"},
                                            {DropoutMode::ProtectSpecial, u"protect-special"},
                                            {DropoutMode::MaskedFill, u"masked-fill"}};

template<typename Enum, std::size_t N> QString nameOf(const EnumName<Enum> (&table)[N], Enum value)
{
    for (const auto &e : table) {
        if (e.value == value)
            return QString::fromUtf16(e.name);
    }
    return {};
}

template<typename Enum, std::size_t N>
std::optional<Enum> parseEnum(const EnumName<Enum> (&table)[N], const QString &text)
{
    for (const auto &e : table) {
        if (text == QString::fromUtf16(e.name))
            return e.value;
    }
    return std::nullopt;
}

std::optional<std::int64_t> parseInt(const QString &text)
{
    bool ok = false;
    const qlonglong v = text.trimmed().toLongLong(&ok);
    return ok ? std::optional<std::int64_t>(v) : std::nullopt;
}

// Any double, NaN and infinities included: Params::validate() reports those with the range.
std::optional<double> parseNumber(const QString &text)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

QString number(double value)
{
    return QString::number(value, 'g', 17);
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

ParamError syntaxError(const QString &key, const QString &text)
{
    const KeyInfo *info = find(key);
    return {key, info ? QString::fromUtf16(info->allowed) : QString(), QString(), ParamError::quoted(text)};
}

} // namespace

namespace {
std::optional<ParamError> setValue(Params &params, const QString &key, const QString &text);
} // namespace

QStringList valueKeys()
{
    QStringList keys;
    for (const KeyInfo &k : kKeys)
        keys.append(QString::fromUtf16(k.key));
    return keys;
}

QString describe(const QString &key)
{
    const KeyInfo *info = find(key);
    return info ? QString::fromUtf16(info->description) : QString();
}

QString allowed(const QString &key)
{
    const KeyInfo *info = find(key);
    return info ? QString::fromUtf16(info->allowed) : QString();
}

QString valueName(const QString &key)
{
    const KeyInfo *info = find(key);
    return info ? QString::fromUtf16(info->valueName) : QString();
}

QString toString(Layout v)
{
    return nameOf(kLayouts, v);
}
QString toString(Angles v)
{
    return nameOf(kAngles, v);
}
QString toString(Compose v)
{
    return nameOf(kComposes, v);
}
QString toString(DropoutMode v)
{
    return nameOf(kModes, v);
}

std::optional<double> parseFinite(const QString &text)
{
    const auto v = parseNumber(text);
    return v && std::isfinite(*v) ? v : std::nullopt;
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

std::optional<ParamError> set(Params &params, const QString &key, const QString &text)
{
    // A number that is not finite is refused with the range the parameter allows, as
    // Params::validate() words it, and changes nothing.
    if (const auto v = parseNumber(text); v && !std::isfinite(*v)) {
        Params probe = params;
        if (const auto error = setValue(probe, key, text))
            return error;
        for (const ParamError &e : probe.validate()) {
            if (e.key == key)
                return e;
        }
        return syntaxError(key, text);
    }
    return setValue(params, key, text);
}

namespace {

std::optional<ParamError> setValue(Params &params, const QString &key, const QString &text)
{
    const auto fail = [&] { return std::optional<ParamError>(syntaxError(key, text)); };
    const auto setInt = [&](std::int64_t &target) -> std::optional<ParamError> {
        const auto v = parseInt(text);
        if (!v)
            return fail();
        target = *v;
        return std::nullopt;
    };
    const auto setOptionalInt = [&](std::optional<std::int64_t> &target) -> std::optional<ParamError> {
        if (text.trimmed() == u"auto"_s) {
            target.reset();
            return std::nullopt;
        }
        const auto v = parseInt(text);
        if (!v)
            return fail();
        target = *v;
        return std::nullopt;
    };
    const auto setEnum = [&](auto &target, const auto &table) -> std::optional<ParamError> {
        const auto v = parseEnum(table, text.trimmed());
        if (!v)
            return fail();
        target = *v;
        return std::nullopt;
    };

    if (key == u"d-model"_s)
        return setInt(params.dModel);
    if (key == u"max-len"_s)
        return setInt(params.maxLen);
    if (key == u"base"_s) {
        const auto v = parseNumber(text);
        if (!v)
            return fail();
        params.base = *v;
        return std::nullopt;
    }
    if (key == u"layout"_s)
        return setEnum(params.layout, kLayouts);
    if (key == u"angles"_s)
        return setEnum(params.angles, kAngles);
    if (key == u"scale"_s) {
        if (text.trimmed() == u"sqrt"_s) {
            params.scaleKind = ScaleKind::Sqrt;
            return std::nullopt;
        }
        const auto v = parseNumber(text);
        if (!v)
            return fail();
        params.scaleKind = *v == 1.0 ? ScaleKind::One : ScaleKind::Custom;
        params.customScale = *v;
        return std::nullopt;
    }
    if (key == u"init"_s) {
        const QString t = text.trimmed();
        if (t == u"normal"_s || t == u"scaled-normal"_s) {
            params.init = t == u"normal"_s ? InitKind::Normal : InitKind::ScaledNormal;
            return std::nullopt;
        }
        const auto v = parseNumber(text);
        if (!v)
            return fail();
        params.init = InitKind::Custom;
        params.customSigma = *v;
        return std::nullopt;
    }
    if (key == u"compose"_s)
        return setEnum(params.compose, kComposes);
    if (key == u"pe-dims"_s)
        return setOptionalInt(params.peDims);
    if (key == u"dropout"_s) {
        const auto v = parseNumber(text);
        if (!v)
            return fail();
        params.dropout = *v;
        return std::nullopt;
    }
    if (key == u"dropout-mode"_s)
        return setEnum(params.dropoutMode, kModes);
    if (key == u"special"_s) {
        const auto v = parseIndexList(text);
        if (!v)
            return fail();
        params.special = *v;
        return std::nullopt;
    }
    if (key == u"seq-len"_s)
        return setOptionalInt(params.seqLen);
    if (key == u"seed"_s) {
        bool ok = false;
        const qulonglong v = text.trimmed().toULongLong(&ok);
        if (!ok)
            return fail();
        params.seed = v;
        return std::nullopt;
    }
    if (key == u"eval"_s) {
        const QString t = text.trimmed().toLower();
        if (t == u"true"_s || t == u"1"_s || t == u"yes"_s)
            params.training = false;
        else if (t == u"false"_s || t == u"0"_s || t == u"no"_s)
            params.training = true;
        else
            return fail();
        return std::nullopt;
    }
    if (key == u"memory-budget"_s) {
        const auto v = parseNumber(text);
        if (!v || !std::isfinite(*v) || *v <= 0.0 || *v > 1024.0 * 1024.0)
            return syntaxError(key, text);
        params.memoryBudget = static_cast<std::uint64_t>(std::llround(std::ldexp(*v, 30)));
        return std::nullopt;
    }
    return ParamError {key, u"one of %1"_s.arg(valueKeys().join(u", "_s)), u"is not a parameter"_s, std::nullopt};
}

} // namespace

QString get(const Params &params, const QString &key)
{
    if (key == u"d-model"_s)
        return QString::number(params.dModel);
    if (key == u"max-len"_s)
        return QString::number(params.maxLen);
    if (key == u"base"_s)
        return number(params.base);
    if (key == u"layout"_s)
        return toString(params.layout);
    if (key == u"angles"_s)
        return toString(params.angles);
    if (key == u"scale"_s) {
        switch (params.scaleKind) {
        case ScaleKind::One:
            return u"1"_s;
        case ScaleKind::Sqrt:
            return u"sqrt"_s;
        case ScaleKind::Custom:
            return number(params.customScale);
        }
    }
    if (key == u"init"_s) {
        switch (params.init) {
        case InitKind::Normal:
            return u"normal"_s;
        case InitKind::ScaledNormal:
            return u"scaled-normal"_s;
        case InitKind::Custom:
            return number(params.customSigma);
        }
    }
    if (key == u"compose"_s)
        return toString(params.compose);
    if (key == u"pe-dims"_s)
        return params.peDims ? QString::number(*params.peDims) : u"auto"_s;
    if (key == u"dropout"_s)
        return number(params.dropout);
    if (key == u"dropout-mode"_s)
        return toString(params.dropoutMode);
    if (key == u"special"_s)
        return indexList(params.special);
    if (key == u"seq-len"_s)
        return params.seqLen ? QString::number(*params.seqLen) : u"auto"_s;
    if (key == u"seed"_s)
        return QString::number(params.seed);
    if (key == u"eval"_s)
        return params.training ? u"false"_s : u"true"_s;
    if (key == u"memory-budget"_s)
        return number(std::ldexp(static_cast<double>(params.memoryBudget), -30));
    return {};
}

} // namespace posenc::ParamText
