// The numbers of the lessons about batches (PositionsLessonNumbers), read with each lesson's own
// parameters from resources/lessons/, against float64 formulas written here: the padded row's ids,
// RoPE's relative score exactly and with float32 angles (Llama 4 Scout's llama3 frequencies), Llama
// 4's temperature and chunk, the dynamic length, the decode step's id; a packed row's cross-document
// pairs counted one by one; the Whisper encoder's ids, its columns (it adds its table by column).
#include "core/Engine.h"
#include "core/LessonNumbers.h"
#include "core/ParamText.h"
#include "core/positions/BatchIds.h"
#include "support/TestMain.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <numbers>
#include <vector>

namespace tst_positionslessonnumbers {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

Params lessonParams(const QString &name)
{
    QFile file(QStringLiteral(POSENC_LESSONS) + u"/"_s + name + u".json"_s);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the lesson");
    const QJsonObject params = QJsonDocument::fromJson(file.readAll()).object().value(u"params"_s).toObject();
    Params p;
    for (const QString &key : {u"encoding"_s, u"max-len"_s})
        ParamText::set(p, key, params.value(key).toString());
    for (auto it = params.begin(); it != params.end(); ++it) {
        if (const auto error = ParamText::set(p, it.key(), it.value().toString()))
            qFatal("%s", qPrintable(error->sentence()));
    }
    return p;
}

double number(const QString &key, const Params &p)
{
    const auto n = LessonNumbers::number(key, p);
    if (!n || !n->value)
        qFatal("%s has no value: %s", qPrintable(key), n ? qPrintable(n->text) : "no such key");
    return *n->value;
}

// Llama 4 Scout's llama3 frequencies: theta 500000 over 128 columns, factor 16, low = high = 1,
// original 8192 (_compute_llama3_parameters): a wavelength below 8192 kept, above it divided.
std::vector<double> scoutFrequencies()
{
    std::vector<double> w;
    for (int i = 0; i < 64; ++i) {
        const double inv = 1.0 / std::pow(500000.0, 2.0 * i / 128.0);
        const double wavelength = 2.0 * std::numbers::pi / inv;
        w.push_back(wavelength > 8192.0 ? inv / 16.0 : inv);
    }
    return w;
}

double score(const std::vector<double> &w, std::int64_t q, std::int64_t k, bool float32)
{
    double sum = 0.0;
    for (const double wi : w) {
        if (float32)
            sum += std::cos(double(float(q) * float(wi)) - double(float(k) * float(wi)));
        else
            sum += std::cos(double(q - k) * wi);
    }
    return sum / double(w.size());
}

} // namespace

class TestPositionsLessonNumbers : public QObject
{
    Q_OBJECT

private slots:
    // Every lesson number, read where M-RoPE's ids cannot be laid out (packed documents:
    // get_rope_index lays out one prompt a row), gives a value or says why not: none reads ids
    // that were never made (BatchIds' precondition; the GUI monkey crashed there).
    void everyNumberWhereIdsCannotBeLaidOut()
    {
        Params p;
        for (const auto &[key, value] :
             {std::pair {u"encoding"_s, u"mrope"_s}, {u"max-len"_s, u"16"_s}, {u"packed"_s, u"3,4,2/5,4"_s}}) {
            if (const auto error = ParamText::set(p, key, value))
                qFatal("%s", qPrintable(error->sentence()));
        }
        QVERIFY2(p.isValid(), "the batch is valid; only its M-RoPE ids cannot be laid out");
        const QStringList keys = LessonNumbers::keys();
        QVERIFY(keys.contains(u"batch_length_reference"_s));
        for (const QString &key : keys) {
            const auto n = LessonNumbers::number(key, p);
            // A condition that holds is present with no words (LessonNumbers::condition).
            QVERIFY2(n && (n->present() || !n->missing.isEmpty()), qPrintable(key));
        }
        const auto length = LessonNumbers::number(u"batch_length_reference"_s, p);
        QVERIFY2(!length->present() && length->missing.contains(u"not here"_s), qPrintable(length->missing));
    }

