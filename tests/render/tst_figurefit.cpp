// Figures on little room (FigureFit): a paper column at 300 dpi keeps every text inside the figure,
// legends off the data and tick labels apart; a size too small for the text at all is refused with the
// least size that fits.
#include "render/FigureFit.h"
#include "render/FigureFonts.h"
#include "render/FigureRegistry.h"
#include "render/MeasuredText.h"
#include "render/PinnedFont.h"
#include "render/data/DropoutCompareData.h"
#include "support/FigureBuilds.h"
#include "support/TestFamily.h"
#include "support/TestMain.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace tst_figurefit {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params small()
{
    Params p;
    p.dModel = 64;
    p.maxLen = 200;
    return p;
}

// The point sizes of every legend and title of a figure, legends inside axes included, in the
// order the layout holds them.
QList<double> legendAndTitleSizes(QCustomPlot &plot)
{
    QList<double> sizes;
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true)) {
        if (auto *legend = qobject_cast<QCPLegend *>(e)) {
            sizes.append(legend->font().pointSizeF());
            for (int i = 0; i < legend->itemCount(); ++i)
                if (const QCPAbstractLegendItem *item = legend->item(i)) // a cell may stay empty
                    sizes.append(item->font().pointSizeF());
        } else if (auto *text = qobject_cast<QCPTextElement *>(e)) {
            sizes.append(text->font().pointSizeF());
        }
    }
    return sizes;
}

} // namespace

class TestFigureFit : public QObject
{
    Q_OBJECT

private slots:
    void paperColumnFiguresFit_data();
    void paperColumnFiguresFit();
    void tooSmallIsRefusedWithTheLeastSize();
    void paperColumnLegendsAreShort();
    void wrapBreaksAtSeparatorsFirst();
    void wrapKeepsFormulasAndNumbers_data();
    void wrapKeepsFormulasAndNumbers();
    void fitKeepsTheTextsLineBreaks();
    void anAxisLabelUnwrapsWhenItsRoomReturns();
    void thinnedTicksReturnWithTheirRoom();
    void anAxisWithoutItsLabelsThinsNoNeighbour();
    void aTitleIsWrappedAgainForItsFontAndRoom();
    void legendsScaleWithTheFontSize_data();
    void legendsScaleWithTheFontSize();
    void legendInsideAxesScalesOnce();
    void textsStayWithinTheirRoom_data();
    void textsStayWithinTheirRoom();
    void aTitleTakesItsColumnBesideAWideLegend();
    void linkedPanelsTickAlike_data();
    void linkedPanelsTickAlike();
};

void TestFigureFit::paperColumnFiguresFit_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<double>("heightCm");
    QTest::newRow("heatmap 8.5 x 6 cm") << u"heatmap"_s << 6.0;
    QTest::newRow("curves 8.5 x 6 cm") << u"curves"_s << 6.0;
    QTest::newRow("dropout 8.5 x 6 cm") << u"dropout"_s << 6.0;
    QTest::newRow("magnitudes 8.5 x 6 cm") << u"magnitudes"_s << 6.0;
    QTest::newRow("magnitudes 8.5 x 9 cm") << u"magnitudes"_s << 9.0;
}

