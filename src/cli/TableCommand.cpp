#include "TableCommand.h"

#include "BudgetAdvice.h"
#include "ExitCode.h"
#include "HelpText.h"
#include "Interrupt.h"
#include "OutputFile.h"
#include "ParamOptions.h"
#include "ProgressLine.h"

#include "check/ModelConfigCheck.h"
#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/OneLine.h"
#include "core/ParamError.h"
#include "core/ParamText.h"
#include "core/Quantity.h"
#include "io/TableExport.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QStorageInfo>

#include <algorithm>
#include <cmath>
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

QList<CommandOption> tableOwnOptions()
{
    return {
        OutputFile::outputOption(u".npy, .csv or .safetensors"_s),
        OutputFile::formatOption({u"npy"_s, u"csv"_s, u"safetensors"_s}),
        OutputFile::forceOption(),
        {{u"positions"_s}, u"A:B"_s, u"only rows A..B-1 (row-norms: these positions)"_s},
        {{u"whole"_s},
         {},
         u"compute the table whole within --memory-budget or refuse it (exit 4), as standard output does; a "
         "file otherwise takes a table over the budget in runs of rows that fit it (a program that reads "
         "the table back whole wants --whole)"_s},
        {{u"dims"_s}, u"LIST"_s, u"only these columns, e.g. 0,1,64:68 (column-stats: these columns)"_s},
        {{u"threads"_s}, u"N"_s, u"worker threads (default: all cores)"_s},
        {{u"quiet"_s}, {}, u"no progress line (shown on a terminal for work over a second)"_s},
        CommandOptions::help(),
    };
}

} // namespace

QStringList tableArguments()
{
    return Quantities::names() + statisticsNames();
}

QList<CommandOption> tableOptions()
{
    return tableOwnOptions();
}

HelpPage tableHelp()
{
    HelpPage page;
    page.topic = u"table"_s;
    page.usage = {u"posenc table QUANTITY -o FILE [OPTIONS]"_s};
    page.section().paragraph(
        u"Writes a table as .npy (float32, C order, shape [rows, cols]), .csv (a header line naming the columns, "
        "as pandas.read_csv reads it, then one row per line; numpy.loadtxt(f, delimiter=',', skiprows=1)) or "
        ".safetensors (one F32 tensor named after QUANTITY). "
        "A quantity of one family chooses it where --encoding is not given (table rope-cos is --encoding rope)."_s);
    QList<HelpItem> quantities;
    for (const QuantitySpec &row : Quantities::rows())
        quantities.append({row.name, row.help});
    quantities.append({u"column-stats"_s,
                       u"one row per column j of X, over all max_len positions: PE mean, PE std, PE rms, s*E mean, "
                       "s*E std, s*E rms (std divides by max_len); exact at any length: the PE in closed form, every "
                       "row of s*E"_s});
    quantities.append({u"row-norms"_s,
                       u"one row per position p: ||PE_p||, ||s*E_p||, ||s*E_p|| / ||PE_p||, ||X_p||, "
                       "||Y_p||"_s});
    page.section(u"QUANTITY"_s).items(quantities);
    QList<HelpItem> own;
    for (const CommandOption &option : tableOwnOptions())
        own.append({option.spelling(), option.help});
    page.section(u"Options"_s).items(own);
    page.section(u"Parameters"_s)
        .paragraph(u"Every parameter flag (posenc help parameters), --session FILE and --preset NAME."_s);
    page.section(u"Examples"_s)
        .examples({
            {u"posenc table pe -o pe.npy --d-model 512 --max-len 1024"_s, u"the paper's PE table for numpy"_s},
            {u"posenc table pe -o - --format csv --d-model 4 --max-len 3"_s, u"a small table as text"_s},
            {u"posenc table rope-cos -o cos.safetensors --rope-theta 500000"_s, u"RoPE's cos table as HF returns it"_s},
            {u"posenc table column-stats -o stats.csv --preset transformer-base"_s, u"per-column statistics"_s},
        });
    page.section(u"Exit status"_s)
        .items({{u"0"_s, u"the table was written"_s},
                {u"2"_s,
                 u"an invalid option or parameter, named with its allowed values, or parameters under which a "
                 "cell has no value (row-norms where ||PE_p|| is 0)"_s},
                {u"3"_s,
                 u"the file exists (without --force), or cannot be written or read, or the disk has no room for it, or "
                 "a file read holds NaN or an infinity: the path and the reason"_s},
                {u"4"_s,
                 u"over the memory budget: cells and GiB (a table of cells over it goes to a file in runs of rows "
                 "that fit it; standard output takes a table whole)"_s},
                {u"130"_s, u"stopped by Ctrl+C; nothing was written"_s}});
    return page;
}