    void leftPadding()
    {
        const Params p = lessonParams(u"left-padding"_s);
        QVERIFY(p.isValid());
        // Row 0: 24576 − 1000 padding, its 1000 tokens, then 8192 decode steps: the last has id 9191.
        QCOMPARE(number(u"batch_padding"_s, p), 23576.0);
        QCOMPARE(number(u"batch_last_id"_s, p), 9191.0);
        QCOMPARE(number(u"batch_last_column"_s, p), 32767.0);
        const std::vector<double> w = scoutFrequencies();
        QCOMPARE(number(u"batch_score_reference"_s, p), score(w, 9191, 0, false));
        QCOMPARE(number(u"batch_score_arange"_s, p), score(w, 32767, 23576, false));
        QCOMPARE(number(u"batch_score_difference"_s, p), 0.0);
        QCOMPARE(number(u"batch_float32_difference"_s, p), score(w, 32767, 23576, true) - score(w, 9191, 0, true));
        QCOMPARE(number(u"batch_temperature_id"_s, p), std::log1p(std::floor(9192.0 / 8192.0)) * 0.1 + 1.0);
        QCOMPARE(number(u"batch_temperature_column"_s, p), std::log1p(std::floor(32768.0 / 8192.0)) * 0.1 + 1.0);
        QCOMPARE(number(u"batch_chunk_id"_s, p), 1.0);
        QCOMPARE(number(u"batch_chunk_arange"_s, p), 3.0);
        // Row 1's 20000 tokens and 8192 decode steps: the largest id 28191; arange's 32767.
        QCOMPARE(number(u"batch_length_reference"_s, p), 28192.0);
        QCOMPARE(number(u"batch_length_arange"_s, p), 32768.0);
        QCOMPARE(number(u"batch_decode_id"_s, p), 1000.0);
        QCOMPARE(number(u"batch_decode_lost_id"_s, p), 0.0);
        // Qwen2-VL's decode step after the recorded prefill (tests/data/positions, "qwen2-vl decode
        // after a prefill", torch): row 0's first decode ids are cache_position 12 + rope_deltas −3 = 9
        // on t, h and w, not its 11 real tokens so far; losing rope_deltas leaves the column, 12.
        Params qwen;
        for (const auto &[key, value] : {std::pair {u"encoding"_s, u"mrope"_s},
                                         {u"max-len"_s, u"15"_s},
                                         {u"prompt"_s, u"text:3,image:1x4x4,text:4"_s},
                                         {u"batch"_s, u"left:11,7,2"_s},
                                         {u"cache"_s, u"12"_s},
                                         {u"vision-positions"_s, u"qwen2-vl"_s},
                                         {u"mrope-era"_s, u"v4"_s}}) {
            if (const auto error = ParamText::set(qwen, key, value))
                qFatal("%s", qPrintable(error->sentence()));
        }
        QCOMPARE(number(u"batch_decode_id"_s, qwen), 9.0);
        QCOMPARE(number(u"batch_decode_lost_id"_s, qwen), 12.0);
        // A RoPE model adds no term: the number says why.
        QVERIFY(!LessonNumbers::number(u"batch_term_difference"_s, p)->value
                || number(u"batch_term_difference"_s, p) == 0.0);
    }

