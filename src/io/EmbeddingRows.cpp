#include "EmbeddingRows.h"

#include "core/MemoryBudget.h"
#include "core/ParamText.h"
#include "core/Params.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::EmbeddingRows {

namespace {

const QString kTokens = u"tokens"_s;

Problem fromReadError(const QString &key, const ReadError &error)
{
    if (error.kind == ReadError::Kind::Choice)
        return {Problem::Kind::Parameter, ParamError {key, QString(), error.toString(), std::nullopt}, {}, {}};
    return {Problem::Kind::File, std::nullopt, error, error.toString()};
}

Problem parameter(const ParamError &error)
{
    return {Problem::Kind::Parameter, error, {}, {}};
}

} // namespace

QString Problem::text() const
{
    return parameter ? parameter->key + u": "_s + parameter->sentence() : message;
}

std::variant<Plan, Problem> plan(const Request &request)
{
    std::optional<std::vector<std::int64_t>> tokens;
    if (!request.tokens.isEmpty()) {
        tokens = ParamText::parseIndexList(request.tokens, Params::kMaxLen);
        if (!tokens || tokens->empty())
            return parameter({kTokens, u"a list of at most %1 rows such as 0,464,5:9"_s.arg(Params::kMaxLen), QString(),
                              ParamError::quoted(request.tokens)});
    }
    const auto info = MatrixFile::inspect(request.source);
    if (!info)
        return fromReadError(request.key, info.error());
    Plan result;
    result.key = request.key;
    result.source = request.source;
    result.fileRows = info->shape[0];
    result.cols = info->shape[1];
    if (result.fileRows == 0 || result.cols == 0)
        return parameter({request.key, QString(),
                          u"%1: the matrix has shape [%2, %3]; it needs at least one row and one "
                          "column"_s.arg(request.source.path)
                              .arg(result.fileRows)
                              .arg(result.cols),
                          std::nullopt});
    const auto cellsOf = [&result](std::int64_t rows) { return std::uint64_t(rows) * std::uint64_t(result.cols); };
    if (tokens) {
        for (const std::int64_t t : *tokens) {
            if (t < 0 || t >= result.fileRows)
                return parameter(
                    {kTokens,
                     u"rows in [0, %1] (the rows of %2)"_s.arg(result.fileRows - 1).arg(request.source.toString()),
                     QString(), QString::number(t)});
        }
        result.selection = RowSelection::listed(std::move(*tokens));
    } else if (request.readAhead && !MemoryBudget::check(cellsOf(result.fileRows), request.memoryBudget, {})) {
        result.selection = RowSelection::all();
    } else {
        result.selection = RowSelection::first(std::clamp<std::int64_t>(request.maxLen, 1, result.fileRows));
    }
    result.rows = result.selection.rowCount(result.fileRows);
    result.overBudget = MemoryBudget::check(cellsOf(result.rows), request.memoryBudget, request.source.toString());
    return result;
}

std::variant<RowMatrixXf, Problem> read(const Plan &plan, const std::atomic<bool> *cancel)
{
    if (plan.overBudget)
        return Problem {Problem::Kind::OverBudget, std::nullopt, std::nullopt, *plan.overBudget};
    auto loaded = MatrixFile::load(plan.source, plan.selection, cancel);
    if (!loaded)
        return fromReadError(plan.key, loaded.error());
    return std::move(loaded.value());
}

} // namespace posenc::EmbeddingRows
