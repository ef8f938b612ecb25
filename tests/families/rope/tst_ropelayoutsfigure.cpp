// The rope-layouts figure: the rope-layouts lesson's q and k (q_j = sin(j + 1), k_j = cos(2j + 1))
// scored <q, R(k) k> with the pairs of the model's layout and of the other, against float64 sums
// written here: rotate_half pairs columns (i, i + h), GPT-J's interleaved layout (2i, 2i + 1)
// (transformers' convert_llama_weights_to_hf.py, permute, maps one to the other), cos and sin
// times the attention factor; the columns past the rotary dim pass. The values it marks are the
// lesson's stated numbers.
#include "render/FigureExporter.h"
#include "render/QCustomPlot.h"
#include "render/figures/rope/RopeLayoutsFigure.h"
#include "support/TestMain.h"

#include "core/LessonNumbers.h"
#include "core/rope/RopeLessonNumbers.h"

#include "RopeSlides.h"
#include "support/FigureBuilds.h"
#include "support/RopeReference.h"

#include <QTest>

#include <cmath>

namespace tst_ropelayoutsfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params model(RopeLayout layout, std::int64_t maxLen = 256, double partial = 1.0)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 64;
    p.maxLen = maxLen;
    p.rope.headDim = 64;
    p.rope.layout = layout;
    p.rope.partialRotaryFactor = partial;
    return p;
}

// <R(0) q, R(k) k> with pair i in columns (a(i), b(i)).
double score(const Params &p, double k, bool half)
{
    const std::vector<double> inv = roperef::inv(p);
    const double af = roperef::attentionFactor(p);
    const auto h = inv.size();
    const auto n = static_cast<std::size_t>(p.rope.headDim);
    std::vector<double> q(n), key(n);
    for (std::size_t j = 0; j < n; ++j) {
        q[j] = std::sin(double(j) + 1.0);
        key[j] = std::cos(2.0 * double(j) + 1.0);
    }
    double sum = 0.0;
    std::vector<bool> turned(n, false);
    for (std::size_t i = 0; i < h; ++i) {
        const std::size_t a = half ? i : 2 * i, b = half ? i + h : 2 * i + 1;
        turned[a] = turned[b] = true;
        // q at position 0 keeps its direction, times the attention factor.
        const double qa = q[a] * af, qb = q[b] * af;
        const double c = std::cos(k * inv[i]) * af, s = std::sin(k * inv[i]) * af;
        sum += qa * (key[a] * c - key[b] * s) + qb * (key[b] * c + key[a] * s);
    }
    for (std::size_t j = 0; j < n; ++j)
        if (!turned[j])
            sum += q[j] * key[j];
    return sum;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

// The lesson's number `key` for `p`, and the figure it names as the one that draws it.
std::pair<double, QString> lessonNumber(const Params &p, const QString &key)
{
    LessonModel model;
    model.params = p;
    for (const LessonNumbers::Entry &entry : RopeLessonNumbers::entries())
        if (entry.key == key)
            return {entry.value(model).value.value_or(NAN), entry.figure};
    return {NAN, {}};
}

// The words the lesson's text shows for the number `key` of `p`.
QString lessonText(const Params &p, const QString &key)
{
    LessonModel model;
    model.params = p;
    for (const LessonNumbers::Entry &entry : RopeLessonNumbers::entries())
        if (entry.key == key)
            return entry.value(model).text;
    return {};
}

} // namespace

class TestRopeLayoutsFigure : public QObject
{
    Q_OBJECT

private slots:
    void bothLayoutsAgainstTheirSums_data();
    void bothLayoutsAgainstTheirSums();
    void theMarksAreTheLessonsNumbers();
    void aPairThatDiffersReadsApart_data();
    void aPairThatDiffersReadsApart();
    void longContextsAreSampledWithinTheirCost();
    void figureIsRegisteredAndExports();
    void llamaAndGptOssFitASlide();
};