    // Whisper's encoder adds row c of its table to column c and takes no position ids
    // (transformers, models/whisper/modeling_whisper.py, WhisperEncoder.forward: embed_pos =
    // self.embed_positions.weight, hidden_states = inputs_embeds + embed_pos): the position-ids,
    // position-effect and document-distance figures read every choice of ids as the column, padding
    // and decode steps too, and the lesson's number of "what a decoder's generation would give" is
    // the id by id, attention_mask.cumsum(-1) - 1. Whisper large-v3's encoder (its preset): d 1280,
    // the half_dim - 1 sinusoid, w_i = 10000^(-i / 639) for i < 640, sin and cos halves.
    void whisperEncoderAddsByColumn()
    {
        Params p = lessonParams(u"left-padding"_s);
        for (const auto &[key, value] : {std::pair {u"encoding"_s, u"sinusoidal"_s},
                                         {u"d-model"_s, u"1280"_s},
                                         {u"base"_s, u"10000"_s},
                                         {u"freq-shift"_s, u"1"_s},
                                         {u"layout"_s, u"split"_s},
                                         {u"attention"_s, u"both-ways"_s},
                                         {u"positions-added"_s, u"by-column"_s}}) {
            if (const auto error = ParamText::set(p, key, value))
                qFatal("%s", qPrintable(error->sentence()));
        }
        QVERIFY(p.isValid());
        // Every id under every choice is the column, in every row (left padding, decode steps).
        const Engine engine(p);
        const BatchIds &ids = engine.source<BatchIds>();
        QVERIFY(!ids.problem());
        std::vector<std::int64_t> row(std::size_t(p.maxLen));
        for (const IdsChoice choice : {IdsChoice::Reference, IdsChoice::ArangeWithPadding, IdsChoice::CacheOffset,
                                       IdsChoice::OffByOne, IdsChoice::PositionsNotRestarted}) {
            for (std::int64_t b = 0; b < ids.layout().rows(); ++b) {
                ids.ids(choice, b, 0, p.maxLen, row.data());
                for (std::int64_t c = 0; c < p.maxLen; ++c)
                    QCOMPARE(row[std::size_t(c)], c);
            }
            QCOMPARE(ids.maxId(choice), p.maxLen - 1);
        }
        // Row 0: 23576 padding columns, 1000 tokens, 8192 decode steps; its last token is column
        // 32767, where generation's cumsum - 1 would give 1000 + 8192 - 1.
        QCOMPARE(number(u"batch_last_column"_s, p), 32767.0);
        QCOMPARE(number(u"batch_last_id"_s, p), 32767.0);
        QCOMPARE(number(u"batch_generation_id"_s, p), 9191.0);
        QCOMPARE(number(u"batch_term_difference"_s, p), 0.0);
        // ‖PE[a] − PE[b]‖² = Σ_i (sin a·w_i − sin b·w_i)² + (cos a·w_i − cos b·w_i)²
        //                 = Σ_i 2 − 2 cos((a − b)·w_i),
        // each table value within 10⁻⁶ of the true one (the angles exact).
        double squared = 0.0;
        for (int i = 0; i < 640; ++i)
            squared += 2.0 - 2.0 * std::cos(double(32767 - 9191) * std::pow(10000.0, -double(i) / 639.0));
        const double expected = std::sqrt(squared);
        QVERIFY2(std::abs(number(u"batch_generation_term_difference"_s, p) - expected) < 1e-5 * expected,
                 qPrintable(QString::number(number(u"batch_generation_term_difference"_s, p), 'g', 17) + u" "_s
                            + QString::number(expected, 'g', 17)));
        // By id (a decoder), the same numbers are generation's.
        QVERIFY(!ParamText::set(p, u"positions-added"_s, u"by-id"_s));
        QCOMPARE(number(u"batch_last_id"_s, p), 9191.0);
        QCOMPARE(number(u"batch_generation_id"_s, p), 9191.0);
        QCOMPARE(number(u"batch_term_difference"_s, p), number(u"batch_generation_term_difference"_s, p));
    }

