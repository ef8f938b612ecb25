// A lesson's figures and statements hold for the model it is read for, not only for the width and
// the computation its default was written with (docs/ARCHITECTURE.md, Lessons).
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "core/LessonNumbers.h"
#include "core/Params.h"
#include "core/rope/RopeStretch.h"
#include "io/Lesson.h"
#include "io/LessonText.h"
#include "render/data/sinusoidal/CurvesModel.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace tst_lessonfollowsmodel {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

LessonOptions::Read readFor(const Lesson &lesson, const QStringList &arguments, bool *ok)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    *ok = parser.parse(QStringList {u"posenc"_s} + arguments);
    return *ok ? LessonOptions::read(parser, lesson) : LessonOptions::Read {};
}

// The state of the lesson's first view of `figure`.
std::optional<FigureState> viewOf(const Lesson &lesson, const QString &figure)
{
    const SessionView view = lesson.view();
    for (const SessionView::Figure &f : view.views.value_or(QList<SessionView::Figure> {}))
        if (f.name == figure)
            return FigureState::fromJson(f.state);
    return std::nullopt;
}

struct Column
{
    std::int64_t pair = 0;
    bool isCos = false;
};

// Column j of a sinusoid of k columns, worked out here: interleaved (sin, cos) by pairs, or split
// [sin | cos] halves.
Column columnOf(std::int64_t j, std::int64_t k, bool split)
{
    if (!split)
        return {j / 2, j % 2 == 1};
    const std::int64_t half = (k + 1) / 2;
    return j < half ? Column {j, false} : Column {j - half, true};
}

} // namespace

class TestLessonFollowsModel : public QObject
{
    Q_OBJECT

private slots:
    void theFrequencyCurvesAreOneLadderAtEveryWidth_data();
    void theFrequencyCurvesAreOneLadderAtEveryWidth();
    void aLessonsCurvesFitTheModelsWidth();
    void theFloat32BoundHoldsForTorchsOwnTables();
    void anAlignedScoreSaysWhichColumnsItReads();
    void aSigmaNoModelGaveIsCalledTheLessons();
    void theContextSentenceNamesTheFiguresStretch();
    void anAlibiBiasSaysWhoseHead();
    void theDropoutModesLookAlikeOnlyWhereOneTermOutweighs_data();
    void theDropoutModesLookAlikeOnlyWhereOneTermOutweighs();
    void theViewsATextNamesAreInTheWindow();
    void aQwen3VideosTextStartsAfterItsFirstGrid();
    void aBucketModelIsToldWhatItsBucketsFeed();
    void aPanelOfAnotherFigureIsNamedWithItsView();
    void theMiddlePairSaysWhichColumnItIs_data();
    void theMiddlePairSaysWhichColumnItIs();
    void theLayerStackIsARowPerLayer();
};

void TestLessonFollowsModel::theFrequencyCurvesAreOneLadderAtEveryWidth_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("default: transformer-base, d 512") << QStringList {};
    QTest::newRow("the lesson's own d 64") << QStringList {u"--d-model"_s, u"64"_s};
    QTest::newRow("transformer-big, d 1024") << QStringList {u"--preset"_s, u"transformer-big"_s};
    QTest::newRow("whisper, d 1280 split, shift 1") << QStringList {u"--preset"_s, u"whisper-large-v3"_s};
    QTest::newRow("d 4096") << QStringList {u"--preset"_s, u"transformer-base"_s, u"--d-model"_s, u"4096"_s};
}

