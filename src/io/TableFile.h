#pragma once

#include "check/TableRows.h"
#include "io/MatrixFile.h"
#include "io/ReadError.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

// A table a user asks `posenc check` about, opened for its rows to be read a chunk at a time
// (docs/ARCHITECTURE.md, Checking a table): a .npy file, a tensor of a .safetensors file, or a
// .csv file (read whole, within the memory budget). The .npy and .safetensors headers are the
// hardened readers' (NpyReader, SafetensorsReader); the rows are read with positioned reads,
// from any number of threads, and a file cut short after it was opened fails with the byte where
// it ended. An array of more than two dimensions is a table when all but two of them are 1, as
// PyTorch's (max_len, 1, d) buffers and HF's (1, L, rotary_dim) cos and sin are.
namespace posenc::TableFile {

// The rows of the file, or why not: ReadError::Kind::OverBudget for a .csv file whose cells pass
// the budget.
ReadResult<std::shared_ptr<const TableRows>> open(const MatrixSource &source, std::uint64_t memoryBudget,
                                                  const std::atomic<bool> *cancel = nullptr);

// An array of any shape (docs/ARCHITECTURE.md, Checking a table, "Shapes"): its shape as stored,
// and its rows, the last dimension's: a vector is one row, [B, H, L, L] is B·H·L rows of L. An array
// that is a table (all but two dimensions 1) has the rows open() gives.
struct Tensor
{
    std::vector<std::int64_t> shape;
    std::shared_ptr<const TableRows> rows;
};
ReadResult<Tensor> openTensor(const MatrixSource &source, std::uint64_t memoryBudget,
                              const std::atomic<bool> *cancel = nullptr);

} // namespace posenc::TableFile
