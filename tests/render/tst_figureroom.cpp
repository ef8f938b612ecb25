// What a figure on little room gives up (FigureRoom, its steps): a title shortened keeps its first words
// whole and never parts a number from the word that names it ("pair 16", never "pair …" nor "pair 1…");
// a panel's title shortened beside panels the figure then gives up takes the room they leave; a panel's
// name goes with its panel and only with it; a legend left naming nothing goes and narrows nothing; a
// legend a row wide below its axes goes into a free corner stacked, and comes back as it was; a tick
// label on the end of its range that reaches into a title does not fit; an axis's label set in its tick
// labels' row clear of them gives the plot room, and comes back; an axis's label wrapped keeps the words
// of its first line, the whole in the metadata, and comes back, or the first shorter form its figure
// gives that holds in the line, whole; panels that gave an axis's labels to their neighbour's give its
// margin to their plots where no panel in line with them still shows labels on that side, and take their
// margin group back; tick labels of words too wide keep the first whole words that tell them apart, line
// by line; what a step hid comes back drawn in its layer's order.
#include "FigureRoomWordTicks.h"
#include "render/FigureFit.h"
#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"
#include "render/FigureRoomSteps.h"
#include "render/PinnedFont.h"
#include "render/ShorterLabels.h"
#include "support/TestMain.h"

namespace tst_figureroom {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestFigureRoom : public QObject
{
    Q_OBJECT

private slots:
    void shortenedKeepsNumbersWhole_data();
    void shortenedKeepsNumbersWhole();
    void aPanelTitleTakesTheRoomOfPanelsGivenUp();
    void aPanelsNameGoesOnlyWithItsPanel();
    void aLegendLeftNamingNothingGoesAndNarrowsNothing();
    void aWideLegendGoesIntoAFreeCornerStacked();
    void aTickLabelOnTheEndMeetsTheTitle();
    void anAxisLabelGoesAlongItsTicks();
    void aWrappedAxisLabelKeepsItsFirstLine();
    void aWrappedAxisLabelTakesAShorterFormWhole();
    void aLabelTooLongGoesAlongItsTicksShorter();
    void panelsSharingAnAxisGiveBackItsMargin();
    void tickLabelsOfWordsKeepTheirFirstWords();
    void tickLabelsInLinesAreMeasuredLineByLine();
    void aLegendLeftNamingOnlyMarksGoes();
    void whatComesBackIsDrawnInItsOrder();
};

void TestFigureRoom::shortenedKeepsNumbersWhole_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("room"); // the room is this text's width and a unit
    QTest::addColumn<QString>("shown");
    QTest::addColumn<QStringList>("forms"); // the figure's shorter forms (ShorterLabels::setText)
    const QString circle = u"pair 16, p = 0–63\narrows p = 0, 1; dashed 21, 22: θᵢ apart"_s;
    QTest::newRow("whole first statement")
        << circle << u"pair 16, p = 0–63"_s << u"pair 16, p = 0–63"_s << QStringList();
    // Shortened by meaning: its last clause dropped whole, not cut within it ("pair 16 …").
    QTest::newRow("the words before the range") << circle << u"pair 16, p …"_s << u"pair 16"_s << QStringList();
    // A parenthesis goes first: rope-relative's slide for DeepSeek-V3 kept "pair 4, p = 0–20 (one …".
    QTest::newRow("a parenthesis dropped") << u"pair 4, p = 0–20 (one turn)\narrows p = 0, 1; dashed 7, 8"_s
                                           << u"pair 4, p = 0–20 (one"_s << u"pair 4, p = 0–20"_s << QStringList();
    // A number after a colon is its word's value, no clause: "PE lost" alone names nothing.
    QTest::newRow("a value is no clause") << u"PE lost: 10.2\u00a0%\nenergy kept: 89.7\u00a0%"_s << u"PE lost: 10."_s
                                          << u"PE …"_s << QStringList();
    // "pair 1…" fitted here: it reads as another pair.
    QTest::newRow("no room for the ellipsis") << circle << u"pair 1…"_s << u"pair 16"_s << QStringList();
    const QString turn = u"θᵢ = 0.0123 rad a position, wavelength 511"_s;
    QTest::newRow("a value whole") << turn << u"θᵢ = 0.0123 rad …"_s << u"θᵢ = 0.0123 rad …"_s << QStringList();
    QTest::newRow("a value without its unit") << turn << u"θᵢ = 0.0123 rad"_s << u"θᵢ = 0.0123 …"_s << QStringList();
    QTest::newRow("words alone") << u"the keep mask of the first layer"_s << u"the keep mask of …"_s
                                 << u"the keep mask of …"_s << QStringList();
    // A name cut within its first word names nothing: it keeps that word, past its room (it
    // returned "" in a column a unit wide, rope-rotation's circle at 6 x 4 cm).
    QTest::newRow("no room at all") << circle << QString() << u"pair 16"_s << QStringList();
    QTest::newRow("no room for the first word")
        << u"embedding dropout"_s << u"emb"_s << u"embedding"_s << QStringList();
    // A form the figure gives is taken before a cut within the first part, the first that fits.
    const QString header = u"σ = d^-1/2 = 0.04419,  s = √d = 22.63"_s;
    const QStringList rules {u"σ = d^-1/2, s = √d"_s, u"s = √d"_s};
    QTest::newRow("a form for a cut") << header << u"σ = d^-1/2, s = √d"_s << u"σ = d^-1/2, s = √d"_s << rules;
    QTest::newRow("the shorter form") << header << u"s = √d …"_s << u"s = √d"_s << rules;
    QTest::newRow("the whole when it fits") << header << header << header << rules;
}

