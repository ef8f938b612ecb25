#include "EmbeddingOptions.h"

#include "core/MemoryBudget.h"
#include "core/ParamText.h"
#include "io/MatrixFile.h"

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::EmbeddingOptions {

namespace {

const QString kEmbeddings = u"embeddings"_s;
const QString kTokens = u"tokens"_s;

// d_model of a model whose token embeddings have `cols` columns: all of them in a sum; in a
// concatenation the PE's columns come on top (pe_dims, or as many as E has when auto).
std::int64_t dModelFor(const Params &params, std::int64_t cols)
{
    if (params.compose == Compose::Concat)
        return cols + params.peDims.value_or(cols);
    return cols;
}

void fail(ParamOptions::Result &result, const ReadError &error)
{
    if (error.kind == ReadError::Kind::Choice)
        result.errors.append({kEmbeddings, QString(), error.toString(), std::nullopt});
    else
        result.fileError = error.toString();
}

} // namespace

void add(QCommandLineParser &parser)
{
    parser.addOption(QCommandLineOption(
        kEmbeddings, u"token embeddings: rows of a matrix in a .npy or .safetensors file (TENSOR names one)"_s,
        u"FILE[:TENSOR]"_s));
    parser.addOption(
        QCommandLineOption(kTokens, u"rows of the --embeddings matrix to use, e.g. 0,464,5:9"_s, u"LIST"_s));
}

QString helpText()
{
    return u"  --embeddings FILE[:TENSOR]\n"
           "      token embeddings from a matrix: .npy (f2/f4/f8/integers, any byte order, C or Fortran order)\n"
           "      or .safetensors (F16/BF16/F32/F64, TENSOR names one); d_model comes from its columns and\n"
           "      row p is the embedding at position p (the first max_len rows)\n"
           "  --tokens LIST\n"
           "      with --embeddings: the rows to use instead, in order, e.g. 0,464,5:9 (max_len: their count)\n"_s;
}

void read(const ParamOptions::Given &given, ParamOptions::Result &result)
{
    if (!given.contains(kEmbeddings)) {
        if (given.contains(kTokens))
            result.errors.append({kTokens, QString(),
                                  u"chooses rows of a matrix, so it needs --embeddings FILE[:TENSOR]"_s, std::nullopt});
        return;
    }
    Params &params = result.params;
    const MatrixSource source = MatrixSource::parse(given.value(kEmbeddings));
    std::optional<std::vector<std::int64_t>> tokens;
    if (given.contains(kTokens)) {
        const QString text = given.value(kTokens);
        tokens = ParamText::parseIndexList(text, Params::kMaxLen);
        if (!tokens || tokens->empty()) {
            result.errors.append({kTokens, u"a list of at most %1 rows such as 0,464,5:9"_s.arg(Params::kMaxLen),
                                  QString(), ParamError::quoted(text)});
            return;
        }
    }

    const auto info = MatrixFile::inspect(source);
    if (!info)
        return fail(result, info.error());
    const std::int64_t rows = info->shape[0];
    const std::int64_t cols = info->shape[1];
    if (rows == 0 || cols == 0) {
        result.errors.append({kEmbeddings, QString(),
                              u"%1: the matrix has shape [%2, %3]; token embeddings need at least one row "
                              "and one column"_s.arg(source.path)
                                  .arg(rows)
                                  .arg(cols),
                              std::nullopt});
        return;
    }

    const std::int64_t dModel = dModelFor(params, cols);
    if (given.contains(u"d-model"_s) && params.dModel != dModel) {
        result.errors.append({u"d-model"_s, QString(),
                              u"is %1, but the matrix of --embeddings %2 has %3 columns, so d_model is "
                              "%4; leave out --d-model or make the two agree"_s.arg(params.dModel)
                                  .arg(source.toString())
                                  .arg(cols)
                                  .arg(dModel),
                              std::nullopt});
        return;
    }
    params.dModel = dModel;

    RowSelection selection;
    if (tokens) {
        for (const std::int64_t t : *tokens) {
            if (t < 0 || t >= rows) {
                result.errors.append(
                    {kTokens, u"rows in [0, %1] (the rows of --embeddings %2)"_s.arg(rows - 1).arg(source.toString()),
                     QString(), QString::number(t)});
                return;
            }
        }
        if (!given.contains(u"max-len"_s))
            params.maxLen = std::int64_t(tokens->size());
        selection = RowSelection::listed(std::move(*tokens));
    } else {
        if (!given.contains(u"max-len"_s))
            params.maxLen = std::min(params.maxLen, rows);
        if (params.maxLen > rows) {
            result.errors.append({u"max-len"_s, QString(),
                                  u"is %1, but the matrix of --embeddings %2 has %3 rows; choose rows "
                                  "with --tokens or lower --max-len"_s.arg(params.maxLen)
                                      .arg(source.toString())
                                      .arg(rows),
                                  std::nullopt});
            return;
        }
        selection = RowSelection::first(std::max<std::int64_t>(params.maxLen, 0));
    }
    // Nothing is read while another parameter is still wrong.
    if (!params.validate().isEmpty())
        return;

    const std::uint64_t cells = std::uint64_t(selection.rowCount(rows)) * std::uint64_t(cols);
    if (const auto refused
        = MemoryBudget::check(cells, params.memoryBudget, u"--embeddings %1"_s.arg(source.toString()))) {
        result.overBudget = *refused + u"; use fewer rows with --max-len or --tokens, or raise --memory-budget"_s;
        return;
    }
    auto loaded = MatrixFile::load(source, selection);
    if (!loaded)
        return fail(result, loaded.error());
    params.embeddings = std::make_shared<const EmbeddingMatrix>(
        EmbeddingMatrix {std::move(loaded.value()), source.toString(), given.value(kTokens)});
}

} // namespace posenc::EmbeddingOptions
