// The nope-order figure (NoPE: order from the causal mask) against float64 sums written here:
// uniform attention under the causal mask gives query t's keys 1/(t + 1) each and without it 1/L;
// the output h_t, the mean of s·E's rows 0 … t read from the engine, has the norm the figure
// measures, and on average s²σ²d/(t + 1) for its square (the mean of t + 1 independent rows of
// zero mean, Kazemnejad et al. 2023, Theorem 1); a loaded matrix has no expected norm. The figure
// is registered, exports and fits a 14-pt slide (tst_linereadings reads its values at the cursor).
#include "render/FigureExporter.h"
#include "render/figures/none/NopeOrderFigure.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/none/NopeOrder.h"
#include "support/FigureBuilds.h"

#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_nopeorderfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params nope(std::int64_t d, std::int64_t length, InitKind init = InitKind::Normal)
{
    Params p;
    p.encoding = Encoding::None;
    p.dModel = d;
    p.maxLen = length;
    p.init = init;
    p.seed = 7;
    return p;
}

// ‖(x_0 + … + x_t)/(t + 1)‖ for every t, summed here in float64 from the engine's rows of s·E.
std::vector<double> prefixNorms(const Params &p)
{
    const Engine engine(p);
    const std::int64_t d = p.embeddingColumns();
    RowMatrixXf rows(p.maxLen, d);
    engine.computeBlock(Quantity::Embedding, {0, p.maxLen, 0, d}, rows);
    std::vector<double> sum(std::size_t(d), 0.0), norms;
    for (std::int64_t t = 0; t < p.maxLen; ++t) {
        double squared = 0.0;
        for (std::int64_t j = 0; j < d; ++j) {
            sum[std::size_t(j)] += double(rows(t, j));
            squared += sum[std::size_t(j)] * sum[std::size_t(j)];
        }
        norms.push_back(std::sqrt(squared) / double(t + 1));
    }
    return norms;
}

} // namespace

class TestNopeOrderFigure : public QObject
{
    Q_OBJECT

private slots:
    void weightsAreUniformAttention();
    void measuredNormsAreThePrefixMeans_data();
    void measuredNormsAreThePrefixMeans();
    void normsShrinkAsTheExpectation();
    void loadedRowsHaveNoExpectation();
    void figureIsRegisteredAndExports();
    void keyShowsEachSwatchOnce_data();
    void keyShowsEachSwatchOnce();
};

void TestNopeOrderFigure::weightsAreUniformAttention()
{
    const Params p = nope(32, 5000);
    const Engine engine(p);
    const auto d = NopeOrderModel::compute(engine, nullptr);
    QVERIFY(d);
    QCOMPARE(d->prefix.size(), d->weight.size());
    QCOMPARE(d->prefix.first(), 1.0);
    QCOMPARE(d->prefix.last(), 5000.0);
    for (qsizetype i = 0; i < d->prefix.size(); ++i) {
        QCOMPARE(d->weight[i], 1.0 / d->prefix[i]);
        if (i > 0)
            QVERIFY(d->prefix[i] > d->prefix[i - 1]);
    }
    QCOMPARE(d->bidirectionalWeight, 1.0 / 5000.0);
    QCOMPARE(NopeOrder::causalWeight(99), 0.01);
}

void TestNopeOrderFigure::measuredNormsAreThePrefixMeans_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("normal d 64") << nope(64, 700);
    QTest::newRow("scaled normal d 200, s = sqrt d") << [] {
        Params p = nope(200, 300, InitKind::ScaledNormal);
        p.scaleKind = ScaleKind::Sqrt;
        return p;
    }();
    QTest::newRow("keras uniform d 16") << nope(16, 1000, InitKind::KerasUniform);
}

void TestNopeOrderFigure::measuredNormsAreThePrefixMeans()
{
    QFETCH(Params, p);
    const std::vector<double> reference = prefixNorms(p);
    const Engine engine(p);
    const auto d = NopeOrderModel::compute(engine, nullptr);
    QVERIFY(d && d->norms);
    QCOMPARE(std::ssize(*d->norms), p.maxLen);
    for (std::int64_t t = 0; t < p.maxLen; ++t)
        QVERIFY2(std::abs((*d->norms)[std::size_t(t)] - reference[std::size_t(t)]) <= 1e-12 * reference[std::size_t(t)],
                 qPrintable(u"t = %1"_s.arg(t)));
    // Every position is measured: the curve is every point, and without the mask h is the last.
    QCOMPARE(d->measured.size(), d->prefix.size());
    QVERIFY(d->bidirectionalMeasured);
    QCOMPARE(*d->bidirectionalNorm, reference.back());
    for (qsizetype i = 0; i < d->prefix.size(); ++i) {
        const double t = d->prefix[i] - 1.0;
        QCOMPARE(d->expected[i], p.scale() * p.sigma() * std::sqrt(double(p.dModel) / (t + 1.0)));
    }
}

