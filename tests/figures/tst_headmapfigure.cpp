// The head-map figure: which columns of a head turn and how fast, against float64 formulas written
// here: a whole head (Llama 4 Scout, interleaved: column j's pair is j / 2), prefix partial rotary
// (GLM-4.5: the first 64 of 128 in rotate_half pairs j mod 32), proportional RoPE (Gemma 4's full
// layers: 64 pairs at 1e6^(-2i/512) in columns i and 256 + i, the rest at frequency 0) and MLA's
// tail (DeepSeek-V3: the last 64 of 192 turn, interleaved).
#include "render/FigureExporter.h"
#include "render/figures/models/HeadMapFigure.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"

#include <QTest>

#include <cmath>
#include <numbers>

namespace tst_headmapfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestHeadMapFigure : public QObject
{
    Q_OBJECT

private slots:
    void columnsAreTheFormulas();
    void figureIsRegisteredAndExports();
};

void TestHeadMapFigure::columnsAreTheFormulas()
{
    const HeadMapData d = HeadMapModel::examples();
    QCOMPARE(d.rows.size(), 4);
    const double pi2 = 2.0 * std::numbers::pi;
    // Each row's expected wavelength of column j: NaN passes, inf turns at frequency 0.
    const auto check = [&](const HeadMapData::Row &row, std::size_t width, const auto &expected) {
        QCOMPARE(row.wavelengths.size(), width);
        for (std::size_t j = 0; j < width; ++j) {
            const double e = expected(j);
            const double w = row.wavelengths[j];
            const QByteArray where = (row.tick + u" column "_s + QString::number(j)).toUtf8();
            if (std::isnan(e))
                QVERIFY2(std::isnan(w), where);
            else if (std::isinf(e))
                QVERIFY2(std::isinf(w), where);
            else
                QVERIFY2(std::abs(w - e) <= 1e-12 * e, where);
        }
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    // Llama 4 Scout's llama3 x16 with low = high = 1 from 8192: a pair slower than 8192 positions is
    // divided by 16, the others kept (modeling_rope_utils.py, _compute_llama3_parameters).
    check(d.rows[0], 128, [&](std::size_t j) {
        const double w = pi2 * std::pow(5e5, 2.0 * double(j / 2) / 128.0);
        return w > 8192.0 ? 16.0 * w : w;
    });
    check(d.rows[1], 128,
          [&](std::size_t j) { return j < 64 ? pi2 * std::pow(1e6, 2.0 * double(j % 32) / 64.0) : nan; });
    check(d.rows[2], 512, [&](std::size_t j) {
        const std::size_t i = j % 256;
        return i < 64 ? pi2 * std::pow(1e6, 2.0 * double(i) / 512.0) : inf;
    });
    // DeepSeek-V3: yarn 40 divides the slow pairs' frequencies; only the fast ones are checked here
    // (RopeFrequencies' own tests check the ramp), and that the first 128 columns pass.
    const HeadMapData::Row &ds = d.rows[3];
    QCOMPARE(ds.wavelengths.size(), std::size_t(192));
    for (std::size_t j = 0; j < 128; ++j)
        QVERIFY(std::isnan(ds.wavelengths[j]));
    QVERIFY(std::abs(ds.wavelengths[128] - pi2) < 1e-12);
    QVERIFY(std::abs(ds.wavelengths[129] - pi2) < 1e-12);
    for (std::size_t j = 128; j < 192; ++j)
        QVERIFY(std::isfinite(ds.wavelengths[j]));
}

void TestHeadMapFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1000, 700));
    for (const QString &config : {QString(), u"llama-4-scout"_s, u"qwen3-next"_s}) {
        FigureState state;
        if (!config.isEmpty())
            state.options.insert(u"config"_s, config);
        const auto built = FigureBuilds::build(u"head-map"_s, Params(), size, state);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(1000, 700));
    }
}

POSENC_TEST_MAIN(TestHeadMapFigure)
} // namespace tst_headmapfigure
#include "tst_headmapfigure.moc"
