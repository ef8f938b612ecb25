#include "TableCommand.h"

#include "ExitCode.h"
#include "ParamOptions.h"

#include "core/Engine.h"
#include "core/ParamText.h"
#include "core/Quantity.h"
#include "io/TableExport.h"

#include <QCommandLineParser>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QString usage()
{
    return u"Usage: posenc table QUANTITY -o FILE [OPTIONS]\n"
           "Writes a table as .npy (float32, C order, shape [rows, cols]) or .csv (one row per line).\n\n"
           "QUANTITY: %1\n"
           "  pe          the sinusoidal table PE [max_len, d_model] (concat: [max_len, pe_dims])\n"
           "  embedding   the scaled token embeddings s*E (concat: d_model - pe_dims columns)\n"
           "  input       the model input X = s*E + PE (or the concatenation)\n"
           "  output      Y = dropout(X) for the chosen dropout mode\n"
           "  mask        the keep mask of that dropout: 1 kept, 0 dropped\n"
           "  similarity  S = PE . PE^T [max_len, max_len]\n"
           "  error       float32-angle PE minus exact PE\n\n"
           "Options:\n"
           "  -o, --output FILE   where to write; .npy or .csv (an existing file is replaced)\n"
           "  --positions A:B     only rows A..B-1\n"
           "  --dims LIST         only these columns, e.g. 0,1,64:68\n"
           "  --threads N         worker threads (default: all cores)\n\n"
           "Parameters:\n%2"_s.arg(Quantities::names().join(u", "_s), ParamOptions::helpText());
}

int fail(QTextStream &err, int code, const QString &message)
{
    err << "posenc table: " << message << '\n';
    return code;
}

} // namespace

int runTableCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption outputOption({u"o"_s, u"output"_s}, u"File to write."_s, u"FILE"_s);
    const QCommandLineOption positionsOption(u"positions"_s, u"Rows A..B-1."_s, u"A:B"_s);
    const QCommandLineOption dimsOption(u"dims"_s, u"Columns."_s, u"LIST"_s);
    const QCommandLineOption threadsOption(u"threads"_s, u"Worker threads."_s, u"N"_s);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions({outputOption, positionsOption, dimsOption, threadsOption, helpOption});
    ParamOptions::add(parser);
    parser.addPositionalArgument(u"quantity"_s, u"What to write."_s);

    if (!parser.parse(arguments))
        return fail(err, ExitUsage, parser.errorText() + u" (see posenc table --help)"_s);
    if (parser.isSet(helpOption)) {
        out << usage();
        return ExitDone;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return fail(err, ExitUsage,
                    u"expected one QUANTITY (%1); got %2"_s.arg(Quantities::names().join(u", "_s))
                        .arg(positional.isEmpty() ? u"none"_s : positional.join(u' ')));
    const auto quantity = Quantities::fromName(positional.first());
    if (!quantity)
        return fail(
            err, ExitUsage,
            u"QUANTITY must be one of %1; got '%2'"_s.arg(Quantities::names().join(u", "_s), positional.first()));
    const QString path = parser.value(outputOption);
    if (path.isEmpty())
        return fail(err, ExitUsage, u"--output: a file ending in .npy or .csv is required"_s);
    if (!TableExport::formatOf(path))
        return fail(err, ExitUsage,
                    u"--output: the format comes from the extension, .npy or .csv; got '%1'"_s.arg(path));

    const ParamOptions::Result read = ParamOptions::read(parser);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc table: " << line << '\n';
        return read.exitCode();
    }
    int threads = 0;
    if (parser.isSet(threadsOption)) {
        bool ok = false;
        threads = parser.value(threadsOption).toInt(&ok);
        if (!ok || threads < 1 || threads > 1024)
            return fail(err, ExitUsage,
                        u"--threads: must be an integer in [1, 1024]; got '%1'"_s.arg(parser.value(threadsOption)));
    }

    const Engine engine(read.params);
    const Shape shape = engine.shape(*quantity);
    TableRequest request {TableRequest::Cells, *quantity, {0, shape.rows, 0, shape.cols}, {}};
    if (parser.isSet(positionsOption)) {
        const auto range = ParamText::parseRange(parser.value(positionsOption));
        if (!range || range->first < 0 || range->first >= range->second || range->second > shape.rows)
            return fail(err, ExitUsage,
                        u"--positions: must be A:B with 0 <= A < B <= %1 (rows of %2); got '%3'"_s.arg(shape.rows)
                            .arg(Quantities::name(*quantity), parser.value(positionsOption)));
        request.block.row0 = range->first;
        request.block.rows = range->second - range->first;
    }
    if (parser.isSet(dimsOption)) {
        const auto list = ParamText::parseIndexList(parser.value(dimsOption));
        const bool inRange = list && !list->empty()
            && std::all_of(list->begin(), list->end(), [&](std::int64_t c) { return c >= 0 && c < shape.cols; });
        if (!inRange)
            return fail(
                err, ExitUsage,
                u"--dims: must list columns in [0, %1) (columns of %2), e.g. 0,1,64:68; got '%3'"_s.arg(shape.cols)
                    .arg(Quantities::name(*quantity), parser.value(dimsOption)));
        request.dims = *list;
        request.block = TableView::blockCovering(request.block.row0, request.block.rowEnd(), request.dims);
    }
    if (const auto refused = TableExport::check(engine, request))
        return fail(err, ExitOverBudget,
                    *refused + u"; ask for fewer rows with --positions or raise --memory-budget"_s);

    const auto table = TableExport::compute(engine, request, ComputeOptions {threads, nullptr});
    const auto written = TableExport::write(path, *table);
    if (written)
        return fail(err, ExitIo, written->toString());
    return ExitDone;
}

} // namespace posenc
