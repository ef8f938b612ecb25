#pragma once

#include "io/MatrixFile.h"

#include "core/ParamError.h"

#include <atomic>
#include <optional>
#include <variant>

namespace posenc {

// Which rows of a matrix are read as token embeddings, and within what budget: the one policy
// of the command line (--embeddings, --tokens) and the window (File > Load embeddings, a
// session's matrix). Row p is the embedding at position p: the first max_len rows, or the rows
// a --tokens list names, in its order.
namespace EmbeddingRows {

struct Request
{
    MatrixSource source;
    QString tokens; // a --tokens list; empty for the leading rows
    std::int64_t maxLen = 0; // positions the parameters use
    std::uint64_t memoryBudget = 0;
    // Read every row when they fit the budget, so that max_len can later go up to them without
    // reading again (the window, where max_len moves); the first max_len rows otherwise.
    bool readAhead = false;
    // The parameter the matrix comes from, which its problems name ("embeddings", "position-table").
    QString key = QStringLiteral("embeddings");
};

// The rows to read, checked against the file's headers and the budget.
struct Plan
{
    QString key; // the request's
    MatrixSource source;
    std::int64_t fileRows = 0; // of the matrix in the file
    std::int64_t cols = 0;
    RowSelection selection;
    std::int64_t rows = 0; // rows read
    // Set when those rows are over the memory budget (cells and GiB): read() refuses them. Kept
    // apart so that a caller can report a wrong parameter first.
    std::optional<QString> overBudget;
};

// Why nothing is read: a parameter's value (a --tokens list, a file's matrix that is empty or is
// not there), the file itself (path and reason), or the budget (cells and GiB).
struct Problem
{
    enum class Kind { Parameter, File, OverBudget };
    Kind kind = Kind::File;
    std::optional<ParamError> parameter; // Kind::Parameter
    std::optional<ReadError> file; // Kind::File
    QString message; // Kind::File (the path and the reason) and Kind::OverBudget

    // The message, the parameter's worded as `key: sentence`.
    QString text() const;
};

// Reads the file's headers only.
std::variant<Plan, Problem> plan(const Request &request);
// The planned rows, as float32; a Problem of Kind::OverBudget for a plan over the budget, of
// Kind::File when cancelled or unreadable.
std::variant<RowMatrixXf, Problem> read(const Plan &plan, const std::atomic<bool> *cancel = nullptr);

} // namespace EmbeddingRows

} // namespace posenc
