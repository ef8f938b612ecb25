#pragma once

#include "render/data/Colormap.h"

#include <QList>

#include <functional>
#include <optional>

namespace posenc {

class FigureView;
class TableCheckDialog;

// The colour map the user chose for the window's figures (a view's --colormap, its option bar's
// colormap), for the plots the window draws outside its views: the check window's heatmap.
namespace WindowColormap {

// The colormap of `current` (the view the figure actions act on, ExportController::currentView)
// where its figure takes one, else of the first of `views` shown whose figure does; none where
// that is auto (each figure's own) or no figure shown takes the option.
std::optional<Colormap> chosen(const FigureView *current, const QList<FigureView *> &views);

// Keeps `dialog`'s heatmap on the window's colormap: now, and whenever a view's option or figure
// is chosen, or another view takes the focus, until the dialog is gone. `current` gives the view
// the figure actions act on.
void follow(TableCheckDialog *dialog, std::function<const FigureView *()> current, const QList<FigureView *> &views);

} // namespace WindowColormap

} // namespace posenc
