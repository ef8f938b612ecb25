// A lesson's text and the figure beside it speak of one thing in one way, for every preset a
// lecturer can pick (docs/ARCHITECTURE.md, Lessons): sum-vs-concat quotes the PE columns the
// compose-compare caption reads, mrope-width writes its turns as the mrope-axes caption does,
// rope-scaling names the rotary pairs its figure's axis counts (not a head's dimensions),
// rope-decay calls its random q and k samples, as RopeScore draws them, float32-precision says
// what a block of its map is, the dropout lessons draw one model's embeddings with one σ, a
// shifted sinusoid says what its shift s does, and a timestep table's sentences name timesteps t.
// The expected values are worked out here in float64 from the model's parameters, or read from
// the figure as it is drawn, never from the lesson's own numbers.
#include "LessonRead.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"

#include "check/models/LayerLessonNumbers.h"
#include "core/LessonNumbers.h"
#include "core/NumberText.h"
#include "core/rope/RopeScore.h"
#include "io/Lesson.h"
#include "io/LessonText.h"
#include "io/Preset.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>

namespace tst_lessonfigurewords {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The lesson's own model and every shipped preset, as `posenc lessons NAME [--preset P]` reads them.
QList<QStringList> everyRead()
{
    QList<QStringList> reads {{}};
    for (const Preset &preset : Presets::shipped().presets)
        reads.append({u"--preset"_s, preset.name});
    return reads;
}

QString what(const QString &lesson, const QStringList &arguments)
{
    return lesson + u" for "_s + (arguments.isEmpty() ? u"its own model"_s : arguments.join(u' '));
}

// One model a lesson reads (everyRead's that it applies to), its text, and a heading for a message.
struct Read
{
    QStringList arguments;
    LessonModel model;
    QString text;
    QString where;
};

QList<Read> readsOf(const Lesson &lesson)
{
    QList<Read> reads;
    for (const QStringList &arguments : everyRead()) {
        auto model = LessonRead::modelFor(lesson, arguments);
        if (!model)
            continue;
        const QString text = LessonRead::itemsOf(lesson, *model).join(u' ');
        reads.append({arguments, std::move(*model), text, what(lesson.name, arguments) + u":\n"_s + text});
    }
    return reads;
}

// A number as a lesson writes it ("−1.36·10⁻⁴", "1,279", "10⁻⁴", "0.707") or a caption does ("1.7e-05").
double valueOf(QString text)
{
    static const QString digits = u"⁰¹²³⁴⁵⁶⁷⁸⁹"_s;
    text.replace(u"−"_s, u"-"_s).remove(u',');
    QString mantissa = text, power;
    if (const qsizetype at = text.indexOf(u"10"_s);
        at >= 0 && at + 2 < text.size() && (text[at + 2] == u'⁻' || digits.contains(text[at + 2]))) {
        mantissa = at == 0 ? u"1"_s : text.left(at).remove(u'·');
        for (const QChar c : text.mid(at + 2))
            power += c == u'⁻' ? QChar(u'-') : QChar(char16_t(u'0' + digits.indexOf(c)));
    }
    return mantissa.toDouble() * (power.isEmpty() ? 1.0 : std::pow(10.0, power.toDouble()));
}

// The lesson's main figure for `model`, laid out roomily (its captions drawn), and its texts.
QString mainFigureTexts(const Lesson &lesson, const LessonModel &model, const QString &figure = {})
{
    const auto main = lesson.view(model.configName).figure(lesson.mainView);
    if (!main)
        return {};
    const FigureState state = figure.isEmpty() ? FigureState::fromJson(main->state) : FigureState();
    const auto built = FigureBuilds::build(figure.isEmpty() ? main->name : figure, model.params,
                                           FigureSize::fromPixels(QSize(1600, 900)), state);
    if (built->error())
        return u"error: "_s + FigureBuilds::errorOf(*built);
    return FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
}

} // namespace