// The frequencies lesson drew columns 0,8,16,24,40, written for its d 64: the sines of pairs 0, 4,
// 8, 12 and 20 of 32, whose wavelengths 2π·10000^(2i/64) run from 6.3 to 1987 positions over its
// 256. At d 512 the same columns are pairs 0..20 of 256, wavelengths 6.3 to 12.9: five fast curves
// in one dense band. λ_i = 2π/w_i, w_i = b^(−i/(k/2 − s)), depends on i/(k/2 − s) alone, so the
// ladder the lesson means is the pairs at the same fractions, e/8 for e = 0, 1, 2, 3, 5: the test
// wants those wavelengths, 2π·b^(e/8), within 1 %, at every width.
void TestLessonFollowsModel::theFrequencyCurvesAreOneLadderAtEveryWidth()
{
    QFETCH(QStringList, arguments);
    const Lesson &lesson = *Lessons::find(u"frequencies"_s);
    bool ok = false;
    const LessonOptions::Read r = readFor(lesson, arguments, &ok);
    QVERIFY(ok);
    QCOMPARE(r.result.exitCode(), 0);
    const Params &p = r.model.params;
    const auto state = viewOf(lesson, u"curves"_s);
    QVERIFY(state);
    const FigureModel &curves = CurvesModel();
    QVERIFY2(curves.check(p, *state).isEmpty(), qPrintable(arguments.join(u' ')));
    const std::vector<std::int64_t> columns = CurvesModel::columns(p, *state);
    const std::int64_t k = p.dModel;
    const bool split = p.sinusoidal.layout == Layout::Split;
    const double b = p.sinusoidal.base, s = p.sinusoidal.freqShift;
    QCOMPARE(qsizetype(columns.size()), qsizetype(5));
    const int eighths[] = {0, 1, 2, 3, 5};
    for (std::size_t n = 0; n < columns.size(); ++n) {
        const Column c = columnOf(columns[n], k, split);
        QVERIFY(!c.isCos);
        const double lambda = 2.0 * std::numbers::pi / std::pow(b, -double(c.pair) / (double(k) / 2.0 - s));
        const double wanted = 2.0 * std::numbers::pi * std::pow(b, eighths[n] / 8.0);
        QVERIFY2(std::abs(lambda / wanted - 1.0) < 0.01,
                 qPrintable(u"%1: column %2, λ %3, wanted %4"_s.arg(arguments.join(u' ')).arg(columns[n]).arg(lambda).arg(wanted)));
    }
}

// float32-precision and sum-vs-concat named columns written for their default's d (0,1,64,65,126,127
// for d 128; 0,1,300,301,510,511 for d 512): sum-vs-concat at d 256 asked for column 300 of 256 and
// its curves were refused. Their curves now take the figure's columns for the model's width: the
// first, middle and last pairs' sine and cosine, which the test lists itself.
void TestLessonFollowsModel::aLessonsCurvesFitTheModelsWidth()
{
    for (const QString &name : {u"float32-precision"_s, u"sum-vs-concat"_s}) {
        const Lesson &lesson = *Lessons::find(name);
        const auto state = viewOf(lesson, u"curves"_s);
        QVERIFY(state);
        for (const QString &d : {u"256"_s, u"1280"_s}) {
            bool ok = false;
            const LessonOptions::Read r
                = readFor(lesson, {u"--preset"_s, u"transformer-base"_s, u"--d-model"_s, d}, &ok);
            QVERIFY(ok);
            QCOMPARE(r.result.exitCode(), 0);
            const Params &p = r.model.params;
            QVERIFY2(CurvesModel().check(p, *state).isEmpty(), qPrintable(name + u" d "_s + d));
            const std::int64_t k = p.dModel, middle = (k / 2) & ~std::int64_t(1);
            QCOMPARE(CurvesModel::columns(p, *state), (std::vector<std::int64_t> {0, 1, middle, middle + 1, k - 2, k - 1}));
        }
    }
}

