#include "FigureRoomChanges.h"

#include "FigureFit.h"
#include "FigureFonts.h"
#include "FigureRoom.h"
#include "SwatchLegend.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::FigureRoom {

namespace {

const QString kChangesName = u"posencFigureRoom"_s;
const QString kHiddenLayer = u"posencGivenUp"_s;
const QString kStatements = u"  ·  "_s;

// Where `element` sits in the grid that holds it; (-1, -1) when no grid does.
std::pair<int, int> cellOf(const QCPLayoutGrid *grid, const QCPLayoutElement *element)
{
    int row = -1, column = -1;
    for (int i = 0; grid && i < grid->elementCount(); ++i)
        if (grid->elementAt(i) == element)
            grid->indexToRowCol(i, row, column);
    return {row, column};
}

} // namespace

Changes::Changes(QCustomPlot *plot)
    : QObject(plot)
    , m_plot(plot)
{
    setObjectName(kChangesName);
}

Changes &Changes::of(QCustomPlot *plot)
{
    Changes *found = find(*plot);
    return found ? *found : *new Changes(plot);
}

Changes *Changes::find(const QCustomPlot &plot)
{
    return plot.findChild<Changes *>(kChangesName, Qt::FindDirectChildrenOnly);
}

QCPLayer *Changes::hiddenLayer(QCustomPlot *plot)
{
    if (QCPLayer *layer = plot->layer(kHiddenLayer))
        return layer;
    plot->addLayer(kHiddenLayer, nullptr, QCustomPlot::limBelow);
    QCPLayer *layer = plot->layer(kHiddenLayer);
    layer->setVisible(false);
    return layer;
}

bool Changes::isHidden(const QCPLayerable *layerable)
{
    return layerable && layerable->layer() && layerable->layer()->name() == kHiddenLayer;
}

Changes::Text &Changes::textOf(QCPTextElement *element)
{
    for (Text &change : m_texts)
        if (change.element == element)
            return change;
    const QString given = FigureFit::unwrapped(element);
    return m_texts.emplace_back(Text {element, given, given, element->minimumSize(), element->maximumSize(),
                                      element->margins(), element->autoMargins()});
}

QString Changes::originalText(QCPTextElement *element)
{
    return textOf(element).original;
}

bool Changes::setText(QCPTextElement *element, const QString &text)
{
    Text &change = textOf(element);
    if (FigureFit::unwrapped(element) == text)
        return false;
    change.shown = text;
    element->setText(text);
    return true;
}

bool Changes::dropText(QCPTextElement *element)
{
    if (!element || element->text().isEmpty())
        return false;
    setText(element, QString());
    element->setMargins(QMargins());
    takeNoRoom(element, Qt::Horizontal);
    closeUpAround({element});
    hideUnexplained();
    return true;
}

Changes::Axis &Changes::axisOf(QCPAxis *axis)
{
    for (Axis &change : m_axes)
        if (change.axis == axis)
            return change;
    m_axes.push_back({axis, FigureFit::unwrappedLabel(axis), FigureFit::unwrappedLabel(axis), axis->tickLabelPadding(),
                      axis->labelPadding(), axis->padding()});
    return m_axes.back();
}

void Changes::keepAxis(QCPAxis *axis)
{
    axisOf(axis);
}

bool Changes::setAxisLabel(QCPAxis *axis, const QString &label)
{
    Axis &change = axisOf(axis);
    if (FigureFit::unwrappedLabel(axis) == label)
        return false;
    change.shown = label;
    axis->setLabel(label);
    return true;
}

bool Changes::setSpacing(QCPLayoutGrid *grid, int rows, int columns)
{
    if (grid->rowSpacing() == rows && grid->columnSpacing() == columns)
        return false;
    if (std::none_of(m_spacings.begin(), m_spacings.end(), [grid](const Spacing &kept) { return kept.grid == grid; }))
        m_spacings.push_back({grid, grid->rowSpacing(), grid->columnSpacing(), {}});
    grid->setRowSpacing(rows);
    grid->setColumnSpacing(columns);
    return true;
}

