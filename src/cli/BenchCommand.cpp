#include "BenchCommand.h"

#include "BudgetAdvice.h"
#include "CheckBenchmark.h"
#include "ExitCode.h"
#include "HelpText.h"
#include "JsonOutput.h"
#include "ParamOptions.h"

#include "core/DropoutMask.h"
#include "core/Engine.h"
#include "core/MemoryBudget.h"
#include "core/SimdTargets.h"
#include "core/StreamStore.h"
#include "core/TableAllocation.h"
#include "core/ThreadPools.h"
#include "core/sinusoidal/Frequencies.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

struct Timing
{
    double minMs = 0.0;
    double medianMs = 0.0;
};

Timing summarize(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    return {ms.front(), ms[ms.size() / 2]};
}

double elapsedMs(const std::function<void()> &run)
{
    QElapsedTimer timer;
    timer.start();
    run();
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

Timing timeIt(int repeats, const std::function<void()> &run)
{
    run(); // warm-up: page faults, thread start, caches
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i)
        ms.push_back(elapsedMs(run));
    return summarize(std::move(ms));
}

// Times several runs round-robin: round i times every run once. A shared VM's memory speed
// drifts between runs and even within one; measurements compared with each other (the PE
// fill against the plain fill, the pipeline against the PE fill) then see the same drift
// instead of one of them catching a fast phase the other missed.
std::vector<Timing> timeInterleaved(int repeats, const std::vector<std::function<void()>> &runs)
{
    for (const auto &run : runs)
        run(); // warm-up
    std::vector<std::vector<double>> ms(runs.size());
    for (int i = 0; i < repeats; ++i) {
        for (std::size_t r = 0; r < runs.size(); ++r)
            ms[r].push_back(elapsedMs(runs[r]));
    }
    std::vector<Timing> timings;
    for (auto &samples : ms)
        timings.push_back(summarize(std::move(samples)));
    return timings;
}

// The RoPE table the bench times: rope-cos at HF's size of a long-context head.
constexpr std::int64_t kRopeRows = 131072;
constexpr std::int64_t kRopeHeadDim = 128;

double gbps(std::int64_t cells, double ms)
{
    return static_cast<double>(cells) * sizeof(float) / (ms * 1e6);
}

// Rows [0, rows) cut into four parts a thread, fn(r0, r1) on each part, the threads sharing them.
template<class Fn> void forEachRowRange(std::int64_t rows, int threads, const Fn &fn)
{
    const std::int64_t parts = std::int64_t(std::max(1, threads > 0 ? threads : QThread::idealThreadCount())) * 4;
    forEachTile(parts, threads, nullptr,
                [&](std::int64_t part) { fn(rows * part / parts, rows * (part + 1) / parts); });
}

// The machine's limit: every thread fills its share of the buffer with a constant, through
// the caches (`streaming` false) or around them.
void plainFill(RowMatrixXf &buffer, int threads, bool streaming)
{
    forEachRowRange(buffer.rows(), threads, [&](std::int64_t r0, std::int64_t r1) {
        if (streaming)
            streamFill(buffer.row(r0).data(), 1.0f, (r1 - r0) * buffer.cols());
        else
            std::fill_n(buffer.row(r0).data(), (r1 - r0) * buffer.cols(), 1.0f);
    });
    if (streaming)
        streamFence();
}

// A plain copy of the pipeline's input (the embedding table) to its output buffer, every thread
// its share, with memcpy or with streaming stores: the least memory traffic the pipeline has.
void plainCopy(RowMatrixXf &to, const RowMatrixXf &from, int threads, bool streaming)
{
    forEachRowRange(to.rows(), threads, [&](std::int64_t r0, std::int64_t r1) {
        const std::int64_t count = (r1 - r0) * to.cols();
        if (streaming)
            streamCopy(to.row(r0).data(), from.row(r0).data(), count);
        else
            std::memcpy(to.row(r0).data(), from.row(r0).data(), static_cast<std::size_t>(count) * sizeof(float));
    });
    if (streaming)
        streamFence();
}

