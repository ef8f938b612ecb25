// What is exported is what the screen shows (docs/ARCHITECTURE.md, "One descriptor per
// figure"): a view of the window showing any registered figure, offscreen at a size and drawn in
// full detail, renders the same pixels as the exporter's figure of the same parameters and state
// at the same size, built headless by FigureBuild. The plot is compared, pixel for pixel: what
// only the screen shows (how many cells a pixel averages) is the view's note in its title bar,
// outside the plot, so no file has it and the comparison holds.
#include "gui/FigureView.h"
#include "support/TestMain.h"

#include "render/FigureExporter.h"
#include "render/FigureLayoutLoop.h"
#include "render/FigureRegistry.h"

#include "support/FigureBuilds.h"
#include "support/TestFamily.h"
#include "support/TestShots.h"

#include <QDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <memory>

namespace tst_viewexport {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The parameters `figure` is drawn from: the learned figure's are the learned family's, with the
// same table as its position table; a figure of families that each set their own parameters to be
// drawn in full, the first one's (TestFamily::figureParams).
Params params(const QString &figure = {})
{
    Params p;
    p.dModel = 96;
    p.maxLen = 700; // more positions than pixels: the heatmap is area averaged
    p.dropout = 0.3;
    // A learned position table for the learned view: smooth in p, unlike the sinusoidal one.
    auto table = std::make_shared<EmbeddingMatrix>();
    table->values.resize(p.maxLen, p.dModel);
    for (std::int64_t r = 0; r < p.maxLen; ++r)
        for (std::int64_t j = 0; j < p.dModel; ++j)
            table->values(r, j) = float(0.3 * std::sin(0.01 * double(r) * double(j % 5 + 1) + 0.5 * double(j)));
    table->source = u"learned.npy"_s;
    if (figure == u"learned"_s) {
        p.encoding = Encoding::Learned;
        p.learned.table = std::make_shared<const PositionMatrix>(PositionMatrix {table->values, table->source});
    }
    p.embeddings = std::move(table);
    if (!figure.isEmpty())
        p = TestFamilies::forFamilies(FigureBuilds::figure(figure).model().families(), p);
    // The families figure of a causal model with a sliding window (Mistral's, here 200 of 700): its
    // keys 200 or more before the query are shaded on the screen as in the export.
    if (figure == u"families"_s)
        p.batch.window = 200;
    return p;
}

std::unique_ptr<FigureView> makeView(const QString &figure)
{
    return std::make_unique<FigureView>(FigureBuilds::figure(figure));
}

// The view's figure in the view's state, exported at `size`.
QImage exported(const FigureView &view, QSize size, const FigureState &state)
{
    const FigureSize figureSize = FigureSize::fromPixels(size);
    const auto built = FigureBuilds::build(view.figure().name(), params(view.figure().name()), figureSize, state);
    if (built->error())
        qFatal("%s", qPrintable(FigureBuilds::errorOf(*built)));
    return FigureExporter::image(built->plot(), figureSize);
}

// Shows `view` with its plot at `size`, drawn in full detail for the axes as they are.
bool settle(FigureView *view, QSize size)
{
    view->plot()->parentWidget()->setFixedSize(size); // the room the plot fills (SteadyRoom)
    view->show();
    if (!QTest::qWaitForWindowExposed(view))
        return false;
    if (!QTest::qWaitFor([view] { return view->isSettled(); }, 60000))
        return false;
    // Once the first data brought its title, the view lays out again; a resize makes it
    // recompute for the axes as they are now, as any later change would.
    view->resize(view->size() + QSize(1, 1));
    return QTest::qWaitFor([view] { return view->isSettled(); }, 60000);
}

// The first pixel where two images differ, or nothing.
std::optional<QPoint> firstDifference(const QImage &a, const QImage &b)
{
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (a.pixel(x, y) != b.pixel(x, y))
                return QPoint(x, y);
    return std::nullopt;
}

// Where `exported` and `screen` first differ, in words, both images kept (TestShots, `stem`-exported
// and `stem`-screen); empty where they are the same pixels.
QString screenDifference(const QImage &exported, const QImage &screen, const QString &stem)
{
    const QImage a = exported.convertToFormat(QImage::Format_ARGB32);
    const QImage b = screen.convertToFormat(QImage::Format_ARGB32);
    if (a.size() != b.size())
        return u"the exported image is %1 x %2, the screen's %3 x %4"_s.arg(a.width())
            .arg(a.height())
            .arg(b.width())
            .arg(b.height());
    const auto differs = firstDifference(a, b);
    if (!differs)
        return {};
    const QString kept = TestShots::save(a, stem + u"-exported"_s);
    TestShots::save(b, stem + u"-screen"_s);
    return u"first difference at (%1, %2); the exported image and the screen's: %3"_s.arg(differs->x())
        .arg(differs->y())
        .arg(kept);
}

} // namespace

