#include "MapOptions.h"

#include "CellNumbers.h"
#include "Colormaps.h"

#include "data/ViewOptions.h"

namespace posenc::MapOptions {

std::optional<Colormap> chosenColormap(const FigureState &state)
{
    return Colormaps::fromName(state.option(QString::fromUtf16(ViewOptions::kColormap)));
}

void apply(QCustomPlot *plot, const FigureModel &model, const FigureState &state)
{
    if (!model.drawsColourMaps())
        return;
    CellNumbers::setShown(plot, ViewOptions::showsCellNumbers(state));
    if (model.choosesColormap())
        return;
    const auto chosen = chosenColormap(state);
    if (!chosen)
        return; // auto: each figure's own, diverging about zero for signed data, sequential else
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto *map = qobject_cast<QCPColorMap *>(plot->plottable(i));
        if (!map)
            continue;
        // The chosen map, with the colour the figure gives a cell that holds no number (a masked key).
        QCPColorGradient gradient = Colormaps::gradient(*chosen);
        gradient.setNanHandling(map->gradient().nanHandling());
        gradient.setNanColor(map->gradient().nanColor());
        if (QCPColorScale *scale = map->colorScale())
            scale->setGradient(gradient); // and every map it colours
        else
            map->setGradient(gradient);
    }
}

} // namespace posenc::MapOptions
