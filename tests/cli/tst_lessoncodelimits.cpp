// What a lesson says of the limits the reference code reads holds for every preset it meets
// (docs/ARCHITECTURE.md, Lessons). families said DeBERTa's bucket 317 of a key 1000 back "keeps
// growing", yet HF's DisentangledSelfAttention.disentangled_attention_bias clamps
// relative_pos + att_span to 0 … 2·att_span − 1 (att_span = position_buckets), so every key past
// the bucket position_buckets − 1 reads one row. rope-scaling said HF's dynamic NTK reads
// Qwen2.5 7B Instruct's max_position_embeddings as 131072, where its config says 32768 = L₀. The
// buckets come from make_log_bucket_position (modeling_deberta_v2.py) written here in float64,
// max_position_embeddings from the configs of tests/data/configs, never from posenc's output.
#include "LessonRead.h"
#include "support/TestMain.h"

#include "io/Lesson.h"
#include "io/Preset.h"
#include "support/TestFiles.h"

#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>

namespace tst_lessoncodelimits {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QString grouped(std::int64_t v)
{
    return QLocale(QLocale::English).toString(qint64(v));
}

using LessonRead::modelFor;

// HF's make_log_bucket_position for one relative position i − j, in float64.
std::int64_t logBucket(std::int64_t relative, std::int64_t buckets, std::int64_t maxPosition)
{
    const std::int64_t mid = buckets / 2;
    const std::int64_t absPos = (relative < mid && relative > -mid) ? mid - 1 : std::abs(relative);
    if (absPos <= mid)
        return relative;
    const double logPos = std::ceil(std::log(double(absPos) / double(mid))
                                    / std::log(double(maxPosition - 1) / double(mid)) * double(mid - 1))
        + double(mid);
    return relative < 0 ? -std::int64_t(logPos) : std::int64_t(logPos);
}

// The bucket c2p reads: c2p_pos = clamp(relative_pos + att_span, 0, 2·att_span − 1), less att_span.
std::int64_t readBucket(std::int64_t relative, std::int64_t buckets, std::int64_t maxPosition)
{
    const std::int64_t span = buckets;
    return std::clamp(logBucket(relative, buckets, maxPosition) + span, std::int64_t(0), 2 * span - 1) - span;
}

// The lesson's default model, every shipped preset, and `more`.
QList<QStringList> everyRead(const QList<QStringList> &more = {})
{
    QList<QStringList> reads {{}};
    for (const Preset &preset : Presets::shipped().presets)
        reads.append({u"--preset"_s, preset.name});
    return reads + more;
}

// A config's max_position_embeddings: its own, or its text model's.
std::int64_t configMaxPositions(const QString &file)
{
    const QJsonObject json = TestFiles::jsonObject(QStringLiteral(POSENC_CONFIGS) + u'/' + file);
    const QJsonValue own = json.value(u"max_position_embeddings"_s);
    const QJsonValue text = json.value(u"text_config"_s).toObject().value(u"max_position_embeddings"_s);
    return std::int64_t((own.isDouble() ? own : text).toDouble());
}

} // namespace

class TestLessonCodeLimits : public QObject
{
    Q_OBJECT

private slots:
    void debertaSaysWhereItsAttentionClamps();
    void dynamicNamesTheConfigsMaxPositionEmbeddings();
};