class TestViewExport : public QObject
{
    Q_OBJECT

private slots:
    void exportEqualsTheWindowPixelForPixel_data();
    void exportEqualsTheWindowPixelForPixel();
    // A zoomed view shows parts of cells at its edges: its figureOptions() carry the
    // continuous ranges, and the exporter reproduces the view exactly.
    void zoomedViewExportEqualsTheWindow_data();
    void zoomedViewExportEqualsTheWindow();
    void theScreenNoteIsTheViewsNotTheFiles();
    void aDraftKeepsItsRoomAndSettlesToItsExport();
    void aChangeIsFittedOnceAndLaidOutOnceWhereItFits();
    void aDraftIsLaidOutOnceBeforeItIsDrawn();
    void aLayoutIsCurrentAsItWasSettledInItsRect();
};

void TestViewExport::exportEqualsTheWindowPixelForPixel_data()
{
    // Every figure of the program: a new one is covered by registering it.
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QSize>("size");
    for (const QString &name : FigureRegistry::names()) {
        QTest::newRow(qPrintable(name + u" 640x420"_s)) << name << QSize(640, 420);
        QTest::newRow(qPrintable(name + u" 900x560"_s)) << name << QSize(900, 560);
    }
}

void TestViewExport::exportEqualsTheWindowPixelForPixel()
{
    QFETCH(QString, figure);
    QFETCH(QSize, size);
    const std::unique_ptr<FigureView> view = makeView(figure);
    view->setParams(params(view->figure().name()));
    view->plot()->parentWidget()->setFixedSize(size); // the room the plot fills (SteadyRoom)
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view.get()));
    QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
    // Once the first data brought its title, the view lays out again; a resize makes it
    // recompute for the axes as they are now, as any later change would.
    view->resize(view->size() + QSize(1, 1));
    QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
    QCOMPARE(view->plot()->size(), size);
    const QImage screen = view->plot()->toPixmap(size.width(), size.height(), 1.0).toImage();

    // What the view says it shows: its figure in its opening state.
    QVERIFY(view->problems().isEmpty());
    QCOMPARE(view->figure().name(), figure);
    const QImage image = exported(*view, size, view->state());

    QCOMPARE(image.size(), screen.size());
    const QString differs = screenDifference(image, screen, u"viewexport"_s);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
}

void TestViewExport::zoomedViewExportEqualsTheWindow_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QCPRange>("positions");
    QTest::addColumn<QCPRange>("columns");
    QTest::newRow("heatmap, a few cells")
        << u"heatmap"_s << QSize(640, 420) << QCPRange(12.3, 27.8) << QCPRange(3.7, 11.2);
    QTest::newRow("heatmap, area averaged")
        << u"heatmap"_s << QSize(700, 460) << QCPRange(97.2, 688.6) << QCPRange(0.4, 80.9);
    QTest::newRow("curves") << u"curves"_s << QSize(640, 420) << QCPRange(12.3, 97.8) << QCPRange();
    QTest::newRow("dropout") << u"dropout"_s << QSize(900, 460) << QCPRange(5.6, 30.1) << QCPRange(40.2, 71.7);
}

