// The families figure's KERPLE panel: heads of one r1 and one r2 keyed as the one curve they are,
// checked against float64 −r1·log(1 + r2·|k|); its lines set apart from ALiBi's beside it.
#include "render/data/FamilyPanel.h"
#include "render/figures/FamiliesFigure.h"
#include "support/TestMain.h"

#include "FamiliesFigureSums.h"
#include "support/FigureBuilds.h"

#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_familieskerplefigure {
using namespace Qt::StringLiterals;
using namespace posenc;

using namespace FamiliesFigureTest;

class TestFamiliesKerpleFigure : public QObject
{
    Q_OBJECT

private slots:
    void kerplesAlikeHeadsAreSaidAlikeApartFromAlibis();
};

// KERPLE's heads of one r1 and one r2 (its defaults, one value each for all twelve) coincide on
// −log(1 + |k|) before a causal query, and the key says so, where a slide drew twelve heads as one
// curve keyed "KERPLE head 1" and "KERPLE head 12". Heads of their own r2 are keyed by head. Its
// lines are cividis' and dashed, ALiBi's viridis' and solid: both panels' head 1 took one colour
// and one pen.
void TestFamiliesKerpleFigure::kerplesAlikeHeadsAreSaidAlikeApartFromAlibis()
{
    Params p = settings(300);
    p.encoding = Encoding::Rope;
    p.batch.attention = Attention::Causal;
    p.kerple = KerpleParams {};
    const std::int64_t q = 120;
    const auto kerpleOf = [](const FamiliesData &data) {
        const auto at = std::find_if(data.panels.cbegin(), data.panels.cend(),
                                     [](const FamilyPanelData &panel) { return panel.family == Encoding::Kerple; });
        return at == data.panels.cend() ? nullptr : &*at;
    };
    const auto alike = FamiliesModel::compute(p, q, -q - 0.5, 300 - q - 0.5, 2000, nullptr);
    QVERIFY(alike);
    const FamilyPanelData *kerple = kerpleOf(*alike);
    QVERIFY(kerple);
    // Each head's line on the one curve, the key's last entry saying so.
    QVERIFY(kerple->lines.size() > 1);
    QStringList named;
    for (const FamilyPanelLine &line : kerple->lines) {
        if (!line.terseName.isEmpty())
            named.append(line.terseName);
        for (qsizetype i = 0; i < line.curve.offset.size(); ++i) {
            const double k = line.curve.offset[i];
            if (k > 0.0)
                continue;
            const double exact = -std::log1p(std::abs(k)); // float64, r1 = r2 = 1
            QVERIFY2(std::abs(line.curve.lo[i] - exact) <= 1e-6 * std::max(1.0, std::abs(exact)),
                     qPrintable(u"k = %1: %2, −log(1 + |k|) = %3"_s.arg(k).arg(line.curve.lo[i]).arg(exact)));
        }
    }
    QCOMPARE(named, (QStringList {u"KERPLE head 1"_s, u"KERPLE heads alike"_s}));
    // The record's heads, each of its own r2.
    p.kerple = settings(300).kerple;
    const auto own = FamiliesModel::compute(p, q, -q - 0.5, 300 - q - 0.5, 2000, nullptr);
    QVERIFY(own);
    QVERIFY(kerpleOf(*own));
    named.clear();
    for (const FamilyPanelLine &line : kerpleOf(*own)->lines)
        if (!line.terseName.isEmpty())
            named.append(line.terseName);
    QVERIFY2(named.size() > 1
                 && std::all_of(named.cbegin(), named.cend(),
                                [](const QString &name) { return name.startsWith(u"KERPLE head "_s); }),
             qPrintable(named.join(u"; "_s)));

    const auto built = FigureBuilds::build(u"families"_s, p, FigureSize::fromPixels(QSize(1600, 900)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QPen alibi, kerpleHead;
    for (int i = 0; i < built->plot()->graphCount(); ++i) {
        const QCPGraph *graph = built->plot()->graph(i);
        if (graph->name().startsWith(u"ALiBi head 1 "_s))
            alibi = graph->pen();
        else if (graph->name().startsWith(u"KERPLE head 1 "_s))
            kerpleHead = graph->pen();
    }
    QCOMPARE(alibi.style(), Qt::SolidLine);
    QCOMPARE(kerpleHead.style(), Qt::DashLine);
    QVERIFY2(alibi.color() != kerpleHead.color(), qPrintable(alibi.color().name()));
}

POSENC_TEST_MAIN(TestFamiliesKerpleFigure)
} // namespace tst_familieskerplefigure
#include "tst_familieskerplefigure.moc"