void TestRopeLayoutsFigure::bothLayoutsAgainstTheirSums_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("half") << model(RopeLayout::Half);
    QTest::newRow("interleaved: the curves trade places") << model(RopeLayout::Interleaved);
    QTest::newRow("partial rotary 0.5: the other columns pass") << model(RopeLayout::Half, 256, 0.5);
    Params yarn = model(RopeLayout::Half, 512);
    yarn.rope.type = RopeType::Yarn;
    yarn.rope.factor = 4.0;
    yarn.rope.originalMaxLen = 128;
    QTest::newRow("yarn: cos and sin times its attention factor") << yarn;
}

void TestRopeLayoutsFigure::bothLayoutsAgainstTheirSums()
{
    QFETCH(Params, p);
    QVERIFY(p.isValid());
    const auto d = RopeLayoutsModel::compute(p, nullptr);
    QVERIFY(d);
    QCOMPARE(d->last, p.maxLen - 1);
    QCOMPARE(d->distance.size(), p.maxLen - 1); // every distance, 1 .. L − 1
    const bool half = p.rope.layout == RopeLayout::Half;
    for (qsizetype n = 0; n < d->distance.size(); ++n) {
        const double k = double(n + 1);
        QCOMPARE(d->distance[n], k);
        QVERIFY2(near(d->own[n], score(p, k, half)),
                 qPrintable(u"k %1: %2 vs %3"_s.arg(k).arg(d->own[n]).arg(score(p, k, half))));
        QVERIFY2(near(d->other[n], score(p, k, !half)),
                 qPrintable(u"k %1: %2 vs %3"_s.arg(k).arg(d->other[n]).arg(score(p, k, !half))));
    }
    QVERIFY(near(d->atZero, score(p, 0.0, half)) && near(d->atZero, score(p, 0.0, !half)));
}

// The values the lesson states (rope_right_10, rope_wrong_10, _100) are the figure's marks.
void TestRopeLayoutsFigure::theMarksAreTheLessonsNumbers()
{
    for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
        const Params p = model(layout);
        const auto d = RopeLayoutsModel::compute(p, nullptr);
        QVERIFY(d);
        QCOMPARE(d->marks.size(), 2);
        QCOMPARE(d->marks[0].distance, 10.0);
        QCOMPARE(d->marks[1].distance, 100.0);
        const auto check = [&](double mark, const QString &key) {
            const auto [value, figure] = lessonNumber(p, key);
            QVERIFY2(near(mark, value), qPrintable(u"%1: %2 vs %3"_s.arg(key).arg(mark).arg(value)));
            QCOMPARE(figure, u"rope-layouts"_s); // a slide that quotes it draws the figure
        };
        check(d->marks[0].own, u"rope_right_10"_s);
        check(d->marks[0].other, u"rope_wrong_10"_s);
        check(d->marks[1].own, u"rope_right_100"_s);
        check(d->marks[1].other, u"rope_wrong_100"_s);
        QVERIFY(near(d->marks[0].own, score(p, 10.0, layout == RopeLayout::Half)));
    }
    // L 64 reaches 10 but not 100: one mark.
    const auto d = RopeLayoutsModel::compute(model(RopeLayout::Half, 64), nullptr);
    QVERIFY(d);
    QCOMPARE(d->marks.size(), 1);
}

// The lesson sets each score against the other layout's ("−1.57 in the other"): two values that
// differ read apart, in the fewest digits past prose's three that tell them apart. GLM-4.5's
// head (head_dim 128, partial_rotary_factor 0.5, rope_theta 1e6; zai-org/GLM-4.5 config.json)
// scored −1.0019 and −1.0029 at distance 10, and the lesson said "−1 ... but −1 in the other".
void TestRopeLayoutsFigure::aPairThatDiffersReadsApart_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<QString>("right");
    QTest::addColumn<QString>("wrong");
    QTest::newRow("the lesson's own: three digits") << model(RopeLayout::Half) << u"0.18"_s << u"−1.57"_s;
    Params glm = model(RopeLayout::Half, 256, 0.5);
    glm.dModel = 128;
    glm.rope.headDim = 128;
    glm.rope.theta = 1e6;
    QTest::newRow("GLM-4.5's head: four digits") << glm << u"−1.002"_s << u"−1.003"_s;
}

