// The rules by which `posenc check --config`, `describe --config` and the lessons read configs of
// models posenc has no preset for, over every config of tests/data/configs (its top, heldin/ and
// unseen/, whose README cites each file): a scheme only where a key names it, a key that chooses
// another family (BERT's position_embedding_type alibi), each model's own embedding dropout and scale
// keys, and the context key its code reads.
#include "ConfigCheckRun.h"
#include "support/TestMain.h"

#include <QDir>
#include <QTest>

namespace tst_cliunseenconfigs {
using namespace CliRun;
using namespace ConfigCheckRun;

namespace {

QString unseen(const QString &name)
{
    return QStringLiteral(POSENC_CONFIGS) + u"/unseen/"_s + name + u".json"_s;
}

// Every config file of tests/data/configs, its subfolders' too (the truth files of heldin/ aside).
QStringList everyConfig()
{
    QStringList paths;
    for (const QString &folder : {QString(), u"heldin"_s, u"unseen"_s}) {
        const QDir dir(QStringLiteral(POSENC_CONFIGS) + u'/' + folder);
        for (const QString &file : dir.entryList({u"*.json"_s}, QDir::Files)) {
            if (!file.contains(u"truth"_s))
                paths.append(dir.filePath(file));
        }
    }
    return paths;
}

QJsonObject fileJson(const QString &path)
{
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(file.readAll()).object();
}

// Whether a config's own keys (or its text model's) name RoPE: a rope_* or rotary_* key, or
// position_embedding_type rotary. Written here apart from the program's reading.
bool namesRope(const QJsonObject &o)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString &k = it.key();
        if (k.startsWith(u"rope_"_s) || k.startsWith(u"rotary_"_s) || k.contains(u"_rotary_"_s)
            || k.endsWith(u"_rope"_s) || (it.value().isObject() && namesRope(it.value().toObject())))
            return true;
    }
    const QString type = o.value(u"position_embedding_type"_s).toString();
    return type == u"rotary"_s || type == u"rope"_s;
}

QStringList encodings(const Checked &c)
{
    QStringList list;
    for (const QJsonValue &l : c.json.value(u"layers"_s).toArray())
        list.append(l.toObject().value(u"encoding"_s).toString());
    return list;
}

} // namespace

class TestCliUnseenConfigs : public QObject
{
    Q_OBJECT

private slots:
    void ropeOnlyFromEvidence_data();
    void ropeOnlyFromEvidence();
    void noSchemeIsRefusedInOneLine();
    void guessNamesThePositionKeysItLeaves();
    void learnedTableByItsKeys();
    void alibiChosenByItsKey_data();
    void alibiChosenByItsKey();
    void contextFromTheKeyTheCodeReads();
    void embeddingDropoutKeys_data();
    void embeddingDropoutKeys();
    void optAddsItsEmbeddingsUnscaled();
    void lessonLengthsFollowTheModelsContext();
};

void TestCliUnseenConfigs::ropeOnlyFromEvidence_data()
{
    QTest::addColumn<QString>("path");
    for (const QString &path : everyConfig())
        QTest::newRow(qPrintable(QFileInfo(path).completeBaseName())) << path;
}

// Rule: a model_type posenc's table lacks is read as RoPE only where a key names it; a known
// model_type keeps its row's reading.
void TestCliUnseenConfigs::ropeOnlyFromEvidence()
{
    QFETCH(QString, path);
    const Checked c = checkJson(path);
    const bool guess = c.json.value(u"read"_s).toString() == u"guess"_s;
    if (!guess)
        return;
    if (encodings(c).contains(u"rope"_s))
        QVERIFY2(namesRope(fileJson(path)), qPrintable(path));
    if (!namesRope(fileJson(path)))
        QVERIFY2(!encodings(c).contains(u"rope"_s), qPrintable(c.run.out));
}