// The lesson's bound p·w₀·2⁻²³ + 2⁻²⁵ is derived for w_i rounded once from its exact value (posenc's
// float32 table); the code it shows computes w_i as torch.exp of a float32 product, up to several
// float32 steps from that. tests/data/make_float32_sinusoid_fixture.py recorded torch's own tables
// (HF transformers models/whisper/modeling_whisper.py sinusoids() at 1500 × 1280; PyTorch's
// tutorial PositionalEncoding at 5000 × 512, the Annotated Transformer's): the lesson, read for each,
// states a bound that torch's largest error over its rows (recorded, and recomputed here in float64
// for its worst and last rows) stays under, and says which computation its figure shows.
void TestLessonFollowsModel::theFloat32BoundHoldsForTorchsOwnTables()
{
    QFile file(QStringLiteral(POSENC_TORCH_SINUSOIDS));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    const QJsonArray tables = QJsonDocument::fromJson(file.readAll()).object().value(u"tables"_s).toArray();
    QCOMPARE(tables.size(), 2);
    const Lesson &lesson = *Lessons::find(u"float32-precision"_s);
    for (const QJsonValue &value : tables) {
        const QJsonObject t = value.toObject();
        const bool whisper = t.value(u"code"_s).toString() == u"whisper"_s;
        const std::int64_t length = t.value(u"length"_s).toInteger(), channels = t.value(u"channels"_s).toInteger();
        bool ok = false;
        const LessonOptions::Read r = readFor(
            lesson, {u"--preset"_s, whisper ? u"whisper-large-v3"_s : u"annotated-transformer"_s}, &ok);
        QVERIFY(ok);
        QCOMPARE(r.result.exitCode(), 0);
        QCOMPARE(r.model.params.maxLen, length);
        QCOMPARE(r.model.params.dModel, channels);
        const auto bound = LessonNumbers::number(u"f32_bound"_s, r.model);
        QVERIFY(bound && bound->value);
        // The exact w_i of each code, in float64, and how far torch's float32 w_i lie from them.
        const std::int64_t half = channels / 2;
        const QJsonArray torchW = t.value(u"frequencies"_s).toArray();
        QCOMPARE(torchW.size(), half);
        std::vector<double> w(std::size_t(half), 0.0);
        double mostSteps = 0.0;
        for (std::int64_t i = 0; i < half; ++i) {
            w[std::size_t(i)] = whisper ? std::exp(-std::log(10000.0) / double(half - 1) * double(i))
                                        : std::exp(double(2 * i) * -(std::log(10000.0) / double(channels)));
            const float rounded = static_cast<float>(w[std::size_t(i)]);
            const double step = double(std::nextafter(rounded, 2.0f)) - double(rounded);
            mostSteps = std::max(mostSteps, std::abs(torchW[i].toDouble() - double(rounded)) / step);
        }
        QVERIFY2(mostSteps >= 2.0, qPrintable(u"torch's w_i lie %1 float32 steps from w_i rounded once"_s.arg(mostSteps)));
        double largest = 0.0;
        const QJsonObject rows = t.value(u"rows"_s).toObject();
        QVERIFY(rows.contains(QString::number(length - 1)));
        for (auto row = rows.begin(); row != rows.end(); ++row) {
            const double p = row.key().toDouble();
            const QJsonArray v = row.value().toArray();
            QCOMPARE(v.size(), channels);
            for (std::int64_t j = 0; j < channels; ++j) {
                const std::int64_t i = whisper ? j % half : j / 2;
                const bool isCos = whisper ? j >= half : j % 2 == 1;
                const double angle = p * w[std::size_t(i)];
                largest = std::max(largest, std::abs(v[j].toDouble() - (isCos ? std::cos(angle) : std::sin(angle))));
            }
        }
        // numpy's exp and sin and the C library's may part by an ulp: 1e-11 of slack at p < 5000.
        QVERIFY2(std::abs(largest - t.value(u"largest_error"_s).toDouble()) < 1e-11 || largest < t.value(u"largest_error"_s).toDouble(),
                 qPrintable(u"%1 against %2"_s.arg(largest).arg(t.value(u"largest_error"_s).toDouble())));
        QVERIFY2(t.value(u"largest_error"_s).toDouble() < *bound->value,
                 qPrintable(u"torch %1 against the stated %2"_s.arg(t.value(u"largest_error"_s).toDouble()).arg(*bound->value)));
        const QString plain = LessonText::plain(lesson.explain(r.model).html);
        QVERIFY2(plain.contains(u"The figure rounds the exact w_i once"_s) && plain.contains(u"torch.exp of a float32 product"_s),
                 qPrintable(plain));
        QVERIFY2(!plain.contains(u"w_i is rounded to 24 bits"_s), qPrintable(plain));
    }
}