QList<double> Changes::givenStretch(const QCPLayoutGrid *grid) const
{
    for (const Spacing &kept : m_spacings)
        if (kept.grid == grid && kept.stretch.size() == grid->columnCount())
            return kept.stretch;
    return grid->columnStretchFactors();
}

bool Changes::setColumnStretch(QCPLayoutGrid *grid, const QList<double> &factors)
{
    if (grid->columnStretchFactors() == factors)
        return false;
    const auto kept = std::find_if(m_spacings.begin(), m_spacings.end(),
                                   [grid](const Spacing &spacing) { return spacing.grid == grid; });
    if (kept == m_spacings.end())
        m_spacings.push_back({grid, grid->rowSpacing(), grid->columnSpacing(), grid->columnStretchFactors()});
    else if (kept->stretch.isEmpty())
        kept->stretch = grid->columnStretchFactors();
    grid->setColumnStretchFactors(factors);
    return true;
}

bool Changes::narrowBar(QCPColorScale *scale, int width)
{
    const QVariant limit = scale->property(FigureFonts::kBarLimitProperty);
    if (limit.isValid() && limit.toInt() <= width)
        return false;
    m_narrowed.push_back(scale);
    scale->setProperty(FigureFonts::kBarLimitProperty, width);
    if (scale->barWidth() > width)
        scale->setBarWidth(width);
    return true;
}

bool Changes::hide(const QList<QCPLayoutElement *> &elements)
{
    QCPLayer *hidden = hiddenLayer(m_plot);
    QList<QCPLayoutElement *> hiding;
    for (QCPLayoutElement *element : elements) {
        if (!element || element->layer() == hidden)
            continue;
        m_elements.push_back({element, element->layer(), element->minimumSize(), element->maximumSize(),
                              element->autoMargins(), element->margins()});
        toHidden(element);
        hiding.append(element);
    }
    QList<QCPAxisRect *> rects;
    for (QCPLayoutElement *element : hiding) {
        element->setMinimumSize(1, 1);
        // No margins of its own either (a panel title's, a legend's), whatever computed them.
        element->setAutoMargins(QCP::msNone);
        element->setMargins(QMargins());

        // Axis rects and colorbars within it keep no margins of their own, nor any in their groups.
        QList<QCPLayoutElement *> within {element};
        if (const auto *layout = qobject_cast<QCPLayout *>(element))
            within += layout->elements(true);
        for (QCPLayoutElement *inner : within) {
            if (!inner || !(qobject_cast<QCPAxisRect *>(inner) || qobject_cast<QCPColorScale *>(inner)))
                continue;
            if (inner != element)
                m_elements.push_back({inner, inner->layer(), inner->minimumSize(), inner->maximumSize(),
                                      inner->autoMargins(), inner->margins()});
            inner->setAutoMargins(QCP::msNone);
            inner->setMargins(QMargins());
            if (auto *rect = qobject_cast<QCPAxisRect *>(inner))
                rects.append(rect);
            // A colorbar sizes itself from its bar and its axis's labels at every layout.
            if (auto *scale = qobject_cast<QCPColorScale *>(inner)) {
                m_bars.push_back(
                    {scale, scale->barWidth(), scale->axis()->tickLabels(), FigureFit::unwrappedLabel(scale->axis())});
                scale->setBarWidth(0);
                scale->axis()->setTickLabels(false);
                scale->axis()->setLabel(QString());
            }
        }
        const auto *grid = qobject_cast<const QCPLayoutGrid *>(element->layout());
        const auto [row, column] = cellOf(grid, element);
        const auto aloneIn = [&, row = row, column = column](bool inRow) {
            const int count = inRow ? grid->columnCount() : grid->rowCount();
            for (int k = 0; k < count; ++k) {
                const QCPLayoutElement *other = inRow ? grid->elementAt(grid->rowColToIndex(row, k))
                                                      : grid->elementAt(grid->rowColToIndex(k, column));
                if (other && other->layer() != hidden)
                    return false;
            }
            return true;
        };
        // Its greatest extent the other way is set, not hinted: a legend's hint is its entries'
        // widths (its margins alone once they are taken), and would cap its column or row.
        if (row >= 0 && aloneIn(true))
            takeNoRoom(element, Qt::Horizontal);
        else if (column >= 0 && aloneIn(false))
            takeNoRoom(element, Qt::Vertical);
    }
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        QCPAbstractItem *item = m_plot->item(i);
        if (item->clipToAxisRect() && rects.contains(item->clipAxisRect()) && item->layer() != hidden) {
            m_items.push_back({item, item->layer()});
            toHidden(item);
        }
    }
    closeUpAround(hiding);
    // A legend whose every entry named a plottable of these panels names nothing left: it goes.
    const QList<QCPLayoutElement *> emptied = takeEntries(rects);
    if (!emptied.isEmpty())
        hide(emptied);
    hideFoldsOfHidden();
    hideUnexplained();
    return !hiding.isEmpty();
}