void TestCliUnseenConfigs::noSchemeIsRefusedInOneLine()
{
    // MPNet's relative_attention_num_buckets (T5-like buckets beside its learned table: its
    // modeling_mpnet.py's compute_position_bias) names no scheme posenc reads alone: named, unread.
    const Checked mpnet = checkJson(unseen(u"mpnet-base"_s));
    QVERIFY(mpnet.json.value(u"layers"_s).toArray().isEmpty());
    const QString why = mpnet.message(u"scheme-unknown"_s);
    QVERIFY2(why.contains(u"relative_attention_num_buckets 32"_s) && why.contains(u"max_position_embeddings 514"_s),
             qPrintable(why));
    QVERIFY(!why.contains(u"num_hidden_layers"_s));
    for (const QString &name : {u"gpt-neo-125m"_s, u"vit-base-patch16-224"_s}) {
        const QString type = fileJson(unseen(name)).value(u"model_type"_s).toString();
        const Checked c = checkJson(unseen(name));
        QCOMPARE(c.run.exitCode, 0);
        QVERIFY(c.json.value(u"layers"_s).toArray().isEmpty());
        QVERIFY2(c.findings().contains(u"warning scheme-unknown"_s), qPrintable(c.run.out));
        for (const QStringList &command :
             {QStringList {u"describe"_s}, QStringList {u"lessons"_s, u"many-layers"_s},
              QStringList {u"lessons"_s, u"left-padding"_s}, QStringList {u"lessons"_s, u"alibi"_s}}) {
            const Run run = posenc(command + QStringList {u"--config"_s, unseen(name)});
            QCOMPARE(run.exitCode, 2);
            const QStringList lines = run.err.trimmed().split(u'\n');
            QCOMPARE(lines.size(), 1);
            QVERIFY2(lines.first().contains(u"model_type "_s + type) && lines.first().contains(u"--encoding"_s)
                         && lines.first().contains(u"--position-table"_s),
                     qPrintable(run.err));
            QVERIFY2(!run.out.contains(u"RoPE"_s) && !run.err.contains(u"RoPE"_s), qPrintable(run.err));
        }
    }
}

// GLM-4's chatglm code (modeling_chatglm.py, RotaryEmbedding(kv_channels // 2) with base
// 10000 * rope_ratio, over seq_length positions) reads keys Llama's rules do not: the guess names
// each with its value, and none of the keys its numbers came from.
void TestCliUnseenConfigs::guessNamesThePositionKeysItLeaves()
{
    const Checked c = checkJson(unseen(u"glm-4-9b-chat"_s));
    QCOMPARE(c.run.exitCode, 0);
    QCOMPARE(c.json.value(u"read"_s).toString(), u"guess"_s);
    const QString message = c.message(u"position-keys-unread"_s);
    for (const QString &key : {u"rope_ratio 500"_s, u"original_rope true"_s, u"seq_length 131072"_s})
        QVERIFY2(message.contains(key), qPrintable(message));
    for (const QString &read : {u"num_hidden_layers"_s, u"hidden_size"_s, u"num_attention_heads"_s})
        QVERIFY2(!message.contains(read), qPrintable(message));
    QVERIFY(!message.contains(u'\n'));
    // The words say it too, beside the table's guessed numbers.
    const Run words = posenc({u"check"_s, u"--config"_s, unseen(u"glm-4-9b-chat"_s)});
    QVERIFY2(words.out.contains(u"position-keys-unread"_s) && words.out.contains(u"rope_ratio 500"_s),
             qPrintable(words.out));
    // A guess whose position keys are all read names none: a Llama-like config of an unknown type.
    QTemporaryDir dir;
    const Checked plain = checkJson(writeConfig(dir, u"config"_s,
                                                QJsonObject {{u"model_type"_s, u"somellama"_s},
                                                             {u"hidden_size"_s, 1024},
                                                             {u"num_attention_heads"_s, 8},
                                                             {u"num_hidden_layers"_s, 4},
                                                             {u"max_position_embeddings"_s, 4096},
                                                             {u"rope_theta"_s, 500000.0}}));
    QCOMPARE(plain.json.value(u"read"_s).toString(), u"guess"_s);
    QVERIFY2(!plain.findings().contains(u"warning position-keys-unread"_s), qPrintable(plain.run.out));
    // DeepSeek-V3 under a model_type of its own: qk_rope_head_dim, which its MLA tail is read from
    // ("guess key"), is read; use_alibi false turns nothing on. Neither is named.
    QJsonObject deepseek = fileJson(QStringLiteral(POSENC_CONFIGS) + u"/DeepSeek-V3.json"_s);
    deepseek.insert(u"model_type"_s, u"somemodel"_s);
    deepseek.insert(u"use_alibi"_s, false);
    const Checked mla = checkJson(writeConfig(dir, u"mla"_s, deepseek));
    QCOMPARE(mla.json.value(u"read"_s).toString(), u"guess"_s);
    QVERIFY2(!mla.findings().contains(u"warning position-keys-unread"_s), qPrintable(mla.run.out));
    // Keys as a message may show them: one line, a key that is no word quoted, eight at most.
    QJsonObject many {{u"model_type"_s, u"somellama"_s},
                      {u"hidden_size"_s, 1024},
                      {u"num_attention_heads"_s, 8},
                      {u"num_hidden_layers"_s, 4},
                      {u"bad\nline_rope"_s, 1}};
    for (int k = 0; k < 12; ++k)
        many.insert(u"rope_k%1"_s.arg(k), k);
    const QString listed = checkJson(writeConfig(dir, u"many"_s, many)).message(u"position-keys-unread"_s);
    QVERIFY2(listed.contains(u"\"bad\\nline_rope\" 1"_s) && listed.contains(u", 5 more"_s), qPrintable(listed));
    QVERIFY(!listed.contains(u'\n'));
    // Nor do keys that only look so: DistilBERT's max_position_embeddings (its table's rows, read)
    // and seq_classif_dropout; Llama 3.2 Vision's text model's max_length 20 (a generation setting).
    for (const QString &path : {unseen(u"distilbert-base-uncased"_s),
                                QStringLiteral(POSENC_CONFIGS) + u"/heldin/Llama-3.2-90B-Vision-Instruct.json"_s}) {
        const Checked other = checkJson(path);
        QCOMPARE(other.json.value(u"read"_s).toString(), u"guess"_s);
        QVERIFY2(!other.findings().contains(u"warning position-keys-unread"_s), qPrintable(other.run.out));
    }
}