void TestViewExport::zoomedViewExportEqualsTheWindow()
{
    QFETCH(QString, figure);
    QFETCH(QSize, size);
    QFETCH(QCPRange, positions);
    QFETCH(QCPRange, columns);
    const std::unique_ptr<FigureView> view = makeView(figure);
    view->setParams(params(view->figure().name()));
    FigureState state;
    if (figure == u"heatmap"_s) {
        state.options = {{u"quantity"_s, u"input"_s}, {u"colormap"_s, u"viridis"_s}};
        state.view
            = {{u"columns"_s, {columns.lower, columns.upper}}, {u"positions"_s, {positions.lower, positions.upper}}};
    } else if (figure == u"curves"_s) {
        state.options = {{u"dims"_s, u"0,3,17,40"_s}};
        state.view = {{u"positions"_s, {positions.lower, positions.upper}}};
    } else {
        state.view
            = {{u"columns"_s, {columns.lower, columns.upper}}, {u"positions"_s, {positions.lower, positions.upper}}};
    }
    view->setState(state);
    QVERIFY(settle(view.get(), size));
    QCOMPARE(view->plot()->size(), size);
    const QImage screen = view->plot()->toPixmap(size.width(), size.height(), 1.0).toImage();

    // The view's state carries the continuous ranges, and the exporter reproduces the view.
    const FigureState shown = view->state();
    QVERIFY(shown.range(u"positions"_s));
    QCOMPARE(shown.range(u"positions"_s)->lower, positions.lower);
    QCOMPARE(shown.range(u"positions"_s)->upper, positions.upper);
    QVERIFY(FigureRegistry::check(view->figure(), params(view->figure().name()), shown).isEmpty());
    const QImage zoomed = exported(*view, size, shown);

    // The same state without the continuous view draws another figure: the test sees zoom.
    FigureState unzoomed = shown;
    unzoomed.view.clear();
    QVERIFY(exported(*view, size, unzoomed) != zoomed);

    QCOMPARE(zoomed.size(), screen.size());
    const QString differs = screenDifference(zoomed, screen, u"viewexport-zoomed"_s);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
}

// A heatmap of more positions than pixels says so on screen, beside the figure, and not in its
// title: its export, equal to the plot, leaves it out.
void TestViewExport::theScreenNoteIsTheViewsNotTheFiles()
{
    const std::unique_ptr<FigureView> view = makeView(u"heatmap"_s);
    view->setParams(params(u"heatmap"_s));
    QVERIFY(settle(view.get(), QSize(640, 420)));
    QVERIFY2(view->screenNote().startsWith(u"each pixel averages ~"_s), qPrintable(view->screenNote()));
    const QStringList texts = FigureBuilds::texts(*view->plot());
    QVERIFY(!texts.join(u'\n').contains(u"averages"_s));
    const FigureSize size = FigureSize::fromPixels(QSize(640, 420));
    const auto built = FigureBuilds::build(u"heatmap"_s, params(u"heatmap"_s), size, view->state());
    const QByteArray svg = FigureExporter::svg(built->plot(), size, u"heatmap"_s);
    QVERIFY(!svg.isEmpty());
    QVERIFY(!svg.contains("averages"));
}

// While the controls move, a view draws each preview as a draft laid out once with what its last
// fitting gave up for room kept (FigureLayoutLoop::refitKeepingRoom), not through the ladder of
// steps; when the full data comes it is fitted to its room in full, and the settled view is its
// export's pixels.
void TestViewExport::aDraftKeepsItsRoomAndSettlesToItsExport()
{
    const QSize size(420, 300); // little room: the figure gives up steps to fit
    Params p;
    p.dModel = 512;
    p.maxLen = 2048; // past the preview's budget: each change shows a preview first
    const std::unique_ptr<FigureView> view = makeView(u"magnitudes"_s);
    view->setParams(p);
    QVERIFY(settle(view.get(), size));
    const quint64 before = FigureLayoutLoop::fittings();
    QList<quint64> atPreviews;
    connect(view.get(), &FigureView::shown, this, [&atPreviews](quint64, Detail detail) {
        if (detail == Detail::Preview)
            atPreviews.append(FigureLayoutLoop::fittings());
    });
    p.maxLen = 1984;
    view->setParams(p);
    QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
    QVERIFY(!atPreviews.isEmpty());
    for (const quint64 fittings : std::as_const(atPreviews))
        QCOMPARE(fittings, before);
    QVERIFY(FigureLayoutLoop::fittings() > before);

    const QImage screen = view->plot()->toPixmap(size.width(), size.height(), 1.0).toImage();
    const FigureSize figureSize = FigureSize::fromPixels(size);
    const auto built = FigureBuilds::build(u"magnitudes"_s, p, figureSize, view->state());
    QVERIFY(!built->error());
    const QString differs
        = screenDifference(FigureExporter::image(built->plot(), figureSize), screen, u"viewexport-draft"_s);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
}

