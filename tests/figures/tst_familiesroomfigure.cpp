// The families figure on little room (docs/ARCHITECTURE.md, Exporting: the families figure
// chooses its panels for its room, FigureRoom gives up the others): the panel kept holds the
// offset axis's numbers and label, on a page and in a view of the window of a few hundred pixels.
#include "render/FigureBuild.h"
#include "render/FigureRoom.h"
#include "render/data/FamiliesModel.h"
#include "support/TestMain.h"

#include "FamiliesFigureSums.h"
#include "support/FigureBuilds.h"
#include "support/RopeReference.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_familiesroomfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

using namespace FamiliesFigureTest;

class TestFamiliesRoomFigure : public QObject
{
    Q_OBJECT

private slots:
    void theLastPanelKeptHoldsTheOffsetAxis_data();
    void theLastPanelKeptHoldsTheOffsetAxis();
    void theTitleCountsThePanelsDrawn_data();
    void theTitleCountsThePanelsDrawn();
    void aFineOutputsBandIsDrawnALayoutUnitWide();
    void theFootnoteStaysInAWindowsView();
};

void TestFamiliesRoomFigure::theLastPanelKeptHoldsTheOffsetAxis_data()
{
    QTest::addColumn<QSizeF>("cm"); // a page at 300 dpi, or where empty a view of the window:
    QTest::addColumn<QSize>("pixels");
    QTest::newRow("6 x 4 cm") << QSizeF(6.0, 4.0) << QSize();
    QTest::newRow("column, 8.5 x 6 cm") << QSizeF(8.5, 6.0) << QSize();
    QTest::newRow("double, 17.5 x 9 cm") << QSizeF(17.5, 9.0) << QSize();
    QTest::newRow("a quarter of a 1366 x 768 window, 420 x 320 px") << QSizeF() << QSize(420, 320);
    QTest::newRow("400 x 300 px") << QSizeF() << QSize(400, 300);
}

// At 6 x 4 cm the one panel the others give way to, and in a quarter of the window the one the room's
// steps kept, were drawn without the offset axis's tick labels and label: they were the bottom
// panel's, which had gone. The lowest panel drawn of each column holds them, whatever the page.
void TestFamiliesRoomFigure::theLastPanelKeptHoldsTheOffsetAxis()
{
    QFETCH(QSizeF, cm);
    QFETCH(QSize, pixels);
    const FigureSize size = cm.isEmpty() ? FigureSize::fromPixels(pixels) : FigureSize::fromInches(cm / 2.54, 300.0);
    const auto built = FigureBuilds::build(u"families"_s, settings(1024), size, {}, FigureStyle());
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QList<QCPAxisRect *> rects = FigureBuild::plotRects(*built->plot());
    QVERIFY(!rects.isEmpty());
    for (const QCPAxisRect *rect : rects) {
        const bool lowest = std::none_of(rects.cbegin(), rects.cend(), [&](const QCPAxisRect *other) {
            return other->left() == rect->left() && other->top() > rect->top();
        });
        const QCPAxis *axis = rect->axis(QCPAxis::atBottom);
        QVERIFY2(!lowest || (axis->tickLabels() && !FigureRoom::shownLabel(axis).isEmpty()),
                 qPrintable(u"%1: the offset axis unlabelled"_s.arg(rect->axis(QCPAxis::atLeft)->label())));
    }
}

void TestFamiliesRoomFigure::theTitleCountsThePanelsDrawn_data()
{
    QTest::addColumn<QSize>("pixels");
    QTest::addColumn<bool>("rope"); // the model's family RoPE, whose panel is kept, or the first's
    for (const QSize pixels : {QSize(420, 320), QSize(400, 300), QSize(560, 420), QSize(900, 700)})
        for (const bool rope : {false, true})
            QTest::addRow("%dx%d px%s", pixels.width(), pixels.height(), rope ? ", RoPE" : "") << pixels << rope;
}

// In a quarter of a 1366 x 768 window the room kept the RoPE model's panel alone under the title
// "One query, six of eight families": the figure had counted the panels it laid out, not those
// the room left (FigureRoom::setTextWhenAlone).
void TestFamiliesRoomFigure::theTitleCountsThePanelsDrawn()
{
    QFETCH(QSize, pixels);
    QFETCH(bool, rope);
    Params params = settings(1024);
    if (rope)
        params.encoding = Encoding::Rope;
    const auto built = FigureBuilds::build(u"families"_s, params, FigureSize::fromPixels(pixels), {}, FigureStyle());
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const qsizetype drawn = FigureBuild::plotRects(*built->plot()).size();
    QVERIFY(drawn > 0);
    static const QRegularExpression counted(u"(\\w+) of (\\w+) families|(\\w+) families"_s);
    for (int n = 0; n < built->plot()->plotLayout()->elementCount(); ++n) {
        const auto *text = qobject_cast<QCPTextElement *>(built->plot()->plotLayout()->elementAt(n));
        const QRegularExpressionMatch match = text ? counted.match(text->text()) : QRegularExpressionMatch();
        if (!match.hasMatch() || !text->realVisibility())
            continue;
        const QString says = match.captured(1).isEmpty() ? match.captured(3) : match.captured(1);
        QVERIFY2(says == FamiliesModel::countWord(drawn),
                 qPrintable(u"\"%1\" over %2 panels"_s.arg(text->text()).arg(drawn)));
        return;
    }
    // A page short of room may give the title up: it then counts nothing.
}