void TestFigureRoom::shortenedKeepsNumbersWhole()
{
    QFETCH(QString, text);
    QFETCH(QString, room);
    QFETCH(QString, shown);
    QFETCH(QStringList, forms);
    const QFont font(PinnedFont::family(), 9);
    const double width = QFontMetricsF(font).horizontalAdvance(room) + 1.0;
    QCOMPARE(FigureRoom::Steps::shortened(text, font, width, 1, forms), shown);
}

// Two panels side by side, the right one dispensable: the left one's title, shortened while both
// stood, is whole again once the right one is given up.
void TestFigureRoom::aPanelTitleTakesTheRoomOfPanelsGivenUp()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    // As a file's figure is laid out (FigureLayoutLoop): a widget never shown has no resize event.
    plot.setViewport(QRect(0, 0, 300, 200));
    plot.plotLayout()->clear();
    auto *grid = new QCPLayoutGrid;
    plot.plotLayout()->addElement(0, 0, grid);
    const QString whole = u"pair 16, p = 0–63"_s;
    auto *title = new QCPTextElement(&plot, whole, font);
    FigureRoom::setRole(title, TextRole::PanelTitle);
    auto *other = new QCPTextElement(&plot, u"rope-sin"_s, font);
    FigureRoom::setRole(other, TextRole::PanelTitle);
    grid->addElement(0, 0, title);
    grid->addElement(0, 1, other);
    auto *left = new QCPAxisRect(&plot);
    auto *right = new QCPAxisRect(&plot);
    grid->addElement(1, 0, left);
    grid->addElement(1, 1, right);
    // The right panel takes all but less than the title's width.
    const double titleWidth = QFontMetricsF(font).horizontalAdvance(whole);
    grid->setColumnStretchFactors({1.0, (300.0 - 0.7 * titleWidth) / (0.7 * titleWidth)});
    FigureRoom::setDispensable(other, 1);
    FigureRoom::setDispensable(right, 1);
    plot.replot();
    QVERIFY(FigureRoom::Steps::shortenPanelTitles(&plot, 1));
    QVERIFY2(title->text() != whole && title->text().startsWith(u"pair 16"_s), qPrintable(title->text()));
    QVERIFY(FigureRoom::Steps::hideDispensable(&plot, 1));
    QCOMPARE(FigureFit::unwrapped(title), whole);
    FigureRoom::restore(&plot);
    QCOMPARE(title->text(), whole);
    QVERIFY(right->realVisibility());
}