namespace {

int fail(QTextStream &err, int code, const QString &message)
{
    err << "posenc table: " << message << '\n';
    return code;
}

struct Refusal
{
    int code = ExitUsage;
    QString message;
};

// The first cell of `values` that is NaN or infinite: its row and column.
std::optional<std::pair<Eigen::Index, Eigen::Index>> firstNonFinite(const RowMatrixXf &values)
{
    if (values.allFinite())
        return std::nullopt;
    for (Eigen::Index r = 0; r < values.rows(); ++r)
        for (Eigen::Index c = 0; c < values.cols(); ++c)
            if (!std::isfinite(values(r, c)))
                return std::pair {r, c};
    return std::nullopt;
}

QString numberWord(float value)
{
    return std::isnan(value) ? u"NaN"_s : value > 0.0f ? u"inf"_s : u"-inf"_s;
}

// Why `cell` of `table` holds no number, and the exit code: positions whose PE is 0 (row-norms'
// ratio divides by ||PE_p||), a loaded matrix that holds NaN or an infinity, or else the cell.
Refusal undefinedNumber(const Params &p, const TableRequest &request, const RowMatrixXf &table,
                        const TableExport::NonFinite &cell, const QString &name)
{
    if (request.content == TableRequest::RowNorms && cell.column == 2 && table(cell.row, 0) == 0.0f)
        return {ExitUsage,
                u"row-norms: ||PE_p|| is 0 at position %1 (%2 of the %3 positions asked), where embedding_over_pe = "
                u"||s*E_p|| / ||PE_p|| "
                "has no value; nothing was written (--positions chooses other positions)"_s
                    .arg(request.block.row0 + cell.row)
                    .arg((table.col(0).array() == 0.0f).count())
                    .arg(table.rows())};
    const auto fromFile = [&](const QString &flag, const QString &source, const RowMatrixXf &values,
                              const QString &row) -> std::optional<Refusal> {
        const auto at = firstNonFinite(values);
        if (!at)
            return std::nullopt;
        return Refusal {ExitIo,
                        u"--%1 %2: %3 holds %4 in column %5, so %6 would hold it too; nothing was written"_s
                            .arg(flag, source, row.arg(at->first), numberWord(values(at->first, at->second)))
                            .arg(at->second)
                            .arg(name)};
    };
    if (p.embeddings)
        if (auto refusal
            = fromFile(u"embeddings"_s, p.embeddings->source, p.embeddings->values, u"the row read for position %1"_s))
            return *refusal;
    if (p.learned.table)
        if (auto refusal = fromFile(u"position-table"_s, p.learned.table->source, p.learned.table->values, u"row %1"_s))
            return *refusal;
    return {ExitUsage,
            u"%1's row %2, column %3 would be %4 for these parameters; nothing was written"_s.arg(name)
                .arg(request.block.row0 + cell.row)
                .arg(cell.column)
                .arg(numberWord(cell.value))};
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
    bool whole = false; // --whole: no runs of rows
};

// The rows of a run that fits the memory budget, for a table of cells to a file that does not fit
// it whole: the most rows whose block the budget takes (a bisection of TableExport::check); 0
// where the whole fits, where not one row does, and for standard output (a stream the table
// could not take back if a later run failed).
std::int64_t runRowsWithinBudget(const Engine &engine, const TableRequest &request, const Output &output)
{
    if (request.content != TableRequest::Cells || output.whole || OutputFile::isStandardOutput(output.path)
        || !TableExport::check(engine, request))
        return 0;
    TableRequest part = request;
    const auto fits = [&](std::int64_t rows) {
        part.block.rows = rows;
        return !TableExport::check(engine, part);
    };
    if (!fits(1))
        return 0;
    std::int64_t fit = 1, over = request.block.rows;
    while (over - fit > 1) {
        const std::int64_t mid = fit + (over - fit) / 2;
        (fits(mid) ? fit : over) = mid;
    }
    return fit;
}

// The refusal of a table of `bytes` (`atLeast`: of at least as many) the disk holding `path` has no
// room for, before any run.
std::optional<QString> diskRefusal(const QString &path, double bytes, bool atLeast)
{
    const QStorageInfo disk(QFileInfo(path).absolutePath());
    if (!disk.isValid() || double(disk.bytesAvailable()) >= bytes)
        return std::nullopt;
    return u"%1: the table takes %2%3 GiB, and the disk holding it has %4 GiB free; nothing was written"_s.arg(path)
        .arg(atLeast ? u"at least "_s : QString())
        .arg(NumberText::compact(bytes / double(1 << 30), 3))
        .arg(NumberText::compact(double(disk.bytesAvailable()) / double(1 << 30), 3));
}

// A table over the memory budget written in runs of `runRows` rows, each computed, checked for
// cells without a number and written before the next (docs/ARCHITECTURE.md, Command line): memory
// for one run, the file whole or not at all.
int writeInRuns(const Engine &engine, const TableRequest &request, const Output &output, const QString &name,
                std::int64_t runRows, QTextStream &err)
{
    const QStringList columns = TableExport::columnNames(request);
    // A CSV cell takes at least a digit and its separator; a binary one its 4 bytes.
    const bool text = output.format == TableExport::Format::Csv;
    const double cells = double(request.block.rows) * double(columns.size());
    if (const auto refused = diskRefusal(output.path, cells * (text ? 2.0 : 4.0), text))
        return fail(err, ExitIo, *refused);
    ProgressLine line(u"posenc table"_s, !output.quiet && ProgressLine::stderrIsTerminal());
    const InterruptCancels interrupt;
    WorkProgress progress;
    progress.expect(request.block.rows);
    line.stage(u"%1 to %2, %3 rows a run"_s.arg(name, output.path).arg(runRows), &progress);
    std::optional<Refusal> refusal;
    const auto written = OutputFile::write(output.path, [&](QIODevice &device) {
        if (!TableExport::writeHeader(device, output.format, request.block.rows, columns, name))
            return false;
        for (std::int64_t r = 0; r < request.block.rows; r += runRows) {
            TableRequest part = request;
            part.block.row0 = request.block.row0 + r;
            part.block.rows = std::min(runRows, request.block.rows - r);
            if (const auto refused = TableExport::check(engine, part)) {
                refusal = Refusal {ExitOverBudget, *refused};
                return false;
            }
            const auto table
                = TableExport::compute(engine, part, ComputeOptions {output.threads, interrupt.flag(), nullptr});
            if (!table)
                return false;
            if (const auto cell = TableExport::undocumentedNonFinite(engine.params(), part, *table)) {
                refusal = undefinedNumber(engine.params(), part, *table, *cell, name);
                return false;
            }
            if (!TableExport::writeRows(device, *table, output.format, interrupt.flag()))
                return false;
            progress.advance(part.block.rows);
        }
        return true;
    });
    line.finish();
    if (interrupt.interrupted())
        return fail(err, ExitInterrupted, u"interrupted; nothing was written"_s);
    if (refusal)
        return fail(err, refusal->code, refusal->message);
    return written ? fail(err, ExitIo, *written) : ExitDone;
}

// Checks, computes and writes the table of `request`: exit 4 over the budget (but a table to a
// file, written in runs of rows that fit it), 3 an existing file without --force or unwritable,
// 130 when Ctrl+C stopped it (nothing written).
int write(const Engine &engine, const TableRequest &request, const Output &output, const QString &name,
          QTextStream &err)
{
    if (const auto refused = OutputFile::refusal(output.path, output.force))
        return fail(err, ExitIo, *refused);
    if (const std::int64_t runRows = runRowsWithinBudget(engine, request, output); runRows > 0)
        return writeInRuns(engine, request, output, name, runRows, err);
    if (const auto refused = TableExport::check(engine, request)) {
        // What can help: fewer columns where not one row fits, else fewer rows, or a file, which
        // takes a table of cells in runs of rows (runRowsWithinBudget).
        TableRequest row = request;
        row.block.rows = 1;
        const bool rowFits = request.content == TableRequest::Cells && !TableExport::check(engine, row);
        const bool cells = request.content == TableRequest::Cells;
        const QString smaller = request.content == TableRequest::ColumnStats || (cells && !rowFits)
            ? u"choose fewer columns with --dims"_s
            : !cells || output.whole
            ? u"ask for fewer rows with --positions"_s
            : u"ask for fewer rows with --positions, write it to a file (-o FILE: in runs of rows that fit)"_s;
        return fail(err, ExitOverBudget, *refused + overBudgetAdvice(smaller, engine.params().memoryBudget));
    }
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
    if (const auto cell = TableExport::undocumentedNonFinite(engine.params(), request, *table)) {
        line.finish();
        const Refusal refusal = undefinedNumber(engine.params(), request, *table, *cell, name);
        return fail(err, refusal.code, refusal.message);
    }
    // Asked again: the file may have appeared while the table was computed.
    if (const auto refused = OutputFile::refusal(output.path, output.force))
        return fail(err, ExitIo, *refused);
    WorkProgress writing;
    line.stage(u"writing %1"_s.arg(OutputFile::isStandardOutput(output.path) ? u"to standard output"_s : output.path),
               &writing);
    const QStringList columns = TableExport::columnNames(request);
    const auto written = OutputFile::write(output.path, [&](QIODevice &device) {
        return TableExport::writeTo(device, *table, output.format, columns, &writing, interrupt.flag(), name);
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
    // embedding_over_pe divides by ||PE_p||: without a PE it has no value at any position.
    if (rows && (!Families::spec(p.encoding).hasPositionTerm() || p.peColumns() == 0)) {
        const QString instead = Families::insteadOfTerm(p.encoding);
        fail(err, ExitUsage,
             u"row-norms: %1, so embedding_over_pe = ||s*E_p|| / ||PE_p|| has no value at any position"_s.arg(
                 p.peColumns() == 0 && Families::spec(p.encoding).hasPositionTerm()
                     ? u"--pe-dims 0 leaves the PE no column in concat"_s
                     : u"encoding %1 adds no PE to X%2"_s.arg(
                         Families::word(p.encoding), instead.isEmpty() ? QString() : u" ("_s + instead + u')')));
        return std::nullopt;
    }
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
                 u"--positions: must be A:B with 0 <= A < B <= %1 (positions of %2); got %3"_s.arg(p.maxLen).arg(
                     name, ParamError::quoted(positions)));
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
                 u"--dims: must list columns in [0, %1) (columns of X), e.g. 0,1,64:68; got %2"_s.arg(p.dModel).arg(
                     ParamError::quoted(dims)));
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
    CommandOptions::add(parser, tableOptions());
    ParamOptions::add(parser);
    parser.addPositionalArgument(u"quantity"_s, u"What to write."_s);

    if (!parser.parse(arguments))
        return fail(err, ExitUsage, oneLine(parser.errorText()) + u" (see posenc table --help)"_s);
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(tableHelp(), HelpText::width());
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
                    u"QUANTITY must be one of %1, or %2; got %3"_s.arg(Quantities::names().join(u", "_s),
                                                                       statisticsNames().join(u", "_s),
                                                                       ParamError::quoted(positional.first())));
    Output output;
    output.path = parser.value(u"output"_s);
    if (output.path.isEmpty())
        return fail(err, ExitUsage,
                    u"--output: a file ending in .npy, .csv or .safetensors, or - with --format, is required"_s);
    if (parser.isSet(u"format"_s)) {
        const auto format = TableExport::formatOf(u"table."_s + parser.value(u"format"_s));
        if (!format || parser.value(u"format"_s).contains(u'.'))
            return fail(err, ExitUsage,
                        u"--format: must be npy, csv or safetensors; got %1"_s.arg(
                            ParamError::quoted(parser.value(u"format"_s))));
        output.format = *format;
    } else if (OutputFile::isStandardOutput(output.path)) {
        return fail(err, ExitUsage, u"--format: -o - (standard output) needs --format npy, csv or safetensors"_s);
    } else if (const auto format = TableExport::formatOf(output.path)) {
        output.format = *format;
    } else {
        return fail(
            err, ExitUsage,
            u"--output: the format comes from the extension, .npy, .csv or .safetensors, or from --format; got %1"_s
                .arg(ParamError::quoted(output.path)));
    }
    if (const auto refused
        = OutputFile::terminalRefusal(output.path, parser.isSet(u"format"_s) ? parser.value(u"format"_s) : u"npy"_s,
                                      output.format != TableExport::Format::Csv))
        return fail(err, ExitUsage, *refused);
    output.force = parser.isSet(u"force"_s);
    output.quiet = parser.isSet(u"quiet"_s);
    output.whole = parser.isSet(u"whole"_s);