void TestFigureFit::paperColumnFiguresFit()
{
    // A paper column at 300 dpi with the default table: every text inside the figure, no legend
    // wider than the figure or over the axes it belongs to, no two tick labels touching.
    QFETCH(QString, figure);
    QFETCH(double, heightCm);
    Params p;
    p.dropout = 0.1;
    const FigureSize size = FigureSize::fromInches(QSizeF(8.5 / 2.54, heightCm / 2.54), 300.0);
    const auto built = FigureBuilds::build(figure, p, size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot &plot = *built->plot();
    const QRect page(QPoint(0, 0), size.layout);
    // QCustomPlot rounds each row of a layout to whole units: the last row may end one unit
    // (a third of a point) past the page, in the legend's empty margin.
    const QRect roundedPage = page.adjusted(0, 0, 1, 1);
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(e)) {
            const QFontMetricsF metrics(text->font());
            for (const QString &line : text->text().split(u'\n'))
                QVERIFY2(metrics.horizontalAdvance(line) <= page.width(), qPrintable(line));
        }
        if (auto *legend = qobject_cast<QCPLegend *>(e); legend && legend->visible()) // hidden draws nothing
            QVERIFY2(roundedPage.contains(legend->outerRect()), "a legend leaves the figure");
    }
    for (QCPAxisRect *rect : plot.axisRects()) {
        for (QCPLayoutElement *inset : rect->insetLayout()->elements(false))
            if (auto *legend = qobject_cast<QCPLegend *>(inset); legend && legend->visible())
                QVERIFY2(legend->outerRect().height() <= rect->height() * 0.4 + 1, "a legend hides the data");
        for (QCPAxis *axis : rect->axes()) {
            if (!axis->visible() || !axis->tickLabels() || axis->orientation() != Qt::Horizontal)
                continue;
            const QFontMetricsF metrics(axis->tickLabelFont());
            const QVector<double> ticks = axis->tickVector();
            const QVector<QString> labels = axis->tickVectorLabels();
            for (qsizetype i = 1; i < ticks.size(); ++i) {
                const double gap = axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]);
                const double half
                    = (metrics.horizontalAdvance(labels[i]) + metrics.horizontalAdvance(labels[i - 1])) / 2;
                QVERIFY2(gap > half, qPrintable(labels[i - 1] + u" touches "_s + labels[i]));
            }
        }
    }
}

void TestFigureFit::tooSmallIsRefusedWithTheLeastSize()
{
    // Two stacked axes with legends at 9 pt fit a column 5 cm high once little room gives up what
    // a reader needs least (it was refused); 2.5 x 1.5 cm cannot hold their labels at all (3 x 2
    // cm can since an axis's label keeps its first line: "norm" of "norm of row p"): refused with
    // the least size, which then is accepted, and a smaller font fits where 9 pt did not.
    const auto inCm = [](double w, double h) { return FigureSize::fromInches(QSizeF(w / 2.54, h / 2.54), 300); };
    const auto column = FigureBuilds::build(u"magnitudes"_s, small(), inCm(8.5, 5));
    QVERIFY2(!column->error(), qPrintable(FigureBuilds::errorOf(*column)));
    const auto built = FigureBuilds::build(u"magnitudes"_s, small(), inCm(2.5, 1.5));
    const auto &refused = built->error();
    QVERIFY(refused);
    QCOMPARE(refused->kind, FigureError::TooSmall);
    static const QRegularExpression least(uR"(at least ([0-9.]+) x ([0-9.]+) cm)"_s);
    const QRegularExpressionMatch m = least.match(refused->message);
    QVERIFY2(m.hasMatch(), qPrintable(refused->message));
    const double width = m.captured(1).toDouble(), height = m.captured(2).toDouble();
    QVERIFY2(width >= 2.5 && height >= 1.5 && (width > 2.5 || height > 1.5), qPrintable(refused->message));
    const auto enough = FigureBuilds::build(u"magnitudes"_s, small(), inCm(width, height));
    QVERIFY2(!enough->error(), qPrintable(FigureBuilds::errorOf(*enough)));
    FigureStyle smallerText;
    smallerText.fontPointSize = 4;
    const auto smaller = FigureBuilds::build(u"magnitudes"_s, small(), inCm(2.5, 1.5), {}, smallerText);
    QVERIFY2(!smaller->error(), qPrintable(FigureBuilds::errorOf(*smaller)));
}

