// What a shipped preset's note says of how its model computes agrees with the parameters it sets:
// a note names the precision its model's code forms the sinusoid's angles in (float32, or float64
// where the code, or a paper's formula, works in double), and the preset's angles is that one. The
// Whisper preset's note said float32 while it set angles exact, and the float32 lesson then told
// that Whisper formed its angles in double.
// And what each says of the dropout on its first layer's input is recorded, cited and true to its
// parameters: the dropout lessons said "names no dropout on its input" of GPT-J, whose embd_pdrop is
// 0.0, because its preset named no dropout.
#include "io/Preset.h"
#include "support/HalfFloats.h"
#include "support/TestMain.h"

#include "check/models/ModelExamples.h"
#include "core/ParamText.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdint>

namespace tst_presetnotes {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestPresetNotes : public QObject
{
    Q_OBJECT

private slots:
    void aNoteNamesThePrecisionItsAnglesSet_data();
    void aNoteNamesThePrecisionItsAnglesSet();
    void everyPresetRecordsItsInputDropout_data();
    void everyPresetRecordsItsInputDropout();
    void inputDropoutIsNoneOrUnsaidAndNeverBesideADropout_data();
    void inputDropoutIsNoneOrUnsaidAndNeverBesideADropout();
    void aPresetsScaleIsItsCodesMultiplier_data();
    void aPresetsScaleIsItsCodesMultiplier();
    void aPresetThatAddsATermRecordsItsScale();
    void embeddingScaleIsNoneAndSetsScaleOne_data();
    void embeddingScaleIsNoneAndSetsScaleOne();
    void aCappedMaxLenRecordsTheModelsContext();
    void contextIsAnIntegerAboveMaxLen();
};

namespace {

// `value` as torch.tensor(value).to(torch.bfloat16) holds it.
double bfloat16(double value)
{
    return halffloats::toBFloat16(float(value));
}

// A preset file with `extra` keys before its "params", read as posenc reads one.
std::variant<Preset, PresetError> readPreset(const QByteArray &extra, const QByteArray &params)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"p.json"_s);
    QFile file(path);
    const QByteArray json = R"({"format": "posenc-preset", "version": 1, "title": "T", "cite": "C", "source": "S", )"
        + extra + R"("params": )" + params + "}";
    if (!dir.isValid() || !file.open(QIODevice::WriteOnly) || file.write(json) != json.size())
        return PresetError {path, u"the test could not write the preset"_s};
    file.close();
    return Presets::read(path);
}

} // namespace

void TestPresetNotes::aNoteNamesThePrecisionItsAnglesSet_data()
{
    QTest::addColumn<QString>("name");
    int rows = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.params.contains(u"angles"_s)) {
            QTest::newRow(qPrintable(preset.name)) << preset.name;
            ++rows;
        }
    }
    QVERIFY(rows >= 5); // the paper's two, the Annotated Transformer, TensorFlow's tutorial, Whisper
}

void TestPresetNotes::aNoteNamesThePrecisionItsAnglesSet()
{
    QFETCH(QString, name);
    const Preset *preset = Presets::find(name);
    QVERIFY(preset);
    const bool single = preset->note.contains(u"float32"_s);
    const bool twice = preset->note.contains(u"float64"_s) || preset->note.contains(u"double"_s);
    QVERIFY2(single != twice, qPrintable(u"the note names one precision: "_s + preset->note));
    QCOMPARE(preset->params.value(u"angles"_s), single ? u"float32"_s : u"exact"_s);
}

void TestPresetNotes::everyPresetRecordsItsInputDropout_data()
{
    QTest::addColumn<QString>("name");
    for (const Preset &preset : Presets::shipped().presets)
        QTest::newRow(qPrintable(preset.name)) << preset.name;
}

