// Every figure's data is finite: each registered figure, built as `posenc export` builds it, for
// parameters of the families it applies to drawn at and past each row's range (ParamFuzz.h); every
// point of its graphs and curves, every cell of its colour maps, every axis range and item
// position is a finite number. The documented exceptions: ALiBi's causal mask, whose masked
// pixels are NaN, drawn in a grey of their own (docs/ARCHITECTURE.md, Exact at any size), and the
// head map's two layered maps, each NaN (transparent) where the other draws: a column that passes
// unrotated or turns at frequency 0 has no wavelength, and one a head lacks neither; and the batch's
// figures (docs/ARCHITECTURE.md, Positions in practice), whose padding (position-ids) and hidden
// pairs (document-distance) are NaN cells in a colour of their own, and whose lines of a row's ids
// break between its segments at a NaN (QCustomPlot's gap), a point whose key stays finite. The
// heatmap, which draws any table, shows ALiBi's bias and the batch's distances masked alike.
//
// Short mode (ctest) keeps L <= 2^16 and d <= 2^12, so that a figure takes milliseconds; by hand
// over the whole space, for ten minutes: POSENC_FUZZ_SECONDS=600 build/release/tests/render/tst_finitefigures
// Under a sanitizer CI's run takes the same draws, each figure's families and options, at L <= 2^12
// and d <= 2^10 (ASan ran the short mode's sizes in 126 s in CI); the long variant
// (tst_finitefigures_long, by hand: support/LongVariant.h) takes them at the short mode's sizes.
#include "../core/ParamFuzz.h"
#include "support/TestMain.h"

#include "render/data/HeatmapModel.h"
#include "support/FigureBuilds.h"
#include "support/LongVariant.h"
#include "support/Sanitizer.h"

#include <QTest>

#include <cmath>

namespace tst_finitefigures {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

const FigureSize kSize = FigureSize::fromPixels(QSize(640, 420));

// The largest table of short mode's draws, log2 of its rows and its width: smaller in a sanitizer
// run in CI, where the same code meets the same parameters but for L and d.
int maxLenBits()
{
    return testing::takesSanitizerSample() && !testing::longVariant() ? 12 : 16;
}

int dModelBits()
{
    return testing::takesSanitizerSample() && !testing::longVariant() ? 10 : 12;
}

bool finite(double v)
{
    return std::isfinite(v);
}

// The first number of the plot that is not finite, in words, or nothing.
QString firstNonFinite(QCustomPlot &plot, bool maskedNan)
{
    for (int i = 0; i < plot.plottableCount(); ++i) {
        QCPAbstractPlottable *p = plot.plottable(i);
        if (!p->realVisibility())
            continue; // what is not drawn may hold anything
        if (auto *graph = qobject_cast<QCPGraph *>(p)) {
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                if (!finite(it->key) || (!finite(it->value) && !(maskedNan && std::isnan(it->value))))
                    return u"graph '%1' at (%2, %3)"_s.arg(graph->name()).arg(it->key).arg(it->value);
        } else if (auto *curve = qobject_cast<QCPCurve *>(p)) {
            for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
                if (!finite(it->key) || !finite(it->value))
                    return u"curve '%1' at (%2, %3)"_s.arg(curve->name()).arg(it->key).arg(it->value);
        } else if (auto *map = qobject_cast<QCPColorMap *>(p)) {
            QCPColorMapData *data = map->data();
            if (!finite(data->keyRange().lower) || !finite(data->keyRange().upper) || !finite(data->valueRange().lower)
                || !finite(data->valueRange().upper))
                return u"a colour map's range"_s;
            for (int x = 0; x < data->keySize(); ++x)
                for (int y = 0; y < data->valueSize(); ++y) {
                    const double v = data->cell(x, y);
                    if (!finite(v) && !(maskedNan && std::isnan(v)))
                        return u"colour map cell (%1, %2) = %3"_s.arg(x).arg(y).arg(v);
                }
        }
    }
    for (QCPAxisRect *rect : plot.axisRects())
        for (QCPAxis *axis : rect->axes())
            if (!finite(axis->range().lower) || !finite(axis->range().upper))
                return u"axis '%1' range [%2, %3]"_s.arg(axis->label())
                    .arg(axis->range().lower)
                    .arg(axis->range().upper);
    for (int i = 0; i < plot.itemCount(); ++i) {
        QCPAbstractItem *item = plot.item(i);
        if (!item->realVisibility())
            continue;
        for (QCPItemPosition *position : item->positions())
            if (!finite(position->coords().x()) || !finite(position->coords().y()))
                return u"a %1 at (%2, %3)"_s.arg(QString::fromLatin1(item->metaObject()->className()))
                    .arg(position->coords().x())
                    .arg(position->coords().y());
    }
    return {};
}

QString describe(const QString &figure, std::uint64_t seed, const Params &p)
{
    QStringList keys;
    for (const ParamSpec &row : ParamTable::rows())
        if (row.kind != ParamKind::Matrix && ParamText::get(p, row.key) != ParamText::get(Params(), row.key))
            keys.append(u"--%1 %2"_s.arg(row.key, ParamText::get(p, row.key)));
    return u"%1, POSENC_FUZZ_SEED=%2: %3"_s.arg(figure).arg(seed).arg(keys.join(u' '));
}

} // namespace