// A change of parameters that leaves the axes where they were (the same d_model and max_len, the
// embeddings drawn from another seed) is fitted to its room once, when its full data comes, not
// again for its preview; and a figure that fits its room at once is laid out once by that fitting:
// its ticks were never thinned, so a second layout to thin them afresh would repeat the first
// (FigureLayoutLoop::retick). The settled view is still its export's pixels.
void TestViewExport::aChangeIsFittedOnceAndLaidOutOnceWhereItFits()
{
    const QSize size(1400, 900); // room enough for every text as the figure sets it
    Params p;
    p.dModel = 512;
    p.maxLen = 2048;
    const std::unique_ptr<FigureView> view = makeView(u"magnitudes"_s);
    view->setParams(p);
    QVERIFY(settle(view.get(), size));
    for (const std::uint64_t seed : {1, 2}) {
        const quint64 fittings = FigureLayoutLoop::fittings();
        p.seed = seed;
        view->setParams(p);
        QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
        QCOMPARE(FigureLayoutLoop::fittings() - fittings, quint64(1));
    }
    // The fitting of a figure that fits at once: one layout.
    const quint64 layouts = FigureLayoutLoop::layouts();
    FigureLayoutLoop loop(view->plot());
    loop.refitAfterFilling();
    QCOMPARE(FigureLayoutLoop::layouts() - layouts, quint64(1));

    const QImage screen = view->plot()->toPixmap(size.width(), size.height(), 1.0).toImage();
    const FigureSize figureSize = FigureSize::fromPixels(size);
    const auto built = FigureBuilds::build(u"magnitudes"_s, p, figureSize, view->state());
    QVERIFY(!built->error());
    const QString differs
        = screenDifference(FigureExporter::image(built->plot(), figureSize), screen, u"viewexport-fitted-once"_s);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
}

// A change of parameters while the controls move lays its view out once before the draft is drawn:
// not to ask for the data (the figure's size, texts and ranges are those it was settled with:
// FigureLayoutLoop::isCurrent), nor once with the filling's title whole and again with it wrapped
// (its texts are fitted to the room they keep first: FigureLayoutLoop::refitKeepingRoom). Each
// change took three layouts before. The settled view is still its export's pixels.
void TestViewExport::aDraftIsLaidOutOnceBeforeItIsDrawn()
{
    const QSize size(560, 420); // the title wraps
    Params p;
    p.dModel = 512;
    p.maxLen = 2048; // past the preview's budget: each change shows a preview, a draft, first
    const std::unique_ptr<FigureView> view = makeView(u"magnitudes"_s);
    view->setParams(p);
    QVERIFY(settle(view.get(), size));
    QVERIFY2(FigureBuilds::texts(*view->plot()).join(u'|').contains(u'\n'),
             qPrintable(FigureBuilds::texts(*view->plot()).join(u'|')));
    for (const std::uint64_t seed : {1, 2}) {
        quint64 before = FigureLayoutLoop::layouts();
        QList<quint64> atPreviews;
        const auto connection = connect(view.get(), &FigureView::shown, this, [&](quint64, Detail detail) {
            if (detail == Detail::Preview)
                atPreviews.append(FigureLayoutLoop::layouts() - before);
        });
        p.seed = seed; // the same axes: a table of another size is shown whole again, laid out anew
        view->setParams(p);
        QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
        disconnect(connection);
        QCOMPARE(atPreviews, QList<quint64> {1});
    }
    const QImage screen = view->plot()->toPixmap(size.width(), size.height(), 1.0).toImage();
    const FigureSize figureSize = FigureSize::fromPixels(size);
    const auto built = FigureBuilds::build(u"magnitudes"_s, p, figureSize, view->state());
    QVERIFY(!built->error());
    const QString differs
        = screenDifference(FigureExporter::image(built->plot(), figureSize), screen, u"viewexport-draft-once"_s);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
}

// The layout loop takes a figure as laid out as it is only after a settling whose last fit changed
// nothing, in the rect the plot has: a layout not yet fitted, a change it is told of (invalidate)
// or another size makes the view lay the figure out again before it asks for data.
void TestViewExport::aLayoutIsCurrentAsItWasSettledInItsRect()
{
    const std::unique_ptr<FigureView> view = makeView(u"magnitudes"_s);
    view->setParams(params());
    QVERIFY(settle(view.get(), QSize(640, 420)));
    FigureLayoutLoop loop(view->plot());
    QVERIFY(!loop.isCurrent());
    loop.refitAfterFilling();
    QVERIFY(loop.isCurrent());
    loop.invalidate();
    QVERIFY(!loop.isCurrent());
    loop.refitKeepingRoom();
    QVERIFY(loop.isCurrent());
    loop.layOut();
    QVERIFY(!loop.isCurrent());
    loop.refitAfterFilling();
    QVERIFY(loop.isCurrent());
    view->plot()->setFixedSize(QSize(600, 400));
    QTRY_COMPARE(view->plot()->size(), QSize(600, 400));
    QVERIFY(!loop.isCurrent());
}

POSENC_TEST_MAIN(TestViewExport)
} // namespace tst_viewexport
#include "tst_viewexport.moc"
