#pragma once

#include "check/ConfigContext.h"

#include <QSet>

#include <functional>
#include <unordered_map>

// RoPE's config reader (FamilySpec::readConfig, docs/ARCHITECTURE.md, Checking a model config):
// HF transformers' reading of a rotary config, as its main branch does it: modeling_rope_utils.py
// (RotaryEmbeddingConfigMixin.convert_rope_params_to_dict, standardize_rope_params, validate_rope
// and the _validate_<type>_rope_parameters, _check_received_keys; the _compute_<type>_parameters),
// and the config classes' own conversions (Gemma3TextConfig's per-layer dicts from rope_scaling and
// rope_local_base_freq, GPTNeoXConfig's rotary_pct and rotary_emb_base, Phi3Config's "su",
// DeepseekV3Config's qk_rope_head_dim), as the model's row of the table says (ModelTable).
// Internal to src/core/rope.
namespace posenc {

namespace RopeConfig {
// The finding kinds the reader reports (FamilySpec::configFindings).
QList<ConfigFindings::Kind> findings();
} // namespace RopeConfig

class RopeConfigReader
{
public:
    explicit RopeConfigReader(ConfigContext &c)
        : m_c(c)
        , m_row(c.model)
    { }

    QList<ConfigLayer> layers();

private:
    // A number of the rope dict at `key`, its source noted for the parameter `param`.
    using NumberIn = std::function<std::optional<double>(const QString &key, const QString &param)>;

    ConfigContext &m_c;
    const ModelRow &m_row;
    std::int64_t m_headDim = 0; // the head dim of the layer type being read
    // The rope dict of each layer type as HF reads it, and where it sits in the file.
    std::unordered_map<QString, std::optional<ConfigObject>> m_dicts;
    bool m_nested = false;
    bool m_fromClass = false; // the dict is the class's default rope_parameters
    QString m_dictPath; // "rope_scaling" or "rope_parameters"
    QString m_where; // the layer type the findings of the dict being read concern, or none

    // The dicts and the layer groups that turn (RopeConfigReader.cpp).
    QSet<QString> labels() const; // the layer types that turn
    QSet<QString> plannedTypes() const; // every layer type, once (the plan's groups)
    void readDicts();
    bool readNested(const ConfigObject &chosen, const QSet<QString> &types);
    void mixedKeys(const ConfigObject &chosen, const QSet<QString> &types);
    void readPerType(const std::optional<ConfigObject> &scaling, const std::optional<ConfigObject> &parameters);
    ConfigLayer layerOf(const LayerGroup &group);
    QString readingKey(const LayerGroup &group) const;
    void noteSliding(const QList<ConfigLayer> &layers);

    // A layer type's dict: its type, theta, rotary part and keys (RopeConfigKeys.cpp).
    void readRope(ConfigLayer &layer, const QString &type, QHash<QString, QString> &sources);
    void readTheta(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources);
    void readPartial(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources);
    std::optional<std::int64_t> rotaryColumns() const;
    QString typeThetaKey(const QString &type) const;
    void checkKeys(ConfigLayer &layer, const ConfigObject *d, bool mrope);
    void readQueryScale(ConfigLayer &layer, const ConfigObject *d);

    // Its scaling (RopeConfigScaling.cpp).
    void readScaling(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources);
    // Dynamic with alpha (Hunyuan's NTK alpha): folded into rope_theta, the default table; false
    // where the dict holds no alpha.
    bool readNtkAlpha(ConfigLayer &layer, const ConfigObject *d, QHash<QString, QString> &sources);
    void readYarn(ConfigLayer &layer, const ConfigObject *d, std::optional<std::int64_t> original,
                  const NumberIn &numberIn);
    void readLongRope(ConfigLayer &layer, const ConfigObject *d, std::optional<std::int64_t> original,
                      QHash<QString, QString> &sources);
    void readLlama3(ConfigLayer &layer, std::optional<std::int64_t> original, const NumberIn &numberIn);
    void readMrope(ConfigLayer &layer, const ConfigObject *d);
    void checkRotaryDim(ConfigLayer &layer);
    void fillValues(ConfigLayer &layer, const ConfigObject *);
};

} // namespace posenc
