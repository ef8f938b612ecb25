#include "ParamUse.h"

namespace posenc::ParamUse {

bool drawsEmbeddings(const Params &params)
{
    return !params.embeddings && params.embeddingColumns() > 0;
}

bool drawsMask(const Params &params)
{
    // p = 1 drops every cell whatever the draw.
    return params.training && params.dropout > 0.0 && params.dropout < 1.0;
}

std::optional<IdleReason> reason(const Params &params, const QString &key)
{
    const ParamSpec *row = ParamTable::find(key);
    return row ? row->idle(params) : std::nullopt;
}

std::optional<Idle> idle(const Params &params, const QString &key)
{
    if (const auto why = reason(params, key))
        return why->code;
    return std::nullopt;
}

} // namespace posenc::ParamUse