QList<QCPLayoutElement *> Changes::takeEntries(const QList<QCPAxisRect *> &rects)
{
    QList<QCPLayoutElement *> emptied;
    for (QCPLayoutElement *element : m_plot->plotLayout()->elements(true)) {
        auto *legend = qobject_cast<QCPLegend *>(element);
        if (!legend)
            continue;
        Taken taken {legend, {}, {}};
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = legend->item(i);
            if (!item)
                continue;
            taken.order.append(item);
            auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
            if (entry && entry->plottable() && rects.contains(entry->plottable()->keyAxis()->axisRect()))
                taken.taken.append(item);
        }
        if (taken.taken.isEmpty())
            continue;
        // Out of the legend, an entry would still be drawn where it was.
        for (const QPointer<QCPAbstractLegendItem> &item : std::as_const(taken.taken))
            takeOut(legend, item);
        legend->setFillOrder(legend->fillOrder(), true); // closes the gaps
        m_taken.push_back(taken);
        // Or names only marks over the data (an entry a figure named a caption), which go with the captions.
        const bool marks = std::all_of(taken.order.begin(), taken.order.end(), [&](const auto &item) {
            return taken.taken.contains(item) || item->property(kRoleProperty).toInt() == int(TextRole::Caption);
        });
        if (marks && !isHidden(legend))
            emptied.append(legend);
    }
    return emptied;
}

void Changes::putBack(const Taken &taken)
{
    QCPLegend *legend = taken.legend;
    QList<QCPAbstractLegendItem *> back;
    for (const QPointer<QCPAbstractLegendItem> &item : taken.taken) {
        if (!item)
            continue;
        auto *entry = qobject_cast<QCPPlottableLegendItem *>(item.data());
        // The figure deleted the plottable since, or named it again (a new filling): its entry is the figure's.
        if (!legend || namesNothing(item)
            || (entry && entry->plottable() && legend->hasItemWithPlottable(entry->plottable())))
            delete item.data();
        else
            back.append(item);
    }
    if (!legend || back.isEmpty())
        return;
    // The entries in their order before, those the figure added since after them.
    QList<QCPAbstractLegendItem *> now;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i)) // a legend's empty cells give none
            now.append(item);
    QList<QCPAbstractLegendItem *> order;
    for (const QPointer<QCPAbstractLegendItem> &item : taken.order)
        if (item && (now.contains(item) || back.contains(item)))
            order.append(item);
    for (QCPAbstractLegendItem *item : std::as_const(now))
        if (!order.contains(item))
            order.append(item);
    for (QCPAbstractLegendItem *item : std::as_const(now))
        legend->take(item);
    legend->simplify();
    for (QCPAbstractLegendItem *item : std::as_const(order)) {
        legend->addItem(item);
        item->setVisible(true);
        item->setProperty(kLabelledProperty, QVariant());
    }
}

