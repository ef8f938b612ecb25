// A lesson's sentences say each thing once, in an order and with words a reader can follow, for
// every preset they can meet (docs/ARCHITECTURE.md, Lessons): special tokens listed by position as
// the figures name them, code attributed to the source its comment names, ALiBi's P said to be a
// power of two, a model's name not followed by the family it contains, prefill and decode told
// apart, proportional RoPE's F said in words. The expected words are worked out here from the
// parameters and the references' rules (the ALiBi paper's get_slopes, transformers' generation
// ids and _compute_proportional_rope_parameters), never read back from posenc's output.
#include "LessonRead.h"
#include "support/TestMain.h"

#include "core/rope/RopeText.h"
#include "io/Lesson.h"
#include "io/LessonText.h"
#include "io/Preset.h"
#include "render/TokenRoles.h"

#include <QLocale>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>

namespace tst_lessonphrasing {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using LessonRead::modelFor;

using LessonRead::itemsOf;

QString grouped(std::int64_t v)
{
    return QLocale(QLocale::English).toString(qint64(v));
}

// The lesson's default model and every shipped preset, as `posenc lessons NAME [--preset P]` reads them.
QList<QStringList> everyRead()
{
    QList<QStringList> reads {{}};
    for (const Preset &preset : Presets::shipped().presets)
        reads.append({u"--preset"_s, preset.name});
    return reads;
}

// "a, b and c"
QString listed(const QStringList &parts)
{
    return parts.size() < 2 ? parts.join(QString())
                            : parts.mid(0, parts.size() - 1).join(u", "_s) + u" and "_s + parts.back();
}

} // namespace

class TestLessonPhrasing : public QObject
{
    Q_OBJECT

private slots:
    void specialTokensAreListedByPosition();
    void codeIsAttributedToItsSource();
    void alibiSaysWhatPIs();
    void aNameIsNotFollowedByItsFamily();
    void nopeOrderSaysEachKeysWeightPlainly();
    void leftPaddingTellsPrefillFromDecode();
    void packingSaysRunOnIdsOnce();
    void proportionalSaysWhatFIs();
};

// masked-dropout said "[CLS], [SEP] and [MASK] included (positions 0, 5, 15)" beside a figure that
// names [MASK] at 5 and [SEP] at 15: the tokens are listed in the order of their positions, each
// by the masked-dropout question's rule (row 0 [CLS], row seq_len − 1 [SEP], the others [MASK]),
// and as the figures' row names give them.
void TestLessonPhrasing::specialTokensAreListedByPosition()
{
    const Lesson &lesson = *Lessons::find(u"masked-dropout"_s);
    QList<QStringList> reads = everyRead();
    reads.append({u"--special"_s, u"-1,3,0,7"_s});
    reads.append({u"--special"_s, u"4"_s});
    int read = 0;
    for (const QStringList &arguments : reads) {
        const auto model = modelFor(lesson, arguments);
        if (!model)
            continue;
        const Params &p = model->params;
        const std::int64_t n = p.seqLen ? std::min(*p.seqLen, p.maxLen) : p.maxLen;
        std::set<std::int64_t> rows;
        for (const std::int64_t s : p.special)
            if (const std::int64_t row = s < 0 ? n + s : s; row >= 0 && row < n)
                rows.insert(row);
        QStringList tokens;
        for (const std::int64_t row : rows)
            tokens.append(u"%1 at %2"_s.arg(row == 0           ? u"[CLS]"_s
                                                : row == n - 1 ? u"[SEP]"_s
                                                               : u"[MASK]"_s,
                                            grouped(row)));
        const QString text = itemsOf(lesson, *model).join(u'\n');
        QVERIFY2(!text.contains(u"[CLS], [SEP] and [MASK] included"_s), qPrintable(text));
        if (tokens.isEmpty())
            continue;
        ++read;
        const QString says = u"the special ones included (%1)"_s.arg(listed(tokens));
        QVERIFY2(text.contains(says), qPrintable(arguments.join(u' ') + u": "_s + says + u"\n in \n"_s + text));
        // The figures name the same rows alike.
        QStringList figure;
        for (const TokenRole &role : TokenRoles::of(p))
            figure.append(u"%1 at %2"_s.arg(role.name, grouped(role.position)));
        QCOMPARE(figure, tokens);
    }
    QVERIFY(read >= 5);
}

