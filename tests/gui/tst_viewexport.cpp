// What is exported is what the screen shows (DESIGN.md section 2): each view of the window,
// shown offscreen at a size and drawn in full detail, renders the same pixels as the exporter's
// figure of the same parameters at the same size, built headless by FigureRenderer.
#include "gui/CurvesView.h"
#include "gui/DropoutView.h"
#include "gui/HeatmapView.h"
#include "gui/LearnedView.h"
#include "gui/MagnitudesView.h"

#include "render/FigureExporter.h"
#include "render/FigureRenderer.h"

#include <QDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <memory>

using namespace Qt::StringLiterals;
using namespace posenc;

Q_DECLARE_METATYPE(posenc::FigureKind)

namespace {

Params params()
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
    p.embeddings = std::move(table);
    return p;
}

std::unique_ptr<PlotView> makeView(FigureKind kind)
{
    switch (kind) {
    case FigureKind::Heatmap:
        return std::make_unique<HeatmapView>();
    case FigureKind::Curves:
        return std::make_unique<CurvesView>();
    case FigureKind::Magnitudes:
        return std::make_unique<MagnitudesView>();
    case FigureKind::Dropout:
        return std::make_unique<DropoutView>();
    case FigureKind::Learned:
        return std::make_unique<LearnedView>();
    }
    return nullptr;
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

} // namespace

class TestViewExport : public QObject
{
    Q_OBJECT

private slots:
    void exportEqualsTheWindowPixelForPixel_data();
    void exportEqualsTheWindowPixelForPixel();
};

void TestViewExport::exportEqualsTheWindowPixelForPixel_data()
{
    QTest::addColumn<FigureKind>("kind");
    QTest::addColumn<QSize>("size");
    for (const QString &name : FigureKinds::names()) {
        QTest::newRow(qPrintable(name + u" 640x420"_s)) << *FigureKinds::fromName(name) << QSize(640, 420);
        QTest::newRow(qPrintable(name + u" 900x560"_s)) << *FigureKinds::fromName(name) << QSize(900, 560);
    }
}

void TestViewExport::exportEqualsTheWindowPixelForPixel()
{
    QFETCH(FigureKind, kind);
    QFETCH(QSize, size);
    const std::unique_ptr<PlotView> view = makeView(kind);
    view->setParams(params());
    view->plot()->setFixedSize(size);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view.get()));
    QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
    // Once the first data brought its title, the view lays out again; a resize makes it
    // recompute for the axes as they are now, as any later change would.
    view->resize(view->size() + QSize(1, 1));
    QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 60000);
    QCOMPARE(view->plot()->size(), size);
    const QImage screen = view->plot()->toPixmap(size.width(), size.height(), 1.0).toImage();

    FigureOptions options;
    options.kind = kind;
    QCustomPlot plot;
    const FigureSize figureSize = FigureSize::fromPixels(size);
    QVERIFY(!FigureRenderer::build(&plot, Engine(params()), options, figureSize));
    const QImage exported = FigureExporter::image(&plot, figureSize);

    QCOMPARE(exported.size(), screen.size());
    const QImage a = exported.convertToFormat(QImage::Format_ARGB32);
    const QImage b = screen.convertToFormat(QImage::Format_ARGB32);
    if (const auto differs = firstDifference(a, b)) {
        a.save(QDir::temp().filePath(u"viewexport-exported.png"_s));
        b.save(QDir::temp().filePath(u"viewexport-screen.png"_s));
        QFAIL(qPrintable(u"first difference at (%1, %2); both images saved in %3"_s.arg(differs->x())
                             .arg(differs->y())
                             .arg(QDir::tempPath())));
    }
}

QTEST_MAIN(TestViewExport)
#include "tst_viewexport.moc"