void TestFigureFit::paperColumnLegendsAreShort()
{
    // In a paper column the curves are named by column and wavelength only, and magnitudes has
    // one legend under both axes; a slide keeps the full names and a legend over each axes.
    const auto build = [](const QString &figure, double widthCm, double heightCm) {
        auto built = FigureBuilds::build(figure, small(),
                                         FigureSize::fromInches(QSizeF(widthCm / 2.54, heightCm / 2.54), 300));
        if (built->error())
            qFatal("%s", qPrintable(FigureBuilds::errorOf(*built)));
        return built;
    };
    const auto columnBuild = build(u"curves"_s, 8.5, 6);
    const auto slideBuild = build(u"curves"_s, 25.4, 14.3);
    QCustomPlot &column = *columnBuild->plot();
    QCustomPlot &slide = *slideBuild->plot();
    QVERIFY(column.graphCount() > 0 && slide.graphCount() > 0);
    QVERIFY2(!column.graph(0)->name().contains(u"w="_s), qPrintable(column.graph(0)->name()));
    QVERIFY2(column.graph(0)->name().startsWith(u"j=0"_s), qPrintable(column.graph(0)->name()));
    QVERIFY2(slide.graph(0)->name().contains(u"w="_s), qPrintable(slide.graph(0)->name()));

    // Legends inside axes, or in rows of the layout of their own.
    const auto visibleLegends = [](QCustomPlot &plot, bool inset) {
        int count = 0;
        for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
            if (auto *legend = qobject_cast<QCPLegend *>(e);
                legend && legend->visible() && (qobject_cast<QCPLayoutInset *>(legend->layout()) != nullptr) == inset)
                ++count;
        return count;
    };
    const auto magnitudesColumnBuild = build(u"magnitudes"_s, 8.5, 6);
    const auto magnitudesSlideBuild = build(u"magnitudes"_s, 25.4, 14.3);
    QCustomPlot &magnitudesColumn = *magnitudesColumnBuild->plot();
    QCustomPlot &magnitudesSlide = *magnitudesSlideBuild->plot();
    QCOMPARE(visibleLegends(magnitudesColumn, true), 0);
    QCOMPARE(visibleLegends(magnitudesColumn, false), 1);
    // A slide: a legend above each axes, never over the data.
    QCOMPARE(visibleLegends(magnitudesSlide, true), 0);
    QCOMPARE(visibleLegends(magnitudesSlide, false), 2);
}

void TestFigureFit::wrapBreaksAtSeparatorsFirst()
{
    const QFont font(PinnedFont::family(), 9);
    const QFontMetricsF metrics(font);
    const QString title = u"PE  ·  1,024 × 512  ·  each cell the area mean of 2.37 × 1"_s;
    QCOMPARE(FigureFit::wrap(title, font, 10000), title);
    const double width = metrics.horizontalAdvance(u"each cell the area mean of 2.37 × 1"_s) + 1;
    QCOMPARE(FigureFit::wrap(title, font, width), u"PE  ·  1,024 × 512\neach cell the area mean of 2.37 × 1"_s);
    // A part wider than the room breaks at its spaces.
    QCOMPARE(FigureFit::wrap(u"norm of row p"_s, font, metrics.horizontalAdvance(u"norm of"_s) + 1),
             u"norm of\nrow p"_s);
}

void TestFigureFit::wrapKeepsFormulasAndNumbers_data()
{
    QTest::addColumn<QString>("caption");
    QTest::addColumn<QString>("formula"); // a run no line may split
    // nope-order's caption on a 14-pt slide broke "(t +" from "1)"; a lesson's note left "0.335" alone.
    QTest::newRow("nope-order") << u"uniform attention, every score q·k alike: query t averages keys 0 … t, so h_t = "
                                   u"(x₀ + … + x_t)/(t + 1) and x = s·E carries no position"_s
                                << u"h_t = (x₀ + … + x_t)/(t + 1)"_s;
    QTest::newRow("a number last") << u"the weight of the key after the softmax is 0.335"_s << u"is 0.335"_s;
    QTest::newRow("a ratio") << u"H = 16 is a power of two: r = 2^(−8/16)"_s << u"r = 2^(−8/16)"_s;
}

