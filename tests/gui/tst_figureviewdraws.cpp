// What a view draws on its way to being settled: a full result whose fitting moved the axes its
// data was computed for is computed again for them at once (FigureView::fitToRoom), and is not
// drawn in full quality first; each replot in full quality was a fifth of a settled change's time
// on the GUI thread, for pixels the next replot replaced (issue 62).
#include "gui/FigureView.h"
#include "render/FigureRegistry.h"
#include "render/QCustomPlot.h"

#include "render/FigureDefaults.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

class TestFigureViewDraws : public QObject
{
    Q_OBJECT

private slots:
    void aFullResultIsDrawnForItsOwnAxes_data();
    void aFullResultIsDrawnForItsOwnAxes();
};

void TestFigureViewDraws::aFullResultIsDrawnForItsOwnAxes_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QSize>("size");
    // Every figure, at a dashboard's quarter and larger: many a full result's texts move the axes
    // from those its data was asked for (the magnitudes figure's), at every opening.
    for (const QString &name : FigureRegistry::names())
        for (const QSize size : {QSize(700, 440), QSize(900, 620)})
            QTest::addRow("%s %dx%d", qPrintable(name), size.width(), size.height()) << name << size;
}

// Opened at the figure's defaults, a view draws in full quality (antialiased, full detail) once:
// the result it settles with. A draft, or a preview, may come before it.
void TestFigureViewDraws::aFullResultIsDrawnForItsOwnAxes()
{
    QFETCH(QString, figure);
    QFETCH(QSize, size);
    const FigureDescriptor *descriptor = FigureRegistry::find(figure);
    QVERIFY(descriptor);
    FigureView view(*descriptor, false);
    int fullQuality = 0;
    connect(view.plot(), &QCustomPlot::afterReplot, this, [&] {
        if (view.drawnDetail() == Detail::Full && view.plot()->notAntialiasedElements() == QCP::aeNone)
            ++fullQuality;
    });
    view.setParams(FigureBuilds::defaultParams(*descriptor));
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitFor([&] { return view.isSettled(); }, 30000));
    QCOMPARE(fullQuality, 1);
}

QTEST_MAIN(TestFigureViewDraws)
#include "tst_figureviewdraws.moc"