// GPT-NeoX-20B turns the first rotary_ndims = int(96 · 0.25) = 24 of a head's 96 columns and passes
// the rest (transformers models/gpt_neox/modeling_gpt_neox.py, apply_rotary_pos_emb on
// q[..., :rotary_ndims], then cat with q[..., rotary_ndims:]). rope-decay's "q all ones" (the
// rope-score table's column 0) is all ones over the 96, the 72 unturned adding 1 each; the
// position-effect's (left-padding) is the mean over the 12 turned pairs. Both read "q all ones" and
// neither said over which columns. Computed here: (2·Σ_i cos(k·θ_i) + 72)/96, θ_i = 10000^(−2i/24).
void TestLessonFollowsModel::anAlignedScoreSaysWhichColumnsItReads()
{
    const Lesson &decay = *Lessons::find(u"rope-decay"_s);
    bool ok = false;
    const LessonOptions::Read r = readFor(decay, {u"--preset"_s, u"gpt-neox-20b"_s}, &ok);
    QVERIFY(ok);
    QCOMPARE(r.result.exitCode(), 0);
    for (const auto &[key, distance] : {std::pair {u"rope_ones_1"_s, 1.0}, std::pair {u"rope_ones_1000"_s, 1000.0}}) {
        double cosines = 0.0;
        for (int i = 0; i < 12; ++i)
            cosines += std::cos(distance * std::pow(10000.0, -2.0 * i / 24.0));
        const auto number = LessonNumbers::number(key, r.model);
        QVERIFY(number && number->value);
        QVERIFY2(std::abs(*number->value - (2.0 * cosines + 72.0) / 96.0) < 1e-12, qPrintable(key));
    }
    const QString plain = LessonText::plain(decay.explain(r.model).html);
    QVERIFY2(plain.contains(u"For q = k all ones over the head's 96 columns, as GPT-NeoX-20B's q·k reads them (the 24 turned"_s),
             qPrintable(plain));
    const LessonOptions::Read whole = readFor(decay, {u"--preset"_s, u"llama-3-1-8b"_s}, &ok);
    QVERIFY(ok);
    QVERIFY(LessonText::plain(decay.explain(whole.model).html).contains(u"For q = k all ones the score falls too"_s));

    const Lesson &padding = *Lessons::find(u"left-padding"_s);
    const LessonOptions::Read neox = readFor(padding, {u"--preset"_s, u"gpt-neox-20b"_s}, &ok);
    QVERIFY(ok);
    QCOMPARE(neox.result.exitCode(), 0);
    const QString said = LessonText::plain(padding.explain(neox.model).html);
    QVERIFY2(said.contains(u"for q all ones over the columns it turns"_s), qPrintable(said));
}

// sum-vs-concat told Whisper large-v3 "every column of s·E spreads by s·σ = 0.028" and nope-order told
// Qwen2.5 7B "its norm shrinks as s·σ·√(d/(t + 1)): 59.9 at t = 0", σ the lesson's d^-1/2 and 1:
// neither preset says how the model's embeddings start (Whisper's input is its convolutions'
// features), as why-sqrt-d already said of its σ. A preset that names its init
// (fairseq's, σ = d^-1/2) keeps the plain sentence. Whisper, whose encoder adds its table by column
// to those features, is told what σ stands in for, not that its embeddings' start is unsaid.
void TestLessonFollowsModel::aSigmaNoModelGaveIsCalledTheLessons()
{
    const struct
    {
        QString lesson, preset;
        bool unsaid;
    } cases[] = {{u"sum-vs-concat"_s, u"whisper-large-v3"_s, true},
                 {u"sum-vs-concat"_s, u"fairseq-init"_s, false},
                 {u"nope-order"_s, u"smollm3-3b"_s, true}};
    for (const auto &c : cases) {
        const Lesson &lesson = *Lessons::find(c.lesson);
        bool ok = false;
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, c.preset}, &ok);
        QVERIFY(ok);
        QCOMPARE(r.result.exitCode(), 0);
        const QString plain = LessonText::plain(lesson.explain(r.model).html);
        QVERIFY2(plain.contains(u", the lesson's ("_s) == c.unsaid, qPrintable(c.preset + u": "_s + plain));
        const QString why = r.model.params.batch.positions == Positions::ByColumn
            ? u"adds its table to the features its first layers make of its input"_s
            : u"preset or config does not say how its embeddings start"_s;
        if (c.unsaid)
            QVERIFY2(plain.contains(u"at σ = "_s) && plain.contains(why), qPrintable(plain));
    }
}