// The keep bits of every cell of the table (Philox, the byte comparison and the ties), each
// thread into a row of its own: the arithmetic dropout adds to the pipeline, with no table
// written.
void keepBitsOnly(const DropoutMask &mask, std::int64_t rows, std::int64_t cols, int threads)
{
    forEachRowRange(rows, threads, [&](std::int64_t r0, std::int64_t r1) {
        thread_local std::vector<std::uint64_t> t_bits;
        t_bits.resize(static_cast<std::size_t>((cols + 63) / 64));
        for (std::int64_t p = r0; p < r1; ++p)
            mask.keepBits(p, 0, cols, t_bits.data());
    });
}

// Largest |PE - float64 sin/cos| over sampled rows, the reference computed here in double.
double maxAbsError(const Engine &engine, const RowMatrixXf &table)
{
    const Params &p = engine.params();
    double worst = 0.0;
    for (std::int64_t r = 0; r < table.rows(); r += std::max<std::int64_t>(1, table.rows() / 61)) {
        for (std::int64_t c = 0; c < table.cols(); ++c) {
            const ColumnRole role = Frequencies::role(c, p.dModel, p.sinusoidal.layout);
            const double angle = static_cast<double>(r) * Frequencies::angular(role.pair, p.dModel, p.sinusoidal.base);
            const double exact = role.isCos ? std::cos(angle) : std::sin(angle);
            worst = std::max(worst, std::abs(static_cast<double>(table(r, c)) - exact));
        }
    }
    return worst;
}

