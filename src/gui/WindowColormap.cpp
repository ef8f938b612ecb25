#include "WindowColormap.h"

#include "FigureView.h"
#include "TableCheckDialog.h"

#include "render/data/ViewOptions.h"

namespace posenc::WindowColormap {

namespace {

// The view's colormap as its bar shows it, if its figure takes the option: the default (auto) where
// the state names none.
std::optional<QString> colormapOf(const FigureView *view)
{
    const QString key = QString::fromUtf16(ViewOptions::kColormap);
    const auto option = view->figure().model().option(key);
    if (!option)
        return std::nullopt;
    return view->state().option(key, option->defaultText);
}

} // namespace

std::optional<Colormap> chosen(const FigureView *current, const QList<FigureView *> &views)
{
    QList<const FigureView *> order;
    if (current)
        order.append(current);
    for (const FigureView *view : views) {
        if (view != current && view->isVisibleTo(view->window()))
            order.append(view);
    }
    for (const FigureView *view : order) {
        if (const std::optional<QString> name = colormapOf(view))
            return Colormaps::fromName(*name);
    }
    return std::nullopt;
}

void follow(TableCheckDialog *dialog, std::function<const FigureView *()> current, const QList<FigureView *> &views)
{
    const auto update = [dialog, current, views] { dialog->setColormap(chosen(current(), views)); };
    update();
    // The dialog as the context: no call reaches it once it is gone.
    for (FigureView *view : views) {
        QObject::connect(view, &FigureView::stateEdited, dialog, update);
        QObject::connect(view, &FigureView::plotFocused, dialog, update);
    }
}

} // namespace posenc::WindowColormap
