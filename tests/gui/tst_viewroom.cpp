// A view resized across the compact threshold (PlotStyle::isCompact): the figure rearranges its
// panels and legends for the new size, so what its last fitting gave up for room (FigureRoom: a
// legend moved into a corner of its panel, entries taken out) is undone first. The monkey found
// the magnitudes figure, made compact and then large again, taking its one compact legend out of
// the figure's rows where the fitting had moved it into a panel's corner: Qt said "Element not in
// this layout, couldn't take", and the legend stayed, drawn over the large figure's panel.
// Every figure is tried so too: what a view draws at a size must not depend on the sizes it had
// before (the curves figure kept its compact legend's three columns, where a view opened large
// has two).
#include "gui/FigureView.h"
#include "render/FigureRegistry.h"
#include "render/QCustomPlot.h"
#include "support/TestMain.h"

#include "render/FigureDefaults.h"
#include "render/PlotStyle.h"
#include "support/TestShots.h"

#include <QSet>
#include <QTest>

namespace tst_viewroom {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// Every message Qt and QCustomPlot print (QCustomPlot's are qDebug), while one is installed.
QStringList g_messages;
void collect(QtMsgType, const QMessageLogContext &, const QString &text)
{
    if (!text.contains(u"propagateSizeHints"_s))
        g_messages.append(text);
}

// The parameters the monkey had (d 1100, dropout 0.46).
Params monkeys()
{
    Params p;
    p.dModel = 1100;
    p.maxLen = 8192;
    p.dropout = 0.46;
    return p;
}

// The figures and sizes whose view, made compact and then large again, still draws other pixels
// than a view opened large (issue 60, open): none now. Taken off: curves (its legend kept its
// compact columns until FigureFit::setLegendWrap), alibi-bias, document-distance, heatmap, learned
// (a legend unfolded and then hidden kept its unfolded margins: two pixels), dropout-anatomy (since
// its linear axes' ticker keeps clear, 2026-12-01), similarity 400x300 (its plot of S(k) had been
// given up there too, and made large again its key showed only "table at p = 511", the two entries
// its figure does not name again at a filling missing); buckets, families and similarity 320x240
// (a layerable a step hid went back to its layer drawn last of it: over a curve a band, over its
// entries a key's white ground; FigureRoom::Changes::restoreLayers), layer-stack (its words'
// column, stacked under the lanes and put back beside them, took QCustomPlot's stretch of 1, and
// the figure gave up its title), dropout 400x300 (its mask's colour bar, set aside for a legend,
// stayed in its margin groups with the margins of its last layout: HeatmapPanel::showLegend),
// buckets 460x520 (its left plots a unit narrower: a room step kept the margins it found, raised by
// AxisRoom::holdEndTickLabels for an end tick label at the compact page's edge, gave them back when
// the view was made large, and the raise was read as the panels' own; a step keeps a panel's own,
// AxisRoom::ownMargins).
// Expected to fail; one that passes fails the test as XPASS, to be taken off.
const QSet<QString> &historyShortfalls()
{
    static const QSet<QString> rows;
    return rows;
}

bool settle(FigureView &view)
{
    return QTest::qWaitFor([&] { return view.isSettled(); }, 20000);
}

// The legends the fitting moved into a corner of their panel (FigureRoom's legendsInside step).
int legendsMovedInside(const QCustomPlot &plot)
{
    int inside = 0;
    for (QCPAxisRect *rect : plot.axisRects())
        for (QCPLayoutElement *element : rect->insetLayout()->elements(false))
            if (qobject_cast<QCPLegend *>(element) && element->property("posencInside").toBool())
                ++inside;
    return inside;
}

// The view's pixels, drawn.
QImage pixels(FigureView &view)
{
    view.plot()->replot();
    return view.plot()->toPixmap().toImage().convertToFormat(QImage::Format_RGB32);
}

} // namespace

class TestViewRoom : public QObject
{
    Q_OBJECT

private slots:
    void largeAgainDrawsAsLarge_data();
    void largeAgainDrawsAsLarge();
    void resizedWithinItsClassSaysNothing_data();
    void resizedWithinItsClassSaysNothing();
};