// A caption wrapped at any width that holds its formula whole: no line begins or ends with an operator,
// splits the formula, or is a lone number, nor is its last line one short word where the word before fits.
void TestFigureFit::wrapKeepsFormulasAndNumbers()
{
    QFETCH(QString, caption);
    QFETCH(QString, formula);
    const QFont font(PinnedFont::family(), 14);
    const QStringList operators {u"="_s, u"+"_s, u"−"_s, u"×"_s, u"/"_s, u"·"_s};
    static const QRegularExpression number(u"^[−-]?\\d[\\d.,]*$"_s);
    const double full = MeasuredText::advance(font, caption);
    for (double width = MeasuredText::advance(font, formula) + 1.0; width < full; width += 3.0) {
        const QStringList lines = FigureFit::wrap(caption, font, width).split(u'\n');
        const QString where = u"at %1 of %2: %3"_s.arg(width).arg(full).arg(lines.join(u" / "_s));
        QVERIFY2(lines.join(u' ').contains(formula), qPrintable(where));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QStringList words = lines[i].split(u' ', Qt::SkipEmptyParts);
            QVERIFY2(!operators.contains(words.constFirst()) && !operators.contains(words.constLast()),
                     qPrintable(where));
            const bool lone = words.size() == 1 && number.match(lines[i]).hasMatch() && i > 0 // with its word, it holds
                && MeasuredText::advance(font, lines[i - 1].section(u' ', -1) + u' ' + lines[i]) <= width;
            QVERIFY2(!lone, qPrintable(where));
        }
        const QString before = lines.size() > 1 ? lines[lines.size() - 2] : QString(), last = lines.constLast();
        QVERIFY2(before.isEmpty() || last.contains(u' ') || operators.contains(before.section(u' ', -2, -2))
                     || MeasuredText::advance(font, before.section(u' ', -1) + u' ' + last) > width
                     || MeasuredText::advance(font, last) >= MeasuredText::advance(font, before) / 4.0,
                 qPrintable(where));
    }
}

// A view made narrow wraps an axis label; made wide again, the label is whole again: fit()
// starts from the label as the figure set it, not from its own wrapping.
void TestFigureFit::anAxisLabelUnwrapsWhenItsRoomReturns()
{
    QCustomPlot plot;
    plot.setFont(QFont(PinnedFont::family(), 9));
    QCPAxis *x = plot.xAxis;
    x->setLabelFont(QFont(PinnedFont::family(), 9));
    const QString label = u"column j of the table, each a sine or a cosine"_s;
    x->setLabel(label);
    const QFontMetricsF metrics(x->labelFont());
    const auto layOut = [&](int width) {
        plot.resize(width, 300);
        plot.setViewport(QRect(0, 0, width, 300)); // a widget never shown gets no resize event
        for (int pass = 0; pass < 3; ++pass) {
            plot.replot(QCustomPlot::rpImmediateRefresh);
            if (!FigureFit::fit(&plot))
                break;
        }
    };
    layOut(static_cast<int>(metrics.horizontalAdvance(label) * 0.6));
    QVERIFY2(x->label().contains(u'\n'), qPrintable(x->label()));
    layOut(static_cast<int>(metrics.horizontalAdvance(label) * 2.5));
    QCOMPARE(x->label(), label);
    // A label the figure sets anew is taken as it is.
    x->setLabel(u"position p"_s);
    layOut(static_cast<int>(metrics.horizontalAdvance(label) * 2.5));
    QCOMPARE(x->label(), u"position p"_s);
}

