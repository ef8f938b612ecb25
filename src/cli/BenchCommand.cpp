#include "BenchCommand.h"

#include "BenchTiming.h"
#include "BudgetAdvice.h"
#include "CheckBenchmark.h"
#include "ExitCode.h"
#include "HelpText.h"
#include "JsonOutput.h"
#include "KernelBenchmarks.h"
#include "ParamOptions.h"

#include "core/MemoryBudget.h"
#include "core/OneLine.h"
#include "core/ParamError.h"
#include "core/SimdTargets.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QThread>

#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

std::vector<ExtraBenchmark> &extraBenchmarks()
{
    static std::vector<ExtraBenchmark> benchmarks;
    return benchmarks;
}

// What the command line asks of the bench.
struct BenchOptions
{
    bool json = false;
    int repeats = 7;
    bool kernelsOnly = false;
    InteractionChanges changes;
    // --max-len or --d-model given: the check bench takes that size too.
    bool sizeChosen = false;
    Params params;
};

// The bench's own counts: --repeats and the window's change counts. ExitDone when they are valid.
int readCounts(const QCommandLineParser &parser, BenchOptions &options, QTextStream &err)
{
    bool ok = true;
    options.repeats = parser.isSet(u"repeats"_s) ? parser.value(u"repeats"_s).toInt(&ok) : 7;
    if (!ok || options.repeats < 1 || options.repeats > 1000) {
        err << "posenc bench: --repeats: must be an integer in [1, 1000]; got "
            << ParamError::quoted(parser.value(u"repeats"_s)) << '\n';
        return ExitUsage;
    }
    options.kernelsOnly = parser.isSet(u"kernels-only"_s);
    for (const auto &[name, count] : {std::pair {u"interaction-changes"_s, &options.changes.interactive},
                                      std::pair {u"scale-changes"_s, &options.changes.atScale},
                                      std::pair {u"view-changes"_s, &options.changes.perView}}) {
        if (!parser.isSet(name))
            continue;
        // The change counts are the window's part, which --kernels-only skips: asking for both is a mistake.
        if (options.kernelsOnly) {
            err << "posenc bench: --" << name
                << ": the window's changes are not run with --kernels-only; drop one of the two\n";
            return ExitUsage;
        }
        *count = parser.value(name).toInt(&ok);
        if (!ok || *count < 0 || *count > 100000) {
            err << "posenc bench: --" << name << ": must be an integer in [0, 100000]; got "
                << ParamError::quoted(parser.value(name)) << '\n';
            return ExitUsage;
        }
    }
    if (parser.isSet(u"views"_s)) {
        if (options.kernelsOnly) {
            err << "posenc bench: --views: the window's changes are not run with --kernels-only; drop one of the two\n";
            return ExitUsage;
        }
        options.changes.views = parser.value(u"views"_s).split(u',', Qt::SkipEmptyParts);
        for (QString &view : options.changes.views) {
            view = view.trimmed();
            if (!InteractionChanges::kViews.contains(view)) {
                err << "posenc bench: --views: each of " << InteractionChanges::kViews.join(u", "_s) << "; got "
                    << ParamError::quoted(view) << '\n';
                return ExitUsage;
            }
        }
    }
    return ExitDone;
}

// The parameters, at the bench's own size unless the caller chose one.
int readParams(QCommandLineParser &parser, const QStringList &arguments, BenchOptions &options, QTextStream &err)
{
    options.sizeChosen = parser.isSet(u"max-len"_s) || parser.isSet(u"d-model"_s);
    QStringList sized = arguments;
    if (!parser.isSet(u"max-len"_s))
        sized << u"--max-len"_s << u"16384"_s;
    if (!parser.isSet(u"d-model"_s))
        sized << u"--d-model"_s << u"4096"_s;
    parser.parse(sized);
    ParamOptions::Result read = ParamOptions::read(parser);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc bench: " << line << '\n';
        return read.exitCode();
    }
    options.params = read.params;
    options.changes.checkRows = options.sizeChosen ? read.params.maxLen : kCheckRows;
    options.changes.checkCols = options.sizeChosen ? read.params.dModel : kCheckCols;
    // The pipeline timed is the sum s*E + PE over the whole buffer: in concat the embedding
    // table and the PE are narrower than the buffer, and its copy would read past the table.
    if (options.params.concatenates()) {
        err << "posenc bench: --compose: the bench times the sum s*E + PE; use --compose sum\n";
        return ExitUsage;
    }
    return ExitDone;
}

