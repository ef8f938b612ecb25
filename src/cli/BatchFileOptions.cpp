#include "BatchFileOptions.h"

#include "core/positions/BatchTables.h"
#include "io/PositionTableFile.h"

using namespace Qt::StringLiterals;

namespace posenc::BatchFileOptions {

namespace {

// The table of `key`, or nothing with the result's error set.
std::shared_ptr<const BatchTable> table(const ParamOptions::Given &given, const QString &key, bool zeroOrOne,
                                        ParamOptions::Result &result)
{
    const MatrixSource source = MatrixSource::parse(given.value(key));
    auto loaded = PositionTableFile::read(source, result.params.memoryBudget);
    if (const auto *problem = std::get_if<EmbeddingRows::Problem>(&loaded)) {
        switch (problem->kind) {
        case EmbeddingRows::Problem::Kind::Parameter: {
            ParamError error = *problem->parameter;
            error.key = key;
            result.errors.append(error);
            break;
        }
        case EmbeddingRows::Problem::Kind::File:
            result.fileError = problem->message;
            break;
        case EmbeddingRows::Problem::Kind::OverBudget:
            result.overBudget = u"--%1 "_s.arg(key) + problem->message + u"; raise --memory-budget"_s;
            break;
        }
        return nullptr;
    }
    const auto &matrix = std::get<std::shared_ptr<const PositionMatrix>>(loaded);
    return std::make_shared<const BatchTable>(BatchTables::fromMatrix(matrix->values, zeroOrOne, matrix->source));
}

} // namespace

void read(const ParamOptions::Given &given, ParamOptions::Result &result)
{
    Params &params = result.params;
    for (const auto &[key, documents] : {std::pair {u"attention-mask"_s, false}, std::pair {u"document-ids"_s, true}}) {
        if (!given.contains(key))
            continue;
        auto loaded = table(given, key, !documents, result);
        if (!loaded)
            return;
        // A table's columns are the rows' length: max_len, unless given.
        if (!given.contains(u"max-len"_s))
            params.maxLen = std::max<std::int64_t>(1, loaded->cols);
        (documents ? params.batch.documents : params.batch.mask) = std::move(loaded);
    }
}

} // namespace posenc::BatchFileOptions
