#pragma once

#include "check/ConfigContext.h"
#include "core/RelativeBuckets.h"

#include <QString>

#include <cstdint>

// What the config readers of families of relative buckets share (T5's, DeBERTa's;
// docs/ARCHITECTURE.md, Checking a model config), written once on core's RelativeBuckets kit: the
// model's heads, hidden size and layers as its config class reads them, and a layer of the family
// at the bucket count and limit the config gives, its rows settled against the config's keys. A
// family gives its keys, the defaults of its config class and what it checks beyond.
namespace posenc::BucketConfig {

// A key of the text config and what its model takes where it is absent: its config class's default
// (said where `classDefault`), or the fallback of a key the class does not hold (T5's n_positions).
struct Key
{
    QString name;
    std::int64_t fallback = 0;
    bool classDefault = false;
};

// The model's heads, hidden size, layers and positions, at their keys or their defaults.
struct Shape
{
    std::int64_t heads = 0, hidden = 0, layers = 0, positions = 0;
};
Shape shape(ConfigContext &c, const Key &heads, const Key &hidden, const Key &layers, const Key &positions);

// A layer of the family's: its type and layers, its settings beyond its two (`params`: T5's mask),
// and the bucket count and limit, read from the config keys `bucketsKey` and `limitKey`.
struct Layer
{
    QString type; // "encoder"
    std::int64_t layers = 0;
    Params params;
    std::int64_t buckets = 0, limit = 0;
    QString bucketsKey, limitKey; // "relative_attention_num_buckets"
};

// The layer of `family` in the model of `shape` (configParams of its hidden size and positions):
// its values the heads, then `values` (ConfigLayer::values); its rows of the bucket count and the
// limit and `moreSources` settled against the config's keys of them (settleLayer) where `settle` (a
// layer whose buckets the config does not give leaves them unsettled).
ConfigLayer layer(ConfigContext &c, const RelativeBuckets::Family &family, const Shape &shape, const Layer &read,
                  const QList<std::pair<QString, ConfigValue>> &values, const QHash<QString, QString> &moreSources = {},
                  bool settle = true);

} // namespace posenc::BucketConfig
