// The position effect's panel of what reads the absolute position, on a window's room.
#include "render/FigureRoom.h"
#include "render/FigureSize.h"
#include "support/FigureBuilds.h"

#include "core/ParamText.h"

#include <QFontMetrics>
#include <QTest>

#include <cmath>

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

} // namespace

class TestPositionEffectRoomFigure : public QObject
{
    Q_OBJECT

private slots:
    // Left-padding's Llama 4 Scout in a 1366 x 768 window drew its chunks 0 to 3 on a panel 45
    // pixels tall, their labels one over the other: where the panel of the absolute parts is drawn,
    // its chunk labels stand a line apart (on less room the panel is given up).
    void chunkLabelsStandApart()
    {
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"max-len"_s, u"32768"_s},
                               {u"batch"_s, u"left:9192,32768"_s},
                               {u"attn-scale"_s, u"0.1"_s},
                               {u"floor-scale"_s, u"8192"_s},
                               {u"attention-chunk"_s, u"8192"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        int checked = 0;
        for (const QSize size : {QSize(910, 350), QSize(910, 300), QSize(600, 420)}) {
            const auto built = FigureBuilds::build(u"position-effect"_s, p, FigureSize::fromPixels(size));
            QCOMPARE(FigureBuilds::errorOf(*built), QString());
            built->plot()->replot();
            for (QCPAxisRect *rect : built->plot()->axisRects()) {
                QCPAxis *right = rect->axis(QCPAxis::atRight);
                // A panel given up (FigureRoom) keeps no height.
                if (!rect->visible() || !rect->layout() || rect->rect().height() <= 0 || !right->visible()
                    || right->label() != u"chunk"_s)
                    continue;
                const QVector<double> ticks = right->tickVector();
                const int line = QFontMetrics(right->tickLabelFont()).height();
                QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(ticks.size())));
                for (qsizetype i = 1; i < ticks.size(); ++i) {
                    const double apart = std::abs(right->coordToPixel(ticks[i]) - right->coordToPixel(ticks[i - 1]));
                    QVERIFY2(apart >= line, qPrintable(u"%1: %2 px apart, a line %3"_s.arg(size.height()).arg(apart).arg(line)));
                }
                ++checked;
            }
        }
        QVERIFY(checked > 0);
    }

    // On a paper column (8.5 x 6 cm at 9 pt) a family's quantity named "Sandwich bias" or "T5
    // bucket" keeps its own word on its axes ("bias", "Δ bias"), the panel's title naming the family,
    // rather than the family's name cut ("Sandwich …", "Δ …"); at 6 x 4 cm the difference's "Δ".
    void axesNamedWholeOnAColumn_data()
    {
        QTest::addColumn<QString>("size");
        QTest::addColumn<QString>("encoding");
        for (const QString &encoding : {u"sandwich"_s, u"t5"_s, u"kerple"_s, u"deberta"_s, u"alibi"_s})
            QTest::newRow(qPrintable(u"column "_s + encoding)) << u"column"_s << encoding;
        QTest::newRow("6x4cm sinusoidal") << u"6x4cm"_s << u"sinusoidal"_s;
    }

    void axesNamedWholeOnAColumn()
    {
        QFETCH(QString, size);
        QFETCH(QString, encoding);
        const FigureSize page = FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(size)), 300.0);
        FigureStyle style;
        style.fontPointSize = 9.0;
        const auto built = FigureBuilds::build(u"position-effect"_s, with({{u"encoding"_s, encoding}}), page, {}, style);
        QCOMPARE(FigureBuilds::errorOf(*built), QString());
        int named = 0;
        for (QCPAxisRect *rect : built->plot()->axisRects()) {
            if (!rect->realVisibility() || !rect->layout() || rect->rect().height() <= 0)
                continue;
            const QString label = FigureRoom::shownLabel(rect->axis(QCPAxis::atLeft));
            QVERIFY2(!label.contains(u'…'), qPrintable(encoding + u": "_s + label));
            named += label.isEmpty() ? 0 : 1;
        }
        QVERIFY2(named >= 2, qPrintable(encoding));
    }
};

QTEST_MAIN(TestPositionEffectRoomFigure)
#include "tst_positioneffectroomfigure.moc"
