#include "SimilarityModel.h"

#include "SimilarityCompute.h"
#include "core/sinusoidal/SimilarityOffsets.h"
#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"

using namespace Qt::StringLiterals;

namespace posenc {

bool SimilarityModel::cosine(const FigureState &state)
{
    return state.option(QString::fromUtf16(kCosine)) == u"true"_s;
}

std::int64_t SimilarityModel::defaultLastOffset(std::int64_t maxLen)
{
    return SimilarityOffsets::lastOffset(maxLen);
}

QString SimilarityModel::name() const
{
    return u"similarity"_s;
}

QString SimilarityModel::title() const
{
    return u"Similarity"_s;
}

QString SimilarityModel::summary() const
{
    return u"S = PE.PE^T over positions (--cosine for cosines) beside S(k) against the offset k, "
           "with its closed form sum_i cos(k w_i)"_s;
}

QList<FigureOption> SimilarityModel::ownOptions() const
{
    FigureOption cosine;
    cosine.key = QString::fromUtf16(kCosine);
    cosine.kind = FigureOption::Kind::Switch;
    cosine.valueName = u"true|false"_s;
    cosine.help = u"cosine similarity: PE[p] . PE[q] / (||PE[p]|| ||PE[q]||)"_s;
    cosine.defaultText = u"false"_s;
    return {cosine, ViewOptions::positions(u"positions A..B-1 in view, p and q"_s)};
}

QList<Quantity> SimilarityModel::inputs(const FigureState &) const
{
    return {Quantity::Similarity};
}

QList<ParamError> SimilarityModel::checkOptions(const Params &params, const FigureState &state) const
{
    return ViewOptions::check(state, name(), params.maxLen, params.maxLen);
}

FigureResult SimilarityModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const Shape shape = engine.shape(Quantity::Similarity);
    const HeatmapRequest visible = VisibleCells::request(request.panels.value(0), Quantity::Similarity, shape);
    const PanelExtent offsets = request.panels.value(1);
    if (auto refused = SimilarityCompute::check(engine, visible, cosine(request.state)))
        return {nullptr, std::move(refused)};
    auto data = SimilarityCompute::compute(engine, visible, cosine(request.state), offsets.x, offsets.pixels().width(),
                                           offsets.size.width(),
                                           request.threads, &cancel);
    if (!data)
        return {};
    return {std::make_shared<const SimilarityData>(std::move(*data)), std::nullopt};
}

std::optional<TableRequest> SimilarityModel::table(const Params &params, const FigureState &state) const
{
    // The whole cells of S in view: `posenc table similarity --positions A:B --dims C:D`.
    const auto p = state.range(QString::fromUtf16(kPAxis));
    const auto q = state.range(QString::fromUtf16(kQAxis));
    if (!p || !q)
        return std::nullopt;
    const auto rows = TableView::cellsInView(p->lower, p->upper, params.maxLen);
    const auto cols = TableView::cellsInView(q->lower, q->upper, params.maxLen);
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {TableRequest::Cells,
                         Quantity::Similarity,
                         {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first},
                         {}};
}

} // namespace posenc
