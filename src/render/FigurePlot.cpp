#include "FigurePlot.h"

#include <QStringList>

using namespace Qt::StringLiterals;

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

void FigurePlot::setScreenNote(const QString &note, const QString &preview)
{
    QStringList parts {preview, note};
    parts.removeAll(QString());
    m_screenNote = parts.join(u"  ·  "_s);
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
