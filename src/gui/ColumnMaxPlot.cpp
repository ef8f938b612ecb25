#include "ColumnMaxPlot.h"

#include "render/PlotStyle.h"

using namespace Qt::StringLiterals;

namespace posenc::ColumnMaxPlot {

void prepare(QCustomPlot *plot)
{
    PlotStyle::preparePlot(plot);
    PlotStyle::resetWithTitle(plot)->setText(u"max |error| per column, over every position"_s);
    auto *rect = new QCPAxisRect(plot);
    plot->plotLayout()->addElement(1, 0, rect);
    PlotStyle::styleAxisRect(rect);
    rect->axis(QCPAxis::atBottom)->setLabel(u"column j"_s);
    rect->axis(QCPAxis::atLeft)->setLabel(u"max |error|"_s);
    PlotStyle::setLogAxis(rect->axis(QCPAxis::atLeft));
}

void draw(QCustomPlot *plot, QCPLegend *&legend, const TableCheck::Verification &verification, const TableMatch &match,
          const QCPRange &range)
{
    plot->clearGraphs();
    plot->clearItems();
    QCPAxisRect *rect = plot->axisRect();
    if (verification.columnMax.empty()) {
        plot->replot();
        return;
    }
    const std::vector<float> &max = verification.columnMax;
    QVector<double> x(qsizetype(max.size())), y(qsizetype(max.size()));
    QVector<double> badX, badY;
    for (std::size_t c = 0; c < max.size(); ++c) {
        x[qsizetype(c)] = double(c);
        y[qsizetype(c)] = std::max(double(max[c]), range.lower);
        if (c < verification.columnDeviations.size() && verification.columnDeviations[c] > 0) {
            badX.append(double(c));
            badY.append(y[qsizetype(c)]);
        }
    }
    QCPGraph *graph = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setName(u"max |error| of the column"_s);
    graph->setPen(QPen(PlotStyle::kPositional, 1.5));
    graph->setLineStyle(QCPGraph::lsStepCenter);
    graph->setData(x, y, true);
    PlotStyle::showLonePoint(graph);
    if (!badX.isEmpty()) {
        QCPGraph *bad = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        bad->setName(u"cells beyond the tolerance"_s);
        bad->setLineStyle(QCPGraph::lsNone);
        bad->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QColor(180, 30, 30), 7));
        bad->setData(badX, badY, true);
    }
    const double tolerance = match.tolerance.relative + match.tolerance.absolute;
    QCPGraph *line = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    line->setName(u"tolerance at |reference| = 1"_s);
    line->setPen(QPen(Qt::black, 1.0, Qt::DashLine));
    line->setData(QVector<double> {-0.5, double(max.size()) - 0.5}, QVector<double> {tolerance, tolerance}, true);
    if (!legend)
        legend = PlotStyle::legendRow(plot, plot->plotLayout(), 2, 3);
    legend->clearItems();
    for (int i = 0; i < plot->graphCount(); ++i)
        plot->graph(i)->addToLegend(legend);
    rect->axis(QCPAxis::atBottom)->setRange(-0.5, double(max.size()) - 0.5);
    rect->axis(QCPAxis::atLeft)->setRange(range.lower * 0.5, range.upper * 2.0);
    plot->replot();
}

} // namespace posenc::ColumnMaxPlot
