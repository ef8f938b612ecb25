#include "ColumnFit.h"

#include "FigureFit.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::ColumnFit {

namespace {

// A line still wider than `width` after breaking at spaces, broken after its opening brackets
// too: a formula such as "dropout(masked_fill(X))" has no space to break at.
QStringList breakAtBrackets(const QString &line, const QFontMetricsF &metrics, double width)
{
    QStringList pieces;
    qsizetype start = 0;
    for (qsizetype i = 0; i < line.size(); ++i) {
        if (line[i] == u'(' && i + 1 < line.size()) {
            pieces.append(line.mid(start, i + 1 - start));
            start = i + 1;
        }
    }
    pieces.append(line.mid(start));
    QStringList lines;
    for (const QString &piece : pieces) {
        if (!lines.isEmpty() && metrics.horizontalAdvance(lines.constLast() + piece) <= width)
            lines.last() += piece;
        else
            lines.append(piece);
    }
    return lines;
}

} // namespace

double columnWidth(const QCPLayoutGrid *grid, int columns, double reserved)
{
    const double width = grid->rect().width() - reserved;
    return width > 0.0 ? width / columns : 0.0;
}

void setText(QCPTextElement *element, const QString &text, double width)
{
    if (width <= 0.0) {
        element->setText(text);
        return;
    }
    // Within the element's margins, a unit short of the column for the rounding of its size.
    width -= element->margins().left() + element->margins().right() + 1;
    const QFontMetricsF metrics(element->font());
    QStringList lines;
    for (const QString &line : text.split(u'\n')) {
        if (metrics.horizontalAdvance(line) <= width) {
            lines.append(line);
            continue;
        }
        for (const QString &wrapped : FigureFit::wrap(line, metrics, width).split(u'\n'))
            lines += metrics.horizontalAdvance(wrapped) <= width ? QStringList {wrapped}
                                                                 : breakAtBrackets(wrapped, metrics, width);
    }
    element->setText(lines.join(u'\n'));
}

void fitLegend(QCPLegend *legend, int wrap, double width)
{
    legend->setWrap(wrap);
    legend->setFillOrder(legend->fillOrder(), true);
    while (width > 0.0 && legend->wrap() > 1 && legend->minimumOuterSizeHint().width() > width) {
        legend->setWrap(legend->wrap() - 1);
        legend->setFillOrder(legend->fillOrder(), true);
    }
}

} // namespace posenc::ColumnFit
