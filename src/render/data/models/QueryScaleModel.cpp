#include "QueryScaleModel.h"

#include "ModelFigureOptions.h"

#include "check/CheckReport.h"
#include "check/FamilyCheck.h"
#include "check/models/ModelExamples.h"
#include "check/models/ModelTable.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"

#include <QHash>
#include <QMutex>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Positions drawn for the examples: to 2^21 (two million); a config's to its own context.
constexpr double kLastPosition = double(1 << 21);

// The steps of a query scaling from position 1 to `last`: each value from the position it starts.
QueryScaleData::Curve steps(const QString &who, const QueryScale &q, double last)
{
    QueryScaleData::Curve c;
    c.label = u"%1: %2"_s.arg(who, q.words());
    c.terse = q.kind == QueryScale::Kind::Temperature
        ? u"%1: temperature, %2"_s.arg(who).arg(q.length)
        : u"%1: β %2, L0 %3"_s.arg(who, NumberText::compact(q.scale, 3)).arg(q.length);
    c.positions.append(1.0);
    c.values.append(q.at(1));
    // The scaling changes at firstRise() + k L (k = 0, 1, ...): floor((p + 1) / L) and floor(p / L) alike.
    for (double p = double(q.firstRise()); p <= last; p += double(q.length)) {
        c.positions.append(p);
        c.values.append(q.at(std::int64_t(p)));
    }
    c.positions.append(last);
    c.values.append(q.at(std::int64_t(last)));
    return c;
}

QueryScaleData::Curve constant(const QString &who, const QString &what, double value, double last)
{
    return {u"%1: %2"_s.arg(who, what),
            u"%1 ×%2"_s.arg(who, NumberText::compact(value, 5)),
            {1.0, last},
            {value, value},
            true};
}

// The yarn factor of a rotary layer: attention_factor^2 on cos and sin, times the softmax factor
// its attention applies (LayerScheme::mscaleFactor); 1 without scaling.
double logitFactor(const ConfigLayer &layer)
{
    const auto entries = CheckReport::layerDescription(layer);
    for (const auto &[key, value] : entries.value_or(Description::Entries())) {
        if (key == u"logit_scale"_s)
            return std::get<double>(value);
    }
    return 1.0;
}

void add(QueryScaleData &data, const QueryScaleData::Curve &curve)
{
    // Layer types alike (gpt-oss's sliding and full yarn) are one curve.
    const bool known = std::any_of(data.curves.cbegin(), data.curves.cend(),
                                   [&](const QueryScaleData::Curve &c) { return c.label == curve.label; });
    if (!known)
        data.curves.append(curve);
}

void addLayers(QueryScaleData &data, const QString &model, const ConfigCheck &check, bool allTypes)
{
    for (const ConfigLayer &l : check.layers) {
        // One config's curves are named by layer type (the title names the model).
        const QString who = allTypes ? l.layerType : model;
        if (!l.scheme.query.isNone()) {
            const QueryScale &q = l.scheme.query;
            add(data, steps(who, q, data.lastPosition));
        } else if (FamilyChecks::of(l.params.encoding).rotary) {
            const double f = logitFactor(l);
            if (f != 1.0)
                add(data, constant(who, u"yarn, logits × %1"_s.arg(NumberText::compact(f, 5)), f, data.lastPosition));
        }
    }
}

const ConfigCheck &exampleCheck(const QString &name)
{
    static QHash<QString, ConfigCheck> checks;
    static QMutex mutex;
    const QMutexLocker lock(&mutex);
    if (!checks.contains(name)) {
        const ModelExamples::Example *example = ModelExamples::find(name);
        checks.insert(name, example ? ModelConfig::check(example->config) : ConfigCheck());
    }
    return checks[name];
}

QString queryScaleDefault()
{
    return QString();
}

} // namespace

QueryScaleData QueryScaleModel::examples()
{
    QueryScaleData data;
    data.lastPosition = kLastPosition;
    addLayers(data, u"Llama 4 Scout NoPE layers"_s, exampleCheck(u"llama-4-scout"_s), false);
    // Ministral3Config's default rope_parameters: beta 0.1 over L0 16384 (its table row's).
    const QJsonObject ministral = ModelTable::find(u"ministral3"_s)->defaultRope;
    const QueryScale hfDefault {QueryScale::Kind::Beta, ministral.value(u"llama_4_scaling_beta"_s).toDouble(),
                                ministral.value(u"original_max_position_embeddings"_s).toInteger()};
    data.curves.append(steps(u"Ministral 3 (HF default)"_s, hfDefault, data.lastPosition));
    addLayers(data, u"Devstral Small 2"_s, exampleCheck(u"devstral-small-2"_s), false);
    addLayers(data, u"DeepSeek-V3"_s, exampleCheck(u"deepseek-v3"_s), false);
    addLayers(data, u"gpt-oss-20b"_s, exampleCheck(u"gpt-oss-20b"_s), false);
    // The numbers the issue quotes: Llama 4's first rise, Ministral 3's at 128K.
    const QueryScale llama4 {QueryScale::Kind::Temperature, 0.1, 8192};
    data.marks.append(
        {double(llama4.firstRise()), llama4.at(llama4.firstRise()),
         u"%1 from %2"_s.arg(NumberText::compact(llama4.at(llama4.firstRise()), 5)).arg(llama4.firstRise())});
    data.marks.append(
        {131072.0, hfDefault.at(131072), u"%1 at 131072"_s.arg(NumberText::compact(hfDefault.at(131072), 5))});
    return data;
}

QueryScaleData QueryScaleModel::ofConfig(const QString &name, const ConfigCheck &check)
{
    QueryScaleData data;
    data.source = name;
    std::int64_t context = 0;
    for (const ConfigLayer &l : check.layers)
        context = std::max(context, l.params.maxLen);
    // Its context, not past it: Gemma 3's axis ran to two million beyond its 131072 positions.
    data.lastPosition = context > 1 ? double(context) : kLastPosition;
    addLayers(data, name, check, true);
    // Named as its layers are, by what they are: the title names the model (a lesson's page, which
    // names it in its line, said "ModernBERT base" three times, in the line, the layer stack's
    // title and this key).
    if (data.curves.isEmpty())
        data.curves.append(constant(u"every layer"_s, u"no query or logit scaling"_s, 1.0, data.lastPosition));
    return data;
}

QString QueryScaleModel::name() const
{
    return u"query-scale"_s;
}

QString QueryScaleModel::title() const
{
    return u"Query scale"_s;
}

QString QueryScaleModel::summary() const
{
    return u"what multiplies the logits q·k against the position (log axis): Llama 4's temperature, Mistral 3's "
           "llama_4_scaling_beta and yarn's factors, for the examples or a config"_s;
}

QList<FigureOption> QueryScaleModel::ownOptions() const
{
    return {ModelFigureOptions::config(queryScaleDefault())};
}

QList<Quantity> QueryScaleModel::inputs(const FigureState &) const
{
    return {};
}

QList<ParamError> QueryScaleModel::checkOptions(const Params &, const FigureState &state) const
{
    return ModelFigureOptions::check(state, queryScaleDefault());
}

FigureResult QueryScaleModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    const auto loaded = ModelFigureOptions::load(request.state, queryScaleDefault());
    return {std::make_shared<const QueryScaleData>(loaded ? ofConfig(loaded->name, loaded->check) : examples()),
            std::nullopt};
}

} // namespace posenc