// Three panels side by side under their names, the first alone in a grid under its name (as a
// panel with its colour bar is): the left one's name is marked dispensable but its panel is not,
// the middle one's panel is marked but its name is not, the right one's grid is marked. Each name
// stays exactly while its panel does.
void TestFigureRoom::aPanelsNameGoesOnlyWithItsPanel()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    plot.setViewport(QRect(0, 0, 600, 200));
    plot.plotLayout()->clear();
    auto *grid = new QCPLayoutGrid;
    plot.plotLayout()->addElement(0, 0, grid);
    QList<QCPTextElement *> names;
    QList<QCPAxisRect *> rects;
    for (int i = 0; i < 3; ++i) {
        names.append(new QCPTextElement(&plot, u"panel %1"_s.arg(i), font));
        FigureRoom::setRole(names.back(), TextRole::PanelTitle);
        grid->addElement(0, i, names.back());
        rects.append(new QCPAxisRect(&plot));
    }
    grid->addElement(1, 0, rects[0]);
    grid->addElement(1, 1, rects[1]);
    auto *inner = new QCPLayoutGrid;
    grid->addElement(1, 2, inner);
    inner->addElement(0, 0, rects[2]);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(FigureRoom::panelNamedBy(names[i]), rects[i]);
    FigureRoom::setDispensable(names[0], 1);
    FigureRoom::setDispensable(rects[1], 1);
    FigureRoom::setDispensable(inner, 1);
    plot.replot();
    QVERIFY(FigureRoom::Steps::hideDispensable(&plot, 1));
    plot.replot();
    QVERIFY(rects[0]->realVisibility());
    QVERIFY(names[0]->realVisibility());
    for (int i = 1; i < 3; ++i) {
        QVERIFY(!rects[i]->realVisibility());
        QVERIFY(!names[i]->realVisibility());
    }
    // Nothing gives up the name of a panel drawn.
    for (int step = 1; step <= FigureRoom::steps(); ++step)
        FigureRoom::giveUp(&plot, step);
    QCOMPARE(names[0]->text(), u"panel 0"_s);
    FigureRoom::restore(&plot);
    for (int i = 0; i < 3; ++i)
        QVERIFY(rects[i]->realVisibility() && names[i]->realVisibility());
}

// Two panels stacked over a legend that names the lower one's curve alone (as the learned figure's
// norms and their legend): the lower panel given up, the legend names nothing drawn and goes too,
// and its hint (its margins alone) no longer caps the figure's column: the panel kept is as wide
// as the figure (it was its least width, 40 of 300 units, before).
void TestFigureRoom::aLegendLeftNamingNothingGoesAndNarrowsNothing()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    plot.setViewport(QRect(0, 0, 300, 200));
    plot.setAutoAddPlottableToLegend(false);
    plot.plotLayout()->clear();
    auto *kept = new QCPAxisRect(&plot);
    auto *lower = new QCPAxisRect(&plot);
    kept->setMinimumSize(40, 40);
    plot.plotLayout()->addElement(0, 0, kept);
    plot.plotLayout()->addElement(1, 0, lower);
    auto *legend = new QCPLegend;
    plot.plotLayout()->addElement(2, 0, legend);
    legend->setMargins(QMargins(4, 0, 4, 2));
    QCPGraph *graph = plot.addGraph(lower->axis(QCPAxis::atBottom), lower->axis(QCPAxis::atLeft));
    graph->setName(u"norm"_s);
    legend->addItem(new QCPPlottableLegendItem(legend, graph));
    FigureRoom::setDispensable(lower, 1);
    plot.replot();
    QVERIFY(FigureRoom::Steps::hideDispensable(&plot, 1));
    plot.replot();
    QVERIFY(!lower->realVisibility());
    QVERIFY(!legend->realVisibility());
    QCOMPARE(kept->outerRect().width(), 300);
    FigureRoom::restore(&plot);
    plot.replot();
    QVERIFY(legend->realVisibility());
    QVERIFY(legend->hasItemWithPlottable(graph));
    QVERIFY(legend->itemWithPlottable(graph)->realVisibility());
}

