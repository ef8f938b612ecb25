#include "MatrixLoader.h"

#include "core/MemoryBudget.h"
#include "core/ParamText.h"

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
    const auto info = MatrixFile::inspect(request.source);
    if (!info)
        return info.error();
    const std::int64_t rows = info->shape[0];
    const std::int64_t cols = info->shape[1];
    const QString path = request.source.path;
    if (rows == 0 || cols == 0)
        return ReadError {
            path,
            u"the matrix has shape [%1, %2]; embeddings need at least one row and one column"_s.arg(rows).arg(cols),
            ReadError::Kind::Choice};
    RowSelection selection = RowSelection::all();
    if (!request.tokens.isEmpty()) {
        auto tokens = ParamText::parseIndexList(request.tokens, Params::kMaxLen);
        if (!tokens || tokens->empty())
            return ReadError {path,
                              u"tokens: expected a list of rows such as 0,464,5:9, got '%1'"_s.arg(request.tokens),
                              ReadError::Kind::Choice};
        for (const std::int64_t t : *tokens) {
            if (t < 0 || t >= rows)
                return ReadError {path, u"tokens: rows must be in [0, %1]; got %2"_s.arg(rows - 1).arg(t),
                                  ReadError::Kind::Choice};
        }
        selection = RowSelection::listed(std::move(*tokens));
    } else if (MemoryBudget::check(std::uint64_t(rows) * std::uint64_t(cols), request.memoryBudget, QString())) {
        selection = RowSelection::first(std::min(rows, std::max<std::int64_t>(request.minRows, 1)));
    }
    const std::uint64_t cells = std::uint64_t(selection.rowCount(rows)) * std::uint64_t(cols);
    if (const auto refused = MemoryBudget::check(cells, request.memoryBudget, request.source.toString()))
        return ReadError {path, *refused, ReadError::Kind::Choice};
    if (cancel)
        return ReadError {path, u"cancelled"_s};
    auto loaded = MatrixFile::load(request.source, selection);
    if (!loaded)
        return loaded.error();
    if (cancel)
        return ReadError {path, u"cancelled"_s};
    LoadedMatrix result;
    result.statistics = MatrixStatistics::of(loaded.value());
    result.matrix = std::make_shared<const EmbeddingMatrix>(
        EmbeddingMatrix {std::move(loaded.value()), request.source.toString(), request.tokens});
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
