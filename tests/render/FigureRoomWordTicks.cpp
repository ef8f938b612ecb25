// Tick labels of words on little room (FigureRoom::Steps::elideTickLabels, docs/ARCHITECTURE.md,
// "Figures at any size"), run by tst_figureroom.
#include "FigureRoomWordTicks.h"

#include "render/FigureRoom.h"
#include "render/FigureRoomSteps.h"
#include "render/PinnedFont.h"

#include <QTest>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace FigureRoomWordTicks {

QCPAxisRect *oneRect(QCustomPlot &plot, const QFont &font, double upper)
{
    plot.setFont(font);
    plot.setViewport(QRect(0, 0, 300, 200));
    plot.plotLayout()->clear();
    auto *rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(font);
        axis->setRange(0.0, upper);
    }
    return rect;
}

// The head map's rows are named by models ("Llama-4-Scout", "Gemma 4 31B"): too wide for a quarter
// of a small figure, each keeps its first whole words that no other row begins with ("Llama",
// "Gemma 4" beside "Gemma 3"), not a word cut ("Gemm…"); one already narrow enough stays whole,
// and the names come back whole when the step is undone.
void keepTheirFirstWords()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    QCPAxisRect *rect = oneRect(plot, font, 4.0);
    plot.setViewport(QRect(0, 0, 280, 200)); // a quarter: 70 units
    QCPAxis *y = rect->axis(QCPAxis::atLeft);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const QStringList names {u"Llama-4-Scout-17B"_s, u"GLM-4.5"_s, u"Gemma 4 31B-it"_s, u"Gemma 3 27B-it"_s,
                             u"DeepSeek-V3-Base"_s};
    for (qsizetype i = 0; i < names.size(); ++i)
        ticker->addTick(double(i), names[i]);
    y->setTicker(ticker);
    const QFontMetricsF metrics(font);
    QVERIFY(metrics.horizontalAdvance(u"GLM-4.5"_s) <= 70.0);
    QVERIFY(metrics.horizontalAdvance(u"Llama-4-Scout-17B"_s) > 70.0);
    QVERIFY(FigureRoom::Steps::elideTickLabels(&plot));
    QStringList shown = ticker->ticks().values();
    QCOMPARE(shown, (QStringList {u"Llama"_s, u"GLM-4.5"_s, u"Gemma 4"_s, u"Gemma 3"_s, u"DeepSeek"_s}));
    for (const QString &label : shown)
        QVERIFY2(metrics.horizontalAdvance(label) <= 70.0, qPrintable(label));
    FigureRoom::restore(&plot);
    QCOMPARE(ticker->ticks().values(), names);
}

// A tick label in lines (mrope-axes' rows: the rule over the model whose rule it is) is as wide as
// its widest line: lines that each hold in a quarter of the figure stay whole, though end to end
// they would not, and a line too wide is cut alone, the lines above and below it kept whole.
void measuredLineByLine()
{
    QCustomPlot plot;
    const QFont font(PinnedFont::family(), 9);
    QCPAxisRect *rect = oneRect(plot, font, 1.0);
    const QFontMetricsF metrics(font);
    const double quarter = std::ceil(metrics.horizontalAdvance(u"interleaved"_s)) + 2.0;
    plot.setViewport(QRect(0, 0, int(4 * quarter), 200));
    QCPAxis *y = rect->axis(QCPAxis::atLeft);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const QStringList names {u"chunked\n(Qwen2-VL)"_s, u"interleaved\n(Qwen3-VL)"_s};
    ticker->addTick(0.0, names[0]);
    ticker->addTick(1.0, names[1]);
    y->setTicker(ticker);
    QVERIFY(metrics.horizontalAdvance(u"interleaved(Qwen3-VL)"_s) > quarter);
    QVERIFY(!FigureRoom::Steps::elideTickLabels(&plot));
    QCOMPARE(ticker->ticks().values(), names);
    // A third line too wide: cut to its first word, the rule and the model over it whole.
    const QString marked = names[1] + u"\n◀ these parameters of the model"_s;
    ticker->addTick(1.0, marked);
    QVERIFY(metrics.horizontalAdvance(u"◀ these parameters of the model"_s) > quarter);
    QVERIFY(FigureRoom::Steps::elideTickLabels(&plot));
    const QStringList lines = ticker->ticks().value(1.0).split(u'\n');
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], u"interleaved"_s);
    QCOMPARE(lines[1], u"(Qwen3-VL)"_s);
    QVERIFY2(lines[2].startsWith(u"◀"_s) && metrics.horizontalAdvance(lines[2]) <= quarter, qPrintable(lines[2]));
    QCOMPARE(ticker->ticks().value(0.0), names[0]);
    FigureRoom::restore(&plot);
    QCOMPARE(ticker->ticks().value(1.0), marked);
}

} // namespace FigureRoomWordTicks