class TestLessonFigureWords : public QObject
{
    Q_OBJECT

private slots:
    void sumVsConcatQuotesTheCaptionsColumns();
    void mropeWidthWritesItsTurnsAsTheFigure();
    void ropeScalingNamesTheFiguresPairs();
    void ropeDecayCallsItsDrawsSamples();
    void float32SaysWhatABlockIs();
    void dropoutLessonsDrawOneSigma();
    void aShiftSaysWhatItDoes();
    void timestepsAreNamedT();
};

// sum-vs-concat quoted the PE's column 0 and its last column, where the caption under the
// window's compose-compare heatmap reads its fastest and slowest cosine columns (j = 1 and
// j = 511 for Transformer base): the columns the text names are the caption's, and each mean and
// standard deviation is the caption's to its rounding (two decimals, two significant digits).
void TestLessonFigureWords::sumVsConcatQuotesTheCaptionsColumns()
{
    const Lesson &lesson = *Lessons::find(u"sum-vs-concat"_s);
    static const QRegularExpression caption(u"(fastest|slowest) cos j = (\\d+): mean (-?[\\d.]+), std ([\\d.e+-]+)"_s);
    static const QRegularExpression said(
        u"(fastest|slowest) cosine, column ([\\d,]+?),(?: of wavelength \\S+)? has mean (\\S+) and standard deviation ([^:\\s]+):"_s);
    int read = 0;
    for (const Read &reading : readsOf(lesson)) {
        const QString &text = reading.text;
        const QString figure = mainFigureTexts(lesson, reading.model);
        const QString where = reading.where + u"\n"_s + figure;
        // The sum's caption comes first: its PE is the one the text speaks of.
        QHash<QString, QRegularExpressionMatch> drawn;
        for (auto it = caption.globalMatch(figure); it.hasNext();) {
            const auto m = it.next();
            if (!drawn.contains(m.captured(1)))
                drawn.insert(m.captured(1), m);
        }
        int quoted = 0;
        for (auto it = said.globalMatch(text); it.hasNext(); ++quoted) {
            const auto m = it.next();
            QVERIFY2(drawn.contains(m.captured(1)), qPrintable(where));
            const auto &f = drawn[m.captured(1)];
            QCOMPARE(m.captured(2).remove(u','), f.captured(2));
            const double mean = valueOf(m.captured(3)), std = valueOf(m.captured(4));
            QVERIFY2(std::abs(mean - f.captured(3).toDouble()) <= 0.005 + 1e-12, qPrintable(where));
            QVERIFY2(std::abs(std - f.captured(4).toDouble()) <= 0.051 * f.captured(4).toDouble(), qPrintable(where));
        }
        QVERIFY2(quoted == 2, qPrintable(where));
        QVERIFY2(!text.contains(u"column 0 has mean"_s) && !text.contains(u"Its last column"_s), qPrintable(where));
        ++read;
    }
    QVERIFY(read >= 5);
}

// mrope-width wrote 7.94·10⁻⁴ rad where the mrope-axes caption beside it wrote 0.000794: the text's
// turns are the caption's, written alike, and each is 32 θ^(−2j/head_dim) for the pair j it names.
void TestLessonFigureWords::mropeWidthWritesItsTurnsAsTheFigure()
{
    const Lesson &lesson = *Lessons::find(u"mrope-width"_s);
    static const QRegularExpression chunked(u"turns that pair by only (\\S+) rad"_s);
    static const QRegularExpression interleaved(u"pair (\\d+), and the same offset turns it (\\S+) rad"_s);
    int read = 0;
    for (const Read &reading : readsOf(lesson)) {
        const QString &text = reading.text;
        const QString figure = mainFigureTexts(lesson, reading.model, u"mrope-axes"_s);
        const QString where = reading.where + u"\n"_s + figure;
        const auto c = chunked.match(text);
        if (c.hasMatch())
            QVERIFY2(figure.contains(u"by %1 rad (pair"_s.arg(c.captured(1))), qPrintable(where));
        const auto i = interleaved.match(text);
        QVERIFY2(i.hasMatch(), qPrintable(where));
        QVERIFY2(figure.contains(u"%1 rad (pair %2) interleaved"_s.arg(i.captured(2), i.captured(1))),
                 qPrintable(where));
        const RopeParams &rope = reading.model.params.rope;
        const double turn = 32.0 * std::pow(rope.theta, -2.0 * i.captured(1).toDouble() / double(rope.headDim));
        QCOMPARE(i.captured(2), NumberText::prose(turn, 3));
        ++read;
    }
    QVERIFY(read >= 3);
}