void TestPresetNotes::everyPresetRecordsItsInputDropout()
{
    QFETCH(QString, name);
    const Preset *preset = Presets::find(name);
    QVERIFY(preset);
    const QString what = name + u": "_s + preset->source;
    if (preset->params.contains(u"dropout"_s)) {
        // The model's p, cited as its source spells it: a key that drops and its value ("embd_pdrop
        // 0.0", "P_drop = 0.1", "Dropout(dropout_rate=0.1)"), the value the preset sets.
        QVERIFY(preset->inputDropout.isEmpty());
        Params set;
        QVERIFY(!ParamText::set(set, u"dropout"_s, preset->params.value(u"dropout"_s)));
        static const QRegularExpression cited(u"\\b(\\w*drop\\w*)\\s*[=:]?\\s*([0-9]+(?:\\.[0-9]+)?)\\b"_s,
                                              QRegularExpression::CaseInsensitiveOption);
        bool found = false;
        for (auto it = cited.globalMatch(preset->source); it.hasNext() && !found;)
            found = it.next().captured(2).toDouble() == set.dropout;
        QVERIFY2(found, qPrintable(u"cites no dropout key with p = %1: "_s.arg(set.dropout) + what));
    } else if (preset->inputDropout == u"none"_s) {
        // The code that has none, named by its file.
        static const QRegularExpression code(u"has no dropout on its input: .*undropped"_s);
        QVERIFY2(code.match(preset->source).hasMatch(), qPrintable(what));
        QVERIFY2(preset->source.contains(u".py"_s), qPrintable(u"names no code file: "_s + what));
    } else {
        // Only a source that is no model's config may leave it unsaid (PyTorch's, fairseq's
        // embeddings alone).
        QCOMPARE(preset->inputDropout, u"unsaid"_s);
        QVERIFY2(!preset->source.contains(u"config"_s) && !preset->cite.contains(u"config"_s), qPrintable(what));
    }
}

void TestPresetNotes::inputDropoutIsNoneOrUnsaidAndNeverBesideADropout_data()
{
    QTest::addColumn<QByteArray>("extra");
    QTest::addColumn<QByteArray>("params");
    QTest::addColumn<QString>("reason"); // empty: read
    QTest::newRow("none") << QByteArray(R"("input-dropout": "none", )") << QByteArray(R"({"d-model": "8"})")
                          << QString();
    QTest::newRow("unsaid") << QByteArray(R"("input-dropout": "unsaid", )") << QByteArray(R"({"d-model": "8"})")
                            << QString();
    QTest::newRow("a p") << QByteArray() << QByteArray(R"({"dropout": "0.1"})") << QString();
    QTest::newRow("another word") << QByteArray(R"("input-dropout": "absent", )") << QByteArray(R"({"d-model": "8"})")
                                  << u"\"input-dropout\" must be \"none\" or \"unsaid\"; got \"absent\""_s;
    QTest::newRow("a number") << QByteArray(R"("input-dropout": 0, )") << QByteArray(R"({"d-model": "8"})")
                              << u"\"input-dropout\" must be \"none\" or \"unsaid\"; got no string"_s;
    QTest::newRow("both") << QByteArray(R"("input-dropout": "none", )") << QByteArray(R"({"dropout": "0"})")
                          << u"\"input-dropout\" and the \"dropout\" of \"params\": give one of them"_s;
}

void TestPresetNotes::inputDropoutIsNoneOrUnsaidAndNeverBesideADropout()
{
    QFETCH(QByteArray, extra);
    QFETCH(QByteArray, params);
    QFETCH(QString, reason);
    const auto read = readPreset(extra, params);
    if (reason.isEmpty()) {
        QVERIFY(std::holds_alternative<Preset>(read));
        const QString word = QString::fromUtf8(extra).section(u'"', 3, 3);
        QCOMPARE(std::get<Preset>(read).inputDropout, word);
    } else {
        QVERIFY(std::holds_alternative<PresetError>(read));
        QVERIFY2(std::get<PresetError>(read).reason.contains(reason), qPrintable(std::get<PresetError>(read).reason));
    }
}

