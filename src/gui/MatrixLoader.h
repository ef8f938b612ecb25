#pragma once

#include "ComputeScheduler.h"

#include "core/Params.h"
#include "io/MatrixFile.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>

namespace posenc {

// What the window shows of a loaded matrix beside the PE's closed forms.
struct MatrixStatistics
{
    double meanRowNorm = 0.0; // mean over rows of ||E_p||
    double sigma = 0.0; // standard deviation of all cells
    std::int64_t rows = 0;
    std::int64_t cols = 0;

    static MatrixStatistics of(const RowMatrixXf &matrix);
};

// A matrix read for the window, with its statistics.
struct LoadedMatrix
{
    std::shared_ptr<const EmbeddingMatrix> matrix;
    MatrixStatistics statistics;
};

// Reads a matrix of a .npy / .safetensors file off the GUI thread: one read at a time, the
// latest request wins and a superseded or cancelled read stops within a chunk and is never
// delivered. The rows read follow EmbeddingRows, the command line's policy, reading ahead: the
// whole matrix when it fits the memory budget (so max_len can go up to its rows), else its first
// max_len rows.
class MatrixLoader : public QObject
{
    Q_OBJECT

public:
    struct Request
    {
        MatrixSource source;
        QString tokens; // a --tokens list: these rows in order; empty for the leading rows
        std::int64_t minRows = 0; // rows read at least (max_len) when the whole is over budget
        std::uint64_t memoryBudget = Params::kDefaultMemoryBudget;
    };
    // Called on the GUI thread with the matrix or the reason it could not be read.
    using Done = std::function<void(const ReadResult<LoadedMatrix> &result)>;

    explicit MatrixLoader(QObject *parent = nullptr);

    void load(const Request &request, Done done);
    // Stops the read under way; its `done` is not called.
    void cancel();
    bool isLoading() const { return m_loading; }
    // The statistics of the last matrix this loader read, if `matrix` is it: whoever applies a
    // matrix need not go over its cells again on the GUI thread.
    std::optional<MatrixStatistics> statisticsOf(const std::shared_ptr<const EmbeddingMatrix> &matrix) const;

signals:
    void loadingChanged(bool loading, const QString &source);

private:
    ComputeScheduler *m_scheduler;
    bool m_loading = false;
    LoadedMatrix m_last;
};

// Reads the matrix of `request` on the calling thread (what a load job does).
ReadResult<LoadedMatrix> readMatrix(const MatrixLoader::Request &request, const std::atomic<bool> &cancel);

} // namespace posenc