// What fit() remembers of an axis's ticks is dropped when it no longer holds: an axis thinned for a
// narrow plot gets its figure's tick count back when the room returns (unthinTicks, as the layout loop
// starts each fitting), and a count its figure sets anew while thinned is its wish from then on.
void TestFigureFit::thinnedTicksReturnWithTheirRoom()
{
    QCustomPlot plot;
    plot.setFont(QFont(PinnedFont::family(), 9));
    QCPAxis *x = plot.xAxis;
    x->setTickLabelFont(QFont(PinnedFont::family(), 9));
    x->setRange(0.0, 9000000.0); // labels of seven digits
    x->ticker()->setTickCount(9);
    const auto layOut = [&](int width) {
        plot.resize(width, 300);
        plot.setViewport(QRect(0, 0, width, 300)); // a widget never shown gets no resize event
        FigureFit::unthinTicks(&plot);
        for (int pass = 0; pass < 4; ++pass) {
            plot.replot(QCustomPlot::rpImmediateRefresh);
            if (!FigureFit::fit(&plot))
                break;
        }
    };
    layOut(1800);
    QCOMPARE(x->ticker()->tickCount(), 9);
    layOut(220);
    const int thinned = x->ticker()->tickCount();
    QVERIFY2(thinned < 9, qPrintable(QString::number(thinned)));
    layOut(1800);
    QCOMPARE(x->ticker()->tickCount(), 9);
    // Thinned again, then the figure asks for six ticks of its own (a refilling): six it keeps,
    // and six come back with the room, not the nine it had before.
    layOut(220);
    QCOMPARE(x->ticker()->tickCount(), thinned);
    x->ticker()->setTickCount(thinned == 6 ? 7 : 6);
    const int own = x->ticker()->tickCount();
    QVERIFY(!FigureFit::unthinTicks(&plot));
    QCOMPARE(x->ticker()->tickCount(), own);
    layOut(1800);
    QCOMPARE(x->ticker()->tickCount(), own);
}

// Panels side by side on one range, the right one's position axis giving its labels to the left
// one's (a room step), tick alike by the axis that draws the labels: the unlabelled axis, last
// fitted on the room it had before, thinned compose-compare's sum map's positions to "0, 1k" at
// 6 x 4 cm, where "position p" could not go up beside them.
void TestFigureFit::anAxisWithoutItsLabelsThinsNoNeighbour()
{
    QCustomPlot plot;
    plot.setFont(QFont(PinnedFont::family(), 9));
    auto *right = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 1, right);
    QCPAxis *labelled = plot.axisRect(0)->axis(QCPAxis::atLeft);
    QCPAxis *unlabelled = right->axis(QCPAxis::atLeft);
    for (QCPAxis *axis : {labelled, unlabelled}) {
        axis->setTickLabelFont(QFont(PinnedFont::family(), 9));
        axis->setRange(0.0, 1000.0);
        axis->ticker()->setTickCount(6);
    }
    unlabelled->setTickLabels(false);
    unlabelled->ticker()->setTickCount(2);
    plot.resize(600, 400);
    plot.setViewport(QRect(0, 0, 600, 400));
    for (int pass = 0; pass < 4; ++pass) {
        plot.replot(QCustomPlot::rpImmediateRefresh);
        if (!FigureFit::fit(&plot))
            break;
    }
    QCOMPARE(plot.axisRect(0)->rect().height(), right->rect().height());
    QCOMPARE(labelled->ticker()->tickCount(), 6);
    QCOMPARE(unlabelled->ticker()->tickCount(), 6);
}

