#include "PlotStyle.h"

#include "PinnedFont.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace posenc::PlotStyle {

void preparePlot(QCustomPlot *plot)
{
    plot->setNoAntialiasingOnDrag(true);
    // Each figure puts its plottables in the legend it means; QCustomPlot would otherwise
    // adopt the first legend created as the plot's own and fill it with everything.
    plot->setAutoAddPlottableToLegend(false);
    plot->setPlottingHint(QCP::phFastPolylines, true);
    plot->setBackground(Qt::white);
    // Every element copies the plot's font when created: one family, the pinned one, everywhere.
    QFont font = PinnedFont::apply(plot->font());
    font.setPointSizeF(9.0);
    plot->setFont(font);
}

void styleAxisRect(QCPAxisRect *rect)
{
    for (QCPAxis *axis : rect->axes()) {
        QFont font = axis->tickLabelFont();
        font.setPointSizeF(8.5);
        axis->setTickLabelFont(font);
        QFont label = axis->labelFont();
        label.setPointSizeF(9.0);
        axis->setLabelFont(label);
        axis->grid()->setPen(QPen(QColor(0, 0, 0, 30), 0, Qt::DotLine));
        axis->grid()->setSubGridVisible(false);
    }
}

bool isCompact(QSize layout)
{
    return layout.width() < 500 || layout.height() < 340;
}

QCPTextElement *resetWithTitle(QCustomPlot *plot)
{
    preparePlot(plot);
    plot->clearPlottables();
    plot->clearItems();
    plot->plotLayout()->clear();
    plot->plotLayout()->setRowSpacing(0);
    QFont font = plot->font();
    font.setPointSizeF(9.5);
    font.setBold(true);
    auto *title = new QCPTextElement(plot, QString(), font);
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

QString quantityLabel(Quantity quantity)
{
    switch (quantity) {
    case Quantity::Pe:
        return u"PE"_s;
    case Quantity::Embedding:
        return u"s·E"_s;
    case Quantity::Input:
        return u"X = s·E + PE"_s;
    case Quantity::Output:
        return u"Y = dropout(X)"_s;
    case Quantity::Mask:
        return u"mask (kept fraction)"_s;
    case Quantity::Similarity:
        return u"PE·PEᵀ"_s;
    case Quantity::Error:
        return u"float32-angle PE − exact PE"_s;
    }
    return {};
}

QString formatCount(std::int64_t n)
{
    return QLocale(QLocale::English).toString(static_cast<qlonglong>(n));
}

QString formatNumber(double value, int digits)
{
    // "6.03e+04" -> "6.03e4", "1.04e-04" -> "1.04e-4": short enough for a legend.
    QString text = QString::number(value, 'g', digits);
    text.replace(u"e+0"_s, u"e"_s).replace(u"e+"_s, u"e"_s).replace(u"e-0"_s, u"e-"_s);
    return text;
}

} // namespace posenc::PlotStyle
