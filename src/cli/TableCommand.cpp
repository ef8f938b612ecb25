#include "TableCommand.h"

#include "BudgetAdvice.h"
#include "ExitCode.h"
#include "Interrupt.h"
#include "OutputFile.h"
#include "ParamOptions.h"
#include "ProgressLine.h"

#include "core/Engine.h"
#include "core/ParamText.h"
#include "core/Quantity.h"
#include "io/TableExport.h"

#include <QCommandLineParser>

#include <algorithm>
#include <optional>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The tables of statistics `posenc table` writes besides the quantities.
const std::pair<QString, TableRequest::Content> kStatistics[] = {
    {u"column-stats"_s, TableRequest::ColumnStats},
    {u"row-norms"_s, TableRequest::RowNorms},
};

QStringList statisticsNames()
{
    QStringList names;
    for (const auto &entry : kStatistics)
        names.append(entry.first);
    return names;
}

std::optional<TableRequest::Content> statisticsFromName(const QString &name)
{
    for (const auto &entry : kStatistics)
        if (entry.first == name)
            return entry.second;
    return std::nullopt;
}

// One line per row of the quantity table.
QString quantityLines()
{
    QString lines;
    for (const QuantitySpec &row : Quantities::rows())
        lines += u"  %1  %2\n"_s.arg(row.name.leftJustified(10), row.help);
    return lines;
}

QString usage()
{
    return u"Usage: posenc table QUANTITY -o FILE [OPTIONS]\n"
           "Writes a table as .npy (float32, C order, shape [rows, cols]) or .csv (one row per line).\n\n"
           "QUANTITY: %1, or a table of statistics: %3\n"
           "%4"
           "  column-stats  one row per column j of X, over all max_len positions: PE mean, PE std,\n"
           "                PE rms, s*E mean, s*E std, s*E rms (std divides by max_len); exact at any\n"
           "                length: the PE in closed form, every row of s*E (--dims: these columns)\n"
           "  row-norms     one row per position p: ||PE_p||, ||s*E_p||, ||s*E_p|| / ||PE_p||,\n"
           "                ||X_p||, ||Y_p|| (--positions: these rows)\n\n"
           "Options:\n"
           "  -o, --output FILE   where to write; .npy or .csv, whole or not at all; - for standard\n"
           "                      output (with --format)\n"
           "  --format FORMAT     npy or csv: the format of -o -, or instead of FILE's extension\n"
           "  --force             replace FILE if it exists (else the run is refused, exit 3)\n"
           "  --positions A:B     only rows A..B-1\n"
           "  --dims LIST         only these columns, e.g. 0,1,64:68\n"
           "  --threads N         worker threads (default: all cores)\n"
           "  --quiet             no progress line (shown on a terminal for work over a second)\n\n"
           "A CSV file starts with a header line, '# ' and the column names (numpy's loadtxt skips\n"
           "it). Ctrl+C stops the work: nothing is written, exit 130. Exit codes: 0 done, 2 invalid\n"
           "usage or parameter, 3 the file exists (without --force) or cannot be written or read,\n"
           "4 over the memory budget, 130 interrupted.\n\n"
           "Parameters:\n%2"_s.arg(Quantities::names().join(u", "_s), ParamOptions::helpText(),
                                   statisticsNames().join(u", "_s), quantityLines());
}

int fail(QTextStream &err, int code, const QString &message)
{
    err << "posenc table: " << message << '\n';
    return code;
}

// Where and how the table goes: -o FILE (or - for standard output), its format, --force,
// --threads, --quiet.
struct Output
{
    QString path;
    TableExport::Format format = TableExport::Format::Npy;
    bool force = false;
    int threads = 0;
    bool quiet = false;
};

// Checks, computes and writes the table of `request`: exit 4 over the budget, 3 an existing file
// without --force or unwritable, 130 when Ctrl+C stopped it (nothing written).
int write(const Engine &engine, const TableRequest &request, const Output &output, const QString &name,
          QTextStream &err)
{
    if (const auto refused = OutputFile::refusal(output.path, output.force))
        return fail(err, ExitIo, *refused);
    if (const auto refused = TableExport::check(engine, request))
        return fail(err, ExitOverBudget,
                    *refused
                        + overBudgetAdvice(request.content == TableRequest::ColumnStats
                                               ? u"choose fewer columns with --dims"_s
                                               : u"ask for fewer rows with --positions"_s,
                                           engine.params().memoryBudget));
    ProgressLine line(u"posenc table"_s, !output.quiet && ProgressLine::stderrIsTerminal());
    // Ctrl+C stops the computing and the writing alike: a file half written is removed.
    const InterruptCancels interrupt;
    const auto interrupted = [&] {
        line.finish();
        return fail(err, ExitInterrupted,
                    OutputFile::isStandardOutput(output.path) ? u"interrupted"_s
                                                              : u"interrupted; nothing was written"_s);
    };
    WorkProgress computing;
    line.stage(name, &computing);
    const std::optional<RowMatrixXf> table
        = TableExport::compute(engine, request, ComputeOptions {output.threads, interrupt.flag(), &computing});
    if (interrupt.interrupted())
        return interrupted();
    if (!table)
        return fail(err, ExitOverBudget, u"the table could not be computed within the memory budget"_s);
    // Asked again: the file may have appeared while the table was computed.
    if (const auto refused = OutputFile::refusal(output.path, output.force))
        return fail(err, ExitIo, *refused);
    WorkProgress writing;
    line.stage(u"writing %1"_s.arg(OutputFile::isStandardOutput(output.path) ? u"to standard output"_s : output.path),
               &writing);
    const QStringList columns = TableExport::columnNames(request);
    const auto written = OutputFile::write(output.path, [&](QIODevice &device) {
        return TableExport::writeTo(device, *table, output.format, columns, &writing, interrupt.flag());
    });
    if (written && interrupt.interrupted())
        return interrupted();
    line.finish();
    if (written)
        return fail(err, ExitIo, *written);
    return ExitDone;
}

