// Every line figure reads its value at the cursor: for each registered figure with curves, built as
// posenc export builds it for the first shipped preset of a family it draws, the window's readout
// (HoverReadout::format) over each panel of curves says a value, not the position alone. The
// query-scale figure's reading at position 1,000,000 is Llama 4 Scout's 1 + 0.1 ln 123.
#include "gui/FigureView.h"
#include "gui/HoverReadout.h"
#include "support/TestMain.h"

#include "io/Preset.h"
#include "render/FigurePlot.h"
#include "support/FigureBuilds.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>

namespace tst_linereadings {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr std::int64_t kLength = 2048;

// The parameters of the first shipped preset the figure draws, at most kLength positions; the
// defaults where it draws every family. A family no preset has (NoPE) is drawn for the first
// preset with its encoding that family.
std::optional<Params> paramsFor(const FigureDescriptor &figure)
{
    const QList<Encoding> families = figure.model().families();
    for (const bool asFamily : {false, true}) {
        for (const Preset &preset : Presets::shipped().presets) {
            auto applied = preset.applyTo(Params {});
            if (!std::holds_alternative<Params>(applied))
                continue;
            Params p = std::get<Params>(applied);
            p.maxLen = std::min(p.maxLen, kLength);
            p.dModel = std::min<std::int64_t>(p.dModel, 512);
            if (asFamily && !families.isEmpty())
                p.encoding = families.first();
            if (p.isValid() && figure.model().appliesTo(p) && FigureRegistry::check(figure, p, {}).isEmpty())
                return p;
        }
    }
    return std::nullopt;
}

// The axis rects that hold curves.
QList<QCPAxisRect *> curvePanels(QCustomPlot &plot)
{
    QList<QCPAxisRect *> panels;
    for (QCPAxisRect *rect : plot.axisRects()) {
        const QList<QCPGraph *> graphs = rect->graphs();
        if (std::any_of(graphs.begin(), graphs.end(), [](QCPGraph *g) { return !g->data()->isEmpty(); }))
            panels.append(rect);
    }
    return panels;
}

// The readout without its position: what it says of the value.
QString reading(const QString &readout)
{
    static const QRegularExpression position(u"position -?\\d+"_s);
    return QString(readout).remove(position);
}

// The figure in a view of the window's at 1200 x 800, drawn for `params` in `state`.
std::unique_ptr<FigureView> shown(const QString &name, const Params &params, const FigureState &state = {})
{
    auto view = std::make_unique<FigureView>(FigureBuilds::figure(name));
    view->resize(1200, 800);
    view->setParams(params);
    view->setState(state);
    view->show();
    if (!QTest::qWaitForWindowExposed(view.get()) || !QTest::qWaitFor([&view] { return view->isSettled(); }, 60000))
        return nullptr;
    return view;
}

} // namespace

class TestLineReadings : public QObject
{
    Q_OBJECT

private slots:
    void everyLineFigureReadsItsValue_data();
    void everyLineFigureReadsItsValue();
    void theQueryScaleAtAMillion();
};

void TestLineReadings::everyLineFigureReadsItsValue_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &name : FigureRegistry::names())
        QTest::newRow(qPrintable(name)) << name;
}

void TestLineReadings::everyLineFigureReadsItsValue()
{
    QFETCH(QString, name);
    const FigureDescriptor &figure = FigureBuilds::figure(name);
    const auto params = paramsFor(figure);
    if (!params)
        QSKIP("no shipped preset of a family it draws");
    const auto view = shown(name, *params);
    QVERIFY(view);
    const QList<QCPAxisRect *> panels = curvePanels(*view->plot());
    if (panels.isEmpty())
        QSKIP("no curves");
    const Engine &engine = *view->engine();
    for (QCPAxisRect *rect : panels) {
        // Across the panel, somewhere a reading with a number besides the position.
        bool read = false;
        QStringList said;
        for (const double at : {0.5, 0.25, 0.75, 0.1, 0.9}) {
            const QPointF pixel(rect->left() + at * rect->width(), rect->top() + 0.5 * rect->height());
            const auto point = view->figurePlot()->hoverAt(pixel, engine);
            if (!point)
                continue;
            const QString readout = HoverReadout::format(engine, *point);
            said.append(readout);
            read = read || reading(readout).contains(QRegularExpression(u"\\d"_s));
        }
        QVERIFY2(read, qPrintable(name + u": "_s + (said.isEmpty() ? u"no readout"_s : said.join(u" | "_s))));
    }
}

void TestLineReadings::theQueryScaleAtAMillion()
{
    FigureState state;
    state.options.insert(u"config"_s, u"llama-4-scout"_s);
    const auto view = shown(u"query-scale"_s, Params {}, state);
    QVERIFY(view);
    QCPAxisRect *rect = curvePanels(*view->plot()).value(0);
    QVERIFY(rect);
    const double x = rect->axis(QCPAxis::atBottom)->coordToPixel(1e6 + 0.5);
    const auto point = view->figurePlot()->hoverAt({x, rect->top() + 0.5 * rect->height()}, *view->engine());
    QVERIFY(point);
    QCOMPARE(point->position, 1000000);
    // log1p(floor((1000000 + 1) / 8192)) · 0.1 + 1, modeling_llama4.py's temperature.
    const QString expected = QString::number(1.0 + 0.1 * std::log(123.0), 'f', 4);
    QCOMPARE(expected, u"1.4812"_s);
    const QString readout = HoverReadout::format(*view->engine(), *point);
    QVERIFY2(readout.contains(expected), qPrintable(readout));
}

POSENC_TEST_MAIN(TestLineReadings)
} // namespace tst_linereadings
#include "tst_linereadings.moc"
