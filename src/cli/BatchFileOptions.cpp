#include "BatchFileOptions.h"

#include "core/positions/BatchLayout.h"
#include "core/positions/BatchTables.h"
#include "io/PositionTableFile.h"

#include <algorithm>
#include <numeric>

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

std::optional<std::int64_t> longestRow(const ParamOptions::Given &given, const QStringList &fromFlags)
{
    // A mask's or document ids' columns set it (read()); a batch beside them is refused anyway.
    if (fromFlags.contains(u"max-len"_s) || given.value(u"cache"_s).toLongLong() > 0
        || given.contains(u"attention-mask"_s) || given.contains(u"document-ids"_s))
        return std::nullopt;
    std::int64_t longest = 0;
    if (fromFlags.contains(u"batch"_s)) {
        const auto parsed = BatchLayout::parseLengths(given.value(u"batch"_s));
        if (const auto *lengths = std::get_if<BatchLayout::Lengths>(&parsed); lengths && !lengths->lengths.empty())
            longest = std::ranges::max(lengths->lengths);
    } else if (fromFlags.contains(u"packed"_s)) {
        const auto parsed = BatchLayout::parsePacked(given.value(u"packed"_s));
        if (const auto *rows = std::get_if<0>(&parsed)) {
            for (const auto &row : *rows)
                longest = std::max(longest, std::accumulate(row.begin(), row.end(), std::int64_t(0)));
        }
    }
    if (longest < 1)
        return std::nullopt;
    return std::min(longest, Params::kMaxLen);
}

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
