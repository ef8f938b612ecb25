#pragma once

#include "EmbeddingRows.h"

#include "core/Params.h"

#include <atomic>
#include <memory>
#include <variant>

// The learned family's position table, read whole from a .npy or .safetensors file: every row,
// padding rows included, within the memory budget (docs/ARCHITECTURE.md, "Encoding families").
namespace posenc::PositionTableFile {

std::variant<std::shared_ptr<const PositionMatrix>, EmbeddingRows::Problem>
read(const MatrixSource &source, std::uint64_t memoryBudget, const std::atomic<bool> *cancel = nullptr);

} // namespace posenc::PositionTableFile