// The line of the check bench: posenc check against reading its file.
BenchPart checkPart(const QJsonObject &keys)
{
    BenchPart part {keys, {}, {}};
    if (!keys.isEmpty())
        part.lines.append({u"posenc check, %1 x %2"_s.arg(qint64(keys[u"check_rows"_s].toDouble()))
                               .arg(qint64(keys[u"check_cols"_s].toDouble())),
                           keys[u"check_ms"_s].toDouble(),
                           u"%1x reading the file as cat does (%2 ms); median %3x"_s
                               .arg(keys[u"check_over_read"_s].toDouble(), 0, 'f', 2)
                               .arg(keys[u"check_read_ms"_s].toDouble(), 0, 'f', 1)
                               .arg(keys[u"check_over_read_median"_s].toDouble(), 0, 'f', 2)});
    if (keys.contains(u"check_rope_ms"_s))
        part.lines.append({u"posenc check of RoPE's float32 cos table, the same size"_s,
                           keys[u"check_rope_ms"_s].toDouble(),
                           u"%1x reading the file as cat does (%2 ms); median %3x"_s
                               .arg(keys[u"check_rope_over_read"_s].toDouble(), 0, 'f', 2)
                               .arg(keys[u"check_rope_read_ms"_s].toDouble(), 0, 'f', 1)
                               .arg(keys[u"check_rope_over_read_median"_s].toDouble(), 0, 'f', 2)});
    if (keys.contains(u"check_array_ms"_s))
        part.lines.append({u"posenc check of the table in memory (Python)"_s, keys[u"check_array_ms"_s].toDouble(),
                           u"%1x the command on its file (%2 ms); median %3x"_s
                               .arg(keys[u"check_array_over_file"_s].toDouble(), 0, 'f', 2)
                               .arg(keys[u"check_command_ms"_s].toDouble(), 0, 'f', 1)
                               .arg(keys[u"check_array_over_file_median"_s].toDouble(), 0, 'f', 2)});
    if (keys.contains(u"config_check_ms"_s))
        part.lines.append(
            {u"posenc check --config, %1 MiB"_s.arg(keys[u"config_check_bytes"_s].toDouble() / 1048576.0, 0, 'f', 1),
             keys[u"config_check_ms"_s].toDouble(),
             u"median %1 ms; the slowest example config %2 ms"_s
                 .arg(keys[u"config_check_median_ms"_s].toDouble(), 0, 'f', 2)
                 .arg(keys[u"config_check_examples_ms"_s].toDouble(), 0, 'f', 3)});
    if (keys.contains(u"config_check_distinct_ms"_s))
        part.lines.append({u"posenc check --config, %1 MiB, 2^16 types"_s.arg(
                               keys[u"config_check_distinct_bytes"_s].toDouble() / 1048576.0, 0, 'f', 1),
                           keys[u"config_check_distinct_ms"_s].toDouble(),
                           u"median %1 ms; 65,536 layer types"_s.arg(
                               keys[u"config_check_distinct_median_ms"_s].toDouble(), 0, 'f', 2)});
    return part;
}