    void packing()
    {
        const Params p = lessonParams(u"packing"_s);
        QVERIFY(p.isValid());
        QCOMPARE(number(u"pack_documents"_s, p), 3.0);
        QCOMPARE(LessonNumbers::number(u"pack_starts"_s, p)->text, u"0, 3, 7, 9"_s);
        // Documents of 3, 4 and 2: B sees A's 3 keys from 4 queries, C A's and B's from 2.
        const std::vector<std::int64_t> lengths = {3, 4, 2};
        std::int64_t cross = 0, negative = 0, farthest = 0, start = 0;
        std::vector<std::int64_t> starts;
        for (const std::int64_t n : lengths) {
            starts.push_back(start);
            start += n;
        }
        for (std::size_t dq = 0; dq < 3; ++dq) {
            for (std::size_t dk = 0; dk < dq; ++dk) {
                for (std::int64_t i = 0; i < lengths[dq]; ++i) {
                    for (std::int64_t j = 0; j < lengths[dk]; ++j) {
                        ++cross;
                        negative += i < j; // restarted ids: i − j
                        farthest = std::max(farthest, (starts[dq] + i) - (starts[dk] + j)); // running ids
                    }
                }
            }
        }
        QCOMPARE(number(u"pack_cross_reference"_s, p), 0.0);
        QCOMPARE(number(u"pack_cross_continued"_s, p), double(cross));
        QCOMPARE(number(u"pack_far_continued"_s, p), double(farthest));
        QCOMPARE(number(u"pack_cross_restarted"_s, p), double(cross));
        QCOMPARE(number(u"pack_negative_restarted"_s, p), double(negative));
        QCOMPARE(number(u"pack_negative_share"_s, p), 100.0 * double(negative) / double(cross));
        QVERIFY(!LessonNumbers::number(u"attends_both_ways"_s, p)->present());
    }

    // Attention both ways (T5's encoder, DeBERTa, symmetric ALiBi: the family's attendsBothWays)
    // sees every pair across the documents, before the query and after it: T² − Σ nᵢ² of a row of T
    // tokens in documents of nᵢ, the lesson's counts and the figure's alike; a causal model (T5's
    // decoder, causal ALiBi) half of them, Σ_{a>b} nₐ·n_b.
    void bothWaysCountsEveryCrossPair_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("bothWays");
        QTest::newRow("t5 encoder") << u"t5"_s << u"t5-causal"_s << u"false"_s << true;
        QTest::newRow("t5 decoder") << u"t5"_s << u"t5-causal"_s << u"true"_s << false;
        QTest::newRow("deberta") << u"deberta"_s << QString() << QString() << true;
        QTest::newRow("alibi symmetric") << u"alibi"_s << u"alibi"_s << u"symmetric"_s << true;
        QTest::newRow("alibi causal") << u"alibi"_s << u"alibi"_s << u"causal"_s << false;
        QTest::newRow("rope") << u"rope"_s << QString() << QString() << false;
    }
    void bothWaysCountsEveryCrossPair()
    {
        QFETCH(QString, encoding);
        QFETCH(QString, flag);
        QFETCH(QString, value);
        QFETCH(bool, bothWays);
        Params p;
        QVERIFY(!ParamText::set(p, u"encoding"_s, encoding));
        if (!flag.isEmpty())
            QVERIFY(!ParamText::set(p, flag, value));
        QVERIFY(!ParamText::set(p, u"max-len"_s, u"12"_s));
        QVERIFY(!ParamText::set(p, u"packed"_s, u"3,4,2,3"_s));
        QVERIFY2(p.validate().isEmpty(), qPrintable(encoding));
        const std::vector<std::int64_t> n = {3, 4, 2, 3};
        std::int64_t tokens = 0, own = 0, after = 0;
        for (std::size_t a = 0; a < n.size(); ++a) {
            tokens += n[a];
            own += n[a] * n[a];
            for (std::size_t b = 0; b < a; ++b)
                after += n[a] * n[b];
        }
        const std::int64_t cross = bothWays ? tokens * tokens - own : after;
        QCOMPARE(LessonNumbers::number(u"attends_both_ways"_s, p)->present(), bothWays);
        QCOMPARE(number(u"pack_cross_continued"_s, p), double(cross));
        QCOMPARE(number(u"pack_cross_restarted"_s, p), double(cross));
        QCOMPARE(number(u"pack_cross_reference"_s, p), 0.0);
    }
};

POSENC_TEST_GUILESS_MAIN(TestPositionsLessonNumbers)
} // namespace tst_positionslessonnumbers
#include "tst_positionslessonnumbers.moc"