// float32-precision told the Annotated Transformer's default read "The Annotated Transformer forms
// the angle … the product position * div_term" below code whose comment says "after PyTorch's
// transformer tutorial": a sentence that says how the model forms its angle names the source of
// the code it shows, as the code's first comment line names it.
void TestLessonPhrasing::codeIsAttributedToItsSource()
{
    // The code's source line, and the name the text gives that source.
    const QList<std::pair<QString, QString>> sources {
        {u"# after PyTorch's transformer tutorial"_s, u"PyTorch's transformer tutorial"_s},
        {u"# transformers, models/whisper/"_s, u"Whisper's sinusoids"_s},
        {u"# diffusers, models/embeddings.py"_s, u"diffusers' get_timestep_embedding"_s},
        {u"# transformers, models/llama/"_s, u"transformers' LlamaRotaryEmbedding"_s}};
    const Lesson &lesson = *Lessons::find(u"float32-precision"_s);
    QList<QStringList> reads = everyRead();
    reads.append({u"--encoding"_s, u"sinusoidal"_s, u"--d-model"_s, u"64"_s});
    int read = 0;
    for (const QStringList &arguments : reads) {
        const auto model = modelFor(lesson, arguments);
        if (!model)
            continue;
        const QString code = lesson.code.forModel(*model);
        // Its source's line, after the line that says where the code is not the model's own.
        const auto source = std::find_if(sources.cbegin(), sources.cend(), [&](const auto &s) {
            return code.startsWith(s.first) || code.contains(u'\n' + s.first);
        });
        QVERIFY2(source != sources.cend(), qPrintable(code.section(u'\n', 0, 0)));
        for (const QString &item : itemsOf(lesson, *model)) {
            if (!item.contains(u"forms the angle"_s) || !item.contains(u"as common code does"_s))
                continue;
            ++read;
            QVERIFY2(item.contains(source->second), qPrintable(arguments.join(u' ') + u": "_s + item));
        }
    }
    QVERIFY(read >= 6); // the Annotated Transformer, this model, Whisper, SD 1.5, SDXL, FLUX.1's timesteps
}

// alibi said "with P = 8 heads, head k has 2^−8k/P" of a model of 12 heads: P is the largest power
// of two not above H (closest_power_of_2 in the ALiBi paper's get_slopes), and the lesson says so
// where it is not H.
void TestLessonPhrasing::alibiSaysWhatPIs()
{
    const Lesson &lesson = *Lessons::find(u"alibi"_s);
    QList<QStringList> reads = everyRead();
    for (const QString &heads : {u"6"_s, u"20"_s, u"64"_s})
        reads.append({u"--heads"_s, heads, u"--head"_s, u"1"_s});
    int other = 0, power = 0;
    for (const QStringList &arguments : reads) {
        const auto model = modelFor(lesson, arguments);
        if (!model)
            continue;
        const std::int64_t heads = model->params.alibi.heads;
        const auto p = std::int64_t(std::exp2(std::floor(std::log2(double(heads)))));
        const QString text = itemsOf(lesson, *model).join(u'\n');
        if (p != heads) {
            ++other;
            const QString says = u"P the largest power of two not above the H = %1 heads (closest_power_of_2 in the "
                                 u"ALiBi paper's get_slopes), here P = %2: head k ≤ P has"_s.arg(heads)
                                     .arg(p);
            QVERIFY2(text.contains(says), qPrintable(says + u"\n in \n"_s + text));
            QVERIFY2(!text.contains(u"with P = %1 heads"_s.arg(p)), qPrintable(text));
        } else {
            ++power;
            QVERIFY2(text.contains(u"with P = H = %1 heads, head k has"_s.arg(heads)), qPrintable(text));
        }
    }
    QVERIFY(other >= 3 && power >= 3); // 12, 6, 20; BLOOM-560m's 16, MPT-7B's 32, 64
}

