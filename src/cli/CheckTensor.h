#pragma once

#include "CheckExpect.h"
#include "Interrupt.h"

#include "check/TableCheck.h"
#include "io/TableFile.h"

#include <QTextStream>

#include <cstdint>
#include <optional>
#include <variant>

// `posenc check FILE` of an array of any shape (docs/ARCHITECTURE.md, Checking a table, "Shapes"):
// a table streamed as ever; a vector, key biases or a stack read by TensorShapes, a stack's slices
// each checked as a table. The match, or the exit code of why not, said on `err`.
namespace posenc::CheckTensor {

// What a check needs besides the array: the declaration, the memory budget, the threads, and
// ALiBi's heads where --heads gave them.
struct Run
{
    const CheckExpect::Expectation &expected;
    const TableCheck::Declared &declaration;
    std::uint64_t budget;
    int threads;
    const InterruptCancels &interrupt;
    bool quiet;
    std::optional<std::int64_t> heads;
};

std::variant<TableMatch, int> check(const TableFile::Tensor &tensor, const Run &run, QTextStream &err);

} // namespace posenc::CheckTensor
