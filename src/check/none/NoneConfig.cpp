#include "NoneConfig.h"

using namespace Qt::StringLiterals;

namespace posenc {

QList<ConfigLayer> NoneConfig::layers(ConfigContext &c)
{
    QList<ConfigLayer> out;
    for (const LayerGroup &group : c.plan.groups) {
        if (group.rope)
            continue;
        ConfigLayer layer;
        layer.layerType = group.name;
        layer.layers = group.layers;
        layer.params = configParams(std::max(c.plan.hidden, c.plan.headDimOf(group.type)), c.plan.maxPositions);
        layer.params.encoding = Encoding::None;
        layer.values = {{u"max_position_embeddings"_s, c.plan.maxPositions}};
        out.append(layer);
    }
    return out;
}

} // namespace posenc