void TestViewRoom::largeAgainDrawsAsLarge_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QSize>("compact");
    QTest::addColumn<bool>("monkey");
    // At 460 x 520 the magnitudes figure's one compact legend (a row under both panels) goes into
    // a free corner of a panel.
    QTest::addRow("magnitudes 460x520 monkey") << u"magnitudes"_s << QSize(460, 520) << true;
    // Every figure at the program's defaults, made compact three ways (tall, squat, small).
    for (const QString &name : FigureRegistry::names())
        for (const QSize size : {QSize(460, 520), QSize(400, 300), QSize(320, 240)})
            QTest::addRow("%s %dx%d", qPrintable(name), size.width(), size.height()) << name << size << false;
}

void TestViewRoom::largeAgainDrawsAsLarge()
{
    QFETCH(QString, figure);
    QFETCH(QSize, compact);
    QFETCH(bool, monkey);
    const FigureDescriptor *descriptor = FigureRegistry::find(figure);
    QVERIFY(descriptor);
    const Params params = monkey ? monkeys() : FigureBuilds::defaultParams(*descriptor);
    const QSize large(900, 620);
    FigureView fresh(*descriptor, false);
    fresh.setParams(params);
    fresh.resize(large);
    fresh.show();
    QVERIFY(settle(fresh));

    g_messages.clear();
    const QtMessageHandler before = qInstallMessageHandler(collect);
    FigureView view(*descriptor, false);
    view.setParams(params);
    view.resize(compact);
    view.show();
    const bool compactSettled = settle(view);
    const int inside = legendsMovedInside(*view.plot());
    view.resize(large);
    const bool largeSettled = compactSettled && settle(view);
    qInstallMessageHandler(before);
    QVERIFY2(!monkey || inside > 0, "the compact figure's fitting moved no legend into a panel: the case is not tried");
    QVERIFY(largeSettled);
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
    const QImage shown = pixels(view);
    const QImage expected = pixels(fresh);
    if (shown != expected) {
        TestShots::save(shown, u"posenc-viewroom-%1-resized"_s.arg(figure));
        TestShots::save(expected, u"posenc-viewroom-%1-fresh"_s.arg(figure));
    }
    if (historyShortfalls().contains(QString::fromLatin1(QTest::currentDataTag())))
        QEXPECT_FAIL("", "a compact view made large again draws otherwise: issue 60, open", Continue);
    QVERIFY(shown == expected);
}

void TestViewRoom::resizedWithinItsClassSaysNothing_data()
{
    QTest::addColumn<QString>("figure");
    for (const QString &name : FigureRegistry::names())
        QTest::addRow("%s", qPrintable(name)) << name;
}

// Resized without crossing the compact threshold, a view keeps what its last fitting gave up
// while the figure fills itself again (FigureView::showResult). The monkey found the
// dropout-anatomy figure given new parameters and, before they were drawn, a shorter window: the
// figure, roomy when fitted and tight at the new size, took out of its rows the legends the fitting
// had moved into a panel's corner ("Element not in this layout, couldn't take"). Every figure is
// given the same: new parameters and a new size at once, then another size.
void TestViewRoom::resizedWithinItsClassSaysNothing()
{
    QFETCH(QString, figure);
    const FigureDescriptor *descriptor = FigureRegistry::find(figure);
    QVERIFY(descriptor);
    g_messages.clear();
    const QtMessageHandler before = qInstallMessageHandler(collect);
    FigureView view(*descriptor, false);
    view.setParams(monkeys());
    view.resize(900, 620);
    view.show();
    bool settled = settle(view);
    Params other = monkeys();
    other.encoding = Encoding::Rope;
    view.setParams(other);
    view.resize(900, 400);
    settled = settled && settle(view);
    view.resize(520, 560);
    settled = settled && settle(view);
    qInstallMessageHandler(before);
    for (const QSize size : {QSize(900, 620), QSize(900, 400), QSize(520, 560)})
        QVERIFY(!PlotStyle::isCompact(size));
    QVERIFY(settled);
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
}

POSENC_TEST_MAIN(TestViewRoom)
} // namespace tst_viewroom
#include "tst_viewroom.moc"
