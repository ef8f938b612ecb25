#include "PlotItems.h"

#include "KeepClearTicker.h"
#include "StampedGraph.h"

#include "render/data/FigureText.h"

#include <algorithm>
#include <cmath>

namespace posenc::PlotItems {

namespace {

using namespace Qt::StringLiterals;

// Ticks at powers of two, each labelled as one ("2⁻²³") or as the whole number it is ("4,096"),
// keeping clear where a room step asks (KeepsClear).
class PowerOfTwoTicker final : public KeepClearLogTicker
{
public:
    explicit PowerOfTwoTicker(bool powers)
        : m_powers(powers)
    {
        setLogBase(2.0);
        setSubTickCount(0);
    }

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        const int exponent = static_cast<int>(std::lround(std::log2(tick)));
        if (!m_powers && exponent >= 0)
            return FigureText::formatCount(std::int64_t(1) << std::min(exponent, 62));
        if (exponent == 0)
            return u"1"_s;
        static const QString digits = u"⁰¹²³⁴⁵⁶⁷⁸⁹"_s;
        QString text = u"2"_s + (exponent < 0 ? u"⁻"_s : QString());
        for (const QChar c : QString::number(std::abs(exponent)))
            text += digits[c.digitValue()];
        return text;
    }

private:
    bool m_powers;
};

} // namespace

void setLog2Axis(QCPAxis *axis, bool powers, int ticks)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new PowerOfTwoTicker(powers));
    ticker->setTickCount(ticks);
    axis->setTicker(ticker);
}

QCPGraph *line(QCPAxisRect *rect, const QColor &color, double width, Qt::PenStyle style)
{
    auto *graph = new StampedGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    QPen pen(color, width, style);
    // A square cap lengthens each dot of a dotted pen into a dash (1 + 1 widths on, 1 off): a dotted
    // line is drawn as dots, as a sentence that calls it dotted says.
    if (style == Qt::DotLine)
        pen.setCapStyle(Qt::FlatCap);
    graph->setPen(pen);
    return graph;
}

void horizontal(QCPGraph *graph, double x0, double x1, double y)
{
    graph->setData({x0, x1}, {y, y}, true);
}

void vertical(QCPGraph *graph, double x, double y0, double y1)
{
    // A graph's keys are sorted: two points at one key draw the segment between them.
    graph->setData({x, x}, {y0, y1}, true);
}

QCPItemRect *shade(QCPAxisRect *rect, const QColor &fill)
{
    auto *item = new QCPItemRect(rect->parentPlot());
    item->setClipAxisRect(rect);
    for (QCPItemPosition *corner : {item->topLeft, item->bottomRight}) {
        corner->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        corner->setAxisRect(rect);
        corner->setTypeX(QCPItemPosition::ptPlotCoords);
        corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    item->setPen(Qt::NoPen);
    item->setBrush(fill);
    item->setVisible(false);
    return item;
}

void placeShade(QCPItemRect *item, bool show, double x0, double x1)
{
    item->setVisible(show);
    if (!show)
        return;
    item->topLeft->setCoords(x0, 0.0);
    item->bottomRight->setCoords(x1, 1.0);
}

QCPRange logRange(const QList<double> &values, double margin)
{
    double lo = INFINITY, hi = 0.0;
    for (const double v : values) {
        if (v > 0.0 && std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    if (!(hi > 0.0))
        return {0.1, 10.0};
    return {lo / margin, std::max(hi * margin, lo * 10.0)};
}

} // namespace posenc::PlotItems
