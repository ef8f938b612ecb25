#include "MatrixLoader.h"

#include "io/EmbeddingRows.h"

#include <QFileInfo>
#include <QPointer>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

MatrixStatistics MatrixStatistics::of(const RowMatrixXf &matrix)
{
    MatrixStatistics s;
    s.rows = matrix.rows();
    s.cols = matrix.cols();
    if (matrix.size() == 0)
        return s;
    double norms = 0.0, sum = 0.0, squares = 0.0;
    for (Eigen::Index r = 0; r < matrix.rows(); ++r) {
        const auto row = matrix.row(r).cast<double>();
        const double rowSquares = row.squaredNorm();
        norms += std::sqrt(rowSquares);
        squares += rowSquares;
        sum += row.sum();
    }
    const double n = static_cast<double>(matrix.size());
    const double mean = sum / n;
    s.meanRowNorm = norms / static_cast<double>(matrix.rows());
    s.sigma = std::sqrt(std::max(0.0, squares / n - mean * mean));
    return s;
}

ReadResult<LoadedMatrix> readMatrix(const MatrixLoader::Request &request, const std::atomic<bool> &cancel)
{
    // The command line's policy, reading ahead: max_len can then move up to the rows read.
    EmbeddingRows::Request rows;
    rows.source = request.source;
    rows.tokens = request.tokens;
    rows.maxLen = request.minRows;
    rows.memoryBudget = request.memoryBudget;
    rows.readAhead = true;
    const QString path = request.source.path;
    const auto refusal = [&path](const EmbeddingRows::Problem &problem) {
        return problem.file ? *problem.file : ReadError {path, problem.text(), ReadError::Kind::Choice};
    };
    const auto planned = EmbeddingRows::plan(rows);
    if (const auto *problem = std::get_if<EmbeddingRows::Problem>(&planned))
        return refusal(*problem);
    auto loaded = EmbeddingRows::read(std::get<EmbeddingRows::Plan>(planned), &cancel);
    if (const auto *problem = std::get_if<EmbeddingRows::Problem>(&loaded))
        return refusal(*problem);
    if (cancel)
        return ReadError {path, u"cancelled"_s};
    LoadedMatrix result;
    RowMatrixXf &matrix = std::get<RowMatrixXf>(loaded);
    result.statistics = MatrixStatistics::of(matrix);
    result.matrix = std::make_shared<const EmbeddingMatrix>(
        EmbeddingMatrix {std::move(matrix), request.source.toString(), request.tokens});
    return result;
}

MatrixLoader::MatrixLoader(QObject *parent)
    : QObject(parent)
    , m_scheduler(new ComputeScheduler(this))
{
    connect(m_scheduler, &ComputeScheduler::idle, this, [this] {
        if (m_loading) {
            m_loading = false;
            emit loadingChanged(false, QString());
        }
    });
}

std::optional<MatrixStatistics> MatrixLoader::statisticsOf(const std::shared_ptr<const EmbeddingMatrix> &matrix) const
{
    if (!matrix || matrix != m_last.matrix)
        return std::nullopt;
    return m_last.statistics;
}

void MatrixLoader::cancel()
{
    m_scheduler->cancelAll();
}

void MatrixLoader::load(const Request &request, Done done)
{
    m_loading = true;
    emit loadingChanged(true, request.source.toString());
    m_scheduler->submit([request, done = std::move(done), self = QPointer(this)](
                            const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        auto result = std::make_shared<const ReadResult<LoadedMatrix>>(readMatrix(request, cancel));
        if (cancel)
            return;
        publish([self, done, result] {
            if (!self)
                return;
            if (*result)
                self->m_last = result->value();
            done(*result);
        });
    });
}

} // namespace posenc
