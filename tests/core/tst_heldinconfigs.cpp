// Every config of tests/data/configs/heldin (2025-26 models posenc was not written for) read layer
// by layer (ModelConfig::check) against its <Model>.truth.json, which says what the model's own
// code computes (heldin/README.md gives the schema and the code each field was read from). A
// layer is right when its encoding, rotary_dim, rotary place, theta, rope_type, layout, attention
// factor (what multiplies cos and sin), softmax scale (what multiplies q.k), sliding window (and whether
// it reaches both sides) and (M-RoPE) sections and interleave all
// match; the row names each wrong one.
#include "check/ModelConfigCheck.h"
#include "core/FamilySpec.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"
#include "support/TestFiles.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <map>

namespace tst_heldinconfigs {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The truth's words for what posenc reports: "rope" and "mrope" turn, "nope" is attention without
// position, "none" a mixer that is not attention, "cross_attention" attention to another modality.
QString encodingOf(const ConfigLayer &layer)
{
    const QString e = layer.scheme.encoding;
    if (e == u"none"_s)
        return u"nope"_s;
    if (e == u"linear"_s || e == u"ssm"_s || e == u"conv"_s || e == u"mlp"_s)
        return u"none"_s;
    return e;
}

// A value of the truth as JSON writes it.
QString valueText(const QJsonValue &v)
{
    const QByteArray array = QJsonDocument(QJsonArray {v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

bool same(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

// The fields of `layer` that differ from the truth's group, as "field truth/posenc".
QStringList wrongFields(const ConfigLayer &layer, const QJsonObject &truth)
{
    QStringList wrong;
    const auto check = [&](const QString &field, bool ok, const QString &got) {
        if (!ok)
            wrong.append(u"%1 %2/%3"_s.arg(field, valueText(truth.value(field)), got));
    };
    const QString encoding = encodingOf(layer);
    check(u"encoding"_s, encoding == truth.value(u"encoding"_s).toString(), encoding);
    // The whole multiplier of q.k, where the layer attends and the truth says it.
    const QJsonValue softmax = truth.value(u"softmax_scale"_s);
    if (softmax.isDouble())
        check(u"softmax_scale"_s, layer.scheme.softmaxScale && same(*layer.scheme.softmaxScale, softmax.toDouble()),
              layer.scheme.softmaxScale ? QString::number(*layer.scheme.softmaxScale, 'g', 12) : u"null"_s);
    if (encoding != u"rope"_s && encoding != u"mrope"_s)
        return wrong;
    const RopeParams &r = layer.params.rope;
    const std::int64_t rotary = RopeFrequencies::rotaryDim(r);
    check(u"rotary_dim"_s, rotary == truth.value(u"rotary_dim"_s).toInteger(-1), QString::number(rotary));
    const QString place = layer.scheme.rotaryPlace == u"mla-tail"_s ? u"suffix"_s : layer.scheme.rotaryPlace;
    check(u"rotary_place"_s, place == truth.value(u"rotary_place"_s).toString(), place);
    check(u"rope_theta"_s, same(r.theta, truth.value(u"rope_theta"_s).toDouble()), QString::number(r.theta));
    const QString type = RopeTypes::word(r.type);
    check(u"rope_type"_s, type == truth.value(u"rope_type"_s).toString(), type);
    const QString layout = r.layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s;
    check(u"layout"_s, layout == truth.value(u"layout"_s).toString(), layout);
    const double factor = RopeFrequencies::attentionFactor(layer.params);
    check(u"attention_factor"_s, same(factor, truth.value(u"attention_factor"_s).toDouble()),
          QString::number(factor, 'g', 12));
    if (encoding == u"mrope"_s) {
        QJsonArray section;
        for (const std::int64_t v : layer.params.mrope.section)
            section.append(qint64(v));
        check(u"mrope_section"_s, section == truth.value(u"mrope_section"_s).toArray(), valueText(section));
        const bool interleaved = layer.params.mrope.interleaved;
        check(u"mrope_interleaved"_s, interleaved == truth.value(u"mrope_interleaved"_s).toBool(),
              interleaved ? u"true"_s : u"false"_s);
    }
    const QJsonValue window = truth.value(u"sliding_window"_s);
    const bool windowOk = window.isNull() ? !layer.scheme.window : layer.scheme.window == window.toInteger();
    check(u"sliding_window"_s, windowOk, layer.scheme.window ? QString::number(*layer.scheme.window) : u"null"_s);
    // A bidirectional window reaches as far after the query as before it (the truth says so where it does).
    const bool bothSides = truth.value(u"window_both_sides"_s).toBool(false);
    check(u"window_both_sides"_s, layer.scheme.windowBothSides == bothSides,
          layer.scheme.windowBothSides ? u"true"_s : u"false"_s);
    return wrong;
}

} // namespace

class TestHeldinConfigs : public QObject
{
    Q_OBJECT

private slots:
    void everyLayer_data();
    void everyLayer();
};

void TestHeldinConfigs::everyLayer_data()
{
    QTest::addColumn<QString>("model");
    const QDir dir(QStringLiteral(POSENC_HELDIN));
    const QStringList truths = dir.entryList({u"*.truth.json"_s}, QDir::Files, QDir::Name);
    QVERIFY(truths.size() >= 12);
    for (const QString &t : truths) {
        const QString model = t.chopped(QStringLiteral(".truth.json").size());
        QTest::newRow(qPrintable(model)) << model;
    }
}

void TestHeldinConfigs::everyLayer()
{
    QFETCH(QString, model);
    const QDir dir(QStringLiteral(POSENC_HELDIN));
    const QJsonObject truth = TestFiles::jsonObject(dir.filePath(model + u".truth.json"_s));
    const QJsonObject config = TestFiles::jsonObject(dir.filePath(truth.value(u"config"_s).toString()));
    QVERIFY(!truth.isEmpty() && !config.isEmpty());
    const ConfigCheck check = ModelConfig::check(config);
    QVERIFY2(check.problems.isEmpty(), qPrintable(check.problems.value(0).key));
    std::map<std::int64_t, const ConfigLayer *> byLayer;
    for (const ConfigLayer &layer : check.layers) {
        for (const std::int64_t i : layer.layers)
            byLayer[i] = &layer;
    }
    // One line per wrong group of fields: "layers 0, 1: rotary_dim 64/512, ...".
    std::map<QString, QList<std::int64_t>> misses;
    std::int64_t right = 0;
    std::int64_t total = 0;
    for (const QJsonValue &g : truth.value(u"layer_groups"_s).toArray()) {
        const QJsonObject group = g.toObject();
        for (const QJsonValue &l : group.value(u"layers"_s).toArray()) {
            const std::int64_t i = l.toInteger();
            ++total;
            const auto it = byLayer.find(i);
            const QStringList wrong
                = it == byLayer.end() ? QStringList {u"no layer"_s} : wrongFields(*it->second, group);
            if (wrong.isEmpty())
                ++right;
            else
                misses[wrong.join(u", "_s)].append(i);
        }
    }
    QStringList lines;
    for (const auto &[fields, layers] : misses) {
        QStringList indices;
        for (const std::int64_t i : layers)
            indices.append(QString::number(i));
        lines.append(u"layers %1: %2"_s.arg(indices.join(u","_s), fields));
    }
    qInfo("%s: %lld of %lld layers right", qPrintable(model), static_cast<long long>(right),
          static_cast<long long>(total));
    QVERIFY2(lines.isEmpty(), qPrintable(lines.join(u"; "_s)));
}

POSENC_TEST_GUILESS_MAIN(TestHeldinConfigs)
} // namespace tst_heldinconfigs
#include "tst_heldinconfigs.moc"
