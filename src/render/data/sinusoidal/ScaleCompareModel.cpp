#include "ScaleCompareModel.h"

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
