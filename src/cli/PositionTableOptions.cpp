#include "PositionTableOptions.h"

#include "io/PositionTableFile.h"

using namespace Qt::StringLiterals;

namespace posenc::PositionTableOptions {

namespace {

const QString kKey = u"position-table"_s;

} // namespace

void read(const ParamOptions::Given &given, ParamOptions::Result &result)
{
    if (!given.contains(kKey))
        return;
    Params &params = result.params;
    const MatrixSource source = MatrixSource::parse(given.value(kKey));
    auto loaded = PositionTableFile::read(source, params.memoryBudget);
    if (const auto *problem = std::get_if<EmbeddingRows::Problem>(&loaded)) {
        switch (problem->kind) {
        case EmbeddingRows::Problem::Kind::Parameter:
            result.errors.append(*problem->parameter);
            return;
        case EmbeddingRows::Problem::Kind::File:
            result.fileError = problem->message;
            return;
        case EmbeddingRows::Problem::Kind::OverBudget:
            result.overBudget = u"--position-table "_s + problem->message + u"; raise --memory-budget"_s;
            return;
        }
    }
    auto table = std::get<std::shared_ptr<const PositionMatrix>>(std::move(loaded));
    const std::int64_t cols = table->values.cols();
    // The table's columns are the position term's: d_model in a sum, pe_dims in a concatenation.
    if (params.concatenates()) {
        if (!given.contains(u"pe-dims"_s))
            params.peDims = cols;
    } else if (!given.contains(u"d-model"_s) && !params.embeddings) {
        params.dModel = cols;
    }
    if (!given.contains(u"max-len"_s) && !params.embeddings)
        params.maxLen = std::max<std::int64_t>(1, table->values.rows() - params.learned.offset);
    params.learned.table = std::move(table);
}

} // namespace posenc::PositionTableOptions