// rope-scaling told Llama 4 Scout it "runs to 10485760" while its figure's title said "L₀ = 8,192
// stretched to 131,072": both true (Scout's context is 10M; posenc's views stop at max_len 131072,
// f·L₀ = 16 · 8192), but the sentence and the figure spoke of different ends. A model whose preset's
// context the views' max_len is capped below now hears where the figure stops, the number the
// figure's title states (RopeStretch::of, which the title reads); Llama 3.1's context, 131072, is
// the figure's, and its sentence stays.
void TestLessonFollowsModel::theContextSentenceNamesTheFiguresStretch()
{
    const Lesson &scaling = *Lessons::find(u"rope-scaling"_s);
    const struct
    {
        QString preset;
        std::int64_t context, figure; // the preset's context; where the figure stops (its max_len)
        bool capped;
    } cases[] = {{u"llama-4-scout"_s, 10485760, 131072, true}, {u"llama-3-1-8b"_s, 131072, 131072, false}};
    for (const auto &c : cases) {
        bool ok = false;
        const LessonOptions::Read r = readFor(scaling, {u"--preset"_s, c.preset}, &ok);
        QVERIFY(ok);
        QCOMPARE(r.result.exitCode(), 0);
        QCOMPARE(r.model.params.maxLen, c.figure);
        QCOMPARE(RopeStretch::of(r.model.params).extended, c.figure);
        const QString first = LessonText::plain(scaling.explain(r.model).items.value(0));
        QVERIFY2(first.contains(u"runs to %1 with"_s.arg(QLocale(QLocale::English).toString(qint64(c.context)))),
                 qPrintable(first));
        const QString stretch = u"stretched only to %1"_s.arg(QLocale(QLocale::English).toString(qint64(c.figure)));
        QVERIFY2(first.contains(stretch) == c.capped, qPrintable(c.preset + u": "_s + first));
    }
}

// left-padding told BLOOM-560m "against the row's first token the last one's ALiBi bias is −6499"
// without saying whose: ALiBi's bias is per head, 16 of them from 0.707 to 0.00391 a position. The
// sentence now names the head and its slope. Computed here: BLOOM's 16 heads take 2^(−8k/16)
// (build_alibi_tensor), head 1's 2^(−1/2); the last real token is id 9191 (1000 + 8192 real tokens
// in the row, ids from 0), so its bias against id 0 is −9191·2^(−1/2).
void TestLessonFollowsModel::anAlibiBiasSaysWhoseHead()
{
    const Lesson &padding = *Lessons::find(u"left-padding"_s);
    bool ok = false;
    const LessonOptions::Read r = readFor(padding, {u"--preset"_s, u"bloom-560m"_s}, &ok);
    QVERIFY(ok);
    QCOMPARE(r.result.exitCode(), 0);
    const double slope = std::exp2(-0.5);
    const double bias = -9191.0 * slope;
    const auto number = LessonNumbers::number(u"batch_score_reference"_s, r.model);
    QVERIFY(number && number->value);
    QVERIFY2(std::abs(*number->value - bias) < 1e-9 * std::abs(bias), qPrintable(QString::number(*number->value)));
    const QString plain = LessonText::plain(padding.explain(r.model).html);
    const QString said = u"the last one's ALiBi bias in head 1 (slope %1) is %2"_s.arg(QString::number(slope, 'g', 3))
                             .arg(QLocale(QLocale::English).toString(qint64(bias)).replace(u'-', u"\u2212"_s));
    QVERIFY2(plain.contains(said), qPrintable(said + u" not in: "_s + plain));
}

void TestLessonFollowsModel::theDropoutModesLookAlikeOnlyWhereOneTermOutweighs_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<double>("ratio"); // s·σ·√(d/(d/2)) = s·σ·√2, worked out here
    QTest::addColumn<QString>("said");
    QTest::addColumn<bool>("lessons"); // σ the lesson's: the preset does not say how E starts
    const double root2 = std::sqrt(2.0);
    QTest::newRow("Transformer base: s √512, the lesson's σ 1")
        << QStringList {} << std::sqrt(512.0) * root2 << u"s·E outweighs the PE"_s << true;
    QTest::newRow("fairseq: s √512, σ 512^-1/2, its own")
        << QStringList {u"--preset"_s, u"fairseq-init"_s} << root2 << u"neither term outweighs the other"_s << false;
    QTest::newRow("Transformer base at s 1, σ d^-1/2")
        << QStringList {u"--scale"_s, u"1"_s, u"--init"_s, u"scaled-normal"_s} << root2 / std::sqrt(512.0)
        << u"the PE outweighs s·E"_s << false; // σ given, not the lesson's
}

