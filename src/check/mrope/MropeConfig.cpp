// Multimodal RoPE's config reader (MropeConfig.h): RoPE's layers of the text model, each turned
// into M-RoPE's by the keys its model's code reads.
#include "MropeConfig.h"

#include "MropeMistakes.h"
#include "core/mrope/MropeParamRows.h"
#include "core/mrope/MropeRotation.h"

#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"
#include "core/rope/RopeFrequencies.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace posenc::MropeConfig {

namespace {

// The rule of the model's row: {"section": [t, h, w] (the default its code takes) or null (a key it
// indexes), "interleaved": bool, "vision": "qwen2-vl"|"qwen2.5-vl"|"qwen3-vl", "vision_config":
// the vision config class's defaults of the keys get_rope_index reads}.
struct Rule
{
    std::optional<std::vector<std::int64_t>> section;
    bool interleaved = false;
    MropeVision vision = MropeVision::Qwen2Vl;
    QJsonObject visionDefaults;
    bool fromKeys = false; // no rule of the row's: the config's mrope_interleaved decides
};

Rule ruleOf(const ModelRow &row)
{
    const QJsonObject o = row.raw.value(u"mrope"_s).toObject();
    Rule rule;
    rule.fromKeys = o.isEmpty();
    if (o.value(u"section"_s).isArray()) {
        std::vector<std::int64_t> s;
        for (const QJsonValue &v : o.value(u"section"_s).toArray())
            s.push_back(v.toInteger());
        rule.section = s;
    }
    rule.interleaved = o.value(u"interleaved"_s).toBool();
    rule.vision
        = MropeVision(std::max<qsizetype>(0, MropeParamRows::visionWords().indexOf(o.value(u"vision"_s).toString())));
    rule.visionDefaults = o.value(u"vision_config"_s).toObject();
    return rule;
}

QString listText(const std::vector<std::int64_t> &list)
{
    QStringList parts;
    for (const std::int64_t v : list)
        parts.append(QString::number(v));
    return u"[%1]"_s.arg(parts.join(u", "_s));
}

// The prompt a layer opens on: the family's, its grids in multiples of the merge size m (an image of
// 2m x 3m patches and a video of two grids of 2m x 2m).
QString promptFor(std::int64_t m)
{
    const MropeParams defaults;
    if (m == defaults.spatialMergeSize)
        return defaults.prompt;
    return u"text:5,image:1x%1x%2,text:3,video:2x%1x%1,text:2"_s.arg(2 * m).arg(3 * m);
}

// The era of get_rope_index the config was written for: the major version of its
// `transformers_version` (PreTrainedConfig.to_dict writes the version that saved it). 5.x and later
// place the text after a vision span at its start + max(h, w) / spatial_merge_size; 4.x, and a
// config that names no version, at the largest id + 1, as the models' own releases (Qwen's
// code, transformers 4.x) do.
struct Era
{
    MropeEra era = MropeEra::V4;
    QString why; // "transformers_version 4.41.2" or "no transformers_version"
};

Era eraOf(const ConfigObject &top)
{
    Era e;
    const std::optional<QString> version = top.has(u"transformers_version"_s)
        ? std::optional<QString>(top.json().value(u"transformers_version"_s).toString())
        : std::nullopt;
    bool ok = false;
    const int major = version ? version->section(u'.', 0, 0).toInt(&ok) : 0;
    if (!version || version->isEmpty() || !ok) {
        e.why = version && !version->isEmpty() ? u"transformers_version '%1', not a version"_s.arg(*version)
                                               : u"no transformers_version"_s;
        return e;
    }
    e.era = major >= 5 ? MropeEra::V5 : MropeEra::V4;
    e.why = u"transformers_version %1"_s.arg(*version);
    return e;
}

class Reader
{
public:
    explicit Reader(ConfigContext &c)
        : m_c(c)
        , m_rule(ruleOf(c.model))
    { }