void printText(const BenchOptions &options, int threads, const std::vector<BenchPart> &parts,
               const QJsonObject &extraKeys, QTextStream &out)
{
    const std::int64_t cells = options.params.maxLen * options.params.dModel;
    QStringList targets;
    for (const SimdTargets::Target &target : SimdTargets::available())
        targets << QString::fromLatin1(target.name);
    out << "posenc bench: " << options.params.maxLen << " x " << options.params.dModel << " float32 ("
        << QString::number(BenchTiming::gbps(cells, 1.0) / 1e3, 'f', 2) << " GB), " << threads << " threads, best of "
        << options.repeats << " (the plain fills and copies, the PE fills and the pipeline timed round-robin)\n"
        << "SIMD target: " << SimdTargets::current().name << " (of " << targets.join(u", "_s)
        << " in this binary for this CPU)\n\n";
    for (const BenchPart &part : parts) {
        if (!part.heading.isEmpty())
            out << '\n' << part.heading << '\n';
        for (const BenchLine &line : part.lines)
            out << line.what.leftJustified(44) << QString::number(line.ms, 'f', 2).rightJustified(9) << " ms  "
                << line.against << '\n';
    }
    for (auto it = extraKeys.begin(); it != extraKeys.end(); ++it)
        out << it.key().leftJustified(44) << QString::number(it.value().toDouble(), 'f', 2).rightJustified(9) << '\n';
}

// The kernels, the check and, unless --kernels-only, the benchmarks registered above the cli.
int runBenchmarks(const BenchOptions &options, QTextStream &out, QTextStream &err)
{
    const Params &params = options.params;
    const std::int64_t rows = params.maxLen;
    const std::int64_t cols = params.dModel;
    const int threads = QThread::idealThreadCount();
    if (const auto refused = MemoryBudget::check(
            KernelBenchmarks::cells(params), params.memoryBudget,
            u"the bench's buffer and embedding table, %1 x %2 each, and RoPE's %3 x %4 table"_s.arg(rows)
                .arg(cols)
                .arg(KernelBenchmarks::kRopeRows)
                .arg(KernelBenchmarks::kRopeHeadDim))) {
        err << "posenc bench: " << *refused << overBudgetAdvice(u"lower --max-len or --d-model"_s, params.memoryBudget)
            << '\n';
        return ExitOverBudget;
    }
    KernelBenchmarks kernels(params, options.repeats, threads);
    std::vector<BenchPart> parts;
    parts.push_back(kernels.fillsAndPipeline());
    parts.push_back(kernels.rope());
    BenchPart quantities = kernels.quantities();
    // posenc check against reading its file: 1,048,576 x 1024, or the size --max-len or --d-model chose.
    parts.push_back(checkPart(checkOverRead(options.sizeChosen ? rows : kCheckRows,
                                            options.sizeChosen ? cols : kCheckCols, options.repeats, threads, err)));
    parts.push_back(std::move(quantities));

    QJsonObject json;
    json[u"rows"_s] = static_cast<double>(rows);
    json[u"cols"_s] = static_cast<double>(cols);
    json[u"threads"_s] = threads;
    json[u"simd_target"_s] = QString::fromLatin1(SimdTargets::current().name);
    json[u"repeats"_s] = options.repeats;
    for (const BenchPart &part : parts) {
        for (auto it = part.keys.begin(); it != part.keys.end(); ++it)
            json[it.key()] = it.value();
    }
    QJsonObject extraKeys;
    if (!options.kernelsOnly) {
        for (const ExtraBenchmark &extra : extraBenchmarks()) {
            const QJsonObject keys = extra(options.changes, err);
            for (auto it = keys.begin(); it != keys.end(); ++it)
                json[it.key()] = extraKeys[it.key()] = it.value();
        }
    }
    if (options.json) {
        JsonOutput::stamp(json, u"bench"_s);
        out << QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact)) << '\n';
    } else {
        printText(options, threads, parts, extraKeys, out);
    }
    return ExitDone;
}

} // namespace

void registerExtraBenchmark(ExtraBenchmark benchmark)
{
    extraBenchmarks().push_back(std::move(benchmark));
}

