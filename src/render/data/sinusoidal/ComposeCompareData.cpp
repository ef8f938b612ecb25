#include "ComposeCompareData.h"

#include "core/TitleText.h"
#include "render/data/FigureText.h"
#include "render/data/HeatmapModel.h"
#include "render/data/VisibleCells.h"

#include "core/ColumnStatistics.h"
#include "core/sinusoidal/Frequencies.h"

#include <QMutex>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ComposeCompareCompute {

namespace {

// The exact statistics of the last two tables: a pure function of the parameters that takes
// seconds at L 2^20, asked again at each zoom or pan of the heatmaps above them.
std::optional<ColumnStats> exactStatistics(const Engine &engine, const ComputeOptions &options)
{
    static QMutex mutex;
    static QList<std::pair<Params, ColumnStats>> last;
    if (options.cancel && options.cancel->load())
        return std::nullopt;
    {
        const QMutexLocker lock(&mutex);
        for (const auto &[params, stats] : last)
            if (params == engine.params())
                return stats;
    }
    auto stats = ColumnStatistics::compute(engine, options);
    if (stats) {
        const QMutexLocker lock(&mutex);
        last.prepend({engine.params(), *stats});
        if (last.size() > 2)
            last.removeLast();
    }
    return stats;
}

// The part's columns of X, [first, end), with their statistics.
ColumnPart part(const Eigen::ArrayXd &mean, const Eigen::ArrayXd &std, std::int64_t first, std::int64_t end)
{
    ColumnPart p;
    for (std::int64_t j = first; j < end; ++j) {
        p.columns.append(static_cast<double>(j));
        p.mean.append(mean[j]);
        p.std.append(std[j]);
    }
    return p;
}

// The PE's cosine columns of the highest and lowest frequency, as X numbers them.
void cosineColumns(const Params &params, ComposePanel &panel)
{
    const std::int64_t k = params.peColumns();
    const std::int64_t offset = params.concatenates() ? params.embeddingColumns() : 0;
    for (std::int64_t j = 0; j < k; ++j) {
        const ColumnRole role = Frequencies::role(j, k, params.sinusoidal);
        if (!role.isCos)
            continue;
        if (role.pair == 0)
            panel.fastestCos = offset + j;
        if (panel.slowestCos < 0 || role.pair > Frequencies::role(panel.slowestCos - offset, k, params.sinusoidal).pair)
            panel.slowestCos = offset + j;
    }
}

} // namespace

bool canCompare(const Params &params)
{
    return !params.embeddings || params.embeddings->values.cols() == params.dModel;
}

std::array<Params, 2> sides(const Params &params)
{
    Params sum = params;
    sum.compose = Compose::Sum;
    Params concat = params;
    concat.compose = Compose::Concat;
    if (params.embeddings) {
        // A model's E is d wide; concat has room for d - k of its columns.
        const std::int64_t columns = concat.embeddingColumns();
        auto sliced = std::make_shared<EmbeddingMatrix>();
        sliced->values = params.embeddings->values.topLeftCorner(params.maxLen, columns);
        sliced->source = u"%1, its first %2 columns"_s.arg(params.embeddings->source).arg(columns);
        sliced->tokens = params.embeddings->tokens;
        concat.embeddings = std::move(sliced);
    }
    return {sum, concat};
}

std::int64_t statisticsRows(const Params &params)
{
    return std::min(params.maxLen, Budget::exactRowsWithin(std::max<std::int64_t>(1, params.embeddingColumns())));
}

std::optional<ComposeCompareData> compute(const Params &params, const Request &request, const ComputeOptions &options,
                                          QString *refusal)
{
    const std::array<Params, 2> both = sides(params);
    ComposeCompareData data;
    data.maxLen = params.maxLen;
    data.table = {params.maxLen, params.dModel};
    data.embeddingsSliced = params.embeddings != nullptr;
    QStringList parameters {TitleText::tableText(params),
                            u"%1, %2"_s.arg(TitleText::scaleText(params), TitleText::sigmaText(params))};
    if (const QString variant = TitleText::peVariantText(params); !variant.isEmpty())
        parameters.append(variant);
    data.parameters = parameters.join(u"  ·  "_s);
    data.statisticsRows = params.maxLen;
    double limit = 1e-12; // an all-zero X stays drawable
    for (std::size_t i = 0; i < both.size(); ++i) {
        const Params &p = both[i];
        const Engine engine(p);
        ComposePanel &panel = data.panels[i];
        panel.params = p;
        panel.label = Quantities::label(Quantity::Input, p);
        panel.layout = p.concatenates() ? TitleText::composeText(p)
                                        : u"PE added to all %1 columns"_s.arg(FigureText::formatCount(p.dModel));
        auto grid = computeHeatmap(engine, request.visible[i], request.detail, options);
        if (!grid) {
            if (refusal && !(options.cancel && options.cancel->load()))
                *refusal = VisibleCells::refusal(engine, Quantity::Input, request.visible[i].block);
            return std::nullopt;
        }
        panel.grid = std::move(*grid);
        limit = std::max(limit, panel.grid.colourExtent);

        const std::int64_t previewRows
            = std::max<std::int64_t>(1, Budget::cells(Detail::Preview) / std::max<std::int64_t>(1, p.dModel));
        // Full detail over every position, within the cap of every figure: past it, an estimate
        // from the positions within (statisticsRows says so in the title).
        const std::int64_t exactRows = statisticsRows(p);
        const auto stats = request.detail == Detail::Preview ? ColumnStatistics::estimate(engine, previewRows, options)
            : p.maxLen <= exactRows                          ? exactStatistics(engine, options)
                                                             : ColumnStatistics::estimate(engine, exactRows, options);
        if (!stats) {
            if (refusal && !(options.cancel && options.cancel->load()))
                *refusal = ColumnStatistics::check(engine).value_or(
                    u"compose-compare: the engine refused the statistics within the memory budget"_s);
            return std::nullopt;
        }
        data.statisticsRows = std::min(data.statisticsRows, stats->rows);
        const std::int64_t e = p.embeddingColumns();
        const std::int64_t d = p.dModel;
        const bool concat = p.concatenates();
        panel.pe = part(stats->peMean, stats->peStd, concat ? e : 0, d);
        panel.embedding = part(stats->embeddingMean, stats->embeddingStd, 0, concat ? e : d);
        cosineColumns(p, panel);
    }
    data.colorLimit = limit;
    return data;
}

} // namespace posenc::ComposeCompareCompute
