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

QJsonObject times(int repeats)
{
    const QByteArray largest = largestConfig();
    std::vector<double> big;
    msOf(largest); // warm-up: the table and the examples are read once
    for (int i = 0; i < std::max(repeats, 1); ++i)
        big.push_back(msOf(largest));
    std::sort(big.begin(), big.end());
    double examples = 0.0;
    for (const auto &[name, bytes] : ModelExamples::files()) {
        double best = msOf(bytes);
        for (int i = 1; i < std::max(repeats, 1); ++i)
            best = std::min(best, msOf(bytes));
        examples = std::max(examples, best);
    }
    QJsonObject json;
    json[u"config_check_bytes"_s] = double(largest.size());
    json[u"config_check_ms"_s] = big.front();
    json[u"config_check_median_ms"_s] = big[big.size() / 2];
    json[u"config_check_examples_ms"_s] = examples;
    return json;
}

} // namespace posenc::ConfigCheckBenchmark
