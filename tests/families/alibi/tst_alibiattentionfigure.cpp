// The alibi-attention figure: the softmax weight a query gives each key with content scores zero,
// against a softmax summed here over every key, for every head, both masks, at a small L and at
// L = 65536; the share within each distance and each head's half and 90% spans likewise.
#include "render/FigureExporter.h"
#include "render/figures/alibi/AlibiAttentionFigure.h"
#include "support/TestMain.h"

#include "figures/RelativeSlides.h"
#include "support/AlibiReference.h"
#include "support/FigureBuilds.h"
#include "support/RelativeModels.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_alibiattentionfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params alibi(std::int64_t heads, std::int64_t maxLen, AlibiMask mask)
{
    Params p;
    p.encoding = Encoding::Alibi;
    p.maxLen = maxLen;
    p.alibi.heads = heads;
    p.alibi.mask = mask;
    return p;
}

// The share of the reference weights within each distance d of query i, d = 0 .. L - 1.
std::vector<double> within(const std::vector<double> &w, std::int64_t i)
{
    const auto L = std::int64_t(w.size());
    std::vector<double> share(static_cast<std::size_t>(L));
    double sum = 0.0;
    for (std::int64_t d = 0; d < L; ++d) {
        if (i - d >= 0)
            sum += w[std::size_t(i - d)];
        if (d > 0 && i + d < L)
            sum += w[std::size_t(i + d)];
        share[std::size_t(d)] = sum;
    }
    return share;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12 + 1e-9 * std::abs(b);
}

} // namespace

class TestAlibiAttentionFigure : public QObject
{
    Q_OBJECT

private slots:
    void weightsAreTheSoftmaxOfTheBias_data();
    void weightsAreTheSoftmaxOfTheBias();
    void defaultQueryAndItsRange();
    void manyHeadsAreThinnedKeepingK();
    void figureIsRegisteredAndExports();
    void bloomFitsASlide();
    void theSpanMarksAreWholeWithinTheAxes();
    void aSpanAtDistanceZeroIsNamedNotDrawn();
    void theSpanMarksStandApartOnTheirLines();
    void theKeyRunsAlongTheColours();
};

void TestAlibiAttentionFigure::weightsAreTheSoftmaxOfTheBias_data()
{
    QTest::addColumn<qint64>("heads");
    QTest::addColumn<qint64>("maxLen");
    QTest::addColumn<qint64>("query");
    QTest::addColumn<AlibiMask>("mask");
    QTest::newRow("8 heads, causal, last query") << qint64(8) << qint64(40) << qint64(39) << AlibiMask::Causal;
    QTest::newRow("12 heads, causal, query 17") << qint64(12) << qint64(40) << qint64(17) << AlibiMask::Causal;
    QTest::newRow("12 heads, symmetric, off centre") << qint64(12) << qint64(40) << qint64(9) << AlibiMask::Symmetric;
    QTest::newRow("16 heads, symmetric, 65536") << qint64(16) << qint64(65536) << qint64(40000) << AlibiMask::Symmetric;
    QTest::newRow("8 heads, causal, 65536") << qint64(8) << qint64(65536) << qint64(65535) << AlibiMask::Causal;
}