// The request of a table of statistics: row-norms takes --positions, column-stats --dims
// (its statistics are over every position, its norms over every column).
std::optional<TableRequest> statisticsRequest(const Engine &engine, TableRequest::Content content,
                                              const QString &positions, const QString &dims, QTextStream &err)
{
    const Params &p = engine.params();
    TableRequest request;
    request.content = content;
    request.block = {0, p.maxLen, 0, 0};
    const bool rows = content == TableRequest::RowNorms;
    const QString name = rows ? u"row-norms"_s : u"column-stats"_s;
    if (!(rows ? dims : positions).isEmpty()) {
        fail(err, ExitUsage,
             rows ? u"--dims: row-norms are over every column; choose positions with --positions"_s
                  : u"--positions: column-stats are over every position; choose columns with --dims"_s);
        return std::nullopt;
    }
    if (!positions.isEmpty()) {
        const auto range = ParamText::parseRange(positions);
        if (!range || range->first < 0 || range->first >= range->second || range->second > p.maxLen) {
            fail(err, ExitUsage,
                 u"--positions: must be A:B with 0 <= A < B <= %1 (positions of %2); got '%3'"_s.arg(p.maxLen).arg(
                     name, positions));
            return std::nullopt;
        }
        request.block.row0 = range->first;
        request.block.rows = range->second - range->first;
    }
    if (!dims.isEmpty()) {
        const auto list = ParamText::parseIndexList(dims);
        const bool inRange = list && !list->empty()
            && std::all_of(list->begin(), list->end(), [&](std::int64_t c) { return c >= 0 && c < p.dModel; });
        if (!inRange) {
            fail(err, ExitUsage,
                 u"--dims: must list columns in [0, %1) (columns of X), e.g. 0,1,64:68; got '%2'"_s.arg(p.dModel).arg(
                     dims));
            return std::nullopt;
        }
        request.dims = *list;
    }
    return request;
}

} // namespace

int runTableCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption outputOption({u"o"_s, u"output"_s}, u"File to write."_s, u"FILE"_s);
    const QCommandLineOption formatOption = OutputFile::formatOption(u"npy|csv"_s);
    const QCommandLineOption positionsOption(u"positions"_s, u"Rows A..B-1."_s, u"A:B"_s);
    const QCommandLineOption dimsOption(u"dims"_s, u"Columns."_s, u"LIST"_s);
    const QCommandLineOption threadsOption(u"threads"_s, u"Worker threads."_s, u"N"_s);
    const QCommandLineOption quietOption(u"quiet"_s, u"No progress line."_s);
    const QCommandLineOption forceOption = OutputFile::forceOption();
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions(
        {outputOption, formatOption, forceOption, positionsOption, dimsOption, threadsOption, quietOption, helpOption});
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
    const auto statistics = statisticsFromName(positional.first());
    if (!quantity && !statistics)
        return fail(err, ExitUsage,
                    u"QUANTITY must be one of %1, or %2; got '%3'"_s.arg(
                        Quantities::names().join(u", "_s), statisticsNames().join(u", "_s), positional.first()));
    Output output;
    output.path = parser.value(outputOption);
    if (output.path.isEmpty())
        return fail(err, ExitUsage, u"--output: a file ending in .npy or .csv, or - with --format, is required"_s);
    if (parser.isSet(formatOption)) {
        const auto format = TableExport::formatOf(u"table."_s + parser.value(formatOption));
        if (!format || parser.value(formatOption).contains(u'.'))
            return fail(err, ExitUsage, u"--format: must be npy or csv; got '%1'"_s.arg(parser.value(formatOption)));
        output.format = *format;
    } else if (OutputFile::isStandardOutput(output.path)) {
        return fail(err, ExitUsage, u"--format: -o - (standard output) needs --format npy or --format csv"_s);
    } else if (const auto format = TableExport::formatOf(output.path)) {
        output.format = *format;
    } else {
        return fail(err, ExitUsage,
                    u"--output: the format comes from the extension, .npy or .csv, or from --format; got '%1'"_s.arg(
                        output.path));
    }
    if (const auto refused
        = OutputFile::terminalRefusal(output.path, u"npy"_s, output.format == TableExport::Format::Npy))
        return fail(err, ExitUsage, *refused);
    output.force = parser.isSet(forceOption);
    output.quiet = parser.isSet(quietOption);

    const ParamOptions::Result read = ParamOptions::read(parser);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc table: " << line << '\n';
        return read.exitCode();
    }
    if (parser.isSet(threadsOption)) {
        bool ok = false;
        output.threads = parser.value(threadsOption).toInt(&ok);
        if (!ok || output.threads < 1 || output.threads > 1024)
            return fail(err, ExitUsage,
                        u"--threads: must be an integer in [1, 1024]; got '%1'"_s.arg(parser.value(threadsOption)));
    }

    const Engine engine(read.params);
    if (statistics) {
        const auto request = statisticsRequest(
            engine, *statistics, parser.isSet(positionsOption) ? parser.value(positionsOption) : QString(),
            parser.isSet(dimsOption) ? parser.value(dimsOption) : QString(), err);
        if (!request)
            return ExitUsage;
        return write(engine, *request, output, positional.first(), err);
    }
    if (const auto missing = Quantities::spec(*quantity).missing(read.params))
        return fail(
            err, ExitUsage,
            u"QUANTITY %1 is not defined with these parameters: %2"_s.arg(Quantities::name(*quantity), *missing));
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
    return write(engine, request, output, Quantities::name(*quantity), err);
}

} // namespace posenc