bool Changes::unfold(QCPLegend *legend)
{
    if (legend->property("fitUnfold").toBool())
        return false;
    legend->setProperty("fitUnfold", true);
    m_unfolded.push_back({legend, legend->iconSize(), legend->iconTextPadding(), legend->columnSpacing(),
                          legend->rowSpacing(), legend->margins()});
    legend->setIconSize(std::min(legend->iconSize().width(), 12), std::min(legend->iconSize().height(), 8));
    legend->setIconTextPadding(std::min(legend->iconTextPadding(), 3));
    // Columns 8 units apart at 9 pt, as far for its text at any size (rope-layouts' 14-pt slide).
    const int spacing = std::max(qRound(8.0 * legend->font().pointSizeF() / FigureFonts::kBasePointSize), 8);
    legend->setColumnSpacing(std::min(legend->columnSpacing(), spacing));
    // Its rows as close as their entries' own margins keep their ink apart (FigureFonts), and its
    // own margins a unit or two: on a column's page each line of a legend is a twelfth of its height.
    legend->setRowSpacing(0);
    const QMargins margins = legend->margins();
    legend->setMargins({std::min(margins.left(), 2), std::min(margins.top(), 1), std::min(margins.right(), 2),
                        std::min(margins.bottom(), 1)});
    return true;
}

bool Changes::share(QCPAxis *axis, QCPAxis *keeper)
{
    if (!axis->tickLabels() && axis->label().isEmpty())
        return false;
    m_shared.push_back({axis, axis->tickLabels(), FigureFit::unwrappedLabel(axis), keeper, nullptr});
    axis->setTickLabels(false);
    axis->setLabel(QString());
    return true;
}

void Changes::unshareHidden()
{
    for (Shared &change : m_shared) {
        if (!change.axis || !change.keeper || !isHidden(change.keeper->axisRect()))
            continue;
        change.axis->setTickLabels(change.tickLabels);
        change.axis->setLabel(change.label);
        change.keeper = nullptr;
        rejoin(change);
    }
}

bool Changes::renameEntry(QCPAbstractPlottable *plottable, const QString &name)
{
    if (plottable->name() == name)
        return false;
    m_entries.push_back({plottable, plottable->name(), name});
    plottable->setName(name);
    return true;
}

bool Changes::relabelSwatch(QCPAbstractLegendItem *item, const QString &label)
{
    const QString before = SwatchLegend::label(item);
    if (before == label || !SwatchLegend::setLabel(item, label))
        return false;
    m_swatches.push_back({item, before, label});
    return true;
}

bool Changes::hideItem(QCPAbstractItem *item)
{
    if (isHidden(item))
        return false;
    m_items.push_back({item, item->layer()});
    toHidden(item);
    return true;
}

bool Changes::relabelTicks(QCPAxis *axis, const QMap<double, QString> &labels)
{
    auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker || ticker->ticks() == labels)
        return false;
    m_ticks.push_back({ticker, ticker->ticks(), labels});
    ticker->setTicks(labels);
    return true;
}

void Changes::moveInside(QCPLegend *legend, QCPAxisRect *rect, Qt::Alignment corner, int wrap)
{
    auto *grid = qobject_cast<QCPLayoutGrid *>(legend->layout());
    const auto [row, column] = cellOf(grid, legend);
    m_moved.push_back({legend, grid, row, column, legend->brush(), legend->wrap(), legend->property("fitWished"),
                       legend->property("fitSet"), legend->property("fitUnfold")});
    // FigureFit then takes the wrap as the figure's wish, which the corner holds.
    legend->setProperty("fitUnfold", QVariant());
    if (wrap != legend->wrap()) {
        legend->setWrap(wrap);
        legend->setFillOrder(legend->fillOrder(), true);
    }
    legend->layout()->take(legend);
    rect->insetLayout()->addElement(legend, corner);
    legend->setBrush(QColor(255, 255, 255, 225));
    legend->setProperty("posencInside", true);
}