// DistilBERT: sinusoidal_pos_embds false, its table learned; dim, n_layers and
// max_position_embeddings read by their own names, and the reading marked a guess.
void TestCliUnseenConfigs::learnedTableByItsKeys()
{
    const Checked c = checkJson(unseen(u"distilbert-base-uncased"_s));
    QCOMPARE(c.run.exitCode, 0);
    QCOMPARE(encodings(c), QStringList {u"learned"_s});
    QVERIFY2(c.findings().contains(u"warning scheme-guessed"_s), qPrintable(c.run.out));
    const QJsonObject layer = c.json.value(u"layers"_s).toArray().first().toObject();
    QCOMPARE(layer.value(u"layers"_s).toArray().size(), 6);
    QCOMPARE(layer.value(u"hidden_size"_s).toInt(), 768);
    QCOMPARE(layer.value(u"rows"_s).toInt(), 512);
    QCOMPARE(layer.value(u"sources"_s).toObject().value(u"layers"_s).toString(), u"key n_layers"_s);
}

void TestCliUnseenConfigs::alibiChosenByItsKey_data()
{
    QTest::addColumn<QString>("path");
    for (const QString &path : everyConfig()) {
        if (fileJson(path).value(u"position_embedding_type"_s).toString() == u"alibi"_s)
            QTest::newRow(qPrintable(QFileInfo(path).completeBaseName())) << path;
    }
}

// Rule: position_embedding_type alibi is ALiBi (JinaBert's remote code), both ways in an encoder,
// said to be the remote code's reading; never a learned table.
void TestCliUnseenConfigs::alibiChosenByItsKey()
{
    QFETCH(QString, path);
    const Checked c = checkJson(path);
    QVERIFY2(!encodings(c).contains(u"learned"_s), qPrintable(c.run.out));
    QVERIFY2(encodings(c).contains(u"alibi"_s), qPrintable(c.run.out));
    if (fileJson(path).value(u"model_type"_s).toString() == u"bert"_s) {
        QVERIFY2(c.message(u"scheme-by-key"_s).contains(u"remote code"_s), qPrintable(c.run.out));
        const Run described = posenc({u"describe"_s, u"--config"_s, path});
        QCOMPARE(described.exitCode, 0);
        QVERIFY2(described.out.contains(u"mask: symmetric"_s), qPrintable(described.out));
        const int max = fileJson(path).value(u"max_position_embeddings"_s).toInt();
        QCOMPARE(c.layer(u"full_attention"_s).value(u"max_position_embeddings"_s).toInt(), max);
        // The farthest key's bias at head 1's slope, 2^(-8/H) for H a power of two, over |i - j| = L - 1.
        const int heads = fileJson(path).value(u"num_attention_heads"_s).toInt();
        const double farthest = -std::pow(2.0, -8.0 / std::exp2(std::floor(std::log2(heads)))) * (max - 1);
        QVERIFY2(described.out.contains(u"farthest_bias: "_s + QString::number(farthest, 'g', 17)),
                 qPrintable(described.out));
    }
}