void TestLessonCodeLimits::debertaSaysWhereItsAttentionClamps()
{
    const Lesson &lesson = *Lessons::find(u"families"_s);
    const QList<QStringList> reads
        = everyRead({{u"--max-len"_s, u"65536"_s},
                     {u"--deberta-buckets"_s, u"128"_s, u"--deberta-max-position"_s, u"256"_s},
                     {u"--deberta-buckets"_s, u"64"_s, u"--deberta-max-position"_s, u"4096"_s},
                     {u"--preset"_s, u"transformer-base"_s, u"--max-len"_s, u"2048"_s}});
    const QRegularExpression keys(u"The keys 10 and ([0-9,]+) back fall in T5's buckets"_s);
    int clamped = 0, within = 0;
    for (const QStringList &arguments : reads) {
        const auto model = modelFor(lesson, arguments);
        if (!model)
            continue;
        const QString text = LessonRead::itemsOf(lesson, *model).join(u'\n');
        const QByteArray where = arguments.join(u' ').toUtf8() + ":\n" + text.toUtf8();
        QVERIFY2(!text.contains(u"which keeps growing"_s), where);
        const QRegularExpressionMatch match = keys.match(text);
        if (!match.hasMatch())
            continue;
        const std::int64_t farthest = match.captured(1).remove(u',').toLongLong();
        const std::int64_t buckets = model->params.deberta.buckets, maxPosition = model->params.deberta.maxPosition;
        const std::int64_t atFarthest = logBucket(farthest, buckets, maxPosition);
        QVERIFY2(text.contains(u"in DeBERTa's %1 and %2"_s.arg(grouped(logBucket(10, buckets, maxPosition)),
                                                               grouped(atFarthest))),
                 where);
        // The last bucket the attention reads for a key before the query, and the nearest key at it.
        const std::int64_t top = readBucket(1 << 30, buckets, maxPosition);
        QCOMPARE(top, buckets - 1);
        std::int64_t reach = 1;
        while (readBucket(reach, buckets, maxPosition) < top)
            ++reach;
        if (atFarthest > top) {
            ++clamped;
            QVERIFY(reach <= farthest);
            QVERIFY2(
                text.contains(
                    u"the bucket it reads is clamped to %1, so the key %2 back reads bucket %1's row: every key "
                    "%3 back or farther shares that one row."_s.arg(grouped(top), grouped(farthest), grouped(reach))),
                where);
        } else {
            ++within;
            // No distance past the keys the figure draws (the query's): the clamp's reach may lie beyond.
            QVERIFY2(text.contains(u"the bucket it reads is clamped to %1 for keys farther still."_s.arg(grouped(top))),
                     where);
        }
    }
    // Llama 3.1 8B's key 1,000 back (bucket 317) is past the clamp; Transformer base's 511 is not.
    QVERIFY(clamped >= 5);
    QVERIFY(within >= 1);
}

// The sentence names the config's max_position_embeddings, and only where it is above L₀: then
// dynamic leaves θ alone up to it. Every preset that scales RoPE has a config here.
void TestLessonCodeLimits::dynamicNamesTheConfigsMaxPositionEmbeddings()
{
    const QHash<QString, QString> configs {
        {u"llama-3-1-8b"_s, u"Meta-Llama-3.1-8B.json"_s},
        {u"llama-3-2-1b"_s, u"Llama-3.2-1B.json"_s},
        {u"llama-4-scout"_s, u"Llama-4-Scout-17B-16E.json"_s},
        {u"qwen2-5-7b"_s, u"Qwen2.5-7B-Instruct.json"_s},
        {u"gpt-oss-20b"_s, u"gpt-oss-20b.json"_s},
        {u"deepseek-v3"_s, u"DeepSeek-V3.json"_s},
        {u"phi-3-mini-128k"_s, u"Phi-3-mini-128k-instruct.json"_s},
        {u"phi-4-mini"_s, u"Phi-4-mini-instruct.json"_s},
        {u"exaone-4-32b"_s, u"EXAONE-4.0-32B.json"_s},
        {u"kimi-k2"_s, u"Kimi-K2-Instruct.json"_s},
        {u"deepseek-v3-2-exp"_s, u"DeepSeek-V3.2-Exp.json"_s},
        {u"devstral-small-2"_s, u"Devstral-Small-2-24B-Instruct.json"_s},
    };
    const Lesson &lesson = *Lessons::find(u"rope-scaling"_s);
    const QString claim = u"HF's dynamic reads max_position_embeddings, not L_0"_s;
    int said = 0, unsaid = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = modelFor(lesson, {u"--preset"_s, preset.name});
        if (!model)
            continue;
        const QString text = LessonRead::itemsOf(lesson, *model).join(u'\n');
        const QByteArray where = preset.name.toUtf8() + ":\n" + text.toUtf8();
        const auto original = model->params.rope.originalMaxLen;
        if (!original || !configs.contains(preset.name)) {
            QVERIFY2(!text.contains(claim), where);
            continue;
        }
        const std::int64_t positions = configMaxPositions(configs.value(preset.name));
        QVERIFY(positions > 0);
        if (positions > *original) {
            ++said;
            QVERIFY2(
                text.contains(
                    claim + u": for %1 that is %2, so it would change nothing"_s.arg(model->name, grouped(positions))),
                where);
        } else {
            ++unsaid;
            QVERIFY2(!text.contains(claim), where);
        }
    }
    // Llama 3.1 8B (131,072 against 8,192) and Phi-3 mini 128k (131,072 against 4,096) say it; Qwen2.5
    // 7B Instruct (32,768 = L0) does not.
    QVERIFY(said >= 8);
    QVERIFY(unsaid >= 1);
    const auto qwen = modelFor(lesson, {u"--preset"_s, u"qwen2-5-7b"_s});
    QVERIFY(qwen);
    QVERIFY(!LessonRead::itemsOf(lesson, *qwen).join(u'\n').contains(u"131,072, so it would change nothing"_s));
}

POSENC_TEST_GUILESS_MAIN(TestLessonCodeLimits)
} // namespace tst_lessoncodelimits
#include "tst_lessoncodelimits.moc"