void Changes::undo()
{
    undoFolds();
    undoRanges();
    undoGroups();
    for (const Spacing &spacing : m_spacings)
        if (spacing.grid) {
            spacing.grid->setRowSpacing(spacing.rows);
            spacing.grid->setColumnSpacing(spacing.columns);
            // A grid the figure laid out again with other columns since keeps the figure's.
            if (!spacing.stretch.isEmpty() && spacing.stretch.size() == spacing.grid->columnCount())
                spacing.grid->setColumnStretchFactors(spacing.stretch);
        }
    for (const QPointer<QCPColorScale> &scale : m_narrowed)
        if (scale)
            scale->setProperty(FigureFonts::kBarLimitProperty, QVariant());
    for (auto taken = m_taken.rbegin(); taken != m_taken.rend(); ++taken)
        putBack(*taken);
    for (auto moved = m_moved.rbegin(); moved != m_moved.rend(); ++moved) {
        if (!moved->legend)
            continue;
        moved->legend->setBrush(moved->brush);
        moved->legend->setProperty("posencInside", QVariant());
        moved->legend->setProperty("fitWished", moved->wished);
        moved->legend->setProperty("fitSet", moved->set);
        moved->legend->setProperty("fitUnfold", moved->unfolded);
        if (moved->legend->wrap() != moved->wrap) {
            moved->legend->setWrap(moved->wrap);
            moved->legend->setFillOrder(moved->legend->fillOrder(), true);
        }
        if (!moved->grid || moved->grid->hasElement(moved->row, moved->column))
            continue;
        if (QCPLayout *inset = moved->legend->layout())
            inset->take(moved->legend);
        moved->grid->addElement(moved->row, moved->column, moved->legend);
    }
    for (const Text &change : m_texts) {
        if (!change.element)
            continue;
        // A text the figure set since keeps the figure's.
        if (FigureFit::unwrapped(change.element) == change.shown)
            change.element->setText(change.original);
        change.element->setMinimumSize(change.minimum);
        change.element->setMaximumSize(change.maximum);
        change.element->setAutoMargins(change.autoMargins);
        change.element->setMargins(change.margins);
    }
    for (const Axis &change : m_axes) {
        if (!change.axis)
            continue;
        if (FigureFit::unwrappedLabel(change.axis) == change.shown)
            change.axis->setLabel(change.label);
        change.axis->setTickLabelPadding(change.tickLabelPadding);
        change.axis->setLabelPadding(change.labelPadding);
        change.axis->setPadding(change.padding);
    }
    for (const auto &[element, margins] : m_margins)
        if (element)
            element->setMinimumMargins(margins);
    for (Shared &change : m_shared) {
        rejoin(change);
        if (!change.axis || change.axis->tickLabels() || !change.axis->label().isEmpty())
            continue;
        change.axis->setTickLabels(change.tickLabels);
        change.axis->setLabel(change.label);
    }
    for (const Entry &entry : m_entries)
        if (entry.plottable && entry.plottable->name() == entry.shown)
            entry.plottable->setName(entry.name);
    for (const Swatch &swatch : m_swatches)
        if (swatch.item && SwatchLegend::label(swatch.item) == swatch.shown)
            SwatchLegend::setLabel(swatch.item, swatch.label);
    for (const Ticks &ticks : m_ticks)
        if (ticks.ticker->ticks() == ticks.shown)
            ticks.ticker->setTicks(ticks.labels);
    for (const Bar &bar : m_bars) {
        if (!bar.scale)
            continue;
        bar.scale->setBarWidth(bar.width);
        bar.scale->axis()->setTickLabels(bar.tickLabels);
        if (bar.scale->axis()->label().isEmpty())
            bar.scale->axis()->setLabel(bar.label);
    }
    // Latest first: an element recorded twice (hidden within a grid, then itself) ends as it was.
    for (auto it = m_elements.rbegin(); it != m_elements.rend(); ++it) {
        const Element &change = *it;
        if (!change.element)
            continue;
        if (isHidden(change.element))
            change.element->setLayer(change.layer);
        change.element->setMinimumSize(change.minimum);
        change.element->setMaximumSize(change.maximum);
        change.element->setAutoMargins(change.autoMargins);
        // Auto margins start from the margins they had too (a text's and a legend's keep them).
        change.element->setMargins(change.margins);
    }
    // After the elements hidden: a legend unfolded (step 4) before it was hidden (a legend of
    // marks, as a caption) was recorded hidden with its unfolded margins, which would stay.
    for (const Unfolded &unfolded : m_unfolded) {
        if (!unfolded.legend)
            continue;
        unfolded.legend->setProperty("fitUnfold", QVariant());
        unfolded.legend->setIconSize(unfolded.icon);
        unfolded.legend->setIconTextPadding(unfolded.iconTextPadding);
        unfolded.legend->setColumnSpacing(unfolded.columnSpacing);
        unfolded.legend->setRowSpacing(unfolded.rowSpacing);
        unfolded.legend->setMargins(unfolded.margins);
    }
    restoreLayers();
}

