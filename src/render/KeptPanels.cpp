#include "KeptPanels.h"

#include "FigureRoom.h"
#include "FigureRoomChanges.h"

namespace posenc::KeptPanels {

namespace {

// Set on a panel its figure left out itself for room (setLeftOut).
constexpr char kLeftOutProperty[] = "posencLeftOutForRoom";

// The order a figure gave `element` (FigureRoom::setDispensable): 0 when it cannot do without it.
int dispensableOrder(const QCPLayoutElement *element)
{
    return element->property(FigureRoom::kDispensableProperty).toInt();
}

// Whether `element` or what holds it is given up or not shown.
bool hiddenOrGivenUp(const QCPLayoutElement *element)
{
    for (const QCPLayoutElement *at = element; at; at = at->layout())
        if (FigureRoom::Changes::isHidden(at) || !at->visible())
            return true;
    return false;
}

// `element` and what holds it, and beside each the unnamed parts of its order, marked kept.
void keepWithHolders(QCPLayoutElement *element)
{
    for (QCPLayoutElement *at = element; at; at = at->layout()) {
        const int order = dispensableOrder(at);
        if (order == 0)
            continue;
        FigureRoom::setDispensable(at, 0);
        if (QCPLayout *holder = at->layout()) {
            for (QCPLayoutElement *beside : holder->elements(false))
                if (beside && dispensableOrder(beside) == order && FigureRoom::panelsNamedIn(beside).isEmpty())
                    FigureRoom::setDispensable(beside, 0);
        }
    }
}

// The panel titles of `plot`, each with the text its figure set (a step may have shortened it).
QList<std::pair<QCPTextElement *, QString>> panelTitles(QCustomPlot *plot)
{
    const FigureRoom::Changes *changes = FigureRoom::Changes::find(*plot);
    QList<std::pair<QCPTextElement *, QString>> titles;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *text = qobject_cast<QCPTextElement *>(element);
        if (text && FigureRoom::roleOf(text) == TextRole::PanelTitle)
            titles.append({text, changes ? changes->originalOf(text).value_or(text->text()) : text->text()});
    }
    return titles;
}

} // namespace

QList<QCPAxisRect *> named(QCustomPlot *plot, const QString &words)
{
    QList<QCPAxisRect *> rects;
    for (const auto &[title, text] : panelTitles(plot))
        if (text.contains(words, Qt::CaseInsensitive) || title->text().contains(words, Qt::CaseInsensitive))
            if (QCPAxisRect *rect = FigureRoom::panelNamedBy(title); rect && !rects.contains(rect))
                rects.append(rect);
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue; // a colour bar: no panel
        for (const QCPAxis::AxisType side : {QCPAxis::atLeft, QCPAxis::atBottom}) {
            const QString label = FigureRoom::shownLabel(rect->axis(side));
            if (label.contains(words, Qt::CaseInsensitive) && !rects.contains(rect))
                rects.append(rect);
        }
    }
    return rects;
}

void keep(QCustomPlot *plot, const QStringList &panels)
{
    for (const QString &words : panels) {
        for (QCPAxisRect *rect : named(plot, words)) {
            keepWithHolders(rect);
            for (const auto &[title, text] : panelTitles(plot))
                if (FigureRoom::panelNamedBy(title) == rect)
                    keepWithHolders(title);
        }
    }
}

bool drawn(QCustomPlot *plot, const QString &words)
{
    for (const QCPAxisRect *rect : named(plot, words))
        if (!hiddenOrGivenUp(rect) && rect->realVisibility())
            return true;
    return false;
}

void setLeftOut(QCPAxisRect *panel, bool leftOut)
{
    panel->setProperty(kLeftOutProperty, leftOut);
}

FigureRoom::PanelsKept leftOut(const QCustomPlot &plot)
{
    FigureRoom::PanelsKept kept = FigureRoom::panelsKept(plot);
    // A panel its figure took out of its layout is not among QCustomPlot::axisRects(): its children.
    for (const QCPAxisRect *rect : plot.findChildren<QCPAxisRect *>()) {
        bool givenUp = false; // counted by panelsKept
        for (const QCPLayoutElement *at = rect; at && !givenUp; at = at->layout())
            givenUp = FigureRoom::Changes::isHidden(at);
        if (!givenUp && !rect->visible() && rect->property(kLeftOutProperty).toBool()) {
            ++kept.panels;
            ++kept.givenUp;
        }
    }
    return kept;
}

} // namespace posenc::KeptPanels