// A panel whose curve runs along its bottom, over a legend of three long names in one row, wider
// than the panel: the legend goes into a top corner in fewer columns, and back in its row and its
// one row when the steps are undone.
void TestFigureRoom::aWideLegendGoesIntoAFreeCornerStacked()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    plot.setViewport(QRect(0, 0, 300, 240));
    plot.setAutoAddPlottableToLegend(false);
    plot.plotLayout()->clear();
    auto *rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    auto *legend = new QCPLegend;
    legend->setFont(font);
    plot.plotLayout()->addElement(1, 0, legend);
    plot.plotLayout()->setRowStretchFactor(1, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(3);
    rect->axis(QCPAxis::atBottom)->setRange(0.0, 10.0);
    rect->axis(QCPAxis::atLeft)->setRange(0.0, 10.0);
    for (int k = 0; k < 3; ++k) {
        QCPGraph *graph = plot.addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setData({0.0, 10.0}, {0.2 * k, 0.2 * k});
        graph->setName(u"the %1 curve's long name"_s.arg(k + 1));
        legend->addItem(new QCPPlottableLegendItem(legend, graph));
    }
    plot.replot();
    QVERIFY2(legend->outerRect().width() > rect->width(), "the legend in its row is wider than its panel");
    QVERIFY(FigureRoom::Steps::legendsInside(&plot));
    plot.replot();
    QCOMPARE(legend->layout(), rect->insetLayout());
    QVERIFY2(legend->wrap() < 3, qPrintable(QString::number(legend->wrap())));
    QVERIFY(rect->rect().adjusted(-1, -1, 1, 1).contains(legend->outerRect())); // QCPLayoutInset rounds a unit out
    QVERIFY(legend->outerRect().bottom() < rect->axis(QCPAxis::atLeft)->coordToPixel(1.0));
    FigureRoom::restore(&plot);
    QCOMPARE(legend->layout(), plot.plotLayout());
    QCOMPARE(legend->wrap(), 3);
}

// A title over a panel whose axis has a labelled tick on the top end of its range: with no margin
// above the panel the label, centred on the panel's top edge, meets the title's ink; with a line's
// margin it does not.
void TestFigureRoom::aTickLabelOnTheEndMeetsTheTitle()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    plot.setFont(font);
    plot.setViewport(QRect(0, 0, 300, 200));
    plot.plotLayout()->clear();
    auto *title = new QCPTextElement(&plot, u"a title (with descenders)"_s, font);
    title->setMargins(QMargins());
    plot.plotLayout()->addElement(0, 0, title);
    auto *rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(1, 0, rect);
    plot.plotLayout()->setRowSpacing(0);
    QCPAxis *axis = rect->axis(QCPAxis::atLeft);
    axis->setTickLabelFont(font);
    axis->setRange(0.0, 100.0);
    axis->ticker()->setTickCount(2);
    rect->setAutoMargins(QCP::msLeft | QCP::msBottom);
    for (const auto &[top, clear] : {std::pair {0, false}, std::pair {QFontMetrics(font).height(), true}}) {
        rect->setMargins(QMargins(0, top, 0, 0));
        plot.replot();
        QVERIFY(axis->tickVector().contains(100.0));
        QCOMPARE(FigureRoom::ticksClearOfTexts(plot), clear);
    }
}