// dropout-on-sum said "in Y the modes look alike here, because ‖s·E‖ / ‖PE‖ = {ratio}" at any
// ratio: of Transformer base's 32 (s·E outweighs the PE: the sum and dropout on the embedding alone
// look alike, dropout on the PE alone like X) and of fairseq's 1.41 (neither does: each mode's drops
// show apart) alike, and never said that Transformer base's σ = 1 is the lesson's, its preset
// naming no init (as sum-vs-concat and nope-order do). Now one sentence per case, the ratio at 4
// and 1/4 deciding, with the lesson's σ called so.
void TestLessonFollowsModel::theDropoutModesLookAlikeOnlyWhereOneTermOutweighs()
{
    QFETCH(QStringList, arguments);
    QFETCH(double, ratio);
    QFETCH(QString, said);
    QFETCH(bool, lessons);
    const Lesson &lesson = *Lessons::find(u"dropout-on-sum"_s);
    bool ok = false;
    const LessonOptions::Read r = readFor(lesson, arguments, &ok);
    QVERIFY(ok);
    QCOMPARE(r.result.exitCode(), 0);
    const auto number = LessonNumbers::number(u"ratio"_s, r.model);
    QVERIFY(number && number->value);
    QVERIFY2(std::abs(*number->value - ratio) < 1e-12 * ratio, qPrintable(QString::number(*number->value)));
    QString sentence;
    for (const QString &item : lesson.explain(r.model).items)
        if (LessonText::plain(item).startsWith(u"Dropout on the embedding alone"_s))
            sentence = LessonText::plain(item);
    QVERIFY2(sentence.contains(said), qPrintable(sentence));
    QVERIFY2(sentence.contains(u"= %1 at σ = "_s.arg(number->text)), qPrintable(sentence));
    QVERIFY2(sentence.contains(u", the lesson's ("_s) == lessons, qPrintable(sentence));
    QVERIFY2(!sentence.contains(u"the modes look alike"_s), qPrintable(sentence));
}

// alibi's text pointed at "the alibi-bias view" and "the alibi-slopes view" (its slide draws
// them), but its window showed one view, the attention span: a reader of the window was sent to
// views it did not show. A view a lesson's text names, for any model it is read for, is one its
// window shows: the maximised view, or the first rows x columns of the layout (the dashboard's
// "1x1", "1x2", "2x1", "2x2").
void TestLessonFollowsModel::theViewsATextNamesAreInTheWindow()
{
    const QStringList presets {u"whisper-large-v3"_s, u"transformer-big"_s, u"qwen2-5-7b"_s,
                               u"llama-4-scout"_s, u"gpt-neox-20b"_s, u"bloom-560m"_s,
                               u"mpt-7b"_s, u"t5-base"_s, u"deberta-v3-base"_s,
                               u"qwen3-vl-8b"_s, u"gemma-3-4b"_s};
    static const QRegularExpression grid(u"^([12])x([12])$"_s);
    static const QRegularExpression named(u"([a-z0-9]+(?:-[a-z0-9]+)*) views?\\b"_s);
    int read = 0;
    for (const Lesson &lesson : Lessons::all()) {
        for (const QString &preset : QStringList {QString()} + presets) {
            bool ok = false;
            const LessonOptions::Read r = readFor(
                lesson, preset.isEmpty() ? QStringList {} : QStringList {u"--preset"_s, preset}, &ok);
            QVERIFY(ok);
            if (r.result.exitCode() != 0)
                continue; // the lesson does not apply to this model
            ++read;
            const SessionView view = lesson.view(r.model.configName);
            const QList<SessionView::Figure> views = view.views.value_or(QList<SessionView::Figure> {});
            QStringList shown;
            if (view.maximized >= 0 && view.maximized < views.size()) {
                shown.append(views[view.maximized].name);
            } else {
                const auto match = grid.match(view.layout.value_or(u"2x2"_s));
                QVERIFY2(match.hasMatch(), qPrintable(lesson.name + u": layout "_s + view.layout.value_or(QString())));
                const qsizetype count = match.captured(1).toInt() * match.captured(2).toInt();
                for (qsizetype i = 0; i < std::min(count, views.size()); ++i)
                    shown.append(views[i].name);
            }
            const QString plain = LessonText::plain(lesson.explain(r.model).html);
            for (auto it = named.globalMatch(plain); it.hasNext();) {
                const QString name = it.next().captured(1);
                const bool aView = std::any_of(views.begin(), views.end(),
                                               [&name](const SessionView::Figure &f) { return f.name == name; });
                QVERIFY2(!aView || shown.contains(name),
                         qPrintable(u"%1 (%2) names the %3 view; its window shows %4"_s.arg(
                             lesson.name, preset.isEmpty() ? u"its model"_s : preset, name, shown.join(u", "_s))));
            }
        }
    }
    QVERIFY(read > Lessons::all().size());
}

