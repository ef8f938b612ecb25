// The alibi-slopes figure: every head's slope against get_slopes written here in float64, the
// geometric heads (the largest power of two <= H) apart from the interleaved ones, the plain
// series 2^(-8k/H) a port without the interleave computes, and the interleave in words.
#include "render/FigureExporter.h"
#include "render/figures/alibi/AlibiSlopesFigure.h"
#include "support/TestMain.h"

#include "figures/RelativeSlides.h"
#include "support/AlibiReference.h"
#include "support/FigureBuilds.h"
#include "support/RelativeModels.h"

#include <QTest>

#include <cmath>

namespace tst_alibislopesfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params alibi(std::int64_t heads, std::int64_t head = 1)
{
    Params p;
    p.encoding = Encoding::Alibi;
    p.alibi.heads = heads;
    p.alibi.head = head;
    return p;
}

} // namespace

class TestAlibiSlopesFigure : public QObject
{
    Q_OBJECT

private slots:
    void slopesAreTheReferences_data();
    void slopesAreTheReferences();
    void twelveHeadsEndAsThePaperSays();
    void theInterleaveIsSaidInWords();
    void figureIsRegisteredAndExports();
    void bloomAndMptFitASlide();
};

void TestAlibiSlopesFigure::slopesAreTheReferences_data()
{
    QTest::addColumn<qint64>("heads");
    QTest::addColumn<qint64>("geometric");
    for (const auto &[h, p] : {std::pair {8, 8}, std::pair {12, 8}, std::pair {16, 16}, std::pair {20, 16},
                               std::pair {112, 64}, std::pair {1, 1}, std::pair {3, 2}})
        QTest::newRow(qPrintable(u"%1 heads"_s.arg(h))) << qint64(h) << qint64(p);
}

void TestAlibiSlopesFigure::slopesAreTheReferences()
{
    QFETCH(qint64, heads);
    QFETCH(qint64, geometric);
    const AlibiSlopesData d = AlibiSlopesModel::compute(alibi(heads));
    const std::vector<double> reference = alibiref::slopes(heads);
    QCOMPARE(d.slopes.size(), qsizetype(heads));
    QCOMPARE(d.geometric, geometric);
    for (qsizetype k = 0; k < d.slopes.size(); ++k)
        QVERIFY2(std::abs(d.slopes[k] - reference[std::size_t(k)]) <= 1e-15 * reference[std::size_t(k)],
                 qPrintable(u"head %1: %2 vs %3"_s.arg(k + 1)
                                .arg(d.slopes[k], 0, 'g', 17)
                                .arg(reference[std::size_t(k)], 0, 'g', 17)));
    // The geometric heads: 2^(-8k/P), each the previous times the ratio.
    for (qsizetype k = 0; k < geometric; ++k)
        QVERIFY(std::abs(d.slopes[k] - std::exp2(-8.0 * double(k + 1) / double(geometric))) <= 1e-14);
    // The plain series, drawn only where it differs: H not a power of two.
    if (geometric == heads) {
        QVERIFY(d.plain.isEmpty());
    } else {
        QCOMPARE(d.plain.size(), qsizetype(heads));
        for (qsizetype k = 0; k < heads; ++k)
            QVERIFY(std::abs(d.plain[k] - std::exp2(-8.0 * double(k + 1) / double(heads))) <= 1e-14);
        // Past head P the plain series is not get_slopes: the bug it shows.
        QVERIFY(std::abs(d.plain[heads - 1] - d.slopes[heads - 1]) > 1e-3 * d.slopes[heads - 1]);
    }
}

void TestAlibiSlopesFigure::twelveHeadsEndAsThePaperSays()
{
    // The numbers: 12 heads end 0.707, 0.354, 0.177, 0.088.
    const AlibiSlopesData d = AlibiSlopesModel::compute(alibi(12));
    const double ends[] = {0.707, 0.354, 0.177, 0.088};
    for (int n = 0; n < 4; ++n)
        QVERIFY2(std::abs(d.slopes[8 + n] - ends[n]) < 1e-3,
                 qPrintable(u"head %1: %2"_s.arg(9 + n).arg(d.slopes[8 + n])));
}

void TestAlibiSlopesFigure::theInterleaveIsSaidInWords()
{
    const AlibiSlopesData twelve = AlibiSlopesModel::compute(alibi(12));
    QVERIFY2(twelve.interleave.contains(u"heads 9–12 take every other slope of the 16-head series"_s),
             qPrintable(twelve.interleave));
    QVERIFY2(twelve.interleave.contains(u"1st, 3rd, 5th and 7th"_s), qPrintable(twelve.interleave));
    QVERIFY(AlibiSlopesModel::compute(alibi(16)).interleave.isEmpty());
    const AlibiSlopesData nine = AlibiSlopesModel::compute(alibi(9));
    QVERIFY2(nine.interleave.contains(u"head 9 takes the first slope of the 16-head series"_s),
             qPrintable(nine.interleave));
    // The interleaved slopes sit halfway (in log) between two geometric ones: 2^(-8(i + 1/2)/P).
    for (qsizetype i = 0; i < 4; ++i)
        QVERIFY(std::abs(std::log2(twelve.slopes[8 + i]) + 8.0 * (double(i) + 0.5) / 8.0) < 1e-12);
}

void TestAlibiSlopesFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(800, 500));
    for (const std::int64_t heads : {12, 4096}) {
        const auto built = FigureBuilds::build(u"alibi-slopes"_s, alibi(heads, 3), size);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(800, 500));
        const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
        QVERIFY2(texts.contains(u"head K = 3"_s), qPrintable(texts));
    }
    // It redraws for the slopes and for head K (which the bias reads); its table is every head's.
    const auto &model = FigureBuilds::figure(u"alibi-slopes"_s).model();
    QCOMPARE(model.inputs({}), (QList<Quantity> {Quantity::AlibiSlopes, Quantity::AlibiBias}));
    const auto table = model.table(alibi(12), {});
    QVERIFY(table && table->quantity == Quantity::AlibiSlopes);
    QCOMPARE(table->block, (Block {0, 12, 0, 4}));
    // Another family is refused, naming alibi.
    Params sinusoidal;
    const auto problems = FigureBuilds::figure(u"alibi-slopes"_s).model().check(sinusoidal, {});
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems[0].key, u"encoding"_s);
    QVERIFY(problems[0].allowed.contains(u"alibi"_s));
}

void TestAlibiSlopesFigure::bloomAndMptFitASlide()
{
    Params mpt = relativemodels::bloom560m();
    mpt.alibi.heads = 32;
    mpt.alibi.head = 32;
    Params twelve = alibi(12, 10);
    RelativeSlides::check(
        u"alibi-slopes"_s,
        {{u"bloom-560m"_s, relativemodels::bloom560m()}, {u"mpt-7b"_s, mpt}, {u"12-heads"_s, twelve}});
}

POSENC_TEST_MAIN(TestAlibiSlopesFigure)
} // namespace tst_alibislopesfigure
#include "tst_alibislopesfigure.moc"