void TestNopeOrderFigure::normsShrinkAsTheExpectation()
{
    // ‖h_t‖² (t + 1)/(s²σ²d) has mean 1 and, for normal rows, spread √(2/d): averaged over the
    // positions from 100 to the end, it is 1 to within a few spreads whatever the seed.
    const Params p = nope(512, 2000);
    const std::vector<double> norms = prefixNorms(p);
    const double unit = p.scale() * p.scale() * p.sigma() * p.sigma() * double(p.dModel);
    double sum = 0.0;
    for (std::int64_t t = 100; t < p.maxLen; ++t)
        sum += norms[std::size_t(t)] * norms[std::size_t(t)] * double(t + 1) / unit;
    QVERIFY(std::abs(sum / double(p.maxLen - 100) - 1.0) < 4.0 * std::sqrt(2.0 / 512.0));
    // The position a norm reads back as inverts the expectation exactly.
    QCOMPARE(*NopeOrder::positionOfNorm(p, *NopeOrder::expectedNorm(p, 99)), 99.0);
}

void TestNopeOrderFigure::loadedRowsHaveNoExpectation()
{
    Params p = nope(3, 4);
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values.resize(4, 3);
    matrix->values << 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1;
    p.embeddings = matrix;
    QVERIFY(p.isValid());
    const Engine engine(p);
    const auto d = NopeOrderModel::compute(engine, nullptr);
    QVERIFY(d && d->loaded);
    QVERIFY(d->expected.isEmpty());
    QVERIFY(!NopeOrder::expectedNorm(p, 0));
    // h_1 = s·(1/2, 1/2, 0), h_3 = s·(1/2, 1/2, 1/2).
    // (s·E in float32, as the engine computes it.)
    QVERIFY(std::abs((*d->norms)[1] - p.scale() * std::sqrt(0.5)) < 1e-6);
    QVERIFY(std::abs((*d->norms)[3] - p.scale() * std::sqrt(0.75)) < 1e-6);
}

void TestNopeOrderFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1000, 700));
    const auto built = FigureBuilds::build(u"nope-order"_s, nope(128, 3000), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(1000, 700));
    const QString text = FigureBuilds::texts(*built->plot()).join(u'\n');
    QVERIFY2(text.contains(u"d = 128"_s) && text.contains(u"L = 3,000"_s), qPrintable(text));
    FigureStyle style;
    style.fontPointSize = 14;
    const auto slide = FigureBuilds::build(u"nope-order"_s, nope(128, 3000),
                                           FigureSize::fromInches(QSizeF(10.0, 5.626), 300), {}, style);
    QVERIFY2(!slide->error(), qPrintable(FigureBuilds::errorOf(*slide)));
    // Past the rows it measures, the figure says how many it did.
    Params wide = nope(1 << 16, 2048);
    QVERIFY(NopeOrderModel::measuredRows(wide) < wide.maxLen);
    const auto partial = FigureBuilds::build(u"nope-order"_s, wide, size);
    QVERIFY2(!partial->error(), qPrintable(FigureBuilds::errorOf(*partial)));
    QVERIFY(FigureBuilds::texts(*partial->plot()).join(u'\n').contains(u"measured over the first 1,024 of 2,048"_s));
}

void TestNopeOrderFigure::keyShowsEachSwatchOnce_data()
{
    QTest::addColumn<QSizeF>("inches");
    QTest::addColumn<double>("points");
    QTest::addColumn<bool>("terse"); // its entries' short forms, which say what each style draws
    QTest::newRow("slide 14 pt") << QSizeF(10.0, 5.626) << 14.0 << true;
    QTest::newRow("page 9 pt") << QSizeF(7.0, 5.0) << 9.0 << false;
}

// One entry a line style: the key showed the causal blue and no mask's dotted red twice each, once
// for each panel, four swatches for two styles, as if of four quantities.
void TestNopeOrderFigure::keyShowsEachSwatchOnce()
{
    QFETCH(QSizeF, inches);
    QFETCH(double, points);
    QFETCH(bool, terse);
    FigureStyle style;
    style.fontPointSize = points;
    const auto built
        = FigureBuilds::build(u"nope-order"_s, nope(128, 3000), FigureSize::fromInches(inches, 300), {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList swatches, names;
    const QCustomPlot &plot = *built->plot();
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true)) {
        auto *legend = qobject_cast<QCPLegend *>(element);
        for (int i = 0; legend && i < legend->itemCount(); ++i) {
            auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
            if (!entry)
                continue;
            const QPen pen = entry->plottable()->pen();
            swatches.append(u"%1 %2"_s.arg(pen.color().name()).arg(int(pen.style())));
            names.append(entry->plottable()->name());
        }
    }
    QCOMPARE(swatches.size(), 3);
    QCOMPARE(QSet<QString>(swatches.begin(), swatches.end()).size(), swatches.size());
    // Each entry names what its style draws in both panels (a page that cuts them keeps "causal
    // mask" and "no mask").
    if (!terse)
        return;
    const auto said = [&names](const QString &a, const QString &b) {
        return std::any_of(names.begin(), names.end(),
                           [&](const QString &n) { return n.contains(a) && n.contains(b); });
    };
    QVERIFY2(said(u"1/(t + 1)"_s, u"‖hₜ‖"_s) && said(u"1/L"_s, u" h "_s), qPrintable(names.join(u'\n')));
}

POSENC_TEST_MAIN(TestNopeOrderFigure)
} // namespace tst_nopeorderfigure
#include "tst_nopeorderfigure.moc"
