#include "NoneConfig.h"

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> NoneConfig::layers(ConfigContext &c)
{
    QList<ConfigLayer> out;
    out.reserve(c.plan.groups.size());
    // One layer's parameters for every group of the same width: a config may name many.
    std::optional<ConfigLayer> last;
    for (const LayerGroup &group : c.plan.groups) {
        if (group.rope)
            continue;
        const std::int64_t width = std::max(c.plan.hidden, c.plan.headDimOf(group.type));
        if (!last || last->params.dModel != std::clamp<std::int64_t>(width, 1, Params::kMaxDModel)) {
            last.emplace();
            last->params = configParams(width, c.plan.maxPositions);
            last->params.encoding = Encoding::None;
            last->values = {{u"max_position_embeddings"_s, c.plan.maxPositions}};
        }
        ConfigLayer layer = *last;
        layer.layerType = group.name;
        layer.layers = group.layers;
        out.append(std::move(layer));
    }
    return out;
}

} // namespace posenc