// fit() remembers how it wrapped a title for its text, font and room: a title whose font grows, or
// whose room changes, is wrapped again, each line within the room as QFontMetricsF measures it.
void TestFigureFit::aTitleIsWrappedAgainForItsFontAndRoom()
{
    QCustomPlot plot;
    const QString text
        = u"Rotary angles of every pair  ·  theta 500,000 and a factor of 8  ·  each pixel one position"_s;
    auto *title = new QCPTextElement(&plot, text, QFont(PinnedFont::family(), 9));
    // In a grid of its own, as a panel's title: its room is the same whatever its font (a row of
    // the figure's own keeps a margin that grows with the font).
    auto *row = new QCPLayoutGrid;
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, row);
    row->addElement(0, 0, title);
    const auto layOut = [&](int width) {
        plot.resize(width, 400);
        plot.setViewport(QRect(0, 0, width, 400)); // a widget never shown gets no resize event
        for (int pass = 0; pass < 4; ++pass) {
            plot.replot(QCustomPlot::rpImmediateRefresh);
            if (!FigureFit::fit(&plot))
                break;
        }
    };
    // Every line within the figure's width less its 8 units, in the title's font as it is now.
    const auto within = [&](int width) {
        const QFontMetricsF metrics(title->font());
        const QStringList lines = title->text().split(u'\n');
        return std::all_of(lines.cbegin(), lines.cend(),
                           [&](const QString &line) { return metrics.horizontalAdvance(line) <= width - 8.0; });
    };
    const int narrow = static_cast<int>(QFontMetricsF(title->font()).horizontalAdvance(text) * 0.45);
    layOut(narrow);
    const qsizetype atNine = title->text().count(u'\n') + 1;
    QVERIFY2(atNine >= 2 && within(narrow), qPrintable(title->text()));
    title->setFont(QFont(PinnedFont::family(), 14));
    layOut(narrow);
    QVERIFY2(title->text().count(u'\n') + 1 > atNine && within(narrow), qPrintable(title->text()));
    title->setFont(QFont(PinnedFont::family(), 9));
    layOut(narrow * 4);
    QCOMPARE(title->text(), text);
    layOut(narrow);
    QCOMPARE(title->text().count(u'\n') + 1, atNine);
    QVERIFY2(within(narrow), qPrintable(title->text()));
}

void TestFigureFit::fitKeepsTheTextsLineBreaks()
{
    // A caption of two statements, in a figure narrower than its first line: each statement is
    // wrapped on its own, and no line takes words of both.
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    const QString caption = u"PE lost: 9.17\u00a0% of cells\nPE energy kept: 90.4\u00a0%"_s;
    auto *text = new QCPTextElement(&plot, caption, font);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, text);
    const QFontMetricsF metrics(font);
    const int width = static_cast<int>(metrics.horizontalAdvance(u"PE lost: 9.17\u00a0%"_s)) + 12;
    plot.setViewport(QRect(0, 0, width, 300));
    plot.replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(FigureFit::fit(&plot));
    const QStringList lines = text->text().split(u'\n');
    QVERIFY2(lines.size() >= 3, qPrintable(text->text()));
    const auto endsTheFirst
        = std::find_if(lines.begin(), lines.end(), [](const QString &line) { return line.endsWith(u"cells"_s); });
    QVERIFY2(endsTheFirst != lines.end() && endsTheFirst != lines.begin(), qPrintable(text->text()));
    const auto statementBreak = std::distance(lines.begin(), endsTheFirst);
    QVERIFY2(lines.at(statementBreak + 1).startsWith(u"PE energy"_s), qPrintable(text->text()));
    for (const QString &line : lines)
        QVERIFY2(metrics.horizontalAdvance(line) <= width - 8.0 || !line.contains(u' '), qPrintable(line));
}

void TestFigureFit::legendsScaleWithTheFontSize_data()
{
    QTest::addColumn<QString>("figure");
    for (const FigureDescriptor *figure : FigureRegistry::all())
        QTest::newRow(qPrintable(figure->name())) << figure->name();
}

