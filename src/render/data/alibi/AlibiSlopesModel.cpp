#include "AlibiSlopesModel.h"

#include "AlibiText.h"

#include "core/alibi/AlibiSlopes.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

AlibiSlopesData AlibiSlopesModel::compute(const Params &params)
{
    AlibiSlopesData data;
    data.heads = params.alibi.heads;
    data.head = params.alibi.head;
    data.geometric = AlibiSlopes::geometricHeads(data.heads);
    for (const double slope : AlibiSlopes::all(data.heads))
        data.slopes.append(slope);
    if (data.geometric != data.heads) {
        // What a port without the interleave computes: r^k with r = 2^(-8/H) for every head.
        for (std::int64_t k = 1; k <= data.heads; ++k)
            data.plain.append(std::exp2(-8.0 * static_cast<double>(k) / static_cast<double>(data.heads)));
        for (std::int64_t i = 0; i < data.heads - data.geometric; ++i)
            data.seriesPlace.append(static_cast<double>(i) + 0.5);
    }
    data.interleave = AlibiText::interleaveText(data.heads);
    return data;
}

QString AlibiSlopesModel::name() const
{
    return u"alibi-slopes"_s;
}

QString AlibiSlopesModel::title() const
{
    return u"ALiBi slopes"_s;
}

QString AlibiSlopesModel::summary() const
{
    return u"the slope of every head (log axis): the geometric series of the largest power of two <= H and the "
           "heads interleaved after it, marked apart"_s;
}

QList<Quantity> AlibiSlopesModel::inputs(const FigureState &) const
{
    // The slopes, and head K (ringed), which the bias reads.
    return {Quantity::AlibiSlopes, Quantity::AlibiBias};
}

std::optional<TableRequest> AlibiSlopesModel::table(const Params &params, const FigureState &) const
{
    // Every head: `posenc table alibi-slopes`.
    return TableRequest {TableRequest::Cells, Quantity::AlibiSlopes, {0, params.alibi.heads, 0, 4}, {}};
}

FigureResult AlibiSlopesModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    return {std::make_shared<const AlibiSlopesData>(compute(request.engine->params())), std::nullopt};
}

} // namespace posenc
