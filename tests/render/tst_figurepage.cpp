// Several figures on one page (FigurePage, FigureExporter::encodePage): the grid each count of
// figures takes on a page, its cells tiling the page, and each figure drawn in its cell exactly as
// it is drawn alone at the cell's size: a PNG's pixels, an SVG's texts, a PDF's page.
#include "render/FigureExporter.h"
#include "render/FigurePage.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"
#include "support/SvgTexts.h"
#include "support/TestFiles.h"

#include "core/Params.h"

#include <QImage>
#include <QTest>

namespace tst_figurepage {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params small()
{
    Params p;
    p.dModel = 64;
    p.maxLen = 128;
    return p;
}

// 25.4 x 14.29 cm at 100 dpi: a slide.
FigureSize slide()
{
    return FigureSize::fromInches(QSizeF(10.0, 5.625), 100.0);
}

} // namespace

class TestFigurePage : public QObject
{
    Q_OBJECT

private slots:
    void gridOfACount_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<QSize>("page");
        QTest::addColumn<QSize>("grid");
        QTest::newRow("one") << 1 << QSize(960, 540) << QSize(1, 1);
        QTest::newRow("two on a slide: side by side") << 2 << QSize(960, 540) << QSize(2, 1);
        QTest::newRow("two on a portrait page: one above the other") << 2 << QSize(600, 800) << QSize(1, 2);
        QTest::newRow("three on a slide: two rows, one cell empty") << 3 << QSize(960, 540) << QSize(2, 2);
        QTest::newRow("three on a wide strip") << 3 << QSize(1800, 400) << QSize(3, 1);
        QTest::newRow("four on a slide") << 4 << QSize(960, 540) << QSize(2, 2);
        QTest::newRow("nine on a square") << 9 << QSize(900, 900) << QSize(3, 3);
    }

    void gridOfACount()
    {
        QFETCH(int, count);
        QFETCH(QSize, page);
        QFETCH(QSize, grid);
        QCOMPARE(FigurePage::grid(count, page), grid);
    }

    // Every count on pages of every shape: room for all, no row left empty, the cells tiling the
    // page in reading order without overlap.
    void cellsTileThePage()
    {
        for (const QSize page :
             {QSize(960, 540), QSize(321, 227), QSize(600, 800), QSize(2000, 300), QSize(97, 1001)}) {
            for (int count = 1; count <= FigurePage::kMaxFigures; ++count) {
                const QSize grid = FigurePage::grid(count, page);
                QVERIFY(grid.width() * grid.height() >= count);
                QVERIFY((grid.height() - 1) * grid.width() < count);
                const QList<QRect> cells = FigurePage::cells(count, page);
                QCOMPARE(cells.size(), qsizetype(count));
                qint64 area = 0;
                for (qsizetype i = 0; i < cells.size(); ++i) {
                    QVERIFY(QRect(QPoint(0, 0), page).contains(cells[i]));
                    area += qint64(cells[i].width()) * cells[i].height();
                    for (qsizetype j = 0; j < i; ++j)
                        QVERIFY(!cells[i].intersects(cells[j]));
                    if (i > 0) // reading order: right of the last, or below it
                        QVERIFY(cells[i].x() > cells[i - 1].x() || cells[i].y() > cells[i - 1].y());
                }
                // Every page is covered: no cell left empty.
                QCOMPARE(area, qint64(page.width()) * page.height());
            }
        }
    }

    // Three figures on a slide: the cell the grid's 2 x 2 leaves empty is the first figure's, which
    // spans the left column; the other two share the right one. Seven on a slide's 3 x 3: the first
    // spans the first column's three rows.
    void theFirstFigureTakesTheEmptyCells()
    {
        QCOMPARE(FigurePage::cells(3, QSize(960, 540)),
                 (QList<QRect> {QRect(0, 0, 480, 540), QRect(480, 0, 480, 270), QRect(480, 270, 480, 270)}));
        QCOMPARE(FigurePage::grid(7, QSize(960, 540)), QSize(3, 3));
        const QList<QRect> seven = FigurePage::cells(7, QSize(960, 540));
        QCOMPARE(seven.size(), qsizetype(7));
        QCOMPARE(seven[0], QRect(0, 0, 320, 540));
        QCOMPARE(seven[1], QRect(320, 0, 320, 180));
        QCOMPARE(seven[3], QRect(320, 180, 320, 180));
        QCOMPARE(seven[6], QRect(640, 360, 320, 180));
    }

    // A main figure given more room (LessonPage's uneven layouts): its column `lead` times as wide
    // as each other, or in one column its row as high; the cells still tile the page.
    void theLeadWidensTheFirstColumnOrRow()
    {
        QCOMPARE(FigurePage::cells(2, QSize(960, 540), QSize(1, 2), 2.0),
                 (QList<QRect> {QRect(0, 0, 960, 360), QRect(0, 360, 960, 180)}));
        QCOMPARE(FigurePage::cells(2, QSize(960, 540), QSize(2, 1), 3.0),
                 (QList<QRect> {QRect(0, 0, 720, 540), QRect(720, 0, 240, 540)}));
        // Three on a slide's 2 x 2: the first spans its wider column, the others share the rest.
        QCOMPARE(FigurePage::cells(3, QSize(960, 540), QSize(2, 2), 2.0),
                 (QList<QRect> {QRect(0, 0, 640, 540), QRect(640, 0, 320, 270), QRect(640, 270, 320, 270)}));
        QCOMPARE(FigurePage::cells(2, QSize(960, 540), QSize(2, 1), 1.0), FigurePage::cells(2, QSize(960, 540)));
        for (const double lead : {1.5, 2.0, 3.0, 4.0, 0.5, 2.0 / 3.0}) {
            for (int count = 2; count <= FigurePage::kMaxFigures; ++count) {
                for (const QSize &shape : FigurePage::grids(count)) {
                    const QList<QRect> cells = FigurePage::cells(count, QSize(960, 540), shape, lead);
                    qint64 area = 0;
                    for (qsizetype i = 0; i < cells.size(); ++i) {
                        QVERIFY(QRect(0, 0, 960, 540).contains(cells[i]));
                        area += qint64(cells[i].width()) * cells[i].height();
                        for (qsizetype j = 0; j < i; ++j)
                            QVERIFY(!cells[i].intersects(cells[j]));
                    }
                    QCOMPARE(area, qint64(960) * 540);
                }
            }
        }
    }

    // A page's PNG holds in each cell the very pixels of the figure drawn alone at the cell's size.
    void aPngCellIsTheFiguresOwnImage()
    {
        const FigureSize page = slide();
        const QStringList names = {u"heatmap"_s, u"curves"_s, u"similarity"_s};
        const QList<QRect> cells = FigurePage::cells(int(names.size()), page.layout);
        std::vector<std::unique_ptr<FigureBuild>> builds;
        QList<FigureExporter::Placed> placed;
        for (qsizetype i = 0; i < names.size(); ++i) {
            builds.push_back(FigureBuilds::build(names[i], small(), FigurePage::cellSize(page, cells[i])));
            QCOMPARE(FigureBuilds::errorOf(*builds.back()), QString());
            placed.append({builds.back()->plot(), cells[i]});
        }
        const QImage drawn
            = QImage::fromData(FigureExporter::encodePage(placed, page, FigureFormat::Png, u"page"_s), "png");
        QCOMPARE(drawn.size(), page.pixels());
        QCOMPARE(drawn.text(u"Title"_s), u"page"_s);
        for (qsizetype i = 0; i < names.size(); ++i) {
            const QImage alone
                = FigureExporter::image(builds[std::size_t(i)]->plot(), FigurePage::cellSize(page, cells[i]))
                      .convertToFormat(QImage::Format_ARGB32);
            const QPoint at(qRound(cells[i].x() * page.scale), qRound(cells[i].y() * page.scale));
            const QImage inPage = drawn.copy(QRect(at, alone.size())).convertToFormat(QImage::Format_ARGB32);
            QVERIFY2(inPage == alone, qPrintable(names[i]));
        }
        // No cell is left empty: the first figure's spans the left column.
        QCOMPARE(cells[0].height(), page.layout.height());
    }

    // A page's SVG is the page's size and holds each figure's texts inside its own cell; its PDF
    // is the page's physical size.
    void vectorPagesHoldEveryFigure()
    {
        const FigureSize page = slide();
        const QStringList names = {u"heatmap"_s, u"curves"_s};
        const QList<QRect> cells = FigurePage::cells(int(names.size()), page.layout);
        std::vector<std::unique_ptr<FigureBuild>> builds;
        QList<FigureExporter::Placed> placed;
        for (qsizetype i = 0; i < names.size(); ++i) {
            builds.push_back(FigureBuilds::build(names[i], small(), FigurePage::cellSize(page, cells[i])));
            placed.append({builds.back()->plot(), cells[i]});
        }
        const SvgTexts::Page svg
            = SvgTexts::read(FigureExporter::encodePage(placed, page, FigureFormat::Svg, u"page"_s));
        QCOMPARE(svg.error, QString());
        QCOMPARE(svg.viewBox.size().toSize(), page.layout);
        // Each figure's own axis label, in its cell and nowhere else.
        const QList<std::pair<QString, int>> labels = {{u"column j"_s, 0}, {u"PE[p, j]"_s, 1}};
        for (const auto &[label, cell] : labels) {
            int found = 0;
            for (const SvgTexts::Text &t : svg.texts) {
                if (t.text == label) {
                    ++found;
                    QVERIFY2(QRectF(cells[cell]).adjusted(-1, -1, 1, 1).contains(t.box), qPrintable(label));
                }
            }
            QCOMPARE(found, 1);
        }
        const QByteArray pdf = FigureExporter::encodePage(placed, page, FigureFormat::Pdf, u"page"_s);
        const auto box = TestFiles::mediaBox(pdf);
        QVERIFY(box);
        QVERIFY(std::abs(box->width() - page.points().width()) <= 1);
        QVERIFY(std::abs(box->height() - page.points().height()) <= 1);
    }
};

POSENC_TEST_MAIN(TestFigurePage)
} // namespace tst_figurepage
#include "tst_figurepage.moc"
