#include "ScaleCompareModel.h"

#include "core/FamilySpec.h"
#include "core/ParamText.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString ScaleCompareModel::name() const
{
    return u"scale-compare"_s;
}

QString ScaleCompareModel::title() const
{
    return u"Scale compare"_s;
}

QString ScaleCompareModel::summary() const
{
    return u"why s = sqrt(d_model): ||s*E_p|| and ||PE_p|| for sigma in {1, d^-1/2} x s in {1, sqrt(d)}, the ratio "
           "measured beside sqrt(s^2 sigma^2 d / (d/2))"_s;
}

QList<Encoding> ScaleCompareModel::families() const
{
    QList<Encoding> out;
    for (const FamilySpec &family : Families::all()) {
        if (family.term && family.term->normSquared)
            out.append(family.encoding);
    }
    return out;
}

QList<ParamError> ScaleCompareModel::checkOptions(const Params &params, const FigureState &) const
{
    // The sinusoid of an odd width has its mean square in closed form too (ScaleCompareData).
    const FamilySpec &family = Families::spec(params.encoding);
    if (params.encoding == Encoding::Sinusoidal || !family.term || !family.term->normSquared
        || family.term->normSquared(params))
        return {};
    const auto why = family.term->noOneNorm ? family.term->noOneNorm(params) : std::nullopt;
    return {{u"encoding"_s, QString(),
             u"is %1, whose position term has no one norm here%2, which the %3 figure compares with"_s.arg(
                 ParamText::toString(params.encoding), why ? u" ("_s + *why + u")"_s : QString(), name()),
             std::nullopt}};
}

QList<Quantity> ScaleCompareModel::inputs(const FigureState &) const
{
    return {Quantity::Pe, Quantity::Embedding};
}

bool ScaleCompareModel::hasPreview(const FigureRequest &request) const
{
    const Params &p = request.engine->params();
    // Worth it where the full data measures more positions than the preview's budget allows.
    return ScaleCompareCompute::positionStride(p, Detail::Preview)
        > ScaleCompareCompute::positionStride(p, Detail::Full);
}

FigureResult ScaleCompareModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    auto data = ScaleCompareCompute::compute(request.engine->params(), request.detail, {request.threads, &cancel});
    if (!data)
        return {};
    return {std::make_shared<const ScaleCompareData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
