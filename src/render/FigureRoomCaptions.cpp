#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "FigureFit.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"

// The captions of a figure on little room, before they go (docs/ARCHITECTURE.md, "Figures at any
// size").
namespace posenc::FigureRoom::Steps {

bool captionsInShorterForms(QCustomPlot *plot)
{
    // A caption wrapped to more than a line whose figure gives shorter forms of it, each as true as
    // the whole (ShorterLabels::setText), shows the first that holds in one line: the line an
    // author keeps under a paper's figure (rope-rotation's tables at double, "tables: pairs 0–16
    // as pixel means of ~85 positions"), before the captions go (dropCaptions).
    Changes &changes = Changes::of(plot);
    bool changed = false;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *text = qobject_cast<QCPTextElement *>(element);
        if (!text || roleOf(text) != TextRole::Caption || !text->realVisibility() || Changes::isHidden(text))
            continue;
        const QStringList forms = ShorterLabels::ofText(text);
        const QString whole = changes.originalText(text);
        if (forms.isEmpty() || whole.isEmpty() || FigureFit::unwrapped(text) != whole)
            continue;
        const double width = FigureFit::roomFor(text, plot->viewport().width() - 8.0);
        if (!whole.contains(u'\n') && MeasuredText::advance(text->font(), whole) <= width)
            continue;
        for (const QString &form : forms) {
            if (MeasuredText::advance(text->font(), form) <= width) {
                changed |= changes.setText(text, form);
                break;
            }
        }
    }
    return changed;
}

bool dropCaptionForms(QCustomPlot *plot)
{
    Changes &changes = Changes::of(plot);
    bool changed = false;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *text = qobject_cast<QCPTextElement *>(element);
        if (text && roleOf(text) == TextRole::Caption && !text->text().isEmpty()
            && ShorterLabels::ofText(text).contains(FigureFit::unwrapped(text)))
            changed |= changes.dropText(text);
    }
    return changed;
}

} // namespace posenc::FigureRoom::Steps
