#include "FigureRoom.h"
#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "FigureFit.h"
#include "MeasuredText.h"

#include <algorithm>
#include <cmath>

// A figure's one colour bar laid across under its panels, beside the key in the row the key
// already takes (docs/ARCHITECTURE.md, "Figures at any size"): matplotlib's
// fig.colorbar(..., orientation="horizontal") in a strip of the page's last row.
namespace posenc::FigureRoom {

namespace {

std::pair<int, int> cellIn(QCPLayoutGrid *grid, const QCPLayoutElement *element)
{
    for (int row = 0; row < grid->rowCount(); ++row)
        for (int column = 0; column < grid->columnCount(); ++column)
            if (grid->hasElement(row, column) && grid->element(row, column) == element)
                return {row, column};
    return {-1, -1};
}

constexpr std::array kSides {QCP::msLeft, QCP::msRight, QCP::msTop, QCP::msBottom};

} // namespace

bool Changes::barBeside(QCPColorScale *scale, QCPLegend *legend)
{
    auto *scaleGrid = qobject_cast<QCPLayoutGrid *>(scale->layout());
    auto *legendGrid = qobject_cast<QCPLayoutGrid *>(legend->layout());
    if (!scaleGrid || !legendGrid)
        return false;
    Strip strip;
    strip.scale = scale;
    strip.legend = legend;
    strip.scaleGrid = scaleGrid;
    strip.legendGrid = legendGrid;
    std::tie(strip.scaleRow, strip.scaleColumn) = cellIn(scaleGrid, scale);
    std::tie(strip.legendRow, strip.legendColumn) = cellIn(legendGrid, legend);
    if (strip.scaleRow < 0 || strip.legendRow < 0)
        return false;
    strip.type = scale->type();
    strip.legendMaximum = legend->maximumSize();
    for (std::size_t i = 0; i < kSides.size(); ++i) {
        strip.groups[i] = marginGroupOf(*scale, kSides[i]);
        scale->setMarginGroup(kSides[i], nullptr);
    }
    keepMargins(scale);
    scaleGrid->take(scale);
    legendGrid->take(legend);
    strip.strip = new QCPLayoutGrid;
    legendGrid->addElement(strip.legendRow, strip.legendColumn, strip.strip);
    strip.strip->addElement(0, 0, legend);
    strip.strip->addElement(0, 1, scale);
    // The key as wide as its entries, the bar the rest of the row (a colour scale sets its own
    // least and most sizes at each layout); FigureFit fits the key's columns to the room its
    // stretch gives it (FigureFit::roomWithin), its columns as they are.
    const QMargins margins = legend->margins();
    legend->setMaximumSize(legend->minimumOuterSizeHint().width() - margins.left() - margins.right(),
                           strip.legendMaximum.height());
    strip.strip->setColumnStretchFactors({1.0, 0.01});
    strip.strip->setColumnSpacing(scaleGrid->columnSpacing());
    // The label stays with the axis that had it (setType would hand it on), drawn by none.
    strip.label = scale->axis()->label();
    scale->axis()->setLabel(QString());
    scale->setType(QCPAxis::atBottom);
    scale->setMargins(QMargins());
    m_strips.push_back(strip);
    return true;
}

void Changes::undoStrips()
{
    for (auto it = m_strips.rbegin(); it != m_strips.rend(); ++it) {
        Strip &strip = *it;
        if (!strip.scale || !strip.legend)
            continue;
        QCPAxis *across = strip.scale->axis();
        across->setProperty(kFoldedProperty, QVariant());
        across->setLabel(QString());
        strip.scale->setType(strip.type);
        strip.scale->axis()->setLabel(strip.label);
        // Its margins from none again, not held at those it took across (FigureLayoutLoop::layOut).
        strip.scale->setMargins(QMargins());
        strip.legend->setMaximumSize(strip.legendMaximum);
        if (strip.strip) {
            strip.strip->take(strip.scale);
            strip.strip->take(strip.legend);
        }
        if (strip.legendGrid && strip.strip)
            strip.legendGrid->remove(strip.strip);
        if (strip.legendGrid && !strip.legendGrid->hasElement(strip.legendRow, strip.legendColumn))
            strip.legendGrid->addElement(strip.legendRow, strip.legendColumn, strip.legend);
        if (strip.scaleGrid && !strip.scaleGrid->hasElement(strip.scaleRow, strip.scaleColumn))
            strip.scaleGrid->addElement(strip.scaleRow, strip.scaleColumn, strip.scale);
        for (std::size_t i = 0; i < kSides.size(); ++i)
            strip.scale->setMarginGroup(kSides[i], strip.groups[i]);
    }
    m_strips.clear();
}

namespace Steps {

bool barsBesideKeys(QCustomPlot *plot)
{
    // Only past the title, on a page short of room whose plots are short of half of it: a figure
    // that reads with its bar down its side keeps it there.
    const QCPLayoutGrid *layout = plot->plotLayout();
    if (const auto *title = layout->elementCount() > 0 ? qobject_cast<QCPTextElement *>(layout->elementAt(0)) : nullptr;
        (title && !FigureFit::unwrapped(title).isEmpty()) || plotShare(*plot) >= kMinPlotShare)
        return false;
    QList<QCPColorScale *> bars;
    QList<QCPLegend *> keys;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (!element || !element->realVisibility() || Changes::isHidden(element))
            continue;
        if (auto *scale = qobject_cast<QCPColorScale *>(element))
            bars.append(scale);
        else if (auto *legend = qobject_cast<QCPLegend *>(element);
                 legend && !legend->property("posencInside").toBool() && legend->itemCount() > 0)
            keys.append(legend);
    }
    // The figure's one bar, down the side of its panels, its scale of numbers; one key in a row
    // under it.
    if (bars.size() != 1 || keys.size() != 1)
        return false;
    QCPColorScale *scale = bars.first();
    QCPLegend *key = keys.first();
    QCPAxis *axis = scale->axis();
    if (scale->type() != QCPAxis::atRight || !axis->tickLabels()
        || !shortOfRoom(*plot, axis->tickLabelFont().pointSizeF())
        || key->outerRect().top() < scale->outerRect().bottom())
        return false;
    // Room beside the key's entries, a grid's spacing from them, for the bar's label level with its
    // left end and, under the bar, three of its numbers (its ends and its middle) half a digit apart.
    const QFont &font = axis->tickLabelFont();
    double widest = 0.0;
    for (const QString &number : axis->tickVectorLabels())
        widest = std::max(widest, MeasuredText::advance(font, number));
    const QString label = shownLabel(axis);
    const double space = MeasuredText::advance(font, QStringLiteral("0")) / 2.0;
    const int gap = static_cast<int>(std::ceil(space));
    const int half = static_cast<int>(std::ceil(widest / 2.0));
    const int left = std::max(static_cast<int>(std::ceil(MeasuredText::advance(axis->labelFont(), label))) + gap, half);
    const auto *grid = qobject_cast<QCPLayoutGrid *>(scale->layout());
    const int spacing = grid ? grid->columnSpacing() : 0;
    const double needs = left + 2.0 * (widest + space) + half + spacing + 2;
    const double room = key->outerRect().width() - key->minimumOuterSizeHint().width();
    if (label.isEmpty() || room < needs)
        return false;
    Changes &changes = Changes::of(plot);
    // A label the steps set elsewhere (above the bar's top) stands beside it instead.
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            text && text->clipAxisRect() == axis->axisRect() && !Changes::isHidden(text))
            changes.hideItem(text);
    if (!changes.barBeside(scale, key))
        return false;
    axis = scale->axis();
    // Its label at the bar's left end, level with it; its end numbers within the strip.
    auto *text = new QCPItemText(plot);
    text->setClipAxisRect(axis->axisRect());
    text->setClipToAxisRect(false);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setAxisRect(axis->axisRect());
    text->position->setCoords(0.0, 0.5);
    text->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
    text->setPadding(QMargins(0, 0, gap, 0));
    text->setFont(axis->labelFont());
    text->setColor(axis->labelColor());
    text->setText(label);
    scale->setMinimumMargins(QMargins(left + 1, 0, half + 1, 0));
    changes.foldLabel(scale, text);
    axis->setProperty(kFoldedProperty, label);
    return true;
}

} // namespace Steps

} // namespace posenc::FigureRoom
