#include "MagnitudesModel.h"

using namespace Qt::StringLiterals;

namespace posenc {

QString MagnitudesModel::name() const
{
    return u"magnitudes"_s;
}

QString MagnitudesModel::title() const
{
    return u"Magnitudes"_s;
}

QString MagnitudesModel::summary() const
{
    return u"||PE_p|| and ||s*E_p|| per position, mean and std per column"_s;
}

QList<Quantity> MagnitudesModel::inputs(const FigureState &) const
{
    return {Quantity::Pe, Quantity::Embedding};
}

bool MagnitudesModel::hasPreview(const FigureRequest &request) const
{
    const Params &p = request.engine->params();
    return p.maxLen * p.dModel > Budget::cells(Detail::Preview);
}

int MagnitudesModel::passCount(const FigureRequest &request) const
{
    return MagnitudesCompute::passCount(*request.engine);
}

FigureResult MagnitudesModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    // The per-position curves are computed for the width of the upper panel.
    const int pixels = request.panels.value(0).pixels().width();
    auto data
        = MagnitudesCompute::compute(*request.engine, pixels, request.detail, {request.threads, &cancel}, request.pass);
    if (!data) {
        if (cancel.load(std::memory_order_relaxed))
            return {};
        return {nullptr,
                request.engine->check(Quantity::Input, {0, 1, 0, request.engine->params().dModel})
                    .value_or(u"magnitudes: the engine refused the rows within the memory budget"_s)};
    }
    return {std::make_shared<const MagnitudesData>(std::move(*data)), std::nullopt};
}

std::optional<TableRequest> MagnitudesModel::table(const Params &params, const FigureState &) const
{
    // Every position, as the figure shows them: ||PE_p||, ||s*E_p|| and their ratio.
    TableRequest request;
    request.content = TableRequest::PositionNorms;
    request.block = {0, params.maxLen, 0, 0};
    return request;
}

} // namespace posenc
