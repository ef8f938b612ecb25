#include "FigureRegistry.h"

#include <memory>
#include <vector>

namespace posenc {

#define POSENC_FIGURE(Name) std::unique_ptr<FigureDescriptor> make##Name##Figure();
#include "figures/FigureList.h"
#define POSENC_FAMILY_FIGURE(Name) POSENC_FIGURE(Name)
#include "core/FamilyList.h"
#undef POSENC_FAMILY_FIGURE
#undef POSENC_FIGURE

namespace FigureRegistry {

namespace {

struct Figures
{
    std::vector<std::unique_ptr<FigureDescriptor>> owned;
    QList<const FigureDescriptor *> list;

    Figures()
    {
#define POSENC_FIGURE(Name) owned.push_back(make##Name##Figure());
#include "figures/FigureList.h"
#define POSENC_FAMILY_FIGURE(Name) POSENC_FIGURE(Name)
#include "core/FamilyList.h"
#undef POSENC_FAMILY_FIGURE
#undef POSENC_FIGURE
        for (const auto &figure : owned)
            list.append(figure.get());
    }
};

const Figures &figures()
{
    static const Figures instance;
    return instance;
}

} // namespace

const QList<const FigureDescriptor *> &all()
{
    return figures().list;
}

const FigureDescriptor *find(const QString &name)
{
    for (const FigureDescriptor *figure : all()) {
        if (figure->name() == name)
            return figure;
    }
    return nullptr;
}

QStringList names()
{
    QStringList list;
    for (const FigureDescriptor *figure : all())
        list.append(figure->name());
    return list;
}

QStringList figuresTaking(const QString &key)
{
    QStringList list;
    for (const FigureDescriptor *figure : all()) {
        if (figure->model().option(key))
            list.append(figure->name());
    }
    return list;
}

QList<ParamError> check(const FigureDescriptor &figure, const Params &params, const FigureState &state)
{
    QList<ParamError> problems = figure.model().check(params, state);
    for (ParamError &e : problems) {
        if (figure.model().option(e.key))
            continue;
        if (const QStringList others = figuresTaking(e.key); !others.isEmpty())
            e.problem += QStringLiteral("; %1 %2 it")
                             .arg(others.join(QStringLiteral(", ")),
                                  others.size() == 1 ? QStringLiteral("takes") : QStringLiteral("take"));
    }
    return problems;
}

} // namespace FigureRegistry

} // namespace posenc