class TestFiniteFigures : public QObject
{
    Q_OBJECT

private slots:
    void everyFiguresDataIsFinite_data();
    void everyFiguresDataIsFinite();
};

void TestFiniteFigures::everyFiguresDataIsFinite_data()
{
    QTest::addColumn<QString>("figure");
    for (const FigureDescriptor *d : FigureRegistry::all())
        QTest::newRow(qPrintable(d->model().name())) << d->model().name();
}

void TestFiniteFigures::everyFiguresDataIsFinite()
{
    QFETCH(QString, figure);
    const FigureDescriptor &descriptor = FigureBuilds::figure(figure);
    const fuzzing::Budget budget = fuzzing::Budget::fromEnvironment(12, FigureRegistry::all().size());
    const bool wholeSpace = budget.seconds > 0.0;
    QStringList families;
    for (const QString &family : fuzzing::families()) {
        Params p;
        ParamText::set(p, u"encoding"_s, family);
        if (descriptor.model().appliesTo(p))
            families.append(family);
    }
    QElapsedTimer clock;
    clock.start();
    int built = 0;
    for (int n = 0; budget.more(n, clock); ++n) {
        const QString family = families[n % families.size()];
        const std::uint64_t seed = budget.seed(figure + family, n);
        fuzzing::ParamDraw draw(seed);
        Params p = draw.draw(family);
        if (!wholeSpace) {
            p.maxLen = std::min<std::int64_t>(p.maxLen, std::int64_t(1) << maxLenBits());
            p.dModel = std::min<std::int64_t>(p.dModel, std::int64_t(1) << dModelBits());
        }
        if (!p.isValid())
            continue;
        // Its options chosen at random, else as they default.
        FigureState state;
        for (const FigureOption &option : descriptor.model().options()) {
            if (option.kind == FigureOption::Kind::Choice && !option.choices.isEmpty() && draw.chance(0.6))
                state.options.insert(option.key, option.choices[draw.uniform(0, int(option.choices.size()) - 1)]);
            else if (option.kind == FigureOption::Kind::Switch && draw.chance(0.5))
                state.options.insert(option.key, u"true"_s);
        }
        if (!descriptor.model().check(p, state).isEmpty())
            state = {};
        if (!descriptor.model().check(p, state).isEmpty())
            continue;
        const auto build = FigureBuilds::build(figure, p, kSize, state);
        if (build->error()) {
            if (qEnvironmentVariableIsSet("POSENC_FUZZ_VERBOSE"))
                qInfo().noquote() << FigureBuilds::errorOf(*build) << describe(figure, seed, p);
            continue; // refused up front: over the memory budget, or no room for its text
        }
        ++built;
        // The heatmap draws any table: ALiBi's causal bias and the batch's distances are masked there too.
        const bool maskedTable = figure == u"heatmap"_s
            && (HeatmapModel::quantity(state, p) == Quantity::AlibiBias
                || HeatmapModel::quantity(state, p) == Quantity::DocumentDistance);
        const bool masked = figure == u"alibi-bias"_s || figure == u"head-map"_s || figure == u"position-ids"_s
            || figure == u"document-distance"_s || maskedTable;
        const QString problem = firstNonFinite(*build->plot(), masked);
        QVERIFY2(problem.isEmpty(), qPrintable(problem + u" (%1)"_s.arg(describe(figure, seed, p))));
    }
    // Short mode's draws must build some figures; by hand, a slow figure builds fewer.
    if (!budget.replay)
        QVERIFY2(built >= (wholeSpace ? 1 : 3), qPrintable(u"%1: only %2 figures built"_s.arg(figure).arg(built)));
}

POSENC_TEST_MAIN(TestFiniteFigures)
} // namespace tst_finitefigures
#include "tst_finitefigures.moc"
