// The length an axis's label is wrapped to and measured against (FigureFit.h).
#include "FigureFit.h"

#include <QFontMetricsF>

#include <algorithm>

namespace posenc::FigureFit {

double labelLength(const QCPAxis *axis)
{
    // A label is centred on its axis and may reach into the margins beside it, not past them; an
    // x axis's keeps a quarter of a line of its font clear of the page's left and right edges, where
    // its rect's margins end there (a y axis's ends are its plot's, and a plot that short holds no
    // more: mrope-positions' "position" at 6 x 4 cm).
    const QRect inner = axis->axisRect()->rect();
    const QRect outer = axis->axisRect()->outerRect();
    if (axis->orientation() == Qt::Vertical)
        return 2.0 * std::min(inner.center().y() - outer.top(), outer.bottom() - inner.center().y());
    const QRect page = axis->parentPlot()->viewport();
    const double clear = QFontMetricsF(axis->labelFont()).height() / 4.0;
    const double left = std::max<double>(outer.left(), page.left() + clear);
    // QRect's right() is a unit short of the edge.
    const double right = std::min<double>(outer.right(), page.left() + page.width() - clear);
    const double centre = inner.center().x();
    return std::max(0.0, 2.0 * std::min(centre - left, right - centre));
}

} // namespace posenc::FigureFit