std::optional<QString> Changes::originalOf(const QCPTextElement *element) const
{
    for (const Text &change : m_texts)
        if (change.element == element && FigureFit::unwrapped(element) == change.shown)
            return change.original;
    return std::nullopt;
}

QStringList Changes::setAside(const QCPTextElement *title) const
{
    QStringList texts;
    for (const Text &change : m_texts)
        if (change.element && change.element != title && FigureFit::unwrapped(change.element) == change.shown
            && change.shown != change.original)
            texts.append(QString(change.original).replace(u'\n', kStatements));
    // A folded label is shown elsewhere, as it was when folded: shortened first, it is set aside.
    for (const Axis &change : m_axes) {
        if (!change.axis)
            continue;
        const QVariant folded = change.axis->property(kFoldedProperty);
        const QString shown = folded.isValid() ? folded.toString() : FigureFit::unwrappedLabel(change.axis);
        if ((shown == change.shown || folded.isValid()) && shown != change.label)
            texts.append(QString(change.label).replace(u'\n', u' '));
    }
    for (const Entry &entry : m_entries)
        if (entry.plottable && entry.plottable->name() == entry.shown)
            texts.append(entry.name);
    for (const Swatch &swatch : m_swatches)
        if (swatch.item && SwatchLegend::label(swatch.item) == swatch.shown)
            texts.append(swatch.label);
    for (const Ticks &ticks : m_ticks)
        if (ticks.ticker->ticks() == ticks.shown)
            texts.append(QStringList(ticks.labels.values()).join(u", "_s));
    // What went whole: the names of the panels given up, and the entries of the legends.
    for (const Element &change : m_elements) {
        if (!change.element || !isHidden(change.element))
            continue;
        QString gone;
        if (const auto *text = qobject_cast<const QCPTextElement *>(change.element.data()))
            gone = QString(FigureFit::unwrapped(text)).replace(u'\n', kStatements);
        else if (const auto *legend = qobject_cast<const QCPLegend *>(change.element.data())) {
            if (legend->property(kLabelledProperty).toBool())
                continue; // its entries stand on its curves
            QStringList entries;
            for (int i = 0; i < legend->itemCount(); ++i) {
                QCPAbstractLegendItem *item = legend->item(i);
                if (!item)
                    continue;
                auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
                const QString name
                    = entry && entry->plottable() ? entry->plottable()->name() : SwatchLegend::label(item);
                if (!name.isEmpty())
                    entries.append(name);
            }
            gone = entries.join(u", "_s);
        }
        if (!gone.isEmpty() && !texts.contains(gone))
            texts.append(gone);
    }
    return texts;
}

} // namespace posenc::FigureRoom