// Each axis's label set in its tick labels' row at its far end: the plot gains the label's line
// (across) or column (up the side), the label is shown whole, no tick label left reaches it (by
// the ink's advance, measured here), and restore() brings the label, the axis's own ticker and
// the margins back.
void TestFigureRoom::anAxisLabelGoesAlongItsTicks()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    QCPAxisRect *rect = FigureRoomWordTicks::oneRect(plot, font, 1000.0);
    QCPAxis *bottom = rect->axis(QCPAxis::atBottom), *left = rect->axis(QCPAxis::atLeft);
    bottom->setLabel(u"position p"_s);
    left->setLabel(u"value v"_s);
    const QSharedPointer<QCPAxisTicker> own = bottom->ticker();
    plot.replot();
    const QMargins before = rect->margins();

    for (const Qt::Orientation orientation : {Qt::Horizontal, Qt::Vertical}) {
        const bool across = orientation == Qt::Horizontal;
        QCPAxis *axis = across ? bottom : left;
        const QString label = axis->label();
        QVERIFY(FigureRoom::Steps::labelsAlongTicks(&plot, orientation));
        plot.replot();
        plot.replot(); // the ticks keep clear of the label as the margins it gave up leave them
        QVERIFY(axis->label().isEmpty());
        QCOMPARE(FigureRoom::shownLabel(axis), label);
        QCPItemText *text = nullptr;
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto *item = qobject_cast<QCPItemText *>(plot.item(i)); item && item->text() == label)
                text = item;
        QVERIFY(text);
        const double advance = QFontMetricsF(font).horizontalAdvance(label);
        const QRect r = rect->rect();
        if (across)
            QVERIFY2(rect->margins().bottom() < before.bottom(), qPrintable(QString::number(rect->margins().bottom())));
        else
            QVERIFY2(rect->margins().left() < before.left(), qPrintable(QString::number(rect->margins().left())));
        // Where the label is: the axis's last `advance` units, right or top.
        const double from = across ? r.right() + 1 - advance : r.top() + advance;
        int blank = 0, shown = 0;
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (qsizetype i = 0; i < ticks.size(); ++i) {
            if (!axis->range().contains(ticks[i]))
                continue;
            if (labels[i].isEmpty()) {
                ++blank;
                continue;
            }
            ++shown;
            const double at = axis->coordToPixel(ticks[i]);
            if (across)
                QVERIFY2(at + QFontMetricsF(font).horizontalAdvance(labels[i]) / 2.0 <= from, qPrintable(labels[i]));
            else
                QVERIFY2(at - QFontMetricsF(font).height() / 2.0 >= from, qPrintable(labels[i]));
        }
        QVERIFY2(blank >= 1 && shown >= 2, qPrintable(u"%1 blank, %2 shown"_s.arg(blank).arg(shown)));
    }
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(bottom->label(), u"position p"_s);
    QCOMPARE(left->label(), u"value v"_s);
    QCOMPARE(bottom->ticker(), own);
    QCOMPARE(plot.itemCount(), 0);
    QCOMPARE(rect->margins(), before);
    QVERIFY(!bottom->tickVectorLabels().contains(QString()));
}

void TestFigureRoom::aWrappedAxisLabelKeepsItsFirstLine()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    QCPAxisRect *rect = FigureRoomWordTicks::oneRect(plot, font, 100.0);
    QCPAxis *bottom = rect->axis(QCPAxis::atBottom), *left = rect->axis(QCPAxis::atLeft);
    // As FigureFit wraps a label longer than its axis: two lines.
    const QString whole = u"distance |j − i| between the key and the query of the head"_s;
    const QString wrapped = FigureFit::wrap(whole, font, 200.0);
    QVERIFY2(wrapped.contains(u'\n'), qPrintable(wrapped));
    bottom->setLabel(wrapped);
    left->setLabel(u"value v"_s);
    plot.replot();
    const int high = rect->margins().bottom();

    QVERIFY(FigureRoom::Steps::axisLabelsInOneLine(&plot));
    plot.replot();
    const QString shown = bottom->label();
    // Its first words whole, an ellipsis for the rest, in one line within the plot's width.
    QVERIFY2(!shown.contains(u'\n') && shown.endsWith(u" …"_s), qPrintable(shown));
    QVERIFY2(whole.startsWith(shown.chopped(2) + u' '), qPrintable(shown));
    QVERIFY2(QFontMetricsF(font).horizontalAdvance(shown) <= plot.viewport().width(), qPrintable(shown));
    QVERIFY2(rect->margins().bottom() < high, qPrintable(u"%1 of %2"_s.arg(rect->margins().bottom()).arg(high)));
    QCOMPARE(left->label(), u"value v"_s); // a line already
    QVERIFY(FigureRoom::setAside(plot).contains(whole));
    QVERIFY(!FigureRoom::Steps::axisLabelsInOneLine(&plot));

    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(bottom->label(), wrapped);
    QCOMPARE(rect->margins().bottom(), high);
    QVERIFY(FigureRoom::setAside(plot).isEmpty());
}

