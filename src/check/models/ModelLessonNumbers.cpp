#include "ModelLessonNumbers.h"

#include "ModelExamples.h"

#include "check/ModelConfigCheck.h"
#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"

#include <QHash>
#include <QMutex>

#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::ModelLessonNumbers {

namespace {

using LessonNumbers::Number;

// An example's check, made once.
const ConfigCheck &checkOf(const QString &example)
{
    static QHash<QString, ConfigCheck> checks;
    static QMutex mutex;
    const QMutexLocker lock(&mutex);
    if (!checks.contains(example)) {
        const ModelExamples::Example *e = ModelExamples::find(example);
        checks.insert(example, e ? ModelConfig::check(e->config) : ConfigCheck());
    }
    return checks[example];
}

// The layer type `type` of the example, or null.
const ConfigLayer *layerOf(const QString &example, const QString &type)
{
    return checkOf(example).layer(type);
}

Number layers(const QString &example, const QString &type)
{
    const ConfigLayer *l = layerOf(example, type);
    return l ? LessonNumbers::integer(std::int64_t(l->layers.size())) : LessonNumbers::none(u"no such layers"_s);
}

Number allLayers(const QString &example)
{
    std::int64_t n = 0;
    for (const ConfigLayer &l : checkOf(example).layers)
        n += std::int64_t(l.layers.size());
    return LessonNumbers::integer(n);
}

Number theta(const QString &example, const QString &type)
{
    const ConfigLayer *l = layerOf(example, type);
    return l ? LessonNumbers::real(l->params.rope.theta) : LessonNumbers::none(u"no such layers"_s);
}

// The slowest pair's wavelength 2π/θ_i after the layer's scaling.
Number slowest(const QString &example, const QString &type)
{
    const ConfigLayer *l = layerOf(example, type);
    if (!l || !FamilyChecks::of(l->params.encoding).rotary || !l->params.isValid())
        return LessonNumbers::none(u"no rotary layers"_s);
    return LessonNumbers::real(FamilyChecks::of(l->params.encoding).rotary->numbers(l->params).wavelengthMax);
}

// Llama 4 Scout's query temperature on its NoPE layers at position p.
Number temperature(std::int64_t p)
{
    const ConfigLayer *l = layerOf(u"llama-4-scout"_s, u"full_attention"_s);
    if (!l || l->scheme.query.isNone())
        return LessonNumbers::none(u"no query temperature"_s);
    return LessonNumbers::real(l->scheme.query.at(p));
}

Number window(const QString &example, const QString &type)
{
    const ConfigLayer *l = layerOf(example, type);
    if (!l || !(l->scheme.window || l->scheme.chunk))
        return LessonNumbers::none(u"no window"_s);
    return LessonNumbers::integer(l->scheme.window ? *l->scheme.window : *l->scheme.chunk);
}

} // namespace

QList<LessonNumbers::Entry> entries()
{
    const QString scout = u"llama-4-scout"_s;
    const QString gemma = u"gemma-3-4b"_s;
    const QString chunked = u"chunked_attention"_s;
    const QString full = u"full_attention"_s;
    const QString sliding = u"sliding_attention"_s;
    return {
        {u"scout_layers"_s, u"Llama 4 Scout's layers"_s, [=](const Params &) { return allLayers(scout); }},
        {u"scout_rope_layers"_s, u"Llama 4 Scout's chunked layers, where RoPE turns"_s,
         [=](const Params &) { return layers(scout, chunked); }},
        {u"scout_nope_layers"_s, u"Llama 4 Scout's NoPE layers, which attend to the whole context"_s,
         [=](const Params &) { return layers(scout, full); }},
        {u"scout_chunk"_s, u"Llama 4 Scout's attention_chunk_size"_s,
         [=](const Params &) { return window(scout, chunked); }},
        {u"scout_theta"_s, u"Llama 4 Scout's rope_theta"_s, [=](const Params &) { return theta(scout, chunked); }},
        {u"scout_slowest"_s, u"the wavelength of Llama 4 Scout's slowest pair, 2π θ^((r − 2)/r)"_s,
         [=](const Params &) { return slowest(scout, chunked); }},
        {u"scout_temp_8190"_s, u"Llama 4's query temperature at position 8190"_s,
         [](const Params &) { return temperature(8190); }},
        {u"scout_temp_8191"_s, u"Llama 4's query temperature from position 8191: 1 + 0.1 ln 2"_s,
         [](const Params &) { return temperature(8191); }},
        {u"scout_temp_65535"_s, u"Llama 4's query temperature at position 65535: 1 + 0.1 ln 9"_s,
         [](const Params &) { return temperature(65535); }},
        {u"scout_temp_10m"_s, u"Llama 4's query temperature at position 10,485,759 (its 10M context)"_s,
         [](const Params &) { return temperature(10485759); }},
        {u"gemma_layers"_s, u"Gemma 3 4B's layers"_s, [=](const Params &) { return allLayers(gemma); }},
        {u"gemma_local_layers"_s, u"Gemma 3 4B's sliding-window layers"_s,
         [=](const Params &) { return layers(gemma, sliding); }},
        {u"gemma_global_layers"_s, u"Gemma 3 4B's full layers"_s, [=](const Params &) { return layers(gemma, full); }},
        {u"gemma_window"_s, u"Gemma 3 4B's sliding_window"_s, [=](const Params &) { return window(gemma, sliding); }},
        {u"gemma_local_theta"_s, u"Gemma 3's local theta (rope_local_base_freq)"_s,
         [=](const Params &) { return theta(gemma, sliding); }},
        {u"gemma_global_theta"_s, u"Gemma 3's global theta"_s, [=](const Params &) { return theta(gemma, full); }},
        {u"gemma_local_slowest"_s, u"the wavelength of Gemma 3's slowest local pair"_s,
         [=](const Params &) { return slowest(gemma, sliding); }},
        {u"gemma_global_slowest"_s, u"the wavelength of Gemma 3's slowest global pair, linear ×8"_s,
         [=](const Params &) { return slowest(gemma, full); }},
    };
}

} // namespace posenc::ModelLessonNumbers