// mrope-image-tokens told Qwen3-VL "transformers 4.x starts the text after the video at the
// largest id so far + 1 ...: for this video both give 13", where its figure starts the text after
// the video at 23: Qwen3-VL's get_rope_index (transformers, models/qwen3_vl/modeling_qwen3_vl.py)
// repeats video_grid_thw per frame with t = 1, so each grid is a span of its own with timestamp
// text between, and 13 is the id after the first grid. Worked out here by get_rope_index's rules for
// the lesson's prompt text:5, image:1x4x6, text:3, video:2x4x4 (merge 2): text 0-4, the image's 2 x 3
// merged patches from 5 taking max(2, 3) = 3 ids, text 8-10, the first grid's 2 x 2 from 11, its
// next text at 11 + 2 = 13.
void TestLessonFollowsModel::aQwen3VideosTextStartsAfterItsFirstGrid()
{
    const Lesson &lesson = *Lessons::find(u"mrope-image-tokens"_s);
    bool ok = false;
    const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, u"qwen3-vl-8b"_s}, &ok);
    QVERIFY(ok);
    QCOMPARE(r.result.exitCode(), 0);
    const std::int64_t imageStart = 5, imageCost = std::max(4 / 2, 6 / 2);
    const std::int64_t gridStart = imageStart + imageCost + 3, afterGrid = gridStart + std::max(4 / 2, 4 / 2);
    QString sentence;
    for (const QString &item : lesson.explain(r.model).items)
        if (LessonText::plain(item).contains(u"4.x"_s))
            sentence = LessonText::plain(item);
    QVERIFY2(sentence.contains(u"%1 for the text after the video's first grid"_s.arg(afterGrid)), qPrintable(sentence));
    QVERIFY2(!sentence.contains(u"text after the video at"_s), qPrintable(sentence));
    QVERIFY2(!sentence.contains(u"inside the video's time range"_s), qPrintable(sentence)); // t is 1 a grid
}

// buckets began "T5 and DeBERTa add nothing to X: T5's heads each add a learned number to the
// score for the bucket ... (here DeBERTa-v3-base, with DeBERTa log buckets)", telling a DeBERTa
// reader that its model adds a number per bucket; DeBERTa's bucket picks a row of a learned relative
// embedding read by c2p and p2c (transformers, models/deberta_v2/modeling_deberta_v2.py,
// DisentangledSelfAttention), as the lesson's later sentences and the families lesson say.
void TestLessonFollowsModel::aBucketModelIsToldWhatItsBucketsFeed()
{
    const Lesson &lesson = *Lessons::find(u"buckets"_s);
    for (const QString &preset : {u"t5-base"_s, u"deberta-v3-base"_s}) {
        bool ok = false;
        const LessonOptions::Read r = readFor(lesson, {u"--preset"_s, preset}, &ok);
        QVERIFY(ok);
        QCOMPARE(r.result.exitCode(), 0);
        const QString first = LessonText::plain(lesson.explain(r.model).items.value(0));
        QVERIFY2(first.contains(u"T5's heads adding a learned number to the score for each bucket"_s), qPrintable(first));
        QVERIFY2(first.contains(u"DeBERTa's reading a learned embedding row for it"_s), qPrintable(first));
        QVERIFY2(!first.contains(u"T5's heads each add a learned number"_s), qPrintable(first));
    }
}