void TestFigureRoom::aWrappedAxisLabelTakesAShorterFormWhole()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    QCPAxisRect *rect = FigureRoomWordTicks::oneRect(plot, font, 100.0);
    QCPAxis *bottom = rect->axis(QCPAxis::atBottom);
    const QString whole = u"distance |j − i| between the key and the query of the head"_s;
    const QString wrapped = FigureFit::wrap(whole, font, 200.0);
    bottom->setLabel(wrapped);
    // The first form is longer than the plot is wide, the second holds in its line.
    const QString tooLong = u"distance |j − i| between the key and the query's head"_s, holds = u"distance |j − i|"_s;
    QVERIFY(QFontMetricsF(font).horizontalAdvance(tooLong) > plot.viewport().width());
    QVERIFY(QFontMetricsF(font).horizontalAdvance(holds) < 0.5 * plot.viewport().width());
    ShorterLabels::set(bottom, {tooLong, holds, u"distance"_s});
    plot.replot();

    QVERIFY(FigureRoom::Steps::axisLabelsInOneLine(&plot));
    QCOMPARE(bottom->label(), holds);
    QVERIFY(FigureRoom::setAside(plot).contains(whole));
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(bottom->label(), wrapped);
}

void TestFigureRoom::aLabelTooLongGoesAlongItsTicksShorter()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    QCPAxisRect *rect = FigureRoomWordTicks::oneRect(plot, font, 1000.0);
    QCPAxis *bottom = rect->axis(QCPAxis::atBottom);
    const QString whole = u"query position t + 1 of the head"_s, form = u"position t + 1"_s;
    bottom->setLabel(whole);
    plot.replot();
    // Longer than 0.6 of the axis, its form shorter.
    QVERIFY(QFontMetricsF(font).horizontalAdvance(u"query position t + 1 of it"_s) > 0.6 * rect->width());
    QVERIFY(QFontMetricsF(font).horizontalAdvance(form) < 0.5 * rect->width());
    QVERIFY(!FigureRoom::Steps::labelsAlongTicks(&plot, Qt::Horizontal));
    ShorterLabels::set(bottom, {u"query position t + 1 of it"_s, form});

    QVERIFY(FigureRoom::Steps::labelsAlongTicks(&plot, Qt::Horizontal));
    QVERIFY(bottom->label().isEmpty());
    QCOMPARE(FigureRoom::shownLabel(bottom), form);
    QCOMPARE(plot.itemCount(), 1);
    QCOMPARE(qobject_cast<QCPItemText *>(plot.item(0))->text(), form);
    QVERIFY(FigureRoom::setAside(plot).contains(whole));
    FigureRoom::restore(&plot);
    plot.replot();
    QCOMPARE(bottom->label(), whole);
    QCOMPARE(plot.itemCount(), 0);
    QVERIFY(FigureRoom::setAside(plot).isEmpty());
}