void TestPresetNotes::aPresetsScaleIsItsCodesMultiplier_data()
{
    QTest::addColumn<QString>("name");
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.params.contains(u"scale"_s) || !preset.embeddingScale.isEmpty())
            QTest::newRow(qPrintable(preset.name)) << preset.name;
    }
}

// What a preset's s says of its model's code is cited and true (Preset::embeddingScale): no
// multiplier, s = 1, shown in the code named; Gemma's normalizer √hidden_size as bfloat16 holds it
// (√2560 = 50.596 is 50.5); √d_model where the source multiplies by it. Qwen2-VL's preset named no s,
// and the NoPE lesson showed it at √3584 = 59.87.
void TestPresetNotes::aPresetsScaleIsItsCodesMultiplier()
{
    QFETCH(QString, name);
    const Preset *preset = Presets::find(name);
    QVERIFY(preset);
    const QString what = name + u": "_s + preset->source;
    const QString scale = preset->params.value(u"scale"_s);
    const auto applied = preset->applyTo(Params {});
    QVERIFY(std::holds_alternative<Params>(applied));
    const Params &set = std::get<Params>(applied);
    if (preset->embeddingScale == u"none"_s) {
        QCOMPARE(scale, u"1"_s);
        QVERIFY2(preset->source.contains(u"multiplies its embeddings by nothing"_s), qPrintable(what));
        QVERIFY2(preset->source.contains(u".py"_s), qPrintable(u"names no code file: "_s + what));
    } else if (scale == u"sqrt"_s) {
        QVERIFY2(preset->source.contains(u"√d_model"_s) || preset->source.contains(u"sqrt(d_model)"_s)
                     || preset->source.contains(u"math.sqrt(embed_dim)"_s)
                     || preset->source.contains(u"sections 3.4"_s),
                 qPrintable(what));
    } else if (preset->source.contains(u"bfloat16"_s)) {
        // hidden_size**0.5 in float32, cast to the weights' bfloat16 (Gemma*TextScaledWordEmbedding).
        QVERIFY2(preset->source.contains(u"embed_scale=self.config.hidden_size**0.5"_s), qPrintable(what));
        QVERIFY2(preset->source.contains(u"self.embed_scale.to(self.weight.dtype)"_s), qPrintable(what));
        QCOMPARE(set.customScale, bfloat16(std::sqrt(double(set.dModel))));
        QVERIFY(set.customScale != std::sqrt(double(set.dModel)));
    } else {
        // A library's own default, no model's: PyTorch's nn.Embedding scales nothing.
        QCOMPARE(scale, u"1"_s);
        QVERIFY2(!preset->source.contains(u"config"_s) && !preset->cite.contains(u"config"_s), qPrintable(what));
    }
}

// Every preset of a model that adds its position term to its inputs says what its code multiplies
// the embeddings by: DiT-XL/2's and MAE's said nothing, and dropout-on-sum showed them at the
// lesson's √d (DiT.forward, facebookresearch/DiT models.py, and MaskedAutoencoderViT.forward_encoder,
// facebookresearch/mae models_mae.py, multiply by nothing).
void TestPresetNotes::aPresetThatAddsATermRecordsItsScale()
{
    int adding = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto applied = preset.applyTo(Params {});
        QVERIFY(std::holds_alternative<Params>(applied));
        if (!std::get<Params>(applied).hasPositionTerm())
            continue;
        ++adding;
        QVERIFY2(preset.params.contains(u"scale"_s) || !preset.embeddingScale.isEmpty(), qPrintable(preset.name));
    }
    QVERIFY(adding >= 10);
}