// rope-scaling said "its pairs from dimension 70 on", where its figure counts rotary pairs along its
// axis and labels no dimension: it names the pair, the first i whose wavelength 2π θ^(2i/r) reaches
// L₀ (Liu et al.'s critical dimension, 2 ⌈(r/2) log_θ(L₀/2π)⌉, halved).
void TestLessonFigureWords::ropeScalingNamesTheFiguresPairs()
{
    const Lesson &lesson = *Lessons::find(u"rope-scaling"_s);
    static const QRegularExpression pair(u"its pairs from i = (\\d+) on"_s);
    static const QRegularExpression dimension(u"\\bdimension \\d"_s);
    int read = 0, computed = 0;
    for (const Read &reading : readsOf(lesson)) {
        const QString &text = reading.text;
        const QString &where = reading.where;
        QVERIFY2(!dimension.match(text).hasMatch(), qPrintable(where));
        const auto m = pair.match(text);
        QVERIFY2(m.hasMatch(), qPrintable(where));
        const RopeParams &rope = reading.model.params.rope;
        if (text.contains(u"was trained on L_0"_s) && rope.originalMaxLen && rope.partialRotaryFactor == 1.0) {
            const double r = double(rope.headDim), l0 = double(*rope.originalMaxLen);
            const auto first
                = std::int64_t(std::ceil(r / 2.0 * std::log(l0 / (2.0 * std::numbers::pi)) / std::log(rope.theta)));
            QVERIFY2(m.captured(1).toLongLong() == first,
                     qPrintable(where + u"\nexpected "_s + QString::number(first)));
            ++computed;
        }
        ++read;
    }
    QVERIFY(read >= 10 && computed >= 3);
}