// buckets said "DeBERTa-v3-base's DeBERTa buckets i − j" and "T5-base's T5 buckets give …": a
// model's name that says its family's is not followed by the family again, in any lesson.
void TestLessonPhrasing::aNameIsNotFollowedByItsFamily()
{
    static const QStringList families {u"T5"_s,     u"DeBERTa"_s, u"ALiBi"_s,   u"RoPE"_s,
                                       u"M-RoPE"_s, u"KERPLE"_s,  u"Sandwich"_s};
    int read = 0, named = 0;
    for (const Lesson &lesson : Lessons::all()) {
        for (const Preset &preset : Presets::shipped().presets) {
            const auto model = modelFor(lesson, {u"--preset"_s, preset.name});
            if (!model || model->name.isEmpty())
                continue;
            ++read;
            const QString name = model->name.section(u" with "_s, 0, 0).section(u" at "_s, 0, 0);
            const QString text = itemsOf(lesson, *model).join(u'\n');
            for (const QString &family : families) {
                if (!name.contains(family, Qt::CaseInsensitive))
                    continue;
                for (const QString &joint : {u"'s "_s, u", with "_s})
                    QVERIFY2(!text.contains(name + joint + family),
                             qPrintable(lesson.name + u", "_s + preset.name + u": "_s + text));
                named += text.contains(name);
            }
        }
    }
    QVERIFY(read > 300 && named >= 10);
    // And where the name does not say it, the family is named.
    const Lesson &buckets = *Lessons::find(u"buckets"_s);
    const auto own = modelFor(buckets, {u"--encoding"_s, u"deberta"_s});
    QVERIFY(own);
    QVERIFY2(itemsOf(buckets, *own).join(u'\n').contains(u"This model's DeBERTa buckets i − j"_s),
             qPrintable(itemsOf(buckets, *own).join(u'\n')));
    const auto t5 = modelFor(buckets, {u"--preset"_s, u"flan-t5-base"_s});
    QVERIFY(t5);
    QVERIFY(itemsOf(buckets, *t5).join(u'\n').contains(u"Flan-T5-base gives each side 16 of its 32 buckets"_s));
}

// nope-order said "each, the first among them, gets 1/(t + 1)": every key of query t gets
// 1/(t + 1), and the first key's weight, which the upper panel follows, is 1/10 at t = 9.
void TestLessonPhrasing::nopeOrderSaysEachKeysWeightPlainly()
{
    const Lesson &lesson = *Lessons::find(u"nope-order"_s);
    int read = 0;
    for (const QStringList &arguments : everyRead()) {
        const auto model = modelFor(lesson, arguments);
        if (!model)
            continue;
        const QString text = itemsOf(lesson, *model).join(u'\n');
        QVERIFY2(!text.contains(u"first among them"_s), qPrintable(text));
        QVERIFY2(
            text.contains(u"spreads evenly over the t + 1 keys query t sees, giving each 1/(t + 1): the first key"_s),
            qPrintable(text));
        if (model->params.maxLen > 99) {
            ++read;
            QVERIFY2(text.contains(u"the first key gets 0.1 at t = 9 and 0.01 at t = 99"_s), qPrintable(text));
        }
    }
    QVERIFY(read >= 5);
}