void TestFigureRoom::panelsSharingAnAxisGiveBackItsMargin()
{
    // Four panels in a 2 x 2 grid, their sides in one margin group, all over the same y range but
    // the lower right's: the upper right panel gives its left axis's labels to its neighbour's, and
    // so does the lower right where its range is the same.
    for (const bool lowerShares : {true, false}) {
        QCustomPlot plot;
        const QFont font(PinnedFont::family(), 9);
        plot.setFont(font);
        plot.setViewport(QRect(0, 0, 400, 300));
        plot.plotLayout()->clear();
        auto *grid = new QCPLayoutGrid;
        plot.plotLayout()->addElement(0, 0, grid);
        auto *sides = new QCPMarginGroup(&plot);
        QList<QCPAxisRect *> rects;
        for (int i = 0; i < 4; ++i) {
            auto *rect = new QCPAxisRect(&plot);
            grid->addElement(i / 2, i % 2, rect);
            rect->setMarginGroup(QCP::msLeft | QCP::msRight, sides);
            for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
                axis->setTickLabelFont(font);
                axis->setLabelFont(font);
                axis->setRange(0.0, 1000.0);
            }
            rect->axis(QCPAxis::atLeft)->setLabel(u"norm of row p"_s);
            rects.append(rect);
        }
        if (!lowerShares)
            rects[3]->axis(QCPAxis::atLeft)->setRange(0.0, 2.0);
        plot.replot();
        const QMargins before = rects[1]->margins();
        const int width = rects[1]->width();

        QVERIFY(FigureRoom::Steps::shareAxes(&plot));
        plot.replot();
        QVERIFY(!rects[1]->axis(QCPAxis::atLeft)->tickLabels());
        QCOMPARE(rects[3]->axis(QCPAxis::atLeft)->tickLabels(), !lowerShares);
        // Held as wide as the keeper's by the group.
        QCOMPARE(rects[1]->margins().left(), rects[0]->margins().left());

        QCOMPARE(FigureRoom::Steps::giveBackMargins(&plot), lowerShares);
        plot.replot();
        for (const int i : {1, 3}) {
            if (lowerShares) {
                QVERIFY2(rects[i]->margins().left() < rects[0]->margins().left() / 2,
                         qPrintable(u"%1 of %2"_s.arg(rects[i]->margins().left()).arg(rects[0]->margins().left())));
                QVERIFY(rects[i]->width() > width);
            } else {
                // The lower right shows its labels: the upper right stays in line with it.
                QCOMPARE(rects[i]->margins().left(), rects[0]->margins().left());
            }
            QCOMPARE(FigureRoom::marginGroupOf(*rects[i], QCP::msRight), sides);
        }
        QVERIFY(!FigureRoom::Steps::giveBackMargins(&plot));

        FigureRoom::restore(&plot);
        plot.replot();
        QCOMPARE(FigureRoom::marginGroupOf(*rects[1], QCP::msLeft), sides);
        QCOMPARE(FigureRoom::marginGroupOf(*rects[3], QCP::msLeft), sides);
        QCOMPARE(rects[1]->margins(), before);
        QCOMPARE(rects[1]->width(), width);
        QVERIFY(rects[1]->axis(QCPAxis::atLeft)->tickLabels());
    }
}

// The head map's rows named by models keep their first whole words that tell them apart, and
// mrope-axes' rows in lines are measured line by line (FigureRoomWordTicks.cpp).
void TestFigureRoom::tickLabelsOfWordsKeepTheirFirstWords()
{
    FigureRoomWordTicks::keepTheirFirstWords();
}

void TestFigureRoom::tickLabelsInLinesAreMeasuredLineByLine()
{
    FigureRoomWordTicks::measuredLineByLine();
}

