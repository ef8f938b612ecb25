// The rooms a pass of FigureFit wraps a figure's texts in (FigureFit::RowRooms), each panel title's
// read once a layout: the narrowest of its row's drawn titles of its kind (as many shorter forms,
// their tops level), as each title's room read afresh gives it, and still so once the titles'
// texts have changed, which no room reads (docs/PERFORMANCE.md, the fittings of a lesson's view).
#include "render/FigureFit.h"
#include "render/FigureRoom.h"
#include "render/ShorterLabels.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"

#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_rowrooms {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QList<QCPTextElement *> panelTitles(QCustomPlot &plot)
{
    QList<QCPTextElement *> titles;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(element);
            text && FigureRoom::roleOf(text) == TextRole::PanelTitle)
            titles.append(text);
    return titles;
}

// The room `text` is wrapped in, every room read afresh: its own, or for a panel's title the least
// of its own and those of the drawn titles with as many shorter forms whose tops are within 2 units.
double reference(const QCPTextElement *text, const QList<QCPTextElement *> &titles, double width)
{
    double room = FigureFit::roomFor(text, width);
    if (!titles.contains(text))
        return room;
    const qsizetype forms = ShorterLabels::ofText(text).size();
    if (forms == 0)
        return room;
    for (const QCPTextElement *other : titles)
        if (other != text && other->realVisibility() && ShorterLabels::ofText(other).size() == forms
            && std::abs(other->outerRect().top() - text->outerRect().top()) <= 2)
            room = std::min(room, FigureFit::roomFor(other, width));
    return room;
}

} // namespace

class TestRowRooms : public QObject
{
    Q_OBJECT

private slots:
    void aTitleHasItsRowsNarrowestRoom_data();
    void aTitleHasItsRowsNarrowestRoom();
};

void TestRowRooms::aTitleHasItsRowsNarrowestRoom_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QSize>("pixels");
    QTest::addColumn<bool>("aRowOfAKind"); // two drawn titles at least of one row and kind
    // Rows of panel titles of one kind (dropout-compare's "lost: …"), and beside a title and keys.
    QTest::newRow("dropout-compare 396 x 272") << u"dropout-compare"_s << QSize(396, 272) << false;
    QTest::newRow("dropout-compare 900 x 400") << u"dropout-compare"_s << QSize(900, 400) << true;
    QTest::newRow("dropout-anatomy 329 x 345") << u"dropout-anatomy"_s << QSize(329, 345) << false;
    QTest::newRow("families 600 x 400") << u"families"_s << QSize(600, 400) << false;
}

void TestRowRooms::aTitleHasItsRowsNarrowestRoom()
{
    QFETCH(QString, figure);
    QFETCH(QSize, pixels);
    QFETCH(bool, aRowOfAKind);
    Params p;
    p.dModel = 64;
    p.maxLen = 64;
    p.dropout = 0.1;
    const auto built = FigureBuilds::build(figure, p, FigureSize::fromPixels(pixels));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot &plot = *built->plot();
    const double width = plot.viewport().width() - 8.0;
    const QList<QCPTextElement *> titles = panelTitles(plot);
    QList<QCPTextElement *> texts;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(element))
            texts.append(text);
    QVERIFY(!texts.isEmpty());
    if (aRowOfAKind) {
        qsizetype kinds = 0;
        for (const QCPTextElement *a : titles)
            for (const QCPTextElement *b : titles)
                kinds += a != b && a->realVisibility() && b->realVisibility() && !ShorterLabels::ofText(a).isEmpty()
                    && ShorterLabels::ofText(a).size() == ShorterLabels::ofText(b).size()
                    && std::abs(a->outerRect().top() - b->outerRect().top()) <= 2;
        QVERIFY(kinds > 0);
    }

    FigureFit::RowRooms rooms(titles, width);
    for (const QCPTextElement *text : std::as_const(texts))
        QCOMPARE(rooms.of(text), reference(text, titles, width));
    // Every text changed, as a pass of fit() wraps them, without a layout: the rooms kept stand.
    for (QCPTextElement *text : std::as_const(texts))
        text->setText(text->text() + u"  ·  a part long enough to wrap in any room of the page"_s);
    for (const QCPTextElement *text : std::as_const(texts))
        QCOMPARE(rooms.of(text), reference(text, titles, width));
    // Read again after forget(), as after a key changed.
    rooms.forget();
    for (const QCPTextElement *text : std::as_const(texts))
        QCOMPARE(rooms.of(text), reference(text, titles, width));
}

POSENC_TEST_MAIN(TestRowRooms)
} // namespace tst_rowrooms
#include "tst_rowrooms.moc"