void TestFigureFit::legendsScaleWithTheFontSize()
{
    // --font-size 14 scales every legend and title by 14 / 9, as it does the axis labels: once
    // (a legend inside axes was scaled twice, 19 pt at 14, and squashed the magnitudes' plots).
    QFETCH(QString, figure);
    const FigureSize slide = FigureSize::fromPixels(QSize(2400, 1600)); // room enough that nothing wraps
    FigureStyle larger;
    larger.fontPointSize = 14;
    // Embeddings loaded, for the figures that compare them with the PE.
    Params p = small();
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::Random(p.maxLen, p.dModel);
    matrix->source = u"random.npy"_s;
    p.embeddings = matrix;
    if (figure == u"learned"_s) { // the learned family's table, the same matrix
        p.encoding = Encoding::Learned;
        p.learned.table = std::make_shared<const PositionMatrix>(PositionMatrix {matrix->values, matrix->source});
    }
    p = TestFamilies::forFamilies(FigureBuilds::figure(figure).model().families(), p);
    const auto normalBuild = FigureBuilds::build(figure, p, slide);
    const auto largerBuild = FigureBuilds::build(figure, p, slide, {}, larger);
    QVERIFY2(!normalBuild->error() && !largerBuild->error(), qPrintable(FigureBuilds::errorOf(*largerBuild)));
    const QList<double> normal = legendAndTitleSizes(*normalBuild->plot());
    const QList<double> scaled = legendAndTitleSizes(*largerBuild->plot());
    QCOMPARE(scaled.size(), normal.size());
    QVERIFY(!normal.isEmpty());
    for (qsizetype i = 0; i < normal.size(); ++i)
        QVERIFY2(std::abs(scaled[i] - normal[i] * 14.0 / 9.0) < 1e-9,
                 qPrintable(u"text %1: %2 pt at 9, %3 pt at 14"_s.arg(i).arg(normal[i]).arg(scaled[i])));
}

void TestFigureFit::legendInsideAxesScalesOnce()
{
    // A legend inside an axis rect is reached both through the rect and through the layout
    // (the rect's inset layout is among its elements): it and its entries take the size asked.
    QCustomPlot plot;
    auto *legend = new QCPLegend;
    plot.axisRect()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
    QFont font = plot.font();
    font.setPointSizeF(8.0);
    legend->setFont(font);
    auto *graph = plot.addGraph();
    graph->addToLegend(legend);
    FigureFonts::apply(&plot, 14.0);
    QCOMPARE(legend->font().pointSizeF(), 14.0);
    QCOMPARE(legend->item(0)->font().pointSizeF(), 14.0);
}

void TestFigureFit::textsStayWithinTheirRoom_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<FigureSize>("size");
    const QList<std::pair<QString, FigureSize>> sizes {
        {u"paper column 8.5 x 6 cm"_s, FigureSize::fromInches(QSizeF(8.5 / 2.54, 6 / 2.54), 300)},
        {u"slide 25.4 x 14.29 cm"_s, FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 300)},
        {u"a view of 640 x 420"_s, FigureSize::fromPixels(QSize(640, 420))},
    };
    for (const FigureDescriptor *figure : FigureRegistry::all())
        for (const auto &[name, size] : sizes)
            QTest::newRow(qPrintable(figure->name() + u", "_s + name)) << figure->name() << size;
}

