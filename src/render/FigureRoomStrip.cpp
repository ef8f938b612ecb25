#include "FigureRoom.h"
#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "FigureFit.h"
#include "MeasuredText.h"

#include <algorithm>
#include <cmath>

// A figure's one colour bar laid across under its panels, beside the key in the row the key
// already takes, or in a row of its own over it (docs/ARCHITECTURE.md, "Figures at any size"):
// matplotlib's fig.colorbar(..., orientation="horizontal") in a strip of the page's last row.
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
// matplotlib's colour bar's long side to its short (colorbar.make_axes, aspect=20).
constexpr double kBarAspect = 20.0;
// A stretch factor as good as none (QCPLayoutGrid takes only positive ones).
constexpr double kEmptyStretch = 1e-6;

// The row `legend` stands in: the grid of one row centring it (PlotStyle::legendRow), as wide as
// its grid's column; else the legend itself.
QCPLayoutElement *rowOf(QCPLegend *legend)
{
    if (auto *row = qobject_cast<QCPLayoutGrid *>(legend->layout());
        row && row->rowCount() == 1 && qobject_cast<QCPLayoutGrid *>(row->layout()))
        return row;
    return legend;
}

// Whether the plots gain by `scale`'s column, and the grid's `spacing` beside it, more than they
// lose by a row of its own under them: the bar across (as thick as down the side, at most), its
// ticks and its numbers' line.
bool gainsByOwnRow(const QCustomPlot &plot, const QCPColorScale *scale, int spacing)
{
    QRect plots;
    for (QCPAxisRect *rect : plot.axisRects())
        if (rect->realVisibility() && !Changes::isHidden(rect) && !dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            plots |= rect->rect();
    const QCPAxis *axis = scale->axis();
    const double column = scale->outerRect().width() + spacing;
    const double row = scale->barWidth() + axis->tickLengthOut() + axis->tickLabelPadding()
        + QFontMetricsF(axis->tickLabelFont()).height();
    return (plots.width() + column) * (plots.height() - row) > double(plots.width()) * plots.height();
}

} // namespace

bool Changes::barBeside(QCPColorScale *scale, QCPLegend *legend, bool ownRow)
{
    QCPLayoutElement *held = ownRow ? rowOf(legend) : legend;
    auto *scaleGrid = qobject_cast<QCPLayoutGrid *>(scale->layout());
    auto *heldGrid = qobject_cast<QCPLayoutGrid *>(held->layout());
    if (!scaleGrid || !heldGrid)
        return false;
    Strip strip;
    strip.scale = scale;
    strip.legend = legend;
    strip.held = held;
    strip.scaleGrid = scaleGrid;
    strip.heldGrid = heldGrid;
    std::tie(strip.scaleRow, strip.scaleColumn) = cellIn(scaleGrid, scale);
    std::tie(strip.heldRow, strip.heldColumn) = cellIn(heldGrid, held);
    if (strip.scaleRow < 0 || strip.heldRow < 0)
        return false;
    strip.type = scale->type();
    strip.barWidth = scale->barWidth();
    strip.legendMaximum = legend->maximumSize();
    for (std::size_t i = 0; i < kSides.size(); ++i) {
        strip.groups[i] = marginGroupOf(*scale, kSides[i]);
        scale->setMarginGroup(kSides[i], nullptr);
    }
    keepMargins(scale);
    scaleGrid->take(scale);
    // The bar's column, left empty, as narrow as it can be: an empty cell has no most width, and
    // its stretch would take its share of the row (head-map's panel kept half of it).
    strip.scaleStretch = scaleGrid->columnStretchFactors();
    bool empty = true;
    for (int row = 0; row < scaleGrid->rowCount(); ++row)
        empty = empty && !scaleGrid->hasElement(row, strip.scaleColumn);
    if (empty)
        scaleGrid->setColumnStretchFactor(strip.scaleColumn, kEmptyStretch);
    heldGrid->take(held);
    strip.strip = new QCPLayoutGrid;
    heldGrid->addElement(strip.heldRow, strip.heldColumn, strip.strip);
    if (ownRow) {
        // The bar over the key's row, its numbers' line and the key's apart by their leading as
        // two lines of text are: a spacing would stay under the bar once the key went into its
        // plot (legendsInside), 4 units of a 6 x 4 cm page's 151.
        strip.strip->addElement(0, 0, scale);
        strip.strip->addElement(1, 0, held);
        strip.strip->setRowSpacing(0);
    } else {
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
    }
    // The label stays with the axis that had it (setType would hand it on), drawn by none.
    strip.label = scale->axis()->label();
    scale->axis()->setLabel(QString());
    QCPAxis *bottom = scale->axis()->axisRect()->axis(QCPAxis::atBottom);
    strip.acrossScale = bottom->scaleType();
    strip.acrossTicks = {bottom->tickLengthIn(), bottom->subTickLengthIn(), bottom->subTicks() ? 1 : 0};
    scale->setType(QCPAxis::atBottom);
    // setType hands the new axis the range, label and ticker, not the scale type: a log bar's axis
    // across would place its powers of ten on a linear scale (10⁵ at the bar's left end).
    scale->axis()->setScaleType(scale->dataScaleType());
    scale->setMargins(QMargins());
    m_strips.push_back(strip);
    return true;
}

