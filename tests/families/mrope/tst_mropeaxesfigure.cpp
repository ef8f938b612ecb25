// The mrope-axes figure: each pair's axis chunked and interleaved against the axes of
// apply_multimodal_rotary_pos_emb and apply_interleaved_mrope (tests/support/MropeReference.h),
// its wavelengths 2 pi theta^(2j / d), the turn of the fastest w pair for a 32-patch width offset
// (the issue's 0.0057 and 20.8 rad), and the figure at a window's size and as a 14-pt slide.
#include "render/FigureExporter.h"
#include "render/FigureRoom.h"
#include "render/data/mrope/MropeAxesModel.h"
#include "support/TestMain.h"

#include "figures/RelativeSlides.h"
#include "support/FigureBuilds.h"
#include "support/MropeReference.h"

#include "core/Engine.h"
#include "core/ParamText.h"

#include <QTest>

#include <cmath>
#include <numbers>

namespace tst_mropeaxesfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params mrope(const QString &section, bool interleaved, double theta, std::int64_t headDim = 128)
{
    Params p;
    p.encoding = Encoding::Mrope;
    p.rope.theta = theta;
    p.rope.headDim = headDim;
    p.mrope.interleaved = interleaved;
    if (const auto error = ParamText::set(p, u"mrope-section"_s, section))
        qFatal("%s", qPrintable(error->sentence()));
    return p;
}

QList<int> listOf(const std::vector<int> &axes)
{
    return QList<int>(axes.begin(), axes.end());
}

// The fastest (lowest-numbered) pair of axis 2, w, or -1.
std::int64_t fastestW(const std::vector<int> &axes)
{
    for (std::size_t j = 0; j < axes.size(); ++j)
        if (axes[j] == 2)
            return std::int64_t(j);
    return -1;
}

} // namespace

class TestMropeAxesFigure : public QObject
{
    Q_OBJECT

private slots:
    void axesAreTheReferences_data();
    void axesAreTheReferences();
    void theIssuesTurns();
    void aSectionThatDoesNotSumHasNoChunkedRow();
    void figureIsRegisteredAndExports();
    void qwenModelsFitASlide();
    void rowsNamedWholeOnAColumn();
};

void TestMropeAxesFigure::axesAreTheReferences_data()
{
    QTest::addColumn<QString>("section");
    QTest::addColumn<bool>("interleaved");
    QTest::addColumn<double>("theta");
    QTest::newRow("Qwen2-VL 16,24,24") << u"16,24,24"_s << false << 1e6;
    QTest::newRow("Qwen3-VL 24,20,20 interleaved") << u"24,20,20"_s << true << 5e6;
    // Interleaved past a third of the pairs: w's count 24 runs off the end (t keeps 22).
    QTest::newRow("16,24,24 interleaved") << u"16,24,24"_s << true << 1e6;
}

void TestMropeAxesFigure::axesAreTheReferences()
{
    QFETCH(QString, section);
    QFETCH(bool, interleaved);
    QFETCH(double, theta);
    const Params p = mrope(section, interleaved, theta);
    const MropeAxesData d = MropeAxesModel::compute(Engine(p));
    QCOMPARE(d.chunked, listOf(mroperef::chunkedAxes(p.mrope.section)));
    QCOMPARE(d.interleaved, listOf(mroperef::interleavedAxes(p.mrope.section, 64)));
    QCOMPARE(d.interleavedChosen, interleaved);
    QCOMPARE(d.wavelengths.size(), 64);
    for (qsizetype j = 0; j < 64; ++j) {
        const double want = 2.0 * std::numbers::pi * std::pow(theta, double(2 * j) / 128.0);
        QVERIFY2(std::abs(d.wavelengths[j] - want) <= 1e-9 * want, qPrintable(u"pair %1"_s.arg(j)));
    }
    const std::int64_t chunkedW = fastestW(mroperef::chunkedAxes(p.mrope.section));
    const std::int64_t interleavedW = fastestW(mroperef::interleavedAxes(p.mrope.section, 64));
    QCOMPARE(d.chunkedFastestW, chunkedW);
    QCOMPARE(d.interleavedFastestW, interleavedW);
    const auto turn = [&](std::int64_t pair) { return 32.0 / std::pow(theta, double(2 * pair) / 128.0); };
    QVERIFY(std::abs(d.chunkedTurn - turn(chunkedW)) <= 1e-12 * turn(chunkedW));
    QVERIFY(std::abs(d.interleavedTurn - turn(interleavedW)) <= 1e-12 * turn(interleavedW));
}