// BLOOM's PE·PE (d 1024, 2,048 positions) on a 14-pt 16:9 slide at 300 dpi took one or two offsets
// a pixel of the output: its least and its most zig-zagged as its fastest cosines turn (2π offsets
// a turn), within the pen's width, and drew blots along the curve. The band is drawn a unit of the
// layout wide (a logical pixel, about the pen's width), never finer, and the float64 PE[q]·PE[q + k]
// of every offset k between two points is within the least and the most of the two.
void TestFamiliesRoomFigure::aFineOutputsBandIsDrawnALayoutUnitWide()
{
    Params p = settings(2048);
    p.dModel = 1024;
    FigureStyle style;
    style.fontPointSize = 14.0;
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 300.0);
    const auto built = FigureBuilds::build(u"families"_s, p, slide, {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QCPGraph *upper = nullptr;
    for (int i = 0; i < built->plot()->graphCount(); ++i) {
        QCPGraph *graph = built->plot()->graph(i);
        if (graph->channelFillGraph() && FigureRoom::shownLabel(graph->valueAxis()).startsWith(u"PE·PE"_s))
            upper = graph;
    }
    QVERIFY2(upper && upper->realVisibility(), "no PE·PE band drawn");
    const QCPGraph *lower = upper->channelFillGraph();
    QCOMPARE(lower->data()->size(), upper->data()->size());
    const QCPRange view = upper->keyAxis()->range();
    const double unitsPerOffset = upper->keyAxis()->axisRect()->width() / view.size();
    const std::int64_t q = FamiliesModel::defaultQuery(p);
    const int points = upper->data()->size();
    QVERIFY(points > 100);
    for (int n = 0; n < points; ++n) {
        const double at = upper->data()->at(n)->key;
        const double next = n + 1 < points ? upper->data()->at(n + 1)->key : std::floor(view.upper);
        if (n + 2 < points) // the last point stands alone, where the curve ends
            QVERIFY2((next - at) * unitsPerOffset >= 0.75,
                     qPrintable(u"points at k = %1 and %2: %3 units apart"_s.arg(at).arg(next).arg((next - at)
                                                                                                   * unitsPerOffset)));
        // A point stands at the middle of its offsets: those between two points are within the least
        // and the most of the two.
        const int after = std::min(n + 1, points - 1);
        const double lo = std::min(lower->data()->at(n)->value, lower->data()->at(after)->value);
        const double hi = std::max(upper->data()->at(n)->value, upper->data()->at(after)->value);
        for (auto k = std::int64_t(std::ceil(at)); k < std::int64_t(std::ceil(next)); ++k) {
            const double v = peDot(1024, 10000.0, q, q + k);
            QVERIFY2(v >= lo - 1e-6 && v <= hi + 1e-6,
                     qPrintable(u"k = %1: PE·PE %2 outside [%3, %4]"_s.arg(k).arg(v).arg(lo).arg(hi)));
        }
    }
}

// The families lesson's figure in a 1366 x 768 window (its view 915 x 700 pixels, Llama 3.1's
// 131,072 positions) gave its caption up whole for the notes over the panels: nothing said that
// T5's and DeBERTa's panels draw a bucket index, not a bias. A line of it stays.
void TestFamiliesRoomFigure::theFootnoteStaysInAWindowsView()
{
    Params p = roperef::llama31();
    p.maxLen = 131072;
    const auto built = FigureBuilds::build(u"families"_s, p, FigureSize::fromPixels(QSize(915, 700)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList shown;
    for (QCPLayoutElement *element : built->plot()->plotLayout()->elements(true))
        if (const auto *text = qobject_cast<QCPTextElement *>(element);
            text && text->realVisibility() && text->outerRect().height() > 1)
            shown.append(text->text());
    const QString all = shown.join(u" | "_s).replace(u'\n', u' ');
    QVERIFY2(all.contains(u"bucket index stands for"_s), qPrintable(all));
}

POSENC_TEST_MAIN(TestFamiliesRoomFigure)
} // namespace tst_familiesroomfigure
#include "tst_familiesroomfigure.moc"
