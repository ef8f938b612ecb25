// A config that names many layer types (ModelConfig::check): each layer type is a group of its own,
// in the order of its first layer, and layer types the reading cannot tell apart read alike, while
// one with a key of its own (a sliding layer's theta, a head dim of its type) keeps it. The check
// is linear in the layer types; its time is `posenc bench`'s config_check_distinct_ms.
#include "check/ModelConfigCheck.h"
#include "core/rope/RopeFrequencies.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QSet>
#include <QTest>

#include <functional>

namespace tst_configmanytypes {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// `n` layers of `modelType`, layer i of type types(i), 4 heads of 64, theta 1e6.
QJsonObject model(const QString &modelType, int n, const std::function<QString(int)> &types,
                  const QJsonObject &keys = {})
{
    QJsonArray listed;
    for (int i = 0; i < n; ++i)
        listed.append(types(i));
    QJsonObject o {{u"model_type"_s, modelType},        {u"hidden_size"_s, 256}, {u"num_attention_heads"_s, 4},
                   {u"num_hidden_layers"_s, n},         {u"rope_theta"_s, 1e6},  {u"layer_types"_s, listed},
                   {u"max_position_embeddings"_s, 4096}};
    for (auto it = keys.begin(); it != keys.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QString own(int i)
{
    return u"attention_of_its_own_%1"_s.arg(i);
}

} // namespace

class TestConfigManyTypes : public QObject
{
    Q_OBJECT

private slots:
    void everyTypeAGroupInOrder_data();
    void everyTypeAGroupInOrder();
    void typesWithKeysOfTheirOwn();
};

void TestConfigManyTypes::everyTypeAGroupInOrder_data()
{
    QTest::addColumn<QString>("modelType");
    QTest::addColumn<int>("layers");
    QTest::newRow("llama, 4096 types") << u"llama"_s << 4096;
    QTest::newRow("a type the table lacks, 4096 types") << u"new_model_text"_s << 4096;
    QTest::newRow("llama, 65536 types") << u"llama"_s << 65536;
}

void TestConfigManyTypes::everyTypeAGroupInOrder()
{
    QFETCH(QString, modelType);
    QFETCH(int, layers);
    const ConfigCheck check = ModelConfig::check(model(modelType, layers, own));
    QVERIFY(check.problems.isEmpty());
    QCOMPARE(check.layers.size(), qsizetype(layers));
    const ConfigLayer &first = check.layers.constFirst();
    QCOMPARE(first.params.rope.theta, 1e6);
    QCOMPARE(RopeFrequencies::rotaryDim(first.params.rope), std::int64_t(64));
    for (int i = 0; i < layers; ++i) {
        const ConfigLayer &l = check.layers.at(i);
        QCOMPARE(l.layerType, own(i));
        QCOMPARE(l.layers, std::vector<std::int64_t> {i});
        QCOMPARE(l.scheme.encoding, u"rope"_s);
        QCOMPARE(l.params.rope.theta, first.params.rope.theta);
        QCOMPARE(l.params.rope.headDim, first.params.rope.headDim);
        QCOMPARE(l.values, first.values);
    }
    // The findings of the config as a whole are said once, not once a layer type.
    QStringList ids;
    for (const ConfigFinding &f : check.findings)
        ids.append(f.id + u' ' + f.layerType);
    QCOMPARE(ids.size(), QSet<QString>(ids.cbegin(), ids.cend()).size());
    QVERIFY2(ids.size() < 16, qPrintable(ids.join(u", "_s)));
}

// Among many layer types, a sliding one with its own theta key and a full one read from the
// global key: a type with a key of its own is not read as the others.
void TestConfigManyTypes::typesWithKeysOfTheirOwn()
{
    const auto types = [](int i) {
        return i % 4 == 0 ? u"sliding_attention"_s : i % 4 == 1 ? u"full_attention"_s : own(i);
    };
    const ConfigCheck check = ModelConfig::check(
        model(u"new_model_text"_s, 64, types, {{u"swa_rope_theta"_s, 1e4}, {u"sliding_window"_s, 128}}));
    QVERIFY(check.problems.isEmpty());
    const ConfigLayer *sliding = check.layer(u"sliding_attention"_s);
    const ConfigLayer *full = check.layer(u"full_attention"_s);
    const ConfigLayer *other = check.layer(own(2));
    QVERIFY(sliding && full && other);
    QCOMPARE(sliding->params.rope.theta, 1e4);
    QCOMPARE(sliding->scheme.window, std::optional<std::int64_t>(128));
    QCOMPARE(full->params.rope.theta, 1e6);
    QCOMPARE(other->params.rope.theta, 1e6);
    QCOMPARE(sliding->layers.size(), std::size_t(16));
    QCOMPARE(other->layers, std::vector<std::int64_t> {2});
    QVERIFY(!other->scheme.window);
    QCOMPARE(check.layers.size(), qsizetype(2 + 32));
}

POSENC_TEST_GUILESS_MAIN(TestConfigManyTypes)
} // namespace tst_configmanytypes
#include "tst_configmanytypes.moc"
