#include "FigurePlot.h"

namespace posenc {

FigurePlot::~FigurePlot() = default;

QList<ViewAxis> FigurePlot::viewAxes() const
{
    return {};
}

void FigurePlot::showDefaultView(const Params &, const FigureState &) { }

void FigurePlot::setCompact(bool) { }

QList<PositionAxis> FigurePlot::positionAxes() const
{
    return {};
}

std::optional<HoverPoint> FigurePlot::hoverAt(const QPointF &, const Engine &) const
{
    return std::nullopt;
}

QList<QCPAxisRect *> FigurePlot::pictureRects() const
{
    return {};
}

bool FigurePlot::isInteractive() const
{
    return true;
}

} // namespace posenc