// rope-decay's legend called the 256 random unit q and k it averages "pairs", a word the lesson
// keeps for a head's rotary pairs: the text and the legend call them samples, RopeScore's count.
void TestLessonFigureWords::ropeDecayCallsItsDrawsSamples()
{
    const Lesson &lesson = *Lessons::find(u"rope-decay"_s);
    const QString samples = u"%1 random samples"_s.arg(RopeScore::kSamples);
    for (const Read &reading : readsOf(lesson)) {
        const QString &text = reading.text;
        QVERIFY2(text.contains(samples) && !text.contains(u"random pairs"_s),
                 qPrintable(reading.where));
    }
    const auto model = LessonRead::modelFor(lesson, {});
    QVERIFY(model);
    const auto built = FigureBuilds::build(u"rope-score"_s, model->params, FigureSize::fromPixels(QSize(1600, 900)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList names;
    for (int i = 0; i < built->plot()->plottableCount(); ++i)
        names.append(built->plot()->plottable(i)->name());
    const QString legend = names.join(u" | "_s);
    QVERIFY2(legend.contains(u"mean of %1 samples"_s.arg(RopeScore::kSamples)) && !legend.contains(u"pairs"_s),
             qPrintable(legend));
}

// The float32-precision slide's colour scale reads "max |error| in each block" and nothing said
// what a block is: the text says it, for every model the lesson reads.
void TestLessonFigureWords::float32SaysWhatABlockIs()
{
    const Lesson &lesson = *Lessons::find(u"float32-precision"_s);
    int read = 0;
    for (const Read &reading : readsOf(lesson)) {
        const QString &text = reading.text;
        QVERIFY2(text.contains(u"each of its pixels is a block, the "_s) && text.contains(u" and columns it covers"_s),
                 qPrintable(reading.where));
        ++read;
    }
    QVERIFY(read >= 5);
}

// what-dropout-does drew Transformer base's embeddings with σ = d^(−1/2) and dropout-on-sum with
// σ = 1, neither saying why: the dropout lessons draw a model's embeddings alike, the model's own
// way where its preset says it, else one way for all, so that one preset's X is one X.
void TestLessonFigureWords::dropoutLessonsDrawOneSigma()
{
    const QStringList lessons {u"what-dropout-does"_s, u"dropout-on-sum"_s, u"masked-dropout"_s};
    int compared = 0;
    for (const QStringList &arguments : everyRead()) {
        std::optional<std::pair<InitKind, double>> first;
        QString firstLesson;
        for (const QString &name : lessons) {
            const auto model = LessonRead::modelFor(*Lessons::find(name), arguments);
            if (!model || model->params.embeddings)
                continue;
            const std::pair<InitKind, double> init {
                model->params.init, model->params.init == InitKind::Custom ? model->params.customSigma : 0.0};
            if (!first) {
                first = init;
                firstLesson = name;
                continue;
            }
            QVERIFY2(init == *first,
                     qPrintable(what(name, arguments) + u" draws its embeddings unlike "_s + firstLesson));
            ++compared;
        }
    }
    QVERIFY(compared >= 6);
}

// frequencies told Whisper large-v3 "shift s = 1" and no more: a sinusoid whose code divides the
// exponent by k/2 − s says so, and where its last pair then turns: c·b^(−(k/2 − 1)/(k/2 − s)).
void TestLessonFigureWords::aShiftSaysWhatItDoes()
{
    const Lesson &lesson = *Lessons::find(u"frequencies"_s);
    static const QRegularExpression last(u"its last pair turns at w = (\\S+?)\\)"_s);
    int shifted = 0;
    for (const Read &reading : readsOf(lesson)) {
        const QString &text = reading.text;
        const QString &where = reading.where;
        QVERIFY2(!text.contains(u"shift s ="_s), qPrintable(where));
        if (!text.contains(u"k/2 − s"_s))
            continue;
        QVERIFY2(text.contains(u"its code divides i by k/2 − s"_s), qPrintable(where));
        const auto m = last.match(text);
        QVERIFY2(m.hasMatch(), qPrintable(where));
        const SinusoidalParams &s = reading.model.params.sinusoidal;
        const double half = double(reading.model.params.peColumns()) / 2.0;
        const double w = s.timestepScale * std::pow(s.base, -(half - 1.0) / (half - s.freqShift));
        QCOMPARE(m.captured(1), NumberText::prose(w, 3));
        ++shifted;
    }
    QVERIFY(shifted >= 1);
}

// relative-position told SD 1.5's timestep table of PE[p] · PE[q] and q − p beside its t: for a
// timestep table its sentences write the timesteps t and t′; the question's p and q are named
// once as the two timesteps.
void TestLessonFigureWords::timestepsAreNamedT()
{
    static const QRegularExpression positional(u"PE\\[[pq]\\]|\\b[pq]·w|q − p"_s);
    const Lesson &lesson = *Lessons::find(u"relative-position"_s);
    int read = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const auto model = LessonRead::modelFor(lesson, {u"--preset"_s, preset.name});
        if (!model)
            continue;
        const auto timesteps = LessonNumbers::number(u"timestep_embedding"_s, *model, LayerLessonNumbers::entries());
        if (!timesteps || !timesteps->present())
            continue;
        const QString text = LessonRead::itemsOf(lesson, *model).join(u' ');
        const QString where = what(lesson.name, {preset.name}) + u":\n"_s + text;
        QVERIFY2(!positional.match(text).hasMatch(), qPrintable(where));
        QVERIFY2(text.contains(u"PE[t] · PE[t′]"_s) && text.contains(u"‖PE[t]‖"_s), qPrintable(where));
        ++read;
    }
    QVERIFY(read >= 2);
}

POSENC_TEST_MAIN(TestLessonFigureWords)
} // namespace tst_lessonfigurewords
#include "tst_lessonfigurewords.moc"
