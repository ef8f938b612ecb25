// The document-distance figure of a family whose score reads no ids (docs/ARCHITECTURE.md,
// Positions in practice): its distances are the columns' q − k, counted here pair by pair.
#include "render/FigureRoom.h"
#include "render/data/positions/DocumentDistanceModel.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"

#include "core/Engine.h"
#include "core/ParamText.h"

#include <QTest>

#include <cmath>

namespace tst_documentdistancefigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params with(std::initializer_list<std::pair<QString, QString>> values)
{
    Params p;
    p.dropout = 0.0;
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s: %s", qPrintable(key), qPrintable(error->sentence()));
    }
    return p;
}

std::shared_ptr<const DocumentDistanceData> computed(const Params &params, const QList<PanelExtent> &panels)
{
    FigureRequest request;
    request.engine = std::make_shared<const Engine>(params);
    request.panels = panels;
    request.detail = Detail::Full;
    const std::atomic<bool> cancel {false};
    const FigureResult result = FigureBuilds::figure(u"document-distance"_s).model().compute(request, cancel);
    return std::static_pointer_cast<const DocumentDistanceData>(result.data);
}

PanelExtent extent(int width, int height, double x0, double x1, double y0, double y1)
{
    return {QSize(width, height), 1.0, {x0, x1}, {y0, y1}};
}

} // namespace

class TestDocumentDistanceFigure : public QObject
{
    Q_OBJECT

private slots:
    // packing for BLOOM drew the restarted ids' distances, 26 cross-document pairs and 11 negative,
    // which its ALiBi never sees: build_alibi_tensor biases by the mask's cumsum, MPT's and T5's by
    // the columns (ScoreFromColumns). A family whose score reads no ids is drawn the column
    // distances q − k in both panels, and its title says so.
    void aScoreThatReadsNoIdsIsDrawnItsColumnDistances_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QString>("family");
        QTest::newRow("ALiBi (BLOOM, MPT)") << u"alibi"_s << u"ALiBi bias"_s;
        QTest::newRow("T5") << u"t5"_s << u"T5 bucket"_s;
    }
    void aScoreThatReadsNoIdsIsDrawnItsColumnDistances()
    {
        QFETCH(QString, encoding);
        QFETCH(QString, family);
        const Params p = with({{u"encoding"_s, encoding}, {u"max-len"_s, u"9"_s}, {u"packed"_s, u"3,4,2"_s}});
        const std::vector<int> document = {0, 0, 0, 1, 1, 1, 1, 2, 2};
        const QList<PanelExtent> panels = {extent(9, 9, -0.5, 8.5, -0.5, 8.5), extent(9, 9, -0.5, 8.5, -0.5, 8.5)};
        const auto d = computed(p, panels);
        QCOMPARE(d->compare, IdsChoice::RestartedWithoutBlockMask);
        QVERIFY2(d->columnsReadBy.contains(family), qPrintable(d->columnsReadBy));
        std::int64_t cross = 0, negative = 0;
        for (int q = 0; q < 9; ++q) {
            for (int k = 0; k < 9; ++k) {
                const bool seen = d->bothWays || k <= q;
                const bool same = document[std::size_t(q)] == document[std::size_t(k)];
                cross += seen && !same;
                negative += seen && !same && q - k < 0;
                const float compared = d->compared.at(q, k), reference = d->reference.at(q, k);
                QVERIFY2(seen ? compared == float(q - k) : std::isnan(compared), qPrintable(u"%1 %2"_s.arg(q).arg(k)));
                QVERIFY2(seen && same ? reference == float(q - k) : std::isnan(reference),
                         qPrintable(u"%1 %2"_s.arg(q).arg(k)));
            }
        }
        QCOMPARE(d->comparedCounts.cross, cross);
        QCOMPARE(d->comparedCounts.crossNegative, negative);
        const auto built = FigureBuilds::build(u"document-distance"_s, p, FigureSize::fromPixels(QSize(1200, 700)));
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        const QString title = FigureRoom::fullTitle(*built->plot());
        QVERIFY2(title.contains(u"column distances"_s) && title.contains(family), qPrintable(title));
    }

    // packing's caption told BLOOM-560m "Blue: a key whose id is above the query's" over a
    // sequential map of column distances, none negative. The caption explains blue only where a
    // distance drawn is negative: restarted ids under a causal mask (11 of the 26 cross pairs of
    // documents 3, 4, 2), not the columns an ALiBi bias reads, nor ids that run on.
    void theCaptionExplainsBlueOnlyWhereADistanceIsNegative_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QString>("ids");
        QTest::addColumn<bool>("negative");
        QTest::newRow("RoPE, restarted ids") << u"rope"_s << u"restarted-without-block-mask"_s << true;
        QTest::newRow("RoPE, ids run on") << u"rope"_s << u"positions-not-restarted"_s << false;
        QTest::newRow("ALiBi, its columns") << u"alibi"_s << u"restarted-without-block-mask"_s << false;
    }
    void theCaptionExplainsBlueOnlyWhereADistanceIsNegative()
    {
        QFETCH(QString, encoding);
        QFETCH(QString, ids);
        QFETCH(bool, negative);
        const Params p = with(
            {{u"encoding"_s, encoding}, {u"max-len"_s, u"9"_s}, {u"packed"_s, u"3,4,2"_s}, {u"ids-choice"_s, ids}});
        const QList<PanelExtent> panels = {extent(9, 9, -0.5, 8.5, -0.5, 8.5), extent(9, 9, -0.5, 8.5, -0.5, 8.5)};
        const auto d = computed(p, panels);
        QCOMPARE(std::min(d->reference.minValue, d->compared.minValue) < 0.0, negative);
        const auto built = FigureBuilds::build(u"document-distance"_s, p, FigureSize::fromPixels(QSize(1900, 1000)));
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        const QString texts = FigureBuilds::texts(*built->plot()).join(u' ');
        QVERIFY2(texts.contains(u"cross-document pairs"_s), qPrintable(texts));
        QCOMPARE(texts.contains(u"Blue:"_s), negative);
    }
};

POSENC_TEST_MAIN(TestDocumentDistanceFigure)
} // namespace tst_documentdistancefigure
#include "tst_documentdistancefigure.moc"
