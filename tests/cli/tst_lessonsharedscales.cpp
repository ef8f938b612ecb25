// Panels of a lesson's 14-pt slide that share a scale read alike (docs/ARCHITECTURE.md, "Figures
// at any size"): a panel whose left axis gave its tick labels to its neighbour's (FigureRoom's
// shareAxes) spans the same pixels as it, so that a value stands as high in both. why-sqrt-d's
// slide, built as `posenc export --lesson why-sqrt-d --size slide --font-size 14` builds it, drew
// its lower right panel of norms taller than the one beside it, its lines lower than the same
// values there, with no numbers of its own.
#include "LessonSlidePage.h"
#include "cli/LessonOptions.h"
#include "cli/LessonPage.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "render/FigureBuild.h"
#include "render/FigureRoom.h"

#include <QCommandLineParser>
#include <QTest>

#include <algorithm>

namespace tst_lessonsharedscales {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using LessonSlidePage::pageOf;
using LessonSlidePage::readFor;
using LessonSlidePage::slide;

} // namespace

class TestLessonSharedScales : public QObject
{
    Q_OBJECT

    // A panel whose left axis gave its tick labels to the panel left of it (FigureRoom's shareAxes)
    // is read on that panel's scale: its plot spans the same pixels, top and bottom, so that a
    // value stands as high in both. why-sqrt-d's 14-pt slide set its lower right panel's x label
    // along its ticks, its plot ran lower than its neighbour's and its lines stood lower than the
    // same values beside it, with no numbers of its own.
    static void sharedScalesLevel(const LessonPage::Request &request, const LessonPage::Page &page)
    {
        for (qsizetype i = 0; i < request.figures.size(); ++i) {
            const QCustomPlot &plot = *page.builds[std::size_t(i)]->plot();
            const QList<QCPAxisRect *> rects = FigureBuild::plotRects(plot);
            for (const QCPAxisRect *b : rects) {
                const QCPAxis *unnumbered = b->axis(QCPAxis::atLeft);
                if (!unnumbered->visible() || unnumbered->tickLabels())
                    continue;
                // The nearest panel left of it, beside it, that numbers the same scale.
                const QCPAxisRect *keeper = nullptr;
                for (const QCPAxisRect *a : rects) {
                    const QCPAxis *numbered = a->axis(QCPAxis::atLeft);
                    const QRect ra = a->rect(), rb = b->rect();
                    if (a != b && ra.right() < rb.left() && ra.top() < rb.bottom() && rb.top() < ra.bottom()
                        && numbered->visible() && numbered->tickLabels() && numbered->range() == unnumbered->range()
                        && numbered->scaleType() == unnumbered->scaleType()
                        && (!keeper || ra.right() > keeper->rect().right()))
                        keeper = a;
                }
                if (!keeper)
                    continue;
                const QRect ra = keeper->rect(), rb = b->rect();
                QVERIFY2(std::abs(ra.top() - rb.top()) <= 1 && std::abs(ra.bottom() - rb.bottom()) <= 1,
                         qPrintable(u"%1: a panel read on its left neighbour's scale spans y %2 to %3, it %4 to %5"_s
                                        .arg(request.figures[i]->name())
                                        .arg(rb.top())
                                        .arg(rb.bottom())
                                        .arg(ra.top())
                                        .arg(ra.bottom())));
            }
        }
    }

private slots:
    // why-sqrt-d's 14-pt slide, as its reviewers exported it for its own model, fairseq's and
    // Transformer big's: its four panels of norms on one scale, each plot level with its neighbour.
    void whySqrtDsPanelsShareOneScale_data()
    {
        QTest::addColumn<QStringList>("model");
        QTest::newRow("own") << QStringList();
        QTest::newRow("fairseq-init") << QStringList {u"--preset"_s, u"fairseq-init"_s};
        QTest::newRow("transformer-big") << QStringList {u"--preset"_s, u"transformer-big"_s};
    }

    void whySqrtDsPanelsShareOneScale()
    {
        QFETCH(QStringList, model);
        const Lesson &chosen = *Lessons::find(u"why-sqrt-d"_s);
        const auto read = readFor(chosen, model);
        QVERIFY(read);
        const LessonPage::Request request = pageOf(chosen, *read, false);
        const auto page = LessonPage::build(request, nullptr);
        QVERIFY(page);
        QCOMPARE(request.figures.constFirst()->name(), u"scale-compare"_s);
        const QCustomPlot &plot = *page->builds.front()->plot();
        // The four panels of norms: those on a position axis, all drawn.
        QList<const QCPAxisRect *> norms;
        for (const QCPAxisRect *rect : FigureBuild::plotRects(plot))
            if (rect->axis(QCPAxis::atLeft)->scaleType() == QCPAxis::stLogarithmic
                && rect->axis(QCPAxis::atBottom)->scaleType() == QCPAxis::stLinear)
                norms.append(rect);
        QCOMPARE(norms.size(), 4);
        for (const QCPAxisRect *rect : std::as_const(norms))
            QCOMPARE(rect->axis(QCPAxis::atLeft)->range(), norms.front()->axis(QCPAxis::atLeft)->range());
        sharedScalesLevel(request, *page);
        // And every panel right of another in its row, level with it: the same value, as high.
        for (const QCPAxisRect *a : std::as_const(norms))
            for (const QCPAxisRect *b : std::as_const(norms))
                if (a->rect().right() < b->rect().left() && a->rect().top() < b->rect().bottom()
                    && b->rect().top() < a->rect().bottom())
                    QVERIFY2(std::abs(a->axis(QCPAxis::atLeft)->coordToPixel(10.0)
                                      - b->axis(QCPAxis::atLeft)->coordToPixel(10.0))
                                 <= 1.0,
                             qPrintable(u"10 stands at y %1 in one panel, %2 beside it"_s
                                            .arg(a->axis(QCPAxis::atLeft)->coordToPixel(10.0))
                                            .arg(b->axis(QCPAxis::atLeft)->coordToPixel(10.0))));
    }

    // Every lesson's own 14-pt slide and Transformer big's: each panel read on its neighbour's
    // scale level with it (sum-vs-concat's statistics ran lower beside the sum's, as why-sqrt-d's).
    void everySlidesSharedScalesAreLevel_data()
    {
        QTest::addColumn<QStringList>("model");
        for (const Lesson &lesson : Lessons::all()) {
            QTest::newRow(qPrintable(lesson.name)) << QStringList {lesson.name};
            QTest::newRow(qPrintable(lesson.name + u" transformer-big"_s))
                << QStringList {lesson.name, u"--preset"_s, u"transformer-big"_s};
        }
    }

    void everySlidesSharedScalesAreLevel()
    {
        QFETCH(QStringList, model);
        const Lesson &chosen = *Lessons::find(model.takeFirst());
        const auto read = readFor(chosen, model);
        if (!read)
            QSKIP("the lesson does not apply to this model");
        const LessonPage::Request request = pageOf(chosen, *read, false);
        const auto page = LessonPage::build(request, nullptr);
        QVERIFY(page);
        sharedScalesLevel(request, *page);
    }
};

POSENC_TEST_MAIN(TestLessonSharedScales)
} // namespace tst_lessonsharedscales
#include "tst_lessonsharedscales.moc"
