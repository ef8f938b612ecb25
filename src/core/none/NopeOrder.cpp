#include "NopeOrder.h"

#include "core/Engine.h"

#include <algorithm>
#include <cmath>

namespace posenc::NopeOrder {

double causalWeight(std::int64_t t)
{
    return 1.0 / static_cast<double>(t + 1);
}

double bidirectionalWeight(const Params &params)
{
    return 1.0 / static_cast<double>(params.maxLen);
}

std::optional<double> expectedNorm(const Params &params, std::int64_t t)
{
    if (params.embeddings)
        return std::nullopt;
    const double d = static_cast<double>(params.embeddingColumns());
    return std::abs(params.scale()) * params.sigma() * std::sqrt(d / static_cast<double>(t + 1));
}

std::optional<double> positionOfNorm(const Params &params, double norm)
{
    const auto first = expectedNorm(params, 0);
    if (!first || norm <= 0.0)
        return std::nullopt;
    return (*first * *first) / (norm * norm) - 1.0;
}

std::int64_t measuredRows(const Params &params, std::int64_t budgetCells)
{
    const std::int64_t d = std::max<std::int64_t>(1, params.embeddingColumns());
    return std::clamp<std::int64_t>(budgetCells / d, 1, params.maxLen);
}

std::optional<std::vector<double>> prefixNorms(const Engine &engine, std::int64_t rows, const std::atomic<bool> *cancel)
{
    const Params &params = engine.params();
    const std::int64_t d = params.embeddingColumns();
    rows = std::clamp<std::int64_t>(rows, 0, params.maxLen);
    if (rows == 0 || d == 0)
        return std::vector<double>();
    std::vector<double> sum(static_cast<std::size_t>(d), 0.0);
    std::vector<double> norms;
    norms.reserve(static_cast<std::size_t>(rows));
    RowMatrixXf chunk;
    for (std::int64_t row0 = 0; row0 < rows; row0 += kChunkRows) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return std::nullopt;
        const std::int64_t n = std::min(kChunkRows, rows - row0);
        chunk.resize(n, d);
        engine.computeBlock(Quantity::Embedding, {row0, n, 0, d}, chunk);
        for (std::int64_t r = 0; r < n; ++r) {
            double squared = 0.0;
            for (std::int64_t j = 0; j < d; ++j) {
                sum[static_cast<std::size_t>(j)] += static_cast<double>(chunk(r, j));
                squared += sum[static_cast<std::size_t>(j)] * sum[static_cast<std::size_t>(j)];
            }
            norms.push_back(std::sqrt(squared) / static_cast<double>(row0 + r + 1));
        }
    }
    return norms;
}

} // namespace posenc::NopeOrder