QList<CommandOption> benchOptions()
{
    return {
        {{u"json"_s}, {}, u"one JSON object (format, version and the keys of the guide's Benchmark)"_s},
        {{u"repeats"_s}, u"N"_s, u"timed runs of each measurement (default 7); the best and the median are kept"_s},
        {{u"kernels-only"_s}, {}, u"time the kernels only, not the window's interaction (which takes minutes)"_s},
        {{u"interaction-changes"_s},
         u"N"_s,
         u"parameter changes of the window at L 8192 x d 1024 (default 200; 0 "
         "skips them)"_s},
        {{u"scale-changes"_s},
         u"N"_s,
         u"parameter changes of the window at L 2^20 x d 8192 (default 40; 0 skips "
         "them)"_s},
        {{u"views"_s},
         u"LIST"_s,
         u"the views whose changes are timed, comma-separated: sinusoidal (the changes at L 8192 x d 1024), rope, "
         "alibi, t5, deberta, positions (a batch of 64 rows of 32768), check (default all)"_s},
        {{u"view-changes"_s},
         u"N"_s,
         u"parameter changes of each family's views at its presets' scale, and zooms of the check heatmap "
         "(default 100; 0 skips them)"_s},
        CommandOptions::help(),
    };
}

HelpPage benchHelp()
{
    HelpPage page;
    page.topic = u"bench"_s;
    page.usage = {u"posenc bench [--json] [--kernels-only] [OPTIONS]"_s};
    page.section()
        .paragraph(u"Times the PE fill in both layouts, the machine's write bandwidth on the same buffer, a plain copy "
                   "of the embedding table to it, and the full pipeline (scale, sum, dropout) with its parts alone "
                   "(the sum without dropout, the keep bits without a table) at 16384 x 4096 unless --max-len and "
                   "--d-model say otherwise, on the SIMD target it names; and RoPE's cos table at 131072 x 128 "
                   "against a plain fill of its own buffer. Its two tables of that size must fit the memory budget "
                   "(default 2 GiB)."_s)
        .paragraph(u"Then posenc check on a 1,048,576 x 1024 float32 table (or --max-len x --d-model) written to a "
                   "temporary directory, against reading its file as cat does: the sinusoidal PE (check_over_read) "
                   "and RoPE's cos table as transformers returns it in float32, its angles formed in float32 "
                   "(check_rope_over_read); the command on "
                   "the same sinusoid in memory as the Python module's posenc.check reads an array against the command "
                   "on the file (check_array_over_file), in turn, and "
                   "posenc check --config on a 4 MiB config (config_check_ms) and on the example configs. Then it "
                   "drives the window through parameter changes, 200 at L 8192 x d 1024 and 40 at L 2^20 x d 8192 "
                   "(the larger first waits for every view to be exact, about a minute on two cores); 100 of each "
                   "family's default views at its presets' scale (RoPE at Llama 3.1 8B with L 131072, ALiBi, T5 "
                   "and DeBERTa at L 65536, the positions' figures over a batch of 64 rows of 32768 positions); and "
                   "100 zooms of File > Check a table…'s heatmap over a 1,048,576 x "
                   "1024 table (or --max-len x --d-model). The machine's load moves every time: compare the "
                   "ratios of one run, and take several."_s);
    QList<HelpItem> options;
    for (const CommandOption &option : benchOptions())
        options.append({option.spelling(), option.help});
    page.section(u"Options"_s).items(options);
    page.section(u"Parameters"_s)
        .paragraph(u"Every parameter flag (posenc help parameters); --max-len, --d-model and --memory-budget "
                   "size its tables."_s);
    page.section(u"Examples"_s).examples({{u"posenc bench --json --kernels-only"_s, u"the kernels alone, as JSON"_s}});
    return page;
}

int runBenchCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, benchOptions());
    ParamOptions::add(parser);
    if (!parser.parse(arguments)) {
        err << "posenc bench: " << oneLine(parser.errorText()) << " (see posenc bench --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(benchHelp(), HelpText::width());
        return ExitDone;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "posenc bench: unexpected argument " << ParamError::quoted(parser.positionalArguments().constFirst())
            << " (see posenc bench --help)\n";
        return ExitUsage;
    }
    BenchOptions options;
    options.json = parser.isSet(u"json"_s);
    if (const int code = readCounts(parser, options, err); code != ExitDone)
        return code;
    if (const int code = readParams(parser, arguments, options, err); code != ExitDone)
        return code;
    return runBenchmarks(options, out, err);
}

} // namespace posenc