// Compose-compare's key names the statistics' lines and the marks over its heatmaps ("lines: PE
// swings in the pixel", an entry its figure names a caption): once the statistics' panel is given
// up, the key left naming only the marks goes with the captions, as the heatmap's own legend of
// marks does, not a row of the page for one entry; an entry of data left keeps it.
void TestFigureRoom::aLegendLeftNamingOnlyMarksGoes()
{
    for (const bool marked : {true, false}) {
        QCustomPlot plot;
        plot.setFont(QFont(PinnedFont::family(), 9));
        plot.setViewport(QRect(0, 0, 300, 200));
        plot.setAutoAddPlottableToLegend(false);
        plot.plotLayout()->clear();
        auto *kept = new QCPAxisRect(&plot);
        auto *lower = new QCPAxisRect(&plot);
        plot.plotLayout()->addElement(0, 0, kept);
        plot.plotLayout()->addElement(1, 0, lower);
        auto *legend = new QCPLegend;
        plot.plotLayout()->addElement(2, 0, legend);
        QCPGraph *graph = plot.addGraph(lower->axis(QCPAxis::atBottom), lower->axis(QCPAxis::atLeft));
        graph->setName(u"std"_s);
        legend->addItem(new QCPPlottableLegendItem(legend, graph));
        QCPGraph *lines = plot.addGraph(kept->axis(QCPAxis::atBottom), kept->axis(QCPAxis::atLeft));
        lines->setName(u"lines: PE swings in the pixel"_s);
        auto *swatch = new QCPPlottableLegendItem(legend, lines);
        legend->addItem(swatch);
        if (marked)
            FigureRoom::setRole(swatch, TextRole::Caption);
        FigureRoom::setDispensable(lower, 1);
        plot.replot();
        QVERIFY(FigureRoom::Steps::hideDispensable(&plot, 1));
        plot.replot();
        QVERIFY(!lower->realVisibility());
        QCOMPARE(legend->realVisibility(), !marked);
        FigureRoom::restore(&plot);
        plot.replot();
        QVERIFY(legend->realVisibility());
        QVERIFY(legend->hasItemWithPlottable(graph));
    }
}

// A panel given up takes its legend and the items clipped to it onto the hidden layer; restored,
// each is drawn where it was in its layer (QCPLayerable::setLayer appends it): a key's white ground
// drawn after its entries covered them, a band after a curve over it hid the curve.
void TestFigureRoom::whatComesBackIsDrawnInItsOrder()
{
    QCustomPlot plot;
    plot.setViewport(QRect(0, 0, 300, 200));
    plot.plotLayout()->clear();
    auto *kept = new QCPAxisRect(&plot);
    auto *lower = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, kept);
    plot.plotLayout()->addElement(1, 0, lower);
    auto *legend = new QCPLegend;
    plot.plotLayout()->addElement(2, 0, legend);
    legend->setLayer(u"legend"_s);
    QCPGraph *curve = plot.addGraph(lower->axis(QCPAxis::atBottom), lower->axis(QCPAxis::atLeft));
    legend->addItem(new QCPPlottableLegendItem(legend, curve));
    auto *band = new QCPItemRect(&plot);
    band->setClipAxisRect(lower);
    auto *above = new QCPItemRect(&plot); // over the band, in the panel kept
    above->setClipAxisRect(kept);
    FigureRoom::setDispensable(lower, 1);
    // Each layer's children, by name: hiding adds a layer of its own.
    const auto orders = [&plot] {
        QMap<QString, QList<QCPLayerable *>> layers;
        for (int i = 0; i < plot.layerCount(); ++i)
            layers.insert(plot.layer(i)->name(), plot.layer(i)->children());
        return layers;
    };
    const QMap<QString, QList<QCPLayerable *>> before = orders();
    QVERIFY(FigureRoom::Steps::hideDispensable(&plot, 1));
    QVERIFY(!legend->realVisibility() && !band->realVisibility() && above->realVisibility());
    FigureRoom::restore(&plot);
    const QMap<QString, QList<QCPLayerable *>> after = orders();
    for (auto it = before.begin(); it != before.end(); ++it)
        QCOMPARE(after.value(it.key()), it.value());
}

POSENC_TEST_MAIN(TestFigureRoom)
} // namespace tst_figureroom
#include "tst_figureroom.moc"