void TestRopeLayoutsFigure::aPairThatDiffersReadsApart()
{
    QFETCH(Params, p);
    QFETCH(QString, right);
    QFETCH(QString, wrong);
    QVERIFY(p.isValid());
    QVERIFY(near(lessonNumber(p, u"rope_right_10"_s).first, score(p, 10.0, true)));
    QVERIFY(near(lessonNumber(p, u"rope_wrong_10"_s).first, score(p, 10.0, false)));
    QCOMPARE(lessonText(p, u"rope_right_10"_s), right);
    QCOMPARE(lessonText(p, u"rope_wrong_10"_s), wrong);
    // The figure's caption sets them against each other in the same digits (its own number format).
    const auto built = FigureBuilds::build(u"rope-layouts"_s, p, FigureSize::fromPixels(QSize(800, 500)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    const QString pair = u"k = 10: %1 against %2"_s.arg(right, wrong).replace(u"−"_s, u"-"_s);
    QVERIFY2(texts.contains(pair), qPrintable(pair + u" not in: "_s + texts));
    // Either way round: the layout the weights were trained in reads the other's digits.
    p.rope.layout = RopeLayout::Interleaved;
    QCOMPARE(lessonText(p, u"rope_right_10"_s), wrong);
    QCOMPARE(lessonText(p, u"rope_wrong_10"_s), right);
}

void TestRopeLayoutsFigure::longContextsAreSampledWithinTheirCost()
{
    // Llama 3.1's 131,072 positions: every distance up to 2^16, then a log-spaced sample to the last.
    const Params p = roperef::llama31();
    const auto d = RopeLayoutsModel::compute(p, nullptr);
    QVERIFY(d);
    QCOMPARE(d->every, RopeLayoutsModel::kEveryDistance);
    QCOMPARE(d->distance.back(), double(p.maxLen - 1));
    QVERIFY(d->distance.size() <= RopeLayoutsModel::kEveryDistance + RopeLayoutsModel::kSampledDistances);
    for (qsizetype n = 1; n < d->distance.size(); ++n)
        QVERIFY(d->distance[n] > d->distance[n - 1]);
    const qsizetype at = d->distance.size() - 1;
    QVERIFY(near(d->own[at], score(p, d->distance[at], true)));
    // A head of 2^15 pairs takes no more than the budget of pairs' sines and cosines.
    Params wide = model(RopeLayout::Half, std::int64_t(1) << 20);
    wide.rope.headDim = 65536;
    wide.dModel = 65536;
    QVERIFY(wide.isValid());
    const auto w = RopeLayoutsModel::compute(wide, nullptr);
    QVERIFY(w);
    QVERIFY2(double(w->distance.size()) * 32768.0 <= 2.0 * double(RopeLayoutsModel::kPairBudget),
             qPrintable(QString::number(w->distance.size())));
}

void TestRopeLayoutsFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"rope-layouts"_s);
    QCOMPARE(figure.model().families(), QList<Encoding> {Encoding::Rope});
    const FigureSize size = FigureSize::fromPixels(QSize(800, 500));
    const auto built = FigureBuilds::build(u"rope-layouts"_s, model(RopeLayout::Half), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(800, 500));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"Half or interleaved"_s), qPrintable(texts));
    QVERIFY2(texts.contains(u"k = 10: 0.18 against -1.57; k = 100: 0.482 against -3.48"_s), qPrintable(texts));
    QStringList names;
    for (int n = 0; n < built->plot()->graphCount(); ++n)
        names.append(built->plot()->graph(n)->name());
    QVERIFY2(names.contains(u"the weights' layout: rotate_half (i, i + h)"_s)
                 && names.contains(u"read as interleaved (2i, 2i + 1)"_s),
             qPrintable(names.join(u"; "_s)));
}

void TestRopeLayoutsFigure::llamaAndGptOssFitASlide()
{
    RopeSlides::check(u"rope-layouts"_s);
}

POSENC_TEST_MAIN(TestRopeLayoutsFigure)
} // namespace tst_ropelayoutsfigure
#include "tst_ropelayoutsfigure.moc"
