// A view resized across the compact threshold (PlotStyle::isCompact): the figure rearranges its
// panels and legends for the new size, so what its last fitting gave up for room (FigureRoom: a
// legend moved into a corner of its panel, entries taken out) is undone first. The monkey found
// the magnitudes figure, made compact and then large again, taking its one compact legend out of
// the figure's rows where the fitting had moved it into a panel's corner: Qt said "Element not in
// this layout, couldn't take", and the legend stayed, drawn over the large figure's panel.
#include "gui/FigureView.h"
#include "render/FigureRegistry.h"
#include "render/QCustomPlot.h"

#include "support/TestShots.h"

#include <QTest>

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
};

void TestViewRoom::largeAgainDrawsAsLarge_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QSize>("compact");
    // At 460 x 520 the magnitudes figure's one compact legend (a row under both panels) goes into
    // a free corner of a panel.
    QTest::addRow("magnitudes 460x520") << u"magnitudes"_s << QSize(460, 520);
}

void TestViewRoom::largeAgainDrawsAsLarge()
{
    QFETCH(QString, figure);
    QFETCH(QSize, compact);
    const FigureDescriptor *descriptor = FigureRegistry::find(figure);
    QVERIFY(descriptor);
    const QSize large(900, 620);
    FigureView fresh(*descriptor, false);
    fresh.setParams(monkeys());
    fresh.resize(large);
    fresh.show();
    QVERIFY(settle(fresh));

    g_messages.clear();
    const QtMessageHandler before = qInstallMessageHandler(collect);
    FigureView view(*descriptor, false);
    view.setParams(monkeys());
    view.resize(compact);
    view.show();
    const bool compactSettled = settle(view);
    const int inside = legendsMovedInside(*view.plot());
    view.resize(large);
    const bool largeSettled = compactSettled && settle(view);
    qInstallMessageHandler(before);
    QVERIFY2(inside > 0, "the compact figure's fitting moved no legend into a panel: the case is not tried");
    QVERIFY(largeSettled);
    QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(u'\n')));
    const QImage shown = pixels(view);
    const QImage expected = pixels(fresh);
    if (shown != expected) {
        TestShots::save(shown, u"posenc-viewroom-%1-resized"_s.arg(figure));
        TestShots::save(expected, u"posenc-viewroom-%1-fresh"_s.arg(figure));
    }
    QVERIFY(shown == expected);
}

QTEST_MAIN(TestViewRoom)
#include "tst_viewroom.moc"
