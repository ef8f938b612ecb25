#include "LessonPage.h"

#include "core/ParamText.h"
#include "render/FigureBuild.h"
#include "render/FigurePage.h"
#include "render/FigureRegistry.h"

#include <utility>

using namespace Qt::StringLiterals;

namespace posenc::LessonPage {

QList<const FigureDescriptor *> figures(const Lesson &lesson, const LessonModel &model, const Params &params,
                                        QTextStream &err)
{
    QList<const FigureDescriptor *> named, kept;
    for (const QString &name : lesson.slideFigures(model))
        if (const FigureDescriptor *figure = FigureRegistry::find(name))
            named.append(figure);
    QStringList left;
    for (const FigureDescriptor *figure : std::as_const(named)) {
        if (figure->model().appliesTo(params))
            kept.append(figure);
        else
            left.append(figure->name());
    }
    if (!left.isEmpty() && !kept.isEmpty())
        err << "posenc export: all: " << left.join(u", "_s) << (left.size() == 1 ? " is" : " are")
            << " left out: drawn for other families than " << ParamText::toString(params.encoding) << '\n';
    return kept.isEmpty() ? named : kept;
}

std::optional<QSize> grid(const QList<const FigureDescriptor *> &figures, const QList<FigureState> &states,
                          const std::shared_ptr<const Engine> &engine, const FigureStyle &style,
                          const FigureSize &page, int threads, const std::atomic<bool> *cancel)
{
    const int count = int(figures.size());
    const QSize usual = FigurePage::grid(count, page.layout);
    QList<QSize> shapes {usual};
    for (const QSize &shape : FigurePage::grids(count))
        if (shape != usual)
            shapes.append(shape);
    QSize best = usual;
    std::pair<qsizetype, qsizetype> most {-1, -1}; // the main figure's panels, then all figures'
    for (const QSize &shape : std::as_const(shapes)) {
        const QList<QRect> cells = FigurePage::cells(count, page.layout, shape);
        std::pair<qsizetype, qsizetype> drawn {0, 0};
        for (int i = 0; i < count; ++i) {
            FigureBuild build(*figures[i], engine, states[i], style, FigurePage::cellSize(page, cells[i]));
            if (!build.run(threads, cancel))
                return std::nullopt;
            const qsizetype panels = build.error() ? -1 : FigureBuild::plotRects(*build.plot()).size();
            if (i == 0)
                drawn.first = panels;
            drawn.second += panels;
        }
        if (drawn > most) {
            most = drawn;
            best = shape;
        }
    }
    return best;
}

} // namespace posenc::LessonPage