void TestAlibiAttentionFigure::weightsAreTheSoftmaxOfTheBias()
{
    QFETCH(qint64, heads);
    QFETCH(qint64, maxLen);
    QFETCH(qint64, query);
    QFETCH(AlibiMask, mask);
    const Params p = alibi(heads, maxLen, mask);
    const AlibiAttentionData d = AlibiAttentionModel::compute(p, query, 1.0, double(maxLen), 400);
    QCOMPARE(d.drawn.size(), qsizetype(heads));
    const std::int64_t farthest = std::max(query, mask == AlibiMask::Causal ? 0 : maxLen - 1 - query);
    QCOMPARE(d.keys.farthest(), farthest);
    QCOMPARE(d.distance.back(), double(farthest));
    const std::vector<double> slopes = alibiref::slopes(heads);
    for (const AlibiAttentionHead &head : d.drawn) {
        const double m = slopes[std::size_t(head.head - 1)];
        QCOMPARE(head.slope, m);
        const std::vector<double> w = alibiref::softmax(m, maxLen, query, mask == AlibiMask::Causal);
        const std::vector<double> shares = within(w, query);
        QVERIFY(near(head.self, w[std::size_t(query)]));
        for (qsizetype n = 0; n < d.distance.size(); ++n) {
            const auto distance = std::int64_t(d.distance[n]);
            // One key at that distance, on a side that has it.
            const std::int64_t key = query - distance >= 0 ? query - distance : query + distance;
            QVERIFY2(near(head.weight[n], w[std::size_t(key)]),
                     qPrintable(u"head %1, distance %2: %3 vs %4"_s.arg(head.head)
                                    .arg(distance)
                                    .arg(head.weight[n])
                                    .arg(w[std::size_t(key)])));
            QVERIFY2(std::abs(head.within[n] - shares[std::size_t(distance)]) <= 1e-9,
                     qPrintable(u"head %1, distance %2: within %3 vs %4"_s.arg(head.head)
                                    .arg(distance)
                                    .arg(head.within[n])
                                    .arg(shares[std::size_t(distance)])));
        }
        QCOMPARE(head.half, alibiref::span(w, query, 0.5));
        QCOMPARE(head.ninety, alibiref::span(w, query, 0.9));
        QVERIFY(head.halfShare >= 0.5 && head.ninetyShare >= 0.9);
    }
}

void TestAlibiAttentionFigure::defaultQueryAndItsRange()
{
    const auto &model = FigureBuilds::figure(u"alibi-attention"_s).model();
    Params causal = alibi(8, 1000, AlibiMask::Causal);
    QCOMPARE(model.defaultText(u"query"_s, causal), u"999"_s);
    Params symmetric = alibi(8, 1000, AlibiMask::Symmetric);
    QCOMPARE(model.defaultText(u"query"_s, symmetric), u"499"_s);
    FigureState state;
    state.options.insert(u"query"_s, u"1000"_s);
    const auto problems = model.check(causal, state);
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems[0].key, u"query"_s);
    QVERIFY2(problems[0].allowed.contains(u"[0, 999]"_s), qPrintable(problems[0].allowed));
    state.options.insert(u"query"_s, u"12"_s);
    QVERIFY(model.check(causal, state).isEmpty());
}

void TestAlibiAttentionFigure::manyHeadsAreThinnedKeepingK()
{
    const QList<std::int64_t> drawn = AlibiAttentionModel::drawnHeads(4096, 1000);
    QVERIFY(drawn.size() <= AlibiAttentionModel::kMaxDrawn + 1);
    QVERIFY(drawn.contains(1) && drawn.contains(1000) && drawn.contains(4096));
    QVERIFY(std::is_sorted(drawn.begin(), drawn.end()));
    QCOMPARE(AlibiAttentionModel::drawnHeads(12, 3).size(), 12);
}

void TestAlibiAttentionFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(800, 600));
    FigureState state;
    state.options.insert(u"query"_s, u"100"_s);
    const auto built = FigureBuilds::build(u"alibi-attention"_s, alibi(12, 65536, AlibiMask::Causal), size, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(800, 600));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"query 100"_s), qPrintable(texts));
    // A query that sees only itself.
    FigureState first;
    first.options.insert(u"query"_s, u"0"_s);
    const auto alone = FigureBuilds::build(u"alibi-attention"_s, alibi(8, 64, AlibiMask::Causal), size, first);
    QVERIFY2(!alone->error(), qPrintable(FigureBuilds::errorOf(*alone)));
}

void TestAlibiAttentionFigure::bloomFitsASlide()
{
    RelativeSlides::check(
        u"alibi-attention"_s,
        {{u"bloom-560m"_s, relativemodels::bloom560m()}, {u"12-symmetric"_s, alibi(12, 4096, AlibiMask::Symmetric)}});
}

