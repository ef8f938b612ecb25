#include "ConfigCheckBenchmark.h"

#include "check/ModelConfigCheck.h"
#include "check/models/ModelExamples.h"
#include "io/ModelConfigFile.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::ConfigCheckBenchmark {

namespace {

double msOf(const QByteArray &bytes)
{
    QElapsedTimer timer;
    timer.start();
    const ReadResult<QJsonObject> read = ModelConfigFile::parse(bytes, u"bench.json"_s);
    if (read)
        static_cast<void>(ModelConfig::check(read.value()));
    return double(timer.nsecsElapsed()) / 1e6;
}

} // namespace

QByteArray largestConfig()
{
    constexpr int kLayers = 1 << 16;
    QJsonObject text = ModelExamples::find(u"gemma-4-31b"_s)->config.value(u"text_config"_s).toObject();
    QJsonArray types;
    for (int i = 0; i < kLayers; ++i)
        types.append((i + 1) % 6 ? u"sliding_attention"_s : u"full_attention"_s);
    text.insert(u"layer_types"_s, types);
    text.insert(u"num_hidden_layers"_s, kLayers);
    QJsonObject config {{u"model_type"_s, u"gemma4"_s}, {u"text_config"_s, text}};
    const qsizetype used = QJsonDocument(config).toJson(QJsonDocument::Compact).size();
    const qsizetype room = ModelConfigFile::kMaxBytes - used - 64;
    config.insert(u"_notes"_s, QString(std::max<qsizetype>(room, 0), u'x'));
    return QJsonDocument(config).toJson(QJsonDocument::Compact);
}

QByteArray distinctConfig()
{
    constexpr int kLayers = 1 << 16;
    QJsonArray types;
    for (int i = 0; i < kLayers; ++i)
        types.append(u"attention_of_its_own_%1"_s.arg(i, 5, 10, QChar(u'0')));
    QJsonObject config {
        {u"model_type"_s, u"llama"_s},
        {u"hidden_size"_s, 4096},
        {u"num_attention_heads"_s, 32},
        {u"num_hidden_layers"_s, kLayers},
        {u"max_position_embeddings"_s, 131072},
        {u"rope_parameters"_s, QJsonObject {{u"rope_type"_s, u"default"_s}, {u"rope_theta"_s, 500000.0}}},
        {u"layer_types"_s, types}};
    const qsizetype used = QJsonDocument(config).toJson(QJsonDocument::Compact).size();
    const qsizetype room = ModelConfigFile::kMaxBytes - used - 64;
    config.insert(u"_notes"_s, QString(std::max<qsizetype>(room, 0), u'x'));
    return QJsonDocument(config).toJson(QJsonDocument::Compact);
}

namespace {

// The best and the median of `repeats` checks of `bytes`, after a warm-up.
std::pair<double, double> bestAndMedian(const QByteArray &bytes, int repeats)
{
    std::vector<double> ms;
    msOf(bytes); // warm-up: the table and the examples are read once
    for (int i = 0; i < std::max(repeats, 1); ++i)
        ms.push_back(msOf(bytes));
    std::sort(ms.begin(), ms.end());
    return {ms.front(), ms[ms.size() / 2]};
}

} // namespace

QJsonObject times(int repeats)
{
    const QByteArray largest = largestConfig();
    const auto [best, median] = bestAndMedian(largest, repeats);
    const QByteArray distinct = distinctConfig();
    const auto [distinctBest, distinctMedian] = bestAndMedian(distinct, repeats);
    double examples = 0.0;
    for (const auto &[name, bytes] : ModelExamples::files()) {
        double best = msOf(bytes);
        for (int i = 1; i < std::max(repeats, 1); ++i)
            best = std::min(best, msOf(bytes));
        examples = std::max(examples, best);
    }
    QJsonObject json;
    json[u"config_check_bytes"_s] = double(largest.size());
    json[u"config_check_ms"_s] = best;
    json[u"config_check_median_ms"_s] = median;
    json[u"config_check_distinct_bytes"_s] = double(distinct.size());
    json[u"config_check_distinct_ms"_s] = distinctBest;
    json[u"config_check_distinct_median_ms"_s] = distinctMedian;
    json[u"config_check_examples_ms"_s] = examples;
    return json;
}

} // namespace posenc::ConfigCheckBenchmark
