#include "render/FigureExporter.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"

#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

namespace tst_tokenroles {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The rectangles of an SVG drawn with the padding's hatch or the roles' outline colour (#141414),
// in the SVG's user units, each moved by its group's translation.
QList<QRectF> markRects(const QByteArray &svg)
{
    static const QRegularExpression translation(uR"(matrix\(1,0,0,1,([-\d.]+),([-\d.]+)\))"_s);
    QList<QRectF> rects;
    QXmlStreamReader xml(svg);
    QList<std::pair<bool, QPointF>> groups; // each open <g>: a mark's, and its translation
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == u"g") {
            const auto attributes = xml.attributes();
            const bool mark = attributes.value(u"fill"_s).startsWith(u"url(#fillpattern"_s)
                || attributes.value(u"stroke"_s) == u"#141414"_s;
            QPointF offset;
            const auto match = translation.match(attributes.value(u"transform"_s).toString());
            if (match.hasMatch())
                offset = {match.captured(1).toDouble(), match.captured(2).toDouble()};
            groups.append({mark, offset});
        } else if (xml.isEndElement() && xml.name() == u"g") {
            groups.removeLast();
        } else if (xml.isStartElement() && xml.name() == u"rect" && !groups.isEmpty() && groups.last().first) {
            const auto a = xml.attributes();
            rects.append(QRectF(a.value(u"x"_s).toDouble(), a.value(u"y"_s).toDouble(), a.value(u"width"_s).toDouble(),
                                a.value(u"height"_s).toDouble())
                             .translated(groups.last().second));
        }
    }
    return rects;
}

} // namespace

// The token roles' marks stay inside their axes in every format: an SVG keeps no clip path.
class TestTokenRoles : public QObject
{
    Q_OBJECT

private slots:
    void svgMarksStayInsideTheirAxes_data();
    void svgMarksStayInsideTheirAxes();
};

void TestTokenRoles::svgMarksStayInsideTheirAxes_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("mode");
    QTest::addColumn<qint64>("sequence");
    QTest::newRow("dropout-compare") << u"dropout-compare"_s << QString() << qint64(-1);
    QTest::newRow("dropout, masked-fill, seq_len 30") << u"dropout"_s << u"masked-fill"_s << qint64(30);
}

void TestTokenRoles::svgMarksStayInsideTheirAxes()
{
    QFETCH(QString, figure);
    QFETCH(QString, mode);
    QFETCH(qint64, sequence);
    Params params;
    params.dModel = 64;
    params.maxLen = 256;
    if (mode == u"masked-fill"_s)
        params.dropoutMode = DropoutMode::MaskedFill;
    if (sequence > 0)
        params.seqLen = sequence;
    const FigureSize size = FigureSize::fromPixels(QSize(1200, 800));
    const auto built = FigureBuilds::build(figure, params, size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    // Laid out as the export lays it out, the axis rects where the SVG draws them.
    plot->setViewport(QRect(QPoint(0, 0), size.layout));
    plot->replot();
    const QByteArray svg = FigureExporter::svg(plot, size, figure);
    QList<QRectF> axes;
    for (QCPAxisRect *rect : plot->axisRects())
        axes.append(QRectF(rect->rect()).adjusted(-1.5, -1.5, 1.5, 1.5));
    // A mark spans its axis rect from left to right; the legend's swatches, drawn alike, do not.
    int marks = 0;
    for (const QRectF &mark : markRects(svg)) {
        const auto spans = [&](const QRectF &a) {
            return std::abs(a.left() - mark.left()) < 3.0 && std::abs(a.right() - mark.right()) < 3.0;
        };
        if (std::none_of(axes.cbegin(), axes.cend(), spans))
            continue;
        ++marks;
        const bool inside
            = std::any_of(axes.cbegin(), axes.cend(), [&](const QRectF &a) { return spans(a) && a.contains(mark); });
        QVERIFY2(inside,
                 qPrintable(u"mark (%1, %2) %3 x %4 outside its axis rect"_s.arg(mark.x())
                                .arg(mark.y())
                                .arg(mark.width())
                                .arg(mark.height())));
    }
    QVERIFY2(marks >= 4, qPrintable(QString::number(marks)));
}

POSENC_TEST_MAIN(TestTokenRoles)
} // namespace tst_tokenroles
#include "tst_tokenroles.moc"
