#include "ModelFigureOptions.h"

using namespace Qt::StringLiterals;

namespace posenc::ModelFigureOptions {

namespace {

QString valueOf(const FigureState &state, const QString &defaultText)
{
    return state.options.value(u"config"_s, defaultText);
}

} // namespace

FigureOption config(const QString &defaultText)
{
    FigureOption o;
    o.key = u"config"_s;
    o.kind = FigureOption::Kind::Text;
    o.valueName = u"FILE|NAME"_s;
    o.help = defaultText.isEmpty()
        ? u"a model's config.json, or an example's name; none draws the examples side by side"_s
        : u"a model's config.json, or an example's name (default %1)"_s.arg(defaultText);
    o.defaultText = defaultText;
    o.resetsView = true;
    return o;
}

QList<ParamError> check(const FigureState &state, const QString &defaultText)
{
    const QString value = valueOf(state, defaultText);
    if (value.isEmpty())
        return {};
    const auto loaded = ConfigSource::load(value);
    if (const auto *refusal = std::get_if<ConfigSource::Refusal>(&loaded))
        return {ParamError {u"config"_s, ConfigSource::allowed(), refusal->message, ParamError::quoted(value)}};
    return {};
}

std::optional<ConfigSource::Loaded> load(const FigureState &state, const QString &defaultText)
{
    const QString value = valueOf(state, defaultText);
    if (value.isEmpty())
        return std::nullopt;
    auto loaded = ConfigSource::load(value);
    if (auto *config = std::get_if<ConfigSource::Loaded>(&loaded))
        return std::move(*config);
    return std::nullopt;
}

} // namespace posenc::ModelFigureOptions