// Rule: an ALiBi model's context is the key its code sizes its mask with: Baichuan's
// model_max_length (BaichuanModel's max_cache_pos), not a default 2,048.
void TestCliUnseenConfigs::contextFromTheKeyTheCodeReads()
{
    const QString path = unseen(u"baichuan2-13b-base"_s);
    const Checked c = checkJson(path);
    QCOMPARE(c.run.exitCode, 0);
    const int context = fileJson(path).value(u"model_max_length"_s).toInt();
    QCOMPARE(context, 4096);
    QVERIFY(!fileJson(path).contains(u"max_position_embeddings"_s));
    QCOMPARE(c.layer(u"full_attention"_s).value(u"max_position_embeddings"_s).toInt(), context);
}

void TestCliUnseenConfigs::embeddingDropoutKeys_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("key");
    QTest::newRow("starcoder2") << unseen(u"starcoder2-3b"_s) << u"embedding_dropout"_s;
    QTest::newRow("phi") << unseen(u"phi-2"_s) << u"embd_pdrop"_s;
    QTest::newRow("codegen") << unseen(u"codegen-350m-mono"_s) << u"embd_pdrop"_s;
}

// Rule: each model's own embedding dropout key, as its code reads it, sets the lessons' p.
void TestCliUnseenConfigs::embeddingDropoutKeys()
{
    QFETCH(QString, path);
    QFETCH(QString, key);
    const Run run = posenc({u"lessons"_s, u"what-dropout-does"_s, u"--config"_s, path});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(!run.out.contains(u"does not say what dropout"_s), qPrintable(run.out));
    const double p = fileJson(path).value(key).toDouble(-1.0);
    QVERIFY2(p >= 0.0, qPrintable(key));
    const Run set = posenc({u"describe"_s, u"--config"_s, path, u"--dropout"_s, u"0.5"_s});
    QCOMPARE(set.exitCode, 0);
}

// Rule: OPT's decoder adds inputs_embeds + pos_embeds, scale 1 (OPTDecoder.forward).
void TestCliUnseenConfigs::optAddsItsEmbeddingsUnscaled()
{
    QTemporaryDir dir;
    const QString table = dir.filePath(u"opt.npy"_s);
    const Run wrote = posenc({u"table"_s, u"pe"_s, u"-o"_s, table, u"--encoding"_s, u"sinusoidal"_s, u"--d-model"_s,
                              u"768"_s, u"--max-len"_s, u"2050"_s});
    QCOMPARE(wrote.exitCode, 0);
    const Run run = posenc(
        {u"lessons"_s, u"dropout-on-sum"_s, u"--config"_s, unseen(u"opt-125m"_s), u"--position-table"_s, table});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(!run.out.contains(u"does not say what its code multiplies"_s), qPrintable(run.out));
    QVERIFY2(!run.out.contains(u"27.7"_s), qPrintable(run.out));
}

// Rule: a lesson's own lengths (left-padding's max_len 32,768, its batch and cache) follow a model
// whose context is shorter, OPT's max_position_embeddings of 2,048 learned positions (a table of
// 2,050 rows, position 0 at row 2), rather than refusing the model's own table or --max-len.
void TestCliUnseenConfigs::lessonLengthsFollowTheModelsContext()
{
    const QString config = unseen(u"opt-125m"_s);
    const int context = fileJson(config).value(u"max_position_embeddings"_s).toInt();
    QCOMPARE(context, 2048);
    QTemporaryDir dir;
    const QString table = dir.filePath(u"opt.npy"_s);
    QCOMPARE(posenc({u"table"_s, u"pe"_s, u"-o"_s, table, u"--encoding"_s, u"sinusoidal"_s, u"--d-model"_s, u"768"_s,
                     u"--max-len"_s, QString::number(context + 2)})
                 .exitCode,
             0);
    for (const QStringList &more : {QStringList {}, QStringList {u"--max-len"_s, QString::number(context)}}) {
        const Run run = posenc(
            QStringList {u"lessons"_s, u"left-padding"_s, u"--config"_s, config, u"--position-table"_s, table} + more);
        QCOMPARE(run.exitCode, 0);
        // The row's last column, L - 1, as arange(L) would number its last token.
        QVERIFY2(run.out.contains(QLocale(QLocale::English).toString(context - 1)), qPrintable(run.out));
    }
}

POSENC_TEST_GUILESS_MAIN(TestCliUnseenConfigs)
} // namespace tst_cliunseenconfigs
#include "tst_cliunseenconfigs.moc"