// left-padding said "(the difference panel's title gives the largest such move over the row)" beside
// its main figure, the position ids, which has no difference panel: on the lesson's slide (posenc
// export --lesson writes the main figure) and beside the ids' view in the window a reader looked for
// it in the wrong figure. A sentence that refers to a panel of another figure than the main one
// names that figure's view ("the position-effect view"), as alibi's and many-layers' texts do.
void TestLessonFollowsModel::aPanelOfAnotherFigureIsNamedWithItsView()
{
    const QStringList presets {u"whisper-large-v3"_s, u"qwen2-5-7b"_s, u"llama-4-scout"_s,
                               u"gpt-neox-20b"_s, u"bloom-560m"_s, u"t5-base"_s, u"qwen2-5-vl-7b"_s};
    int referred = 0;
    for (const Lesson &lesson : Lessons::all()) {
        for (const QString &preset : QStringList {QString()} + presets) {
            bool ok = false;
            const LessonOptions::Read r = readFor(
                lesson, preset.isEmpty() ? QStringList {} : QStringList {u"--preset"_s, preset}, &ok);
            QVERIFY(ok);
            if (r.result.exitCode() != 0)
                continue;
            const LessonText::Rendered text = lesson.explain(r.model);
            const QString plain = LessonText::plain(text.html);
            for (const QString &panel : text.panels) {
                const QString figure = panel.section(u": "_s, 0, 0);
                if (figure == lesson.mainFigure())
                    continue;
                ++referred;
                QVERIFY2(plain.contains(figure + u" view"_s),
                         qPrintable(u"%1 (%2) refers to a panel of %3 (%4) without naming its view"_s.arg(
                             lesson.name, preset.isEmpty() ? u"its model"_s : preset, figure, panel)));
            }
        }
    }
    QVERIFY(referred > 0); // left-padding's rotary models
}

void TestLessonFollowsModel::theMiddlePairSaysWhichColumnItIs_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<std::int64_t>("pair");   // ⌈k/2⌉/2
    QTest::addColumn<std::int64_t>("column"); // its sine's: 2i interleaved, i split with sines first
    QTest::newRow("Transformer base, k 512 interleaved") << QStringList {} << std::int64_t(128) << std::int64_t(256);
    QTest::newRow("Transformer big, k 1024 interleaved")
        << QStringList {u"--preset"_s, u"transformer-big"_s} << std::int64_t(256) << std::int64_t(512);
    QTest::newRow("Whisper, k 1280 split")
        << QStringList {u"--preset"_s, u"whisper-large-v3"_s} << std::int64_t(320) << std::int64_t(320);
}

// frequencies said "through λ = 628 at pair 256" for Transformer big while the curves' key beside it
// at 1366x768 reads "j=256 sin λ=62.8": j is a column, and pair 256 is columns 512 and 513, a tenth
// of the key's wavelength off. The sentence now says which column the pair's sine is.
void TestLessonFollowsModel::theMiddlePairSaysWhichColumnItIs()
{
    QFETCH(QStringList, arguments);
    QFETCH(std::int64_t, pair);
    QFETCH(std::int64_t, column);
    const Lesson &lesson = *Lessons::find(u"frequencies"_s);
    bool ok = false;
    const LessonOptions::Read r = readFor(lesson, arguments, &ok);
    QVERIFY(ok);
    QCOMPARE(r.result.exitCode(), 0);
    const QString plain = LessonText::plain(lesson.explain(r.model).html);
    const QString said = u"at pair %1 (its sine in column %2)"_s.arg(pair).arg(column);
    QVERIFY2(plain.contains(said), qPrintable(said + u" not in: "_s + plain));
}

// many-layers said each layer type is its own position scheme, "one row each in the layer-stack
// view", beside a layer stack of a row per layer (Scout's 48, Gemma 3's 34), the types told apart
// by colour: a reader counted two rows and found 48.
void TestLessonFollowsModel::theLayerStackIsARowPerLayer()
{
    const Lesson &lesson = *Lessons::find(u"many-layers"_s);
    for (const QString &preset : {QString(), u"gemma-3-4b"_s}) {
        bool ok = false;
        const LessonOptions::Read r
            = readFor(lesson, preset.isEmpty() ? QStringList {} : QStringList {u"--preset"_s, preset}, &ok);
        QVERIFY(ok);
        QCOMPARE(r.result.exitCode(), 0);
        const QString plain = LessonText::plain(lesson.explain(r.model).html);
        QVERIFY2(plain.contains(u"in the layer-stack view (a row per layer)"_s), qPrintable(plain));
        QVERIFY2(!plain.contains(u"one row each"_s), qPrintable(plain));
    }
}

POSENC_TEST_GUILESS_MAIN(TestLessonFollowsModel)
} // namespace tst_lessonfollowsmodel
#include "tst_lessonfollowsmodel.moc"