// The half-weight circle of a steep head sits at distance 1, the log axis's lower end: it was cut
// in half by the left axis (the alibi lesson's slide). Every span mark lies at least its own
// radius inside its panel, at the lesson's 12 heads and BLOOM's 16 on a 14-pt slide.
void TestAlibiAttentionFigure::theSpanMarksAreWholeWithinTheAxes()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1000, 563));
    for (const Params &p : {alibi(12, 4096, AlibiMask::Causal), relativemodels::bloom560m()}) {
        const auto built = FigureBuilds::build(u"alibi-attention"_s, p, size, FigureState());
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        FigureExporter::image(built->plot(), size);
        int marks = 0;
        for (int g = 0; g < built->plot()->graphCount(); ++g) {
            QCPGraph *graph = built->plot()->graph(g);
            if (!graph->visible() || graph->scatterStyle().shape() == QCPScatterStyle::ssNone)
                continue;
            const QRect rect = graph->keyAxis()->axisRect()->rect();
            const double radius = graph->scatterStyle().size() / 2.0;
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it, ++marks) {
                const double x = graph->keyAxis()->coordToPixel(it->key);
                QVERIFY2(
                    x - radius >= rect.left() && x + radius <= rect.right() + 1,
                    qPrintable(
                        u"distance %1 at x %2 in %3 .. %4"_s.arg(it->key).arg(x).arg(rect.left()).arg(rect.right())));
            }
        }
        QVERIFY(marks >= 2);
    }
}

