#include "PositionTableFile.h"

using namespace Qt::StringLiterals;

namespace posenc::PositionTableFile {

std::variant<std::shared_ptr<const PositionMatrix>, EmbeddingRows::Problem>
read(const MatrixSource &source, std::uint64_t memoryBudget, const std::atomic<bool> *cancel)
{
    EmbeddingRows::Request request;
    request.key = u"position-table"_s;
    request.source = source;
    request.maxLen = Params::kMaxLen + Params::kMaxPositionOffset; // every row the file has
    request.memoryBudget = memoryBudget;
    const auto planned = EmbeddingRows::plan(request);
    if (const auto *problem = std::get_if<EmbeddingRows::Problem>(&planned))
        return *problem;
    auto loaded = EmbeddingRows::read(std::get<EmbeddingRows::Plan>(planned), cancel);
    if (auto *problem = std::get_if<EmbeddingRows::Problem>(&loaded))
        return std::move(*problem);
    return std::make_shared<const PositionMatrix>(
        PositionMatrix {std::move(std::get<RowMatrixXf>(loaded)), source.toString()});
}

} // namespace posenc::PositionTableFile