// left-padding told Llama 4 Scout of "id 9,191" and then of "a KV cache of 24,576 columns … the
// row's real tokens so far, 1,000" without saying which is the prefill and which the decode: the
// row's first `cache` columns are the prefill, holding the prompt's real tokens, and each column
// after it is one decode step, so the row's last token is the last of L − cache decode steps, its
// id (transformers' attention_mask.cumsum(−1) − 1) the prompt's tokens plus the steps, less one.
void TestLessonPhrasing::leftPaddingTellsPrefillFromDecode()
{
    const Lesson &lesson = *Lessons::find(u"left-padding"_s);
    int decoding = 0;
    for (const QStringList &arguments : everyRead()) {
        const auto model = modelFor(lesson, arguments);
        if (!model)
            continue;
        const Params &p = model->params;
        const QString text = itemsOf(lesson, *model).join(u'\n');
        QVERIFY2(!text.contains(u"With a KV cache of"_s), qPrintable(text));
        if (!text.contains(u"decode step sits at"_s))
            continue;
        ++decoding;
        // "left:1000,20000": the shorter prompt is the padded row's.
        std::int64_t prompt = INT64_MAX;
        for (const QString &length : p.batch.lengths.section(u':', 1).split(u','))
            prompt = std::min<std::int64_t>(prompt, length.toLongLong());
        const std::int64_t steps = p.maxLen - p.batch.cache;
        const QString prefill = u"The prefill, the row's first %1 columns (%2 of them the prompt's real tokens), "
                                u"fills the KV cache"_s.arg(grouped(p.batch.cache), grouped(prompt));
        QVERIFY2(text.contains(prefill), qPrintable(prefill + u"\n in \n"_s + text));
        if (text.contains(u"transformers gives a real token"_s)) {
            const QString last = u"this row's last token, the last of %1 decode steps after a prompt of %2 tokens, "
                                 u"has id %3"_s.arg(grouped(steps), grouped(prompt), grouped(prompt + steps - 1));
            QVERIFY2(text.contains(last), qPrintable(last + u"\n in \n"_s + text));
        }
    }
    QVERIFY(decoding >= 20);
}

// packing told BLOOM-560m "as if the ids ran on" three times in two sentences: once is enough.
void TestLessonPhrasing::packingSaysRunOnIdsOnce()
{
    const Lesson &lesson = *Lessons::find(u"packing"_s);
    int read = 0, said = 0;
    for (const QStringList &arguments : everyRead()) {
        const auto model = modelFor(lesson, arguments);
        if (!model)
            continue;
        ++read;
        const QString text = itemsOf(lesson, *model).join(u'\n');
        QVERIFY2(text.count(u"as if the ids ran on"_s) <= 1, qPrintable(text));
        said += text.count(u"as if the ids ran on"_s);
    }
    QVERIFY(read >= 20 && said >= 5);
}

// The lesson's model line and the RoPE figures wrote "proportional, F = 0.25": F is the share of
// head_dim that turns (transformers' _compute_proportional_rope_parameters: rope_angles =
// int(F · head_dim // 2) pairs turn, the others stay at frequency 0), and the words say so.
void TestLessonPhrasing::proportionalSaysWhatFIs()
{
    static const QRegularExpression bare(u"F = [0-9.]++(?! of head_dim)"_s);
    int read = 0;
    for (const Lesson &lesson : Lessons::all()) {
        const auto model = modelFor(lesson, {u"--preset"_s, u"gemma-4"_s});
        if (!model)
            continue;
        const QString text = itemsOf(lesson, *model).join(u'\n');
        QVERIFY2(!bare.match(text).hasMatch(), qPrintable(lesson.name + u": "_s + text));
        read += text.contains(u"a share F = 0.25 of head_dim turning"_s);
    }
    QVERIFY(read >= 1);
    const auto gemma = std::find_if(Presets::shipped().presets.cbegin(), Presets::shipped().presets.cend(),
                                    [](const Preset &p) { return p.name == u"gemma-4"_s; });
    QVERIFY(gemma != Presets::shipped().presets.cend());
    const Lesson &lesson = *Lessons::find(u"rope-relative"_s);
    const auto model = modelFor(lesson, {u"--preset"_s, u"gemma-4"_s});
    QVERIFY(model);
    const double f = gemma->params.value(u"partial-rotary-factor"_s).toDouble();
    const std::int64_t headDim = gemma->params.value(u"head-dim"_s).toLongLong();
    const auto turning = std::int64_t(std::floor(f * double(headDim) / 2.0));
    const QString words = RopeText::modelText(model->params) + u", "_s + RopeText::scalingText(model->params);
    QCOMPARE(
        words,
        u"θ = 1,000,000, rotary dim %1 (%2 pairs turn), proportional, a share F = %3 of head_dim turning"_s.arg(headDim)
            .arg(turning)
            .arg(f));
}

POSENC_TEST_MAIN(TestLessonPhrasing)
} // namespace tst_lessonphrasing
#include "tst_lessonphrasing.moc"