    // A quantity of one family (rope-cos) chooses it.
    ParamOptions::Clues clues;
    if (quantity)
        clues.append(FamilyInference::quantityClue(*quantity, u"QUANTITY "_s + Quantities::name(*quantity)));
    const ParamOptions::Result read = ParamOptions::read(parser, clues);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc table: " << line << '\n';
        return read.exitCode();
    }
    if (parser.isSet(u"threads"_s)) {
        bool ok = false;
        output.threads = parser.value(u"threads"_s).toInt(&ok);
        if (!ok || output.threads < 1 || output.threads > 1024)
            return fail(err, ExitUsage,
                        u"--threads: must be an integer in [1, 1024]; got %1"_s.arg(
                            ParamError::quoted(parser.value(u"threads"_s))));
    }

    const Engine engine(read.params);
    if (statistics) {
        const auto request = statisticsRequest(engine, *statistics,
                                               parser.isSet(u"positions"_s) ? parser.value(u"positions"_s) : QString(),
                                               parser.isSet(u"dims"_s) ? parser.value(u"dims"_s) : QString(), err);
        if (!request)
            return ExitUsage;
        return write(engine, *request, output, positional.first(), err);
    }
    if (const auto missing = Quantities::spec(*quantity).missing(read.params)) {
        // A config's layer type that places no position (Llama 4's, EXAONE 4's NoPE layers) is
        // named, so the user learns which of its layer types to ask for instead.
        const QString where = read.configLayer ? u"the config's %1 layers (encoding %2)"_s.arg(
                                  read.configLayer->layerType, ParamText::get(read.params, u"encoding"_s))
                                               : u"these parameters"_s;
        return fail(err, ExitUsage,
                    u"QUANTITY %1 is not defined for %2: %3"_s.arg(Quantities::name(*quantity), where, *missing));
    }
    const Shape shape = engine.shape(*quantity);
    TableRequest request {TableRequest::Cells, *quantity, {0, shape.rows, 0, shape.cols}, {}};
    if (parser.isSet(u"positions"_s)) {
        const auto range = ParamText::parseRange(parser.value(u"positions"_s));
        if (!range || range->first < 0 || range->first >= range->second || range->second > shape.rows)
            return fail(err, ExitUsage,
                        u"--positions: must be A:B with 0 <= A < B <= %1 (rows of %2); got %3"_s.arg(shape.rows)
                            .arg(Quantities::name(*quantity), ParamError::quoted(parser.value(u"positions"_s))));
        request.block.row0 = range->first;
        request.block.rows = range->second - range->first;
    }
    if (parser.isSet(u"dims"_s)) {
        const auto list = ParamText::parseIndexList(parser.value(u"dims"_s));
        const bool inRange = list && !list->empty()
            && std::all_of(list->begin(), list->end(), [&](std::int64_t c) { return c >= 0 && c < shape.cols; });
        if (!inRange)
            return fail(
                err, ExitUsage,
                u"--dims: must list columns in [0, %1) (columns of %2), e.g. 0,1,64:68; got %3"_s.arg(shape.cols)
                    .arg(Quantities::name(*quantity), ParamError::quoted(parser.value(u"dims"_s))));
        request.dims = *list;
        request.block = TableView::blockCovering(request.block.row0, request.block.rowEnd(), request.dims);
    }
    return write(engine, request, output, Quantities::name(*quantity), err);
}

} // namespace posenc
