#include "NopeOrderModel.h"

#include "core/none/NopeOrder.h"
#include "render/data/LogSpacedPoints.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Every integer up to this many, then log-spaced points: the curves are smooth in log t.
constexpr std::int64_t kEveryPoint = 4096;
constexpr int kLogPoints = 2048;

} // namespace

std::int64_t NopeOrderModel::measuredRows(const Params &params)
{
    return std::min(NopeOrder::measuredRows(params, kMeasuredCells), kMeasuredRows);
}

std::optional<NopeOrderData> NopeOrderModel::compute(const Engine &engine, const std::atomic<bool> *cancel)
{
    const Params &params = engine.params();
    NopeOrderData data;
    data.maxLen = params.maxLen;
    data.dModel = params.embeddingColumns();
    data.scale = params.scale();
    data.sigma = params.sigma();
    data.loaded = params.embeddings != nullptr;
    auto norms = NopeOrder::prefixNorms(engine, measuredRows(params), cancel);
    if (!norms)
        return std::nullopt;
    const auto rows = static_cast<std::int64_t>(norms->size());
    data.prefix = logSpacedPoints(params.maxLen, kEveryPoint, kLogPoints); // t + 1
    for (const double n : std::as_const(data.prefix)) {
        const auto t = static_cast<std::int64_t>(n) - 1;
        data.weight.append(NopeOrder::causalWeight(t));
        if (const auto e = NopeOrder::expectedNorm(params, t))
            data.expected.append(*e);
        if (t < rows) {
            data.measuredPrefix.append(n);
            data.measured.append((*norms)[static_cast<std::size_t>(t)]);
        }
    }
    data.bidirectionalWeight = NopeOrder::bidirectionalWeight(params);
    data.bidirectionalMeasured = rows == params.maxLen && rows > 0;
    data.bidirectionalNorm = data.bidirectionalMeasured ? std::optional(norms->back())
                                                        : NopeOrder::expectedNorm(params, params.maxLen - 1);
    data.norms = std::make_shared<const std::vector<double>>(std::move(*norms));
    return data;
}

QString NopeOrderModel::name() const
{
    return u"nope-order"_s;
}

QString NopeOrderModel::title() const
{
    return u"NoPE: order from the causal mask"_s;
}

QString NopeOrderModel::summary() const
{
    return u"how a layer without position tells positions apart: uniform attention over the causal prefix gives the "
           "first key 1/(t+1) and its output, the mean of s*E's rows 0..t, a norm shrinking as s*sigma*sqrt(d/(t+1)); "
           "without the mask both are flat"_s;
}

QList<Quantity> NopeOrderModel::inputs(const FigureState &) const
{
    return {Quantity::Embedding};
}

FigureResult NopeOrderModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Params &params = request.engine->params();
    if (auto refusal = request.engine->check(
            Quantity::Embedding,
            {0, std::min(measuredRows(params), NopeOrder::kChunkRows), 0, params.embeddingColumns()}))
        return {nullptr, refusal};
    auto data = compute(*request.engine, &cancel);
    if (!data)
        return {};
    return {std::make_shared<const NopeOrderData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