void TestMropeAxesFigure::theIssuesTurns()
{
    // theta 1e6, head 128, a 32-patch width offset: 0.0057 rad chunked (pair 40), 20.8 interleaved (pair 2).
    const MropeAxesData d = MropeAxesModel::compute(Engine(mrope(u"16,24,24"_s, false, 1e6)));
    QCOMPARE(d.chunkedFastestW, 40);
    QCOMPARE(d.interleavedFastestW, 2);
    QVERIFY2(std::abs(d.chunkedTurn - 0.0057) < 5e-5, qPrintable(QString::number(d.chunkedTurn)));
    QVERIFY2(std::abs(d.interleavedTurn - 20.8) < 0.05, qPrintable(QString::number(d.interleavedTurn)));
}

void TestMropeAxesFigure::aSectionThatDoesNotSumHasNoChunkedRow()
{
    // 24,24,24 is 72 pairs of a head of 128's 64: chunked cannot apply it; interleaved still does.
    const Params p = mrope(u"24,24,24"_s, true, 1e6);
    const MropeAxesData d = MropeAxesModel::compute(Engine(p));
    QVERIFY(d.chunked.isEmpty());
    QCOMPARE(d.chunkedFastestW, -1);
    QCOMPARE(d.interleaved, listOf(mroperef::interleavedAxes(p.mrope.section, 64)));
    const auto built = FigureBuilds::build(u"mrope-axes"_s, p, FigureSize::fromPixels(QSize(1000, 600)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ');
    QVERIFY2(texts.contains(u"Chunked needs a section summing to the pairs: 24,24,24 does not."_s), qPrintable(texts));
}

void TestMropeAxesFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1000, 600));
    const auto built = FigureBuilds::build(u"mrope-axes"_s, mrope(u"16,24,24"_s, false, 1e6), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(1000, 600));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"0.00569 rad (pair 40) chunked and 20.8 rad (pair 2) interleaved"_s), qPrintable(texts));
    QVERIFY2(texts.contains(u"mrope_section 16,24,24"_s), qPrintable(texts));
    // Its table is the mrope-axes quantity; another family is refused, naming mrope.
    const auto &model = FigureBuilds::figure(u"mrope-axes"_s).model();
    QCOMPARE(model.inputs({}), QList<Quantity> {Quantity::MropeAxes});
    const auto problems = model.check(Params(), {});
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems[0].key, u"encoding"_s);
    QVERIFY(problems[0].allowed.contains(u"mrope"_s));
}

void TestMropeAxesFigure::qwenModelsFitASlide()
{
    RelativeSlides::check(
        u"mrope-axes"_s,
        {{u"qwen2-vl"_s, mrope(u"16,24,24"_s, false, 1e6)}, {u"qwen3-vl"_s, mrope(u"24,20,20"_s, true, 5e6)}});
}

// On a paper column (8.5 x 6 cm at 9 pt) each row keeps its rule's name whole and the mark of these
// parameters' rule, never "chunked (Q…" nor "interleaved …": the models whose rules they are go to
// the caption (kept in the file's metadata where the caption goes). At 6 x 4 cm too: the mark
// under its rule's name and "inter-" over "leaved", as a narrow column sets a word, not "interle…".
void TestMropeAxesFigure::rowsNamedWholeOnAColumn()
{
    for (const QString &size : {u"column"_s, u"6x4cm"_s}) {
        const FigureSize page = FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(size)), 300.0);
        FigureStyle style;
        style.fontPointSize = 9.0;
        for (const bool interleaved : {false, true}) {
            const Params p = interleaved ? mrope(u"24,20,20"_s, true, 5e6) : mrope(u"16,24,24"_s, false, 1e6);
            const auto built = FigureBuilds::build(u"mrope-axes"_s, p, page, {}, style);
            QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
            QCPAxis *rows = built->plot()->axisRect(0)->axis(QCPAxis::atLeft);
            const auto ticker = rows->ticker().dynamicCast<QCPAxisTickerText>();
            QVERIFY(ticker);
            const QString chunked = ticker->ticks().value(1.0), inter = ticker->ticks().value(0.0);
            const QString read = QString(inter).replace(u"-\n"_s, QString());
            QVERIFY2(chunked.startsWith(u"chunked"_s) && !chunked.contains(u'…'), qPrintable(size + u": "_s + chunked));
            QVERIFY2(read.startsWith(u"interleaved"_s) && !inter.contains(u'…'), qPrintable(size + u": "_s + inter));
            QCOMPARE((interleaved ? inter : chunked).contains(u'◀'), true);
            QCOMPARE((interleaved ? chunked : inter).contains(u'◀'), false);
            const QString said = (FigureBuilds::texts(*built->plot()) + FigureRoom::setAside(*built->plot())).join(u' ');
            QVERIFY2(said.contains(u"Qwen2-VL"_s) && said.contains(u"Qwen3-VL"_s), qPrintable(said));
        }
    }
}

POSENC_TEST_MAIN(TestMropeAxesFigure)
} // namespace tst_mropeaxesfigure
#include "tst_mropeaxesfigure.moc"
