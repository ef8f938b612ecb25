#include "ComposeCompareModel.h"

#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"

#include "core/ParamInputs.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

ComposeCompareCompute::Request requestOf(const FigureRequest &request)
{
    const Shape shape {request.engine->params().maxLen, request.engine->params().dModel};
    ComposeCompareCompute::Request compare;
    for (std::size_t i = 0; i < compare.visible.size(); ++i)
        compare.visible[i] = VisibleCells::request(request.panels.value(qsizetype(i)), Quantity::Input, shape);
    compare.detail = request.detail;
    return compare;
}

} // namespace

QString ComposeCompareModel::name() const
{
    return u"compose-compare"_s;
}

QString ComposeCompareModel::title() const
{
    return u"Compose compare"_s;
}

QString ComposeCompareModel::summary() const
{
    return u"why sum and not concatenate: X = s*E + PE beside X = [s*E | PE] on one colour scale, with the mean and "
           "std per column of PE and of s*E"_s;
}

QList<FigureOption> ComposeCompareModel::ownOptions() const
{
    return {ViewOptions::meanOnly(), ViewOptions::positions(u"positions A..B-1 in view"_s),
            ViewOptions::dims(u"the columns in view, lowest to highest"_s, false)};
}

QList<Quantity> ComposeCompareModel::inputs(const FigureState &) const
{
    return {Quantity::Pe, Quantity::Embedding};
}

bool ComposeCompareModel::hasPreview(const FigureRequest &request) const
{
    // The statistics read every cell of s*E, the heatmaps the cells in view.
    const Params &p = request.engine->params();
    const ComposeCompareCompute::Request compare = requestOf(request);
    const std::int64_t preview = Budget::cells(Detail::Preview);
    return p.maxLen * p.dModel > preview || compare.visible[0].block.cells() > preview;
}

QList<ParamError> ComposeCompareModel::checkOptions(const Params &params, const FigureState &state) const
{
    if (!ComposeCompareCompute::canCompare(params))
        return {{QString::fromUtf16(ParamInputs::kEmbeddingsKey), QString(),
                 u"has %1 columns, but the compose-compare figure needs E of d_model = %2 columns for the sum (concat "
                 "takes its first d_model - pe_dims)"_s.arg(params.embeddings->values.cols())
                     .arg(params.dModel),
                 std::nullopt}};
    return ViewOptions::check(state, name(), params.maxLen, params.dModel);
}

FigureResult ComposeCompareModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    QString refusal;
    auto data = ComposeCompareCompute::compute(request.engine->params(), requestOf(request), {request.threads, &cancel},
                                               &refusal);
    if (!data) {
        if (cancel.load(std::memory_order_relaxed))
            return {};
        return {nullptr, refusal};
    }
    return {std::make_shared<const ComposeCompareData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
