// Every figure computes and draws whatever its views show: a view dragged or zoomed past the
// table's edge, so that no cell or position is in it, a view of less than one cell, and a view
// of a trillion cells. The window's monkey found the similarity figure reading the least value
// of an empty grid (a segfault) after a drag took its heatmap off the table.
//
// Each registered figure is built, as `posenc export` builds it, for the default parameters of
// each family it applies to at L 96; its request's panels are then moved and its model computes
// and its drawing takes the result.
#include "support/FigureBuilds.h"
#include "support/TestMain.h"

#include "../core/ParamFuzz.h"

#include <QTest>

#include <cmath>
#include <functional>

namespace tst_figureviewsaway {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

const FigureSize kSize = FigureSize::fromPixels(QSize(900, 600));

struct Move
{
    const char *name;
    std::function<ViewRange(const ViewRange &)> range;
};

QList<Move> moves()
{
    const auto span = [](const ViewRange &r) { return std::max(1.0, std::abs(r.upper - r.lower)); };
    return {
        {"past the far edge",
         [=](const ViewRange &r) {
             return ViewRange {r.lower + 100 * span(r), r.upper + 100 * span(r)};
         }},
        {"before the first cell",
         [=](const ViewRange &r) {
             return ViewRange {r.lower - 100 * span(r), r.upper - 100 * span(r)};
         }},
        {"within one cell",
         [](const ViewRange &r) {
             const double centre = std::round(0.5 * (r.lower + r.upper));
             return ViewRange {centre - 1e-3, centre + 1e-3};
         }},
        {"a trillion cells",
         [](const ViewRange &) {
             return ViewRange {-1e12, 1e12};
         }},
    };
}

} // namespace

class TestFigureViewsAway : public QObject
{
    Q_OBJECT

private slots:
    void everyFigureTakesAViewAwayFromItsTable_data();
    void everyFigureTakesAViewAwayFromItsTable();
};

void TestFigureViewsAway::everyFigureTakesAViewAwayFromItsTable_data()
{
    QTest::addColumn<QString>("figure");
    for (const FigureDescriptor *d : FigureRegistry::all())
        QTest::newRow(qPrintable(d->model().name())) << d->model().name();
}

void TestFigureViewsAway::everyFigureTakesAViewAwayFromItsTable()
{
    QFETCH(QString, figure);
    const FigureDescriptor &descriptor = FigureBuilds::figure(figure);
    int computed = 0;
    for (const QString &family : fuzzing::families()) {
        Params p;
        ParamText::set(p, u"encoding"_s, family);
        p.maxLen = 96;
        if (p.encoding == Encoding::Learned) {
            // A learned table of the parameters' width, its rows a slow walk as trained ones are.
            auto table = std::make_shared<PositionMatrix>();
            table->values = RowMatrixXf(p.maxLen, p.dModel);
            for (Eigen::Index r = 0; r < table->values.rows(); ++r)
                for (Eigen::Index c = 0; c < table->values.cols(); ++c)
                    table->values(r, c) = static_cast<float>(std::sin(0.05 * double(r) * double(c + 1)));
            table->source = u"walk.npy"_s;
            p.learned.table = table;
        }
        if (!p.isValid() || !descriptor.model().appliesTo(p) || !descriptor.model().check(p, {}).isEmpty())
            continue;
        const auto engine = std::make_shared<const Engine>(p);
        for (const Move &move : moves()) {
            FigureBuild build(descriptor, engine, {}, {}, kSize);
            std::optional<FigureRequest> request = build.request(1);
            QVERIFY2(request, qPrintable(family));
            // Both axes of every panel moved at once, then the first panel's x axis alone.
            for (const bool alone : {false, true}) {
                FigureRequest moved = *request;
                for (int i = 0; i < moved.panels.size(); ++i) {
                    if (alone && i > 0)
                        break;
                    moved.panels[i].x = move.range(moved.panels[i].x);
                    if (!alone)
                        moved.panels[i].y = move.range(moved.panels[i].y);
                }
                const std::atomic<bool> cancel = false;
                const FigureResult result = descriptor.model().compute(moved, cancel);
                QVERIFY2(
                    result.data || result.refusal,
                    qPrintable(u"%1, %2, %3: neither data nor a refusal"_s.arg(family, QString::fromLatin1(move.name))
                                   .arg(alone)));
                if (result.data)
                    build.deliver(result);
                ++computed;
            }
        }
    }
    QVERIFY2(computed > 0, qPrintable(figure + u": no family it applies to was built"_s));
}

POSENC_TEST_MAIN(TestFigureViewsAway)
} // namespace tst_figureviewsaway
#include "tst_figureviewsaway.moc"
