// The colour bars of heatmaps of whole numbers (position ids, document distances, bucket indices):
// whole ticks only, and a signed bucket said to be one.
#include "render/FigureSize.h"
#include "support/FigureBuilds.h"
#include "support/RelativeModels.h"
#include "support/TestMain.h"

#include "core/ParamText.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>

namespace tst_colorbarsfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// Packing's batch: documents of 3, 4 and 2 tokens in a row of 9, the ids restarted at each.
Params packed()
{
    Params p;
    p.dropout = 0.0;
    for (const auto &[key, text] : {std::pair {u"encoding"_s, u"rope"_s},
                                    {u"max-len"_s, u"9"_s},
                                    {u"packed"_s, u"3,4,2"_s},
                                    {u"ids-choice"_s, u"restarted-without-block-mask"_s}})
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s: %s", qPrintable(key), qPrintable(error->sentence()));
    return p;
}

QList<QCPColorScale *> shownScales(const QCustomPlot &plot)
{
    QList<QCPColorScale *> scales;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element); scale && scale->realVisibility())
            scales.append(scale);
    return scales;
}

} // namespace

class TestColorBarsFigure : public QObject
{
    Q_OBJECT

private slots:
    void wholeNumbersGetWholeTicks_data()
    {
        QTest::addColumn<QString>("figure");
        QTest::addColumn<Params>("params");
        QTest::addColumn<QSize>("pixels");
        // Packing's position ids in a 1366 x 768 window's view (0, 0.5, ..., 3) and on a slide's half.
        for (const QSize pixels : {QSize(860, 330), QSize(1500, 1688), QSize(600, 300)}) {
            const QByteArray size = QByteArray::number(pixels.width()) + 'x' + QByteArray::number(pixels.height());
            QTest::newRow("position-ids " + size) << u"position-ids"_s << packed() << pixels;
            QTest::newRow("document-distance " + size) << u"document-distance"_s << packed() << pixels;
            QTest::newRow("buckets T5 " + size) << u"buckets"_s << relativemodels::t5Base() << pixels;
            QTest::newRow("buckets DeBERTa " + size) << u"buckets"_s << relativemodels::debertaV3Base() << pixels;
        }
    }

    // Integer data: each tick of its colour bar a whole number, labelled as one.
    void wholeNumbersGetWholeTicks()
    {
        QFETCH(QString, figure);
        QFETCH(Params, params);
        QFETCH(QSize, pixels);
        const auto built = FigureBuilds::build(figure, params, FigureSize::fromPixels(pixels));
        QCOMPARE(FigureBuilds::errorOf(*built), QString());
        built->plot()->replot();
        static const QRegularExpression whole(u"^[−-]?[0-9,]+k?$"_s);
        int labels = 0;
        for (QCPColorScale *scale : shownScales(*built->plot())) {
            const QVector<double> ticks = scale->axis()->tickVector();
            const QVector<QString> texts = scale->axis()->tickVectorLabels();
            for (qsizetype i = 0; i < std::min(ticks.size(), texts.size()); ++i) {
                if (!scale->axis()->range().contains(ticks[i]) || texts[i].isEmpty())
                    continue;
                QVERIFY2(ticks[i] == std::round(ticks[i]) && whole.match(texts[i]).hasMatch(),
                         qPrintable(u"a tick at %1 labelled \"%2\""_s.arg(ticks[i]).arg(texts[i])));
                ++labels;
            }
        }
        QVERIFY(labels >= 2);
    }

    // The buckets lesson's DeBERTa map was coloured −255 … 255 under the title "DeBERTa map, 256
    // buckets" and a bar "DeBERTa bucket of i − j": the colours are the signed bucket, 256 a side
    // (the rows −256 … 255 the attention reads), and its title and bar say so.
    void debertasMapSaysItsBucketIsSigned()
    {
        const Params p = relativemodels::debertaV3Base();
        const auto built = FigureBuilds::build(u"buckets"_s, p, FigureSize::fromPixels(QSize(1400, 700)));
        QCOMPARE(FigureBuilds::errorOf(*built), QString());
        const QList<QCPColorScale *> scales = shownScales(*built->plot());
        QCOMPARE(scales.size(), 1);
        const qint64 buckets = p.deberta.buckets;
        const QCPRange colours = scales.front()->dataRange();
        QVERIFY(colours.lower < 0.0);
        QVERIFY2(colours.lower >= -double(buckets) && colours.upper <= double(buckets - 1),
                 qPrintable(u"%1 … %2"_s.arg(colours.lower).arg(colours.upper)));
        QVERIFY2(scales.front()->axis()->label().contains(u"signed"_s), qPrintable(scales.front()->axis()->label()));
        const QString texts = FigureBuilds::texts(*built->plot()).join(u" | "_s);
        QVERIFY2(texts.contains(u"signed buckets, %1 a side"_s.arg(buckets)), qPrintable(texts));
    }
};

POSENC_TEST_MAIN(TestColorBarsFigure)
} // namespace tst_colorbarsfigure
#include "tst_colorbarsfigure.moc"
