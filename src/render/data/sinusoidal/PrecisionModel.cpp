#include "PrecisionModel.h"

#include "PrecisionCompute.h"
#include "render/data/ViewOptions.h"

#include "core/rope/RopeFrequencies.h"
#include "core/sinusoidal/Frequencies.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

double PrecisionModel::bound(std::int64_t position, double frequency, double amplitude)
{
    return amplitude * static_cast<double>(position) * frequency * (std::ldexp(1.0, -23) + std::ldexp(1.0, -47))
        + std::ldexp(1.0, amplitude > 1.0 ? -24 : -25);
}

std::int64_t PrecisionModel::columns(const Params &params)
{
    return params.encoding == Encoding::Rope ? 2 * RopeFrequencies::pairs(params.rope) : params.peColumns();
}

std::vector<double> PrecisionModel::frequencies(const Params &params)
{
    if (params.encoding == Encoding::Rope)
        return RopeFrequencies::table(params).inv;
    const std::int64_t k = params.peColumns();
    std::vector<double> w(static_cast<std::size_t>(Frequencies::pairCount(k)));
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = Frequencies::angular(static_cast<std::int64_t>(i), k, params.sinusoidal);
    return w;
}

std::int64_t PrecisionModel::column(const Params &params, std::int64_t pair, bool isCos)
{
    // RoPE's error table: its pairs' sines in columns 0 .. h - 1, their cosines in h .. 2h - 1.
    if (params.encoding == Encoding::Rope)
        return isCos ? RopeFrequencies::pairs(params.rope) + pair : pair;
    return Frequencies::column({pair, isCos}, params.peColumns(), params.sinusoidal);
}

double PrecisionModel::amplitude(const Params &params)
{
    return params.encoding == Encoding::Rope ? RopeFrequencies::attentionFactor(params) : 1.0;
}

QString PrecisionModel::name() const
{
    return u"precision"_s;
}

QString PrecisionModel::title() const
{
    return u"Float32 precision"_s;
}

QString PrecisionModel::summary() const
{
    return u"the error of float32 angles at long positions: its maximum per band of positions against the "
           "bound float32 rounding predicts, and per pixel"_s;
}

QList<FigureOption> PrecisionModel::ownOptions() const
{
    return {ViewOptions::positions(u"positions A..B-1 in view"_s)};
}

QList<Quantity> PrecisionModel::inputs(const FigureState &) const
{
    return {Quantity::Error};
}

QList<ParamError> PrecisionModel::checkOptions(const Params &params, const FigureState &state) const
{
    return ViewOptions::check(state, name(), params.maxLen, columns(params));
}

bool PrecisionModel::hasPreview(const FigureRequest &request) const
{
    const PanelExtent lower = request.panels.value(1);
    return PrecisionCompute::cellsInView(request.engine->params(), lower) > Budget::cells(Detail::Preview);
}

FigureResult PrecisionModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    auto data = PrecisionCompute::compute(*request.engine, request.panels.value(0), request.panels.value(1),
                                          request.detail, request.threads, &cancel);
    if (!data)
        return {};
    return {std::make_shared<const PrecisionData>(std::move(*data)), std::nullopt};
}

std::optional<TableRequest> PrecisionModel::table(const Params &params, const FigureState &state) const
{
    // The error's whole cells in view: `posenc table error --positions A:B --dims C:D`.
    const auto positions = state.range(QString::fromUtf16(kPositionsAxis));
    const auto columns = state.range(QString::fromUtf16(kColumnsAxis));
    if (!positions || !columns)
        return std::nullopt;
    const auto rows = TableView::cellsInView(positions->lower, positions->upper, params.maxLen);
    const auto cols = TableView::cellsInView(columns->lower, columns->upper, PrecisionModel::columns(params));
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {TableRequest::Cells,
                         Quantity::Error,
                         {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first},
                         {}};
}

} // namespace posenc
