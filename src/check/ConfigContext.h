#pragma once

#include "ModelConfigCheck.h"

#include "check/models/LayerPlan.h"
#include "check/models/ModelTable.h"

#include <QHash>
#include <QSet>
#include <QStringList>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

// What the families' config readers share while one config is checked (docs/ARCHITECTURE.md,
// Checking a model config): the file's objects, the model's knowledge, the result the findings go
// to. Each family's reader (FamilySpec::readConfig, in its folder) takes it; check/ orchestrates.
namespace posenc {

struct ConfigContext
{
    ConfigContext(const QJsonObject &config, ConfigCheck &result);

    ConfigObject top; // the whole file
    ConfigObject text; // where the text model's keys are: text_config, or the top
    ModelRow model; // the model table's row of its model_type (ModelTable), or Llama's as a guess
    LayerPlan plan; // the layers its rules build (LayerPlans::plan), for a rotary model
    ConfigCheck &result;

    // Each finding once, in the order found; a set keeps it linear in the findings (a config may
    // name tens of thousands of layer types, each with its own).
    void find(const QString &id, const QString &message, const QString &layerType = QString());
    // A warning that `key` is absent and `value` is what HF's config class takes.
    void implicitDefault(const QString &key, const QString &value);
    // Whether an error finding concerns `layerType` (or the whole config).
    bool errorFor(const QString &layerType) const;

    // The integer at `key` of the text config, or the class default (with a finding when
    // `warn`); `alternatives` are older names of the key read before the default.
    std::int64_t integerOr(const QStringList &keys, std::int64_t lo, std::int64_t hi, std::int64_t fallback, bool warn);

private:
    QSet<QString> m_said; // the findings said: id, layer type and message
    QSet<QString> m_errorTypes; // the layer types an error finding names; empty string: the whole config
};

// Bounds the readers share: real models have a few hundred layers at most, and no count of
// positions, columns or heads beyond 2^40.
namespace ConfigBounds {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::int64_t kMaxCount = std::int64_t(1) << 40;
constexpr std::int64_t kMaxLayers = std::int64_t(1) << 16;
constexpr qsizetype kMaxList = qsizetype(1) << 16;
} // namespace ConfigBounds

namespace ConfigText {
// A number in a message: a whole one written out (500000, not 5e+05).
QString number(double v);
// A word of the file as JSON writes it, quoted and escaped: a message stays one line.
QString quote(const QString &word);
// Keys of the file in a message: plain names as they are, others quoted and escaped, at most
// eight of them.
QString keyList(const QStringList &keys);
// Layer indices as text: "3, 7, 11 (3 of 12)".
QString layerList(const std::vector<std::int64_t> &layers, std::int64_t total);
} // namespace ConfigText

// 0, 1, ..., n - 1.
std::vector<std::int64_t> layerRange(std::int64_t n);
// Parameters of a layer as a preset would give them: d_model `hidden`, max_len `positions`, both
// within Params' range.
Params configParams(std::int64_t hidden, std::int64_t positions);

// Checks `layer.params` once its family filled them: a parameter refused where an error
// finding already concerns the layer leaves it undescribed; any other refusal is a problem of
// the config key `sources` maps the parameter to ("rope-theta" -> "rope_scaling.rope_theta").
void settleLayer(ConfigContext &context, ConfigLayer &layer, const QHash<QString, QString> &sources);

} // namespace posenc
