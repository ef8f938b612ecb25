#include "HeadMapModel.h"

#include "ModelFigureOptions.h"
#include "ModelText.h"

#include "check/FamilyCheck.h"
#include "check/ModelConfigCheck.h"
#include "check/models/ModelExamples.h"
#include "core/FamilySpec.h"

#include <cmath>
#include <limits>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

constexpr double kPasses = std::numeric_limits<double>::quiet_NaN();
constexpr double kStill = std::numeric_limits<double>::infinity();

// A rotary layer's head, column by column, as HF applies its cos and sin: rotate_half pairs
// (j, j + r/2) or interleaved (2i, 2i + 1) over the first rotary_dim columns, or over MLA's last
// qk_rope_head_dim; the other columns pass.
std::vector<double> columnsOf(const ConfigLayer &layer, const RotaryLayers &rotaryLayers)
{
    const RotaryNumbers n = rotaryLayers.numbers(layer.params);
    const std::int64_t head = std::max(layer.scheme.headDim, n.headDim);
    const std::int64_t rotary = n.rotaryDim;
    const std::int64_t first = layer.scheme.rotaryPlace == u"mla-tail"_s ? head - rotary : 0;
    const std::vector<double> &inv = n.inverseFrequencies;
    std::vector<double> columns(std::size_t(head), kPasses);
    for (std::int64_t j = 0; j < rotary && first + j < head; ++j) {
        const std::int64_t pair = n.interleaved ? j / 2 : j % std::max<std::int64_t>(rotary / 2, 1);
        const double w = std::size_t(pair) < inv.size() ? inv[std::size_t(pair)] : 0.0;
        columns[std::size_t(first + j)] = w > 0.0 ? 2.0 * std::numbers::pi / w : kStill;
    }
    return columns;
}

void addRow(HeadMapData &data, const QString &who, const ConfigLayer &layer, const QString &tick)
{
    const std::optional<RotaryLayers> &rotary = FamilyChecks::of(layer.params.encoding).rotary;
    if (!rotary || !layer.described || !layer.params.isValid())
        return;
    HeadMapData::Row row;
    row.label = u"%1, %2: %3"_s.arg(who, layer.layerType, ModelText::position(layer));
    row.terse = u"%1: %2"_s.arg(tick, ModelText::terse(layer));
    row.tick = tick;
    row.wavelengths = columnsOf(layer, *rotary);
    for (const double w : row.wavelengths) {
        if (!std::isfinite(w))
            continue;
        data.shortest = data.shortest == 0.0 ? w : std::min(data.shortest, w);
        data.longest = std::max(data.longest, w);
    }
    data.widest = std::max(data.widest, std::int64_t(row.wavelengths.size()));
    data.rows.append(row);
}

QString headMapDefault()
{
    return QString();
}

} // namespace

HeadMapData HeadMapModel::examples()
{
    HeadMapData data;
    // A whole head, prefix partial rotary, proportional with its zero-frequency tail, MLA's tail.
    const QList<std::pair<QString, QString>> examples {{u"llama-4-scout"_s, u"chunked_attention"_s},
                                                       {u"glm-4.5"_s, u"full_attention"_s},
                                                       {u"gemma-4-31b"_s, u"full_attention"_s},
                                                       {u"deepseek-v3"_s, u"full_attention"_s}};
    for (const auto &[name, type] : examples) {
        const ModelExamples::Example *example = ModelExamples::find(name);
        if (!example)
            continue;
        const ConfigCheck check = ModelConfig::check(example->config);
        if (const ConfigLayer *layer = check.layer(type))
            addRow(data, example->title.section(u" ("_s, 0, 0), *layer,
                   example->title.section(u" ("_s, 0, 0).section(u'/', -1));
    }
    return data;
}

HeadMapData HeadMapModel::ofConfig(const QString &name, const ConfigCheck &check)
{
    HeadMapData data;
    data.source = name;
    for (const ConfigLayer &layer : check.layers)
        addRow(data, name, layer, layer.layerType);
    return data;
}

QString HeadMapModel::name() const
{
    return u"head-map"_s;
}

QString HeadMapModel::title() const
{
    return u"Head map"_s;
}

QString HeadMapModel::summary() const
{
    return u"which columns of a head rotate and at what wavelength: a whole head, prefix partial rotary, "
           "proportional RoPE's zero-frequency tail and MLA's tail, for the examples or a config"_s;
}

QList<FigureOption> HeadMapModel::ownOptions() const
{
    return {ModelFigureOptions::config(headMapDefault())};
}

QList<Quantity> HeadMapModel::inputs(const FigureState &) const
{
    return {};
}

QList<ParamError> HeadMapModel::checkOptions(const Params &, const FigureState &state) const
{
    return ModelFigureOptions::check(state, headMapDefault());
}

FigureResult HeadMapModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    const auto loaded = ModelFigureOptions::load(request.state, headMapDefault());
    return {std::make_shared<const HeadMapData>(loaded ? ofConfig(loaded->name, loaded->check) : examples()),
            std::nullopt};
}

} // namespace posenc
