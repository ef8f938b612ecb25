#include "SandwichDistanceModel.h"

#include "core/sandwich/SandwichBias.h"
#include "render/data/Detail.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

std::optional<SandwichDistanceData> SandwichDistanceModel::compute(const Params &params, double lower, double upper,
                                                                   int pixels, std::int64_t budget,
                                                                   const std::atomic<bool> *cancel)
{
    SandwichDistanceData data;
    const SandwichParams &p = params.sandwich;
    data.sandwich = p;
    data.maxLen = params.maxLen;
    data.heads = SandwichBias::drawnHeads(p.heads, p.head);
    data.farMean = -0.5 * static_cast<double>(p.headDim) / SandwichBias::scale(p.heads, p.head);
    // The distances are the offsets of query 0's keys: one sum, each head's an affine map of it.
    const OffsetPixels distances = OffsetPixels::of(0, params.maxLen, lower, upper, pixels);
    const std::vector<double> w = SandwichBias::frequencies(p.headDim);
    const auto sum = FamilyCurves::cosineSum(distances, w, 1.0, -0.5 * static_cast<double>(p.headDim), {}, budget,
                                             &data.sampled, cancel);
    if (!sum)
        return std::nullopt;
    for (const std::int64_t head : data.heads) {
        const double scale = SandwichBias::scale(p.heads, head);
        FamilyCurve curve;
        curve.offset = sum->offset;
        for (qsizetype i = 0; i < sum->lo.size(); ++i) {
            curve.lo.append(sum->lo[i] / scale);
            curve.hi.append(sum->hi[i] / scale);
        }
        data.curves.append(std::move(curve));
    }
    return data;
}

QString SandwichDistanceModel::name() const
{
    return u"sandwich-distance"_s;
}

QString SandwichDistanceModel::title() const
{
    return u"Sandwich bias by distance"_s;
}

QString SandwichDistanceModel::summary() const
{
    return u"each head's bias against the distance |i - j| (up to 16 heads drawn): one sum of cosines, shifted by "
           "-d/2 and divided by 8h/H, head K wider with the mean it tends to"_s;
}

QList<Quantity> SandwichDistanceModel::inputs(const FigureState &) const
{
    // Every head's curve, and head K (wider), which the bias reads.
    return {Quantity::SandwichDistance, Quantity::SandwichBias};
}

bool SandwichDistanceModel::hasPreview(const FigureRequest &request) const
{
    const PanelExtent panel = request.panels.value(0);
    const auto distances = static_cast<std::int64_t>(std::max(0.0, panel.x.upper - panel.x.lower));
    return distances * SandwichBias::terms(request.engine->params().sandwich.headDim)
        > FamilyCurves::kPreviewEvaluations;
}

std::optional<TableRequest> SandwichDistanceModel::table(const Params &params, const FigureState &state) const
{
    // The distances in view, every head: `posenc table sandwich-distance --positions A:B`.
    const ViewRange all {-0.5, static_cast<double>(params.maxLen) - 0.5};
    const ViewRange view = state.range(QString::fromUtf16(kDistancesAxis)).value_or(all);
    const auto rows = TableView::cellsInView(view.lower, view.upper, params.maxLen);
    if (!rows)
        return std::nullopt;
    return TableRequest {TableRequest::Cells,
                         Quantity::SandwichDistance,
                         {rows->first, rows->second - rows->first, 0, params.sandwich.heads},
                         {}};
}

FigureResult SandwichDistanceModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const PanelExtent panel = request.panels.value(0);
    const std::int64_t budget
        = request.detail == Detail::Preview ? FamilyCurves::kPreviewEvaluations : FamilyCurves::kMaxEvaluations;
    auto data
        = compute(request.engine->params(), panel.x.lower, panel.x.upper, panel.pixels().width(), budget, &cancel);
    if (!data)
        return {};
    data->preview = request.detail == Detail::Preview && data->sampled > 0;
    return {std::make_shared<const SandwichDistanceData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
