#include "BucketConfig.h"

#include "core/FamilySpec.h"

using namespace Qt::StringLiterals;

namespace posenc::BucketConfig {

Shape shape(ConfigContext &c, const Key &heads, const Key &hidden, const Key &layers, const Key &positions)
{
    Shape s;
    s.heads = c.integerOr({heads.name}, 1, 1 << 16, heads.fallback, heads.classDefault);
    s.hidden = c.integerOr({hidden.name}, 1, ConfigBounds::kMaxCount, hidden.fallback, hidden.classDefault);
    s.layers = c.integerOr({layers.name}, 1, ConfigBounds::kMaxLayers, layers.fallback, layers.classDefault);
    s.positions = c.integerOr({positions.name}, 1, ConfigBounds::kMaxCount, positions.fallback, positions.classDefault);
    return s;
}

ConfigLayer layer(ConfigContext &c, const RelativeBuckets::Family &family, const Shape &shape, const Layer &read,
                  const QList<std::pair<QString, ConfigValue>> &values, const QHash<QString, QString> &moreSources,
                  bool settle)
{
    ConfigLayer layer;
    layer.layerType = read.type;
    layer.layers = layerRange(read.layers);
    layer.params = configParams(shape.hidden, shape.positions);
    Families::copyGroup(layer.params, read.params, family.encoding);
    layer.params.encoding = family.encoding;
    RelativeBuckets::setSettings(family, layer.params, read.buckets, read.limit);
    layer.values = {{u"heads"_s, shape.heads}};
    layer.values += values;
    if (settle) {
        QHash<QString, QString> sources = moreSources;
        sources.insert(family.settings.bucketsKey, c.text.pathOf(read.bucketsKey));
        sources.insert(family.settings.limitKey, c.text.pathOf(read.limitKey));
        settleLayer(c, layer, sources);
    }
    return layer;
}

} // namespace posenc::BucketConfig