// The alibi lesson said MPT-7B's "head 1 puts half its weight on the keys within a distance of 0";
// the log distance axis has no place for 0, and the figure drew no circle for it, nor said so. The
// heads whose half (or 90 %) lies at distance 0, those whose own key holds that share of the
// softmax (summed here in float64 over every key of the last query), are named in the marks'
// legend entry, and no mark is drawn at a distance the axis does not hold.
void TestAlibiAttentionFigure::aSpanAtDistanceZeroIsNamedNotDrawn()
{
    const std::int64_t heads = 32, maxLen = 2048, query = maxLen - 1;
    const Params p = alibi(heads, maxLen, AlibiMask::Causal);
    const std::vector<double> slopes = alibiref::slopes(heads);
    QList<std::int64_t> halfAtZero;
    for (std::int64_t k = 1; k <= heads; ++k) {
        const std::vector<double> w = alibiref::softmax(slopes[std::size_t(k - 1)], maxLen, query, true);
        if (w[std::size_t(query)] >= 0.5)
            halfAtZero.append(k);
    }
    QCOMPARE(halfAtZero, (QList<std::int64_t> {1, 2})); // e^(−m) ≤ 1/2 for m = 2^(−1/4), 2^(−1/2)
    const auto built = FigureBuilds::build(u"alibi-attention"_s, p, FigureSize::fromPixels(QSize(1400, 900)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    bool named = false;
    for (int g = 0; g < built->plot()->graphCount(); ++g) {
        QCPGraph *graph = built->plot()->graph(g);
        if (graph->scatterStyle().shape() != QCPScatterStyle::ssCircle)
            continue;
        named = graph->name().contains(u"heads 1–2: at distance 0, off the log axis"_s);
        QVERIFY2(named, qPrintable(graph->name()));
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            QVERIFY(it->key >= 1.0);
    }
    QVERIFY(named);
}

// MPT-7B's alibi slide piled its steep heads' circles on one another: four at distance 1, at the
// shares 0.5 to 0.7 they reach there, and squares at 2 and 3. Each mark stands on the guide line of
// its share at a least distance d ≥ 1 some head's share reaches it (the softmax summed here in
// float64), one mark a distance, each a mark's width from the next.
void TestAlibiAttentionFigure::theSpanMarksStandApartOnTheirLines()
{
    const std::int64_t heads = 32, maxLen = 2048, query = maxLen - 1;
    const Params p = alibi(heads, maxLen, AlibiMask::Causal);
    const std::vector<double> slopes = alibiref::slopes(heads);
    QList<double> half, ninety;
    for (std::int64_t k = 1; k <= heads; ++k) {
        const std::vector<double> share
            = within(alibiref::softmax(slopes[std::size_t(k - 1)], maxLen, query, true), query);
        for (const auto &[level, spans] : {std::pair {0.5, &half}, std::pair {0.9, &ninety}}) {
            const auto d = double(std::find_if(share.begin(), share.end(), [&](double s) { return s >= level; })
                                  - share.begin());
            if (d >= 1.0 && !spans->contains(d))
                spans->append(d);
        }
    }
    std::sort(half.begin(), half.end());
    std::sort(ninety.begin(), ninety.end());
    FigureStyle style;
    style.fontPointSize = 14;
    const FigureSize size = FigureSize::fromInches(QSizeF(10.0, 5.626), 300);
    const auto built = FigureBuilds::build(u"alibi-attention"_s, p, size, FigureState(), style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    FigureExporter::image(built->plot(), size);
    int graphs = 0;
    for (int g = 0; g < built->plot()->graphCount(); ++g) {
        QCPGraph *graph = built->plot()->graph(g);
        const QCPScatterStyle::ScatterShape shape = graph->scatterStyle().shape();
        if (shape != QCPScatterStyle::ssCircle && shape != QCPScatterStyle::ssSquare)
            continue;
        ++graphs;
        const bool circles = shape == QCPScatterStyle::ssCircle;
        QList<double> keys;
        QList<QPointF> at;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            keys.append(it->key);
            QCOMPARE(it->value, circles ? 0.5 : 0.9);
            at.append(QPointF(graph->keyAxis()->coordToPixel(it->key), graph->valueAxis()->coordToPixel(it->value)));
        }
        QCOMPARE(keys, circles ? half : ninety);
        const double width = graph->scatterStyle().size();
        for (qsizetype a = 0; a < at.size(); ++a)
            for (qsizetype b = a + 1; b < at.size(); ++b)
                QVERIFY2(QLineF(at[a], at[b]).length() >= width,
                         qPrintable(u"distances %1 and %2 at %3 px"_s.arg(keys[a]).arg(keys[b]).arg(
                             QLineF(at[a], at[b]).length())));
    }
    QCOMPARE(graphs, 2);
}

// The heads' colours run by slope (ALiBi's, in float64 here: H = 12 gives 2^(−k) to heads 1–8 and
// 2^(−1/2 − (k − 9)) to 9–12, head 9 the steepest, head 8 the gentlest). The key's heads come
// steepest first, its ends named as such, so that its names and colours agree: the alibi lesson's
// slide keyed "head 8" in the lightest colour before "head 9" in the darkest, as if by head.
void TestAlibiAttentionFigure::theKeyRunsAlongTheColours()
{
    const std::int64_t heads = 12;
    const std::vector<double> slopes = alibiref::slopes(heads);
    const auto steepest = std::max_element(slopes.begin(), slopes.end()) - slopes.begin() + 1;
    const auto gentlest = std::min_element(slopes.begin(), slopes.end()) - slopes.begin() + 1;
    QCOMPARE(steepest, 9);
    QCOMPARE(gentlest, 8);
    const auto built = FigureBuilds::build(u"alibi-attention"_s, alibi(heads, 4096, AlibiMask::Causal),
                                           FigureSize::fromPixels(QSize(1400, 900)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    static const QRegularExpression named(u"^(?:steepest |gentlest )?head (\\d+)"_s);
    QList<std::int64_t> keyed;
    QStringList names;
    for (QCPLayoutElement *element : built->plot()->plotLayout()->elements(true))
        if (const auto *legend = qobject_cast<QCPLegend *>(element))
            for (int i = 0; i < legend->itemCount(); ++i)
                if (auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
                    if (const QRegularExpressionMatch match = named.match(entry->plottable()->name());
                        match.hasMatch()) {
                        keyed.append(match.captured(1).toLongLong());
                        names.append(entry->plottable()->name());
                    }
    QVERIFY2(keyed.size() >= 2, qPrintable(names.join(u"; "_s)));
    for (qsizetype i = 1; i < keyed.size(); ++i)
        QVERIFY2(slopes[std::size_t(keyed[i - 1] - 1)] >= slopes[std::size_t(keyed[i] - 1)],
                 qPrintable(names.join(u"; "_s)));
    QCOMPARE(keyed.constFirst(), steepest);
    QCOMPARE(keyed.constLast(), gentlest);
    QVERIFY2(names.constFirst().contains(u"steepest"_s), qPrintable(names.constFirst()));
    QVERIFY2(names.constLast().contains(u"gentlest"_s), qPrintable(names.constLast()));
}

POSENC_TEST_MAIN(TestAlibiAttentionFigure)
} // namespace tst_alibiattentionfigure
#include "tst_alibiattentionfigure.moc"