void TestPresetNotes::embeddingScaleIsNoneAndSetsScaleOne_data()
{
    QTest::addColumn<QByteArray>("extra");
    QTest::addColumn<QByteArray>("params");
    QTest::addColumn<QString>("reason"); // empty: read
    QTest::newRow("none") << QByteArray(R"("embedding-scale": "none", )") << QByteArray(R"({"scale": "1"})")
                          << QString();
    QTest::newRow("a scale") << QByteArray() << QByteArray(R"({"scale": "50.5"})") << QString();
    QTest::newRow("another word") << QByteArray(R"("embedding-scale": "unsaid", )") << QByteArray(R"({"scale": "1"})")
                                  << u"\"embedding-scale\" must be \"none\"; got \"unsaid\""_s;
    QTest::newRow("a number") << QByteArray(R"("embedding-scale": 1, )") << QByteArray(R"({"scale": "1"})")
                              << u"\"embedding-scale\" must be \"none\"; got no string"_s;
    QTest::newRow("none at sqrt") << QByteArray(R"("embedding-scale": "none", )") << QByteArray(R"({"scale": "sqrt"})")
                                  << u"\"embedding-scale\": \"none\" is s = 1: \"params\" must set \"scale\": \"1\""_s;
    QTest::newRow("none unset") << QByteArray(R"("embedding-scale": "none", )") << QByteArray(R"({"d-model": "8"})")
                                << u"must set \"scale\": \"1\""_s;
}

void TestPresetNotes::embeddingScaleIsNoneAndSetsScaleOne()
{
    QFETCH(QByteArray, extra);
    QFETCH(QByteArray, params);
    QFETCH(QString, reason);
    const auto read = readPreset(extra, params);
    if (reason.isEmpty()) {
        QVERIFY(std::holds_alternative<Preset>(read));
        QCOMPARE(std::get<Preset>(read).embeddingScale, QString::fromUtf8(extra).section(u'"', 3, 3));
    } else {
        QVERIFY(std::holds_alternative<PresetError>(read));
        QVERIFY2(std::get<PresetError>(read).reason.contains(reason), qPrintable(std::get<PresetError>(read).reason));
    }
}

// A preset whose max_len is capped below its model's context says so in its note and records the
// context (Preset::context): the rope-scaling lesson said Llama 4 Scout "runs to L = 131072", the
// cap, where its config's max_position_embeddings is 10485760. The context is the example config's,
// where the preset names one, and otherwise the number its note gives.
void TestPresetNotes::aCappedMaxLenRecordsTheModelsContext()
{
    int capped = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const bool says = preset.note.contains(u"max_len is capped"_s);
        QVERIFY2(says == (preset.context > 0), qPrintable(preset.name));
        if (!says)
            continue;
        ++capped;
        if (const ModelExamples::Example *example = ModelExamples::find(preset.config)) {
            const QJsonObject text = example->config.value(u"text_config"_s).toObject();
            const QJsonValue given = text.contains(u"max_position_embeddings"_s)
                ? text.value(u"max_position_embeddings"_s)
                : example->config.value(u"max_position_embeddings"_s);
            QVERIFY2(given.isDouble(), qPrintable(preset.name));
            QCOMPARE(preset.context, std::int64_t(given.toDouble()));
        } else {
            QVERIFY2(preset.note.contains(QString::number(preset.context)), qPrintable(preset.name + u": "_s + preset.note));
        }
    }
    QVERIFY(capped > 0);
}

void TestPresetNotes::contextIsAnIntegerAboveMaxLen()
{
    const auto above = readPreset(R"("context": 4096, )", R"({"max-len": "2048"})");
    QVERIFY(std::holds_alternative<Preset>(above));
    QCOMPARE(std::get<Preset>(above).context, std::int64_t(4096));
    for (const QByteArray &bad : {QByteArray(R"("context": 2048, )"), QByteArray(R"("context": 4096.5, )"),
                                  QByteArray(R"("context": "4096", )")}) {
        const auto read = readPreset(bad, R"({"max-len": "2048"})");
        QVERIFY2(std::holds_alternative<PresetError>(read), bad.constData());
        QVERIFY2(std::get<PresetError>(read).reason.contains(u"\"context\" must be an integer above the preset's max_len 2048"_s),
                 qPrintable(std::get<PresetError>(read).reason));
    }
}

POSENC_TEST_GUILESS_MAIN(TestPresetNotes)
} // namespace tst_presetnotes
#include "tst_presetnotes.moc"
