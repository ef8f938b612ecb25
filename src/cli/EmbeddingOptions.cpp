#include "EmbeddingOptions.h"

#include "BudgetAdvice.h"

#include "core/MatrixColumns.h"
#include "io/EmbeddingRows.h"

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::EmbeddingOptions {

namespace {

const QString kEmbeddings = u"embeddings"_s;
const QString kTokens = u"tokens"_s;

void fail(ParamOptions::Result &result, const EmbeddingRows::Problem &problem)
{
    switch (problem.kind) {
    case EmbeddingRows::Problem::Kind::Parameter:
        result.errors.append(*problem.parameter);
        return;
    case EmbeddingRows::Problem::Kind::File:
        result.fileError = problem.message;
        return;
    case EmbeddingRows::Problem::Kind::OverBudget:
        result.overBudget = problem.message;
        return;
    }
}

} // namespace

void read(const ParamOptions::Given &given, ParamOptions::Result &result)
{
    if (!given.contains(kEmbeddings)) {
        if (given.contains(kTokens))
            result.errors.append({kTokens, QString(),
                                  u"chooses rows of a matrix, so it needs --embeddings FILE[:TENSOR]"_s, std::nullopt});
        return;
    }
    Params &params = result.params;
    EmbeddingRows::Request request;
    request.source = MatrixSource::parse(given.value(kEmbeddings));
    request.tokens = given.value(kTokens);
    request.maxLen = params.maxLen;
    request.memoryBudget = params.memoryBudget;
    const auto planned = EmbeddingRows::plan(request);
    if (const auto *problem = std::get_if<EmbeddingRows::Problem>(&planned))
        return fail(result, *problem);
    const EmbeddingRows::Plan &plan = std::get<EmbeddingRows::Plan>(planned);
    const QString source = request.source.toString();

    const std::int64_t dModel = dModelOfMatrix(params, plan.cols);
    if (given.contains(u"d-model"_s) && params.dModel != dModel) {
        result.errors.append({u"d-model"_s, QString(),
                              u"is %1, but the matrix of --embeddings %2 has %3 columns, so d_model is "
                              "%4; leave out --d-model or make the two agree"_s.arg(params.dModel)
                                  .arg(source)
                                  .arg(plan.cols)
                                  .arg(dModel),
                              std::nullopt});
        return;
    }
    params.dModel = dModel;
    if (!given.contains(u"max-len"_s)) {
        // As many positions as rows read: the tokens listed, or the leading rows the file has.
        params.maxLen = plan.rows;
    } else if (request.tokens.isEmpty() && params.maxLen > plan.fileRows) {
        result.errors.append({u"max-len"_s, QString(),
                              u"is %1, but the matrix of --embeddings %2 has %3 rows; choose rows "
                              "with --tokens or lower --max-len"_s.arg(params.maxLen)
                                  .arg(source)
                                  .arg(plan.fileRows),
                              std::nullopt});
        return;
    }
    // Nothing is read while another parameter is still wrong.
    if (!params.validate().isEmpty())
        return;
    if (plan.overBudget) {
        result.overBudget = u"--embeddings "_s + *plan.overBudget
            + overBudgetAdvice(u"use fewer rows with --max-len or --tokens"_s, params.memoryBudget);
        return;
    }
    auto loaded = EmbeddingRows::read(plan);
    if (const auto *problem = std::get_if<EmbeddingRows::Problem>(&loaded))
        return fail(result, *problem);
    params.embeddings = std::make_shared<const EmbeddingMatrix>(
        EmbeddingMatrix {std::move(std::get<RowMatrixXf>(loaded)), source, request.tokens});
}

} // namespace posenc::EmbeddingOptions