// A chart's title beside a chart whose legend is laid out four columns wide: that legend wraps to
// fit its own column, so the title keeps the half of the row its column has. It was wrapped as
// though the neighbour's legend kept its four columns, to a word a line ("output / against /
// input, / slopes / 1.111 ..." in what-dropout-does beside a lesson).
void TestFigureFit::aTitleTakesItsColumnBesideAWideLegend()
{
    Params p = small();
    p.dModel = 64;
    p.maxLen = 64;
    const auto built = FigureBuilds::build(u"dropout-anatomy"_s, p, FigureSize::fromPixels(QSize(620, 880)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QString title;
    for (const QString &text : FigureBuilds::texts(*built->plot()))
        if (QString(text).replace(u'\n', u' ').startsWith(u"output against input"_s))
            title = text;
    QVERIFY(!title.isEmpty());
    QVERIFY2(title.count(u'\n') <= 1, qPrintable(title));
}

void TestFigureFit::textsStayWithinTheirRoom()
{
    // Every title and panel title fits the room it is drawn in, wrapped where it must be: a
    // panel's title over one of several panels was measured against the whole figure, so it
    // widened its column past the figure (cut at both edges in the window, refused on a slide).
    // A paper column or a small view the text cannot fit at all is refused with the least size.
    QFETCH(QString, figure);
    QFETCH(FigureSize, size);
    Params p = small();
    p.dModel = 512;
    p.maxLen = 1024;
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::Random(p.maxLen, p.dModel);
    matrix->source = u"a learned position table of a model.npy"_s;
    if (figure == u"learned"_s) {
        p.encoding = Encoding::Learned;
        p.learned.table = std::make_shared<const PositionMatrix>(PositionMatrix {matrix->values, matrix->source});
    }
    p = TestFamilies::forFamilies(FigureBuilds::figure(figure).model().families(), p);
    const auto built = FigureBuilds::build(figure, p, size);
    if (built->error()) {
        // Every figure fits a slide.
        QVERIFY2(size.layout.width() < 900, qPrintable(built->error()->message));
        QCOMPARE(built->error()->kind, FigureError::TooSmall);
        QVERIFY(built->error()->message.contains(u"needs at least"_s));
        return;
    }
    const QRect page(QPoint(0, 0), size.layout);
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true)) {
        auto *text = qobject_cast<QCPTextElement *>(e);
        // A text of a panel given up on little room is not drawn.
        if (!text || text->text().isEmpty() || !text->realVisibility())
            continue;
        const QFontMetricsF metrics(text->font());
        const QRect room = text->outerRect();
        QVERIFY2(page.adjusted(0, 0, 1, 1).contains(room), qPrintable(text->text()));
        for (const QString &line : text->text().split(u'\n'))
            QVERIFY2(metrics.horizontalAdvance(line) <= room.width() + 1,
                     qPrintable(
                         u"'%1' is %2 wide in %3"_s.arg(line).arg(metrics.horizontalAdvance(line)).arg(room.width())));
    }
}

POSENC_TEST_MAIN(TestFigureFit)

void TestFigureFit::linkedPanelsTickAlike_data()
{
    QTest::addColumn<QSize>("size");
    // Sizes where fitting each axis alone left one panel with other ticks than its neighbours.
    QTest::newRow("a view of the window") << QSize(700, 780);
    QTest::newRow("a narrow view") << QSize(525, 600);
    QTest::newRow("the export default") << QSize(1200, 800);
}

// The ten panels of dropout-compare show the same cells at the same size: their axes tick alike
// wherever fitted, never "0 10 20" under one and "0 5 10 15 20" under the next.
void TestFigureFit::linkedPanelsTickAlike()
{
    QFETCH(QSize, size);
    Params p;
    p.dModel = 512;
    p.maxLen = 64;
    const auto built = FigureBuilds::build(u"dropout-compare"_s, p, FigureSize::fromPixels(size));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    // The panels of its cells, whether they show their own tick labels or share their neighbour's.
    QList<QCPAxisRect *> panels;
    for (int i = 0; i < built->plot()->plottableCount(); ++i)
        if (auto *map = qobject_cast<QCPColorMap *>(built->plot()->plottable(i)))
            if (!panels.contains(map->keyAxis()->axisRect()) && map->keyAxis()->axisRect()->realVisibility())
                panels.append(map->keyAxis()->axisRect());
    // Every mode's two, or fewer where little room gave up the PE's row and then modes: sum and
    // embedding stay.
    const auto modes = static_cast<qsizetype>(kDropoutModeCount);
    QVERIFY2(panels.size() >= 2 && panels.size() <= 2 * modes, qPrintable(QString::number(panels.size())));
    for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
        const QVector<double> lead = panels.first()->axis(type)->tickVector();
        for (QCPAxisRect *rect : panels)
            QVERIFY2(rect->axis(type)->tickVector() == lead,
                     qPrintable(u"%1 ticks against %2"_s.arg(rect->axis(type)->tickVector().size()).arg(lead.size())));
    }
}

} // namespace tst_figurefit
#include "tst_figurefit.moc"
