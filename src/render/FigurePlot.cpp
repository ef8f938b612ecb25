#include "FigurePlot.h"

#include "data/FigureText.h"

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
    // The whole, then each shorter form of the note after the preview's first word ("preview (25%
    // of rows)" is "preview"), or the whole note after it.
    const QStringList forms = note.split(FigureText::kLengthVariants);
    const QString brief = preview.startsWith(u"preview"_s) ? u"preview"_s : preview;
    QStringList variants;
    for (qsizetype i = 0; i < forms.size(); ++i) {
        QStringList parts {i == 0 ? preview : brief, forms[i]};
        parts.removeAll(QString());
        variants.append(parts.join(u"  ·  "_s));
        if (i == 0 && forms.size() == 1 && brief != preview) {
            parts.replace(0, brief);
            variants.append(parts.join(u"  ·  "_s));
        }
    }
    variants.removeDuplicates();
    m_screenNote = variants.join(FigureText::kLengthVariants);
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