void Changes::undoStrips()
{
    for (auto it = m_strips.rbegin(); it != m_strips.rend(); ++it) {
        Strip &strip = *it;
        if (!strip.scale || !strip.legend || !strip.held)
            continue;
        QCPAxis *across = strip.scale->axis();
        across->setProperty(kFoldedProperty, QVariant());
        across->setLabel(QString());
        strip.scale->setType(strip.type);
        strip.scale->setBarWidth(strip.barWidth);
        across->setScaleType(strip.acrossScale);
        across->setTickLengthIn(strip.acrossTicks[0]);
        across->setSubTickLengthIn(strip.acrossTicks[1]);
        across->setSubTicks(strip.acrossTicks[2] != 0);
        strip.scale->axis()->setLabel(strip.label);
        // Its margins from none again, not held at those it took across (FigureLayoutLoop::layOut).
        strip.scale->setMargins(QMargins());
        strip.legend->setMaximumSize(strip.legendMaximum);
        // The key may have left the strip since, into its plot (legendsInside): it goes back from
        // there to its own cell after (Changes::undo).
        for (QCPLayoutElement *element : {static_cast<QCPLayoutElement *>(strip.scale), strip.held.data()})
            if (strip.strip && element->layout() == strip.strip)
                strip.strip->take(element);
        if (strip.heldGrid && strip.strip)
            strip.heldGrid->remove(strip.strip);
        if (strip.heldGrid && !strip.heldGrid->hasElement(strip.heldRow, strip.heldColumn))
            strip.heldGrid->addElement(strip.heldRow, strip.heldColumn, strip.held);
        if (strip.scaleGrid && !strip.scaleGrid->hasElement(strip.scaleRow, strip.scaleColumn))
            strip.scaleGrid->addElement(strip.scaleRow, strip.scaleColumn, strip.scale);
        // Its column's stretch as it was, where the figure has not laid the grid out anew since.
        if (strip.scaleGrid && strip.scaleStretch.size() == strip.scaleGrid->columnCount())
            strip.scaleGrid->setColumnStretchFactors(strip.scaleStretch);
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
    if (label.isEmpty())
        return false;
    // Where the key's entries fill its row (head-map's, cut to hold in it), the bar in a row of its
    // own over the key's, where the plots gain more by its column than they lose by that row.
    const bool ownRow = room < needs;
    const int across = rowOf(key)->outerRect().width();
    if (ownRow && (across < needs || !gainsByOwnRow(*plot, scale, spacing)))
        return false;
    Changes &changes = Changes::of(plot);
    // A label the steps set elsewhere (above the bar's top) stands beside it instead.
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            text && text->clipAxisRect() == axis->axisRect() && !Changes::isHidden(text))
            changes.hideItem(text);
    if (!changes.barBeside(scale, key, ownRow))
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
    // In a row of its own, the bar as thin as matplotlib draws one across for its length
    // (colorbar.make_axes: aspect 20, its long side to its short), no thicker than down the side,
    // its ticks reaching half across it and none between them: ticks through a thin bar, and a log
    // bar's eight a decade, read as bands of it.
    if (ownRow) {
        const int thickness = std::max(2, static_cast<int>(std::lround((across - left - half - 2) / kBarAspect)));
        changes.narrowBar(scale, thickness);
        axis->setTickLengthIn((std::min(thickness, scale->barWidth()) + 1) / 2);
        axis->setSubTicks(false);
    }
    changes.foldLabel(scale, text);
    axis->setProperty(kFoldedProperty, label);
    return true;
}

} // namespace Steps

} // namespace posenc::FigureRoom