    // The M-RoPE keys, read once for the whole config (one rope dict serves every layer).
    void readKeys();
    void turn(ConfigLayer &layer);

private:
    ConfigContext &m_c;
    Rule m_rule;
    MropeParams m_mrope;
    bool m_sectionRead = true;
    QString m_sectionPath;
    std::optional<ConfigObject> dict() const;
    void readSection(const std::optional<ConfigObject> &d);
    void readVision();
    std::int64_t visionInteger(const std::optional<ConfigObject> &vision, const QString &key, std::int64_t hi);
};

// `rope_scaling or rope_parameters`, as convert_rope_params_to_dict takes it.
std::optional<ConfigObject> Reader::dict() const
{
    const auto scaling = m_c.text.object(u"rope_scaling"_s);
    if (scaling && !scaling->json().isEmpty())
        return scaling;
    return m_c.text.object(u"rope_parameters"_s);
}

void Reader::readKeys()
{
    m_mrope.vision = m_rule.vision;
    m_mrope.interleaved = m_rule.interleaved;
    const Era era = eraOf(m_c.top);
    m_mrope.era = era.era;
    const std::optional<ConfigObject> d = dict();
    readSection(d);
    if (d && d->has(u"mrope_interleaved"_s)) {
        const std::optional<bool> given = d->boolean(u"mrope_interleaved"_s);
        if (given && m_rule.fromKeys)
            m_mrope.interleaved = *given; // a model the table lacks: the key says how its code splits
        else if (given && *given != m_rule.interleaved)
            m_c.find(u"mrope-interleaved-ignored"_s,
                     u"%1 is %2, but %3's code %4 whatever the config says: the sections are %5"_s.arg(
                         d->pathOf(u"mrope_interleaved"_s), *given ? u"true"_s : u"false"_s, m_c.model.type,
                         m_rule.interleaved ? u"interleaves them (apply_interleaved_mrope)"_s
                                            : u"splits them into contiguous chunks (apply_multimodal_rotary_pos_emb)"_s,
                         m_rule.interleaved ? u"interleaved"_s : u"chunked"_s));
    }
    readVision();
    const bool v5 = era.era == MropeEra::V5;
    m_c.find(
        u"mrope-vision-positions"_s,
        u"M-RoPE (mrope_section %1, %2): ids (t, h, w) by %3's get_rope_index as transformers %4 has it "
        "(%5), the text after an image or video at %6; %7 put it at %8 (--mrope-era %9)"_s.arg(
            listText(m_mrope.section), m_mrope.interleaved ? u"interleaved"_s : u"chunked"_s, m_c.model.type,
            v5 ? u"5.x"_s : u"4.x"_s, era.why,
            v5 ? u"its start + max(h, w) / spatial_merge_size"_s : u"the largest id + 1"_s, v5 ? u"4.x"_s : u"5.x"_s,
            v5 ? u"the largest id + 1"_s : u"its start + max(h, w) / spatial_merge_size"_s, v5 ? u"v4"_s : u"v5"_s));
}

void Reader::readSection(const std::optional<ConfigObject> &d)
{
    m_sectionPath = d ? d->pathOf(u"mrope_section"_s) : m_c.text.pathOf(u"rope_parameters.mrope_section"_s);
    if (d && d->has(u"mrope_section"_s)) {
        if (const auto s = d->integers(u"mrope_section"_s, 0, ConfigBounds::kMaxCount, 64))
            m_mrope.section = *s;
        return;
    }
    if (m_rule.section) {
        m_mrope.section = *m_rule.section;
        m_c.find(
            u"implicit-default"_s,
            u"%1 is absent: HF's %2 takes %3"_s.arg(m_sectionPath, m_c.model.configClass, listText(*m_rule.section)));
        return;
    }
    m_sectionRead = false;
    m_c.find(u"mrope-section-missing"_s,
             u"%1 is absent: %2's attention reads config.rope_parameters[\"mrope_section\"] (KeyError)"_s.arg(
                 m_sectionPath, m_c.model.type));
}

std::int64_t Reader::visionInteger(const std::optional<ConfigObject> &vision, const QString &key, std::int64_t hi)
{
    const std::int64_t fallback = m_rule.visionDefaults.value(key).toInteger(1);
    if (vision && vision->has(key))
        return vision->integer(key, 1, hi).value_or(fallback);
    m_c.find(
        u"implicit-default"_s,
        u"%1 is absent: HF's vision config takes %2"_s.arg(vision ? vision->pathOf(key) : u"vision_config."_s + key)
            .arg(fallback));
    return fallback;
}

// get_rope_index reads self.config.vision_config: spatial_merge_size, and Qwen2.5-VL's
// tokens_per_second.
void Reader::readVision()
{
    const std::optional<ConfigObject> vision = m_c.top.object(u"vision_config"_s);
    m_mrope.spatialMergeSize = visionInteger(vision, u"spatial_merge_size"_s, MropeParams::kMaxMergeSize);
    m_mrope.prompt = promptFor(m_mrope.spatialMergeSize);
    if (m_mrope.vision == MropeVision::Qwen25Vl) {
        const auto tps = visionInteger(vision, u"tokens_per_second"_s, std::int64_t(MropeParams::kMaxTokensPerSecond));
        m_mrope.tokensPerSecond = double(tps);
    }
}

void Reader::turn(ConfigLayer &layer)
{
    Params &p = layer.params;
    p.encoding = Encoding::Mrope;
    p.mrope = m_mrope;
    const std::int64_t pairs = RopeFrequencies::pairs(p.rope);
    const auto problem = MropeAxes::sectionProblem(m_mrope, std::max<std::int64_t>(pairs, 1));
    if (m_sectionRead && problem)
        m_c.find(MropeMistakes::kSectionSum,
                 u"%1 is %2; %3's %4 takes %5 (the rotary dim %6 has %7 pairs)"_s
                     .arg(m_sectionPath, listText(m_mrope.section), m_c.model.type)
                     .arg(m_mrope.interleaved ? u"apply_interleaved_mrope"_s : u"apply_multimodal_rotary_pos_emb"_s)
                     .arg(*problem)
                     .arg(RopeFrequencies::rotaryDim(p.rope))
                     .arg(pairs),
                 layer.layerType);
    // What describe's keys (mrope_section, vision_positions, ...) do not say already.
    layer.values.append({u"mrope_interleaved"_s, m_mrope.interleaved});
    layer.values.append({u"spatial_merge_size"_s, m_mrope.spatialMergeSize});
    if (m_mrope.vision == MropeVision::Qwen25Vl)
        layer.values.append({u"tokens_per_second"_s, m_mrope.tokensPerSecond});
    if (!m_sectionRead)
        layer.described = false;
    if (!layer.described)
        return;
    settleLayer(m_c, layer,
                {{u"mrope-section"_s, m_sectionPath},
                 {u"spatial-merge-size"_s, u"vision_config.spatial_merge_size"_s},
                 {u"tokens-per-second"_s, u"vision_config.tokens_per_second"_s}});
}

} // namespace

// M-RoPE is RoPE's frequencies with (t, h, w) ids: its layers are read as RoPE reads them, then
// turned into M-RoPE's (the reason this file names RoPE, the family it builds on).
QList<ConfigLayer> read(ConfigContext &c)
{
    QList<ConfigLayer> layers = FamilyChecks::of(Encoding::Rope).readConfig(c);
    Reader reader(c);
    reader.readKeys();
    for (ConfigLayer &layer : layers) {
        if (layer.params.encoding == Encoding::Rope)
            reader.turn(layer);
    }
    return layers;
}

QList<ConfigFindings::Kind> findings()
{
    return {
        {u"mrope-section-missing"_s, Severity::Error,
         u"no mrope_section where the model's attention indexes it (KeyError)"_s},
        {u"mrope-interleaved-ignored"_s, Severity::Warning,
         u"mrope_interleaved says chunked where the model interleaves, or the reverse: the code decides"_s},
        {u"mrope-vision-positions"_s, Severity::Note,
         u"M-RoPE: the sections, the interleave and get_rope_index's rule the layers are described with"_s},
    };
}

} // namespace posenc::MropeConfig