std::vector<ExtraBenchmark> &extraBenchmarks()
{
    static std::vector<ExtraBenchmark> benchmarks;
    return benchmarks;
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
                   "temporary directory, against reading its file as cat does (check_over_read), in turn. Then it "
                   "drives the window through parameter changes, 200 at L 8192 x d 1024 and 40 at L 2^20 x d 8192 "
                   "(the larger first waits for every view to be exact, about a minute on two cores). The machine's "
                   "load moves every time: compare the ratios of one run, and take several."_s);
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
        err << "posenc bench: " << parser.errorText() << " (see posenc bench --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(benchHelp(), HelpText::width());
        return ExitDone;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "posenc bench: unexpected argument '" << parser.positionalArguments().constFirst()
            << "' (see posenc bench --help)\n";
        return ExitUsage;
    }
    bool ok = true;
    const int repeats = parser.isSet(u"repeats"_s) ? parser.value(u"repeats"_s).toInt(&ok) : 7;
    if (!ok || repeats < 1 || repeats > 1000) {
        err << "posenc bench: --repeats: must be an integer in [1, 1000]\n";
        return ExitUsage;
    }
    // The change counts are the window's part, which --kernels-only skips: asking for both is a mistake.
    for (const QString &option : {u"interaction-changes"_s, u"scale-changes"_s}) {
        if (parser.isSet(u"kernels-only"_s) && parser.isSet(option)) {
            err << "posenc bench: --" << option
                << ": the window's changes are not run with --kernels-only; drop one of the two\n";
            return ExitUsage;
        }
    }
    InteractionChanges changes;
    for (const auto &[option, count] : {std::pair {u"interaction-changes"_s, &changes.interactive},
                                        std::pair {u"scale-changes"_s, &changes.atScale}}) {
        if (!parser.isSet(option))
            continue;
        *count = parser.value(option).toInt(&ok);
        if (!ok || *count < 0 || *count > 100000) {
            err << "posenc bench: --" << option << ": must be an integer in [0, 100000]; got '" << parser.value(option)
                << "'\n";
            return ExitUsage;
        }
    }
    // The benchmark's own size unless the caller chose one.
    const bool sizeChosen = parser.isSet(u"max-len"_s) || parser.isSet(u"d-model"_s);
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
    Params params = read.params;
    // The pipeline timed is the sum s*E + PE over the whole buffer: in concat the embedding
    // table and the PE are narrower than the buffer, and its copy would read past the table.
    if (params.concatenates()) {
        err << "posenc bench: --compose: the bench times the sum s*E + PE; use --compose sum\n";
        return ExitUsage;
    }
    params.sinusoidal.angles = Angles::Exact;
    const std::int64_t rows = params.maxLen;
    const std::int64_t cols = params.dModel;
    const std::int64_t cells = rows * cols;
    const int threads = QThread::idealThreadCount();
    // Two tables of this size: the buffer every measurement writes and the embedding table the
    // pipeline reads; and RoPE's cos table.
    if (const auto refused = MemoryBudget::check(
            2 * static_cast<std::uint64_t>(cells) + static_cast<std::uint64_t>(kRopeRows * kRopeHeadDim),
            params.memoryBudget,
            u"the bench's buffer and embedding table, %1 x %2 each, and RoPE's %3 x %4 table"_s.arg(rows)
                .arg(cols)
                .arg(kRopeRows)
                .arg(kRopeHeadDim))) {
        err << "posenc bench: " << *refused << overBudgetAdvice(u"lower --max-len or --d-model"_s, params.memoryBudget)
            << '\n';
        return ExitOverBudget;
    }

    RowMatrixXf buffer = allocateTable(rows, cols);
    const Block all {0, rows, 0, cols};
    Params interleaved = params;
    interleaved.sinusoidal.layout = Layout::Interleaved;
    Params split = params;
    split.sinusoidal.layout = Layout::Split;
    const Engine peInterleaved(interleaved);
    const Engine peSplit(split);

    // The pipeline as a model runs it: the embedding table exists (drawn once, timed apart),
    // then every forward pass scales it, adds the PE and applies dropout.
    QElapsedTimer initTimer;
    initTimer.start();
    Params pipeline = interleaved;
    pipeline.embeddings = Embeddings::materialize(Embeddings::fromParams(pipeline), rows, threads);
    const double initMs = static_cast<double>(initTimer.nsecsElapsed()) / 1e6;
    const Engine forward(pipeline);
    const DropoutMask mask(pipeline);

    // The measurements the targets compare, round-robin on the same buffer. The better of the
    // two ways to write memory is the bandwidth the PE fill is held to, the better of the two
    // copies of the pipeline's input to its output the copy the pipeline is held to.
    const RowMatrixXf &input = pipeline.embeddings->values;
    const std::vector<Timing> compared = timeInterleaved(
        repeats,
        {[&] { plainFill(buffer, threads, false); }, [&] { plainFill(buffer, threads, true); },
         [&] {
             peInterleaved.compute(Quantity::Pe, all, buffer, {threads, nullptr});
         },
         [&] {
             peSplit.compute(Quantity::Pe, all, buffer, {threads, nullptr});
         },
         [&] { plainCopy(buffer, input, threads, false); }, [&] { plainCopy(buffer, input, threads, true); },
         [&] {
             forward.compute(Quantity::Output, all, buffer, {threads, nullptr});
         },
         [&] {
             forward.compute(Quantity::Input, all, buffer, {threads, nullptr});
         },
         [&] { keepBitsOnly(mask, rows, cols, threads); }});
    const Timing cachedFill = compared[0];
    const Timing streamingFill = compared[1];
    const Timing fill = compared[2];
    const Timing fillSplit = compared[3];
    const Timing copy = compared[4].minMs <= compared[5].minMs ? compared[4] : compared[5];
    const Timing pipe = compared[6];
    const Timing sum = compared[7];
    const Timing bits = compared[8];
    const Timing bandwidth = cachedFill.minMs <= streamingFill.minMs ? cachedFill : streamingFill;

    peInterleaved.compute(Quantity::Pe, all, buffer, {threads, nullptr});
    const double error = maxAbsError(peInterleaved, buffer);
    const Timing fillSerial = timeIt(repeats, [&] { peInterleaved.compute(Quantity::Pe, all, buffer, {1, nullptr}); });
    const Timing pipeSerial = timeIt(repeats, [&] { forward.compute(Quantity::Output, all, buffer, {1, nullptr}); });
    const Engine generated(interleaved);
    const Timing pipeGenerated = timeIt(std::max(1, repeats / 2), [&] {
        generated.compute(Quantity::Output, all, buffer, {threads, nullptr});
    });

    // RoPE's cos table as HF returns it, at L 131072 x head_dim 128 (the default type), through the
    // anchored kernel, against the better plain fill of the same buffer, round-robin. The bench
    // names RoPE: this key times that family's own kernel at its presets' scale.
    Params rope;
    rope.encoding = Encoding::Rope;
    rope.maxLen = kRopeRows;
    rope.rope.headDim = kRopeHeadDim;
    rope.memoryBudget = params.memoryBudget;
    const Engine ropeEngine(rope);
    RowMatrixXf ropeBuffer = allocateTable(kRopeRows, kRopeHeadDim);
    const Block ropeAll {0, kRopeRows, 0, kRopeHeadDim};
    const std::vector<Timing> ropeCompared = timeInterleaved(
        repeats,
        {[&] { plainFill(ropeBuffer, threads, false); }, [&] { plainFill(ropeBuffer, threads, true); },
         [&] {
             ropeEngine.compute(Quantity::RopeCos, ropeAll, ropeBuffer, {threads, nullptr});
         }});
    const Timing ropeBandwidth = ropeCompared[0].minMs <= ropeCompared[1].minMs ? ropeCompared[0] : ropeCompared[1];
    const Timing ropeFill = ropeCompared[2];
    constexpr std::int64_t ropeCells = kRopeRows * kRopeHeadDim;

    // Every quantity of the quantity table these parameters have, one block of it filled by its
    // source: its first rows and columns, at most kQuantityRows x the bench's columns, so that the
    // slowest (the similarity, a product of rows) stays within a second.
    constexpr std::int64_t kQuantityRows = 4096;
    QJsonObject quantityFills;
    QList<std::pair<QString, Timing>> quantityTimings;
    for (const Quantity q : Quantities::available(pipeline)) {
        const Shape shape = forward.shape(q);
        const Block block {0, std::min({shape.rows, rows, kQuantityRows}), 0,
                           std::min({shape.cols, cols, kQuantityRows})};
        auto out = buffer.topLeftCorner(block.rows, block.cols);
        const Timing timing = timeIt(std::max(1, repeats / 4), [&] {
            forward.compute(q, block, out, {threads, nullptr});
        });
        quantityFills[Quantities::name(q)] = timing.minMs;
        quantityTimings.append({u"%1, %2 x %3"_s.arg(Quantities::name(q)).arg(block.rows).arg(block.cols), timing});
    }

    // posenc check against reading its file: 1,048,576 x 1024, or the size --max-len or --d-model chose.
    const QJsonObject checkKeys
        = checkOverRead(sizeChosen ? rows : kCheckRows, sizeChosen ? cols : kCheckCols, repeats, threads, err);

    QJsonObject json;
    json[u"rows"_s] = static_cast<double>(rows);
    json[u"cols"_s] = static_cast<double>(cols);
    json[u"threads"_s] = threads;
    json[u"simd_target"_s] = QString::fromLatin1(SimdTargets::current().name);
    json[u"repeats"_s] = repeats;
    json[u"write_bandwidth_ms"_s] = bandwidth.minMs;
    json[u"write_bandwidth_gbps"_s] = gbps(cells, bandwidth.minMs);
    json[u"write_bandwidth_cached_gbps"_s] = gbps(cells, cachedFill.minMs);
    json[u"write_bandwidth_streaming_gbps"_s] = gbps(cells, streamingFill.minMs);
    json[u"pe_fill_ms"_s] = fill.minMs;
    json[u"pe_fill_median_ms"_s] = fill.medianMs;
    json[u"pe_fill_gbps"_s] = gbps(cells, fill.minMs);
    json[u"pe_fill_fraction_of_bandwidth"_s] = gbps(cells, fill.minMs) / gbps(cells, bandwidth.minMs);
    json[u"pe_fill_split_ms"_s] = fillSplit.minMs;
    json[u"pe_fill_split_over_interleaved"_s] = fillSplit.minMs / fill.minMs;
    json[u"pe_fill_1thread_ms"_s] = fillSerial.minMs;
    json[u"pe_max_abs_error"_s] = error;
    json[u"rope_fill_ms"_s] = ropeFill.minMs;
    json[u"rope_fill_gbps"_s] = gbps(ropeCells, ropeFill.minMs);
    json[u"rope_write_bandwidth_gbps"_s] = gbps(ropeCells, ropeBandwidth.minMs);
    json[u"rope_fill_fraction_of_bandwidth"_s] = ropeBandwidth.minMs / ropeFill.minMs;
    json[u"embedding_init_ms"_s] = initMs;
    json[u"pipeline_ms"_s] = pipe.minMs;
    json[u"pipeline_median_ms"_s] = pipe.medianMs;
    json[u"pipeline_1thread_ms"_s] = pipeSerial.minMs;
    json[u"pipeline_over_pe_fill"_s] = pipe.minMs / fill.minMs;
    json[u"pipeline_over_pe_fill_median"_s] = pipe.medianMs / fill.medianMs;
    json[u"stream_copy_ms"_s] = copy.minMs;
    json[u"stream_copy_median_ms"_s] = copy.medianMs;
    json[u"pipeline_over_copy"_s] = pipe.minMs / copy.minMs;
    json[u"pipeline_over_copy_median"_s] = pipe.medianMs / copy.medianMs;
    json[u"pipeline_generated_embeddings_ms"_s] = pipeGenerated.minMs;
    json[u"pipeline_without_dropout_ms"_s] = sum.minMs;
    json[u"pipeline_without_dropout_over_copy"_s] = sum.minMs / copy.minMs;
    json[u"dropout_bits_ms"_s] = bits.minMs;
    json[u"quantity_fill_ms"_s] = quantityFills;
    for (auto it = checkKeys.begin(); it != checkKeys.end(); ++it)
        json[it.key()] = it.value();
    QJsonObject extraKeys;
    if (!parser.isSet(u"kernels-only"_s)) {
        for (const ExtraBenchmark &extra : extraBenchmarks()) {
            const QJsonObject keys = extra(changes, err);
            for (auto it = keys.begin(); it != keys.end(); ++it)
                json[it.key()] = extraKeys[it.key()] = it.value();
        }
    }

    if (parser.isSet(u"json"_s)) {
        JsonOutput::stamp(json, u"bench"_s);
        out << QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact)) << '\n';
        return ExitDone;
    }
    const auto line = [&](const QString &what, double ms, const QString &extra = {}) {
        out << what.leftJustified(44) << QString::number(ms, 'f', 2).rightJustified(9) << " ms  " << extra << '\n';
    };
    QStringList targets;
    for (const SimdTargets::Target &target : SimdTargets::available())
        targets << QString::fromLatin1(target.name);
    out << "posenc bench: " << rows << " x " << cols << " float32 (" << QString::number(gbps(cells, 1.0) / 1e3, 'f', 2)
        << " GB), " << threads << " threads, best of " << repeats
        << " (the plain fills and copies, the PE fills and the pipeline timed round-robin)\n"
        << "SIMD target: " << SimdTargets::current().name << " (of " << targets.join(u", "_s)
        << " in this binary for this CPU)\n\n";
    line(u"plain parallel fill, through the caches"_s, cachedFill.minMs,
         u"%1 GB/s"_s.arg(gbps(cells, cachedFill.minMs), 0, 'f', 1));
    line(u"plain parallel fill, streaming stores"_s, streamingFill.minMs,
         u"%1 GB/s"_s.arg(gbps(cells, streamingFill.minMs), 0, 'f', 1));
    line(u"PE fill, exact angles, interleaved"_s, fill.minMs,
         u"%1 GB/s = %2% of the better fill; max |error| %3"_s.arg(gbps(cells, fill.minMs), 0, 'f', 1)
             .arg(100.0 * bandwidth.minMs / fill.minMs, 0, 'f', 0)
             .arg(error, 0, 'e', 2));
    line(u"PE fill, exact angles, split"_s, fillSplit.minMs,
         u"%1 GB/s = %2x the interleaved fill"_s.arg(gbps(cells, fillSplit.minMs), 0, 'f', 1)
             .arg(fillSplit.minMs / fill.minMs, 0, 'f', 2));
    line(u"RoPE cos, 131072 x 128, exact angles"_s, ropeFill.minMs,
         u"%1 GB/s = %2% of the better fill of its buffer (%3 GB/s)"_s.arg(gbps(ropeCells, ropeFill.minMs), 0, 'f', 1)
             .arg(100.0 * ropeBandwidth.minMs / ropeFill.minMs, 0, 'f', 0)
             .arg(gbps(ropeCells, ropeBandwidth.minMs), 0, 'f', 1));
    line(u"PE fill, 1 thread"_s, fillSerial.minMs,
         u"%1x from the second thread"_s.arg(fillSerial.minMs / fill.minMs, 0, 'f', 2));
    line(u"embedding init N(0, 1), once"_s, initMs);
    line(u"plain copy of E to the output"_s, copy.minMs,
         u"%1 GB/s read + written"_s.arg(gbps(2 * cells, copy.minMs), 0, 'f', 1));
    line(u"pipeline s*E + PE, dropout 0.1"_s, pipe.minMs,
         u"%1x the copy, %2x the PE fill"_s.arg(pipe.minMs / copy.minMs, 0, 'f', 2)
             .arg(pipe.minMs / fill.minMs, 0, 'f', 2));
    line(u"  of it: s*E + PE alone, no dropout"_s, sum.minMs, u"%1x the copy"_s.arg(sum.minMs / copy.minMs, 0, 'f', 2));
    line(u"  of it: the keep bits alone, no table"_s, bits.minMs,
         u"with the line above, %1x the pipeline"_s.arg((sum.minMs + bits.minMs) / pipe.minMs, 0, 'f', 2));
    line(u"pipeline, 1 thread"_s, pipeSerial.minMs);
    line(u"pipeline drawing E cell by cell"_s, pipeGenerated.minMs);
    if (!checkKeys.isEmpty())
        line(u"posenc check, %1 x %2"_s.arg(qint64(checkKeys[u"check_rows"_s].toDouble()))
                 .arg(qint64(checkKeys[u"check_cols"_s].toDouble())),
             checkKeys[u"check_ms"_s].toDouble(),
             u"%1x reading the file as cat does (%2 ms); median %3x"_s
                 .arg(checkKeys[u"check_over_read"_s].toDouble(), 0, 'f', 2)
                 .arg(checkKeys[u"check_read_ms"_s].toDouble(), 0, 'f', 1)
                 .arg(checkKeys[u"check_over_read_median"_s].toDouble(), 0, 'f', 2));
    out << "\nEvery quantity of the table, one block:\n";
    for (const auto &[what, timing] : quantityTimings)
        line(u"  "_s + what, timing.minMs);
    for (auto it = extraKeys.begin(); it != extraKeys.end(); ++it)
        out << it.key().leftJustified(44) << QString::number(it.value().toDouble(), 'f', 2).rightJustified(9) << '\n';
    return ExitDone;
}

} // namespace posenc
