#pragma once

#include "ModelConfigCheck.h"
#include "ModelFamilies.h"

#include <QHash>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// What the readers of a config's families share while one config is checked
// (docs/ARCHITECTURE.md, Checking a model config). Internal to src/core/check.
namespace posenc {

struct ConfigContext
{
    ConfigContext(const QJsonObject &config, ConfigCheck &result);

    ConfigObject top; // the whole file
    ConfigObject text; // where the text model's keys are: text_config, or the top
    ModelFamilies::Family family;
    ConfigCheck &result;

    void find(const QString &id, const QString &message, const QString &layerType = QString());
    // A warning that `key` is absent and `value` is what HF's config class takes.
    void implicitDefault(const QString &key, const QString &value);
    // Whether an error finding concerns `layerType` (or the whole config).
    bool errorFor(const QString &layerType) const;

    // The integer at `key` of the text config, or the class default (with a finding when
    // `warn`); `alternatives` are older names of the key read before the default.
    std::int64_t integerOr(const QStringList &keys, std::int64_t lo, std::int64_t hi, std::int64_t fallback, bool warn);
};

// The rotary families' layers: HF's standardization of rope_scaling / rope_parameters, per
// layer type (RopeConfig.cpp).
QList<ConfigLayer> ropeLayers(ConfigContext &context);
// ALiBi, T5, DeBERTa, learned tables and Whisper's (PositionFamilies.cpp).
QList<ConfigLayer> otherLayers(ConfigContext &context);

// Layer indices as text: "3, 7, 11 (3 of 12)".
QString layerList(const std::vector<std::int64_t> &layers, std::int64_t total);

} // namespace posenc

namespace posenc {

// Checks `layer.params` once its family filled them: a parameter refused where an error
// finding already concerns the layer leaves it undescribed; any other refusal is a problem of
// the config key `sources` maps the parameter to ("rope-theta" -> "rope_scaling.rope_theta").
void settleLayer(ConfigContext &context, ConfigLayer &layer, const QHash<QString, QString> &sources);

} // namespace posenc
