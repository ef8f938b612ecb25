#include "KernelBenchmarks.h"

#include "core/Embeddings.h"
#include "core/FamilySpec.h"
#include "core/Quantity.h"
#include "core/TableAllocation.h"
#include "core/ThreadPools.h"
#include "core/sinusoidal/Frequencies.h"

#include <QElapsedTimer>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using namespace BenchTiming;

// The keep bits of every cell of the table (Philox, the byte comparison and the ties), each
// thread into a row of its own: the arithmetic dropout adds to the pipeline, with no table
// written.
void keepBitsOnly(const DropoutMask &mask, std::int64_t rows, std::int64_t cols, int threads)
{
    const std::int64_t parts = std::int64_t(std::max(1, threads > 0 ? threads : QThread::idealThreadCount())) * 4;
    forEachTile(parts, threads, nullptr, [&](std::int64_t part) {
        thread_local std::vector<std::uint64_t> t_bits;
        t_bits.resize(static_cast<std::size_t>((cols + 63) / 64));
        for (std::int64_t p = rows * part / parts; p < rows * (part + 1) / parts; ++p)
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

QString rate(std::int64_t cells, double ms)
{
    return u"%1 GB/s"_s.arg(gbps(cells, ms), 0, 'f', 1);
}

} // namespace

std::uint64_t KernelBenchmarks::cells(const Params &params)
{
    return 2 * static_cast<std::uint64_t>(params.maxLen * params.dModel)
        + static_cast<std::uint64_t>(kRopeRows * kRopeHeadDim);
}

KernelBenchmarks::KernelBenchmarks(const Params &params, int repeats, int threads)
    : m_params(params)
    , m_repeats(repeats)
    , m_threads(threads)
{
    m_params.sinusoidal.angles = Angles::Exact;
    m_params.sinusoidal.layout = Layout::Interleaved;
    m_buffer = allocateTable(m_params.maxLen, m_params.dModel);
    // The pipeline as a model runs it: the embedding table exists (drawn once, timed apart),
    // then every forward pass scales it, adds the PE and applies dropout.
    QElapsedTimer initTimer;
    initTimer.start();
    m_pipeline = m_params;
    m_pipeline.embeddings = Embeddings::materialize(Embeddings::fromParams(m_pipeline), m_params.maxLen, threads);
    m_initMs = static_cast<double>(initTimer.nsecsElapsed()) / 1e6;
    m_forward.emplace(m_pipeline);
}

BenchPart KernelBenchmarks::fillsAndPipeline()
{
    const std::int64_t rows = m_params.maxLen;
    const std::int64_t cols = m_params.dModel;
    const std::int64_t cells = rows * cols;
    const int threads = m_threads;
    const Block all {0, rows, 0, cols};
    Params split = m_params;
    split.sinusoidal.layout = Layout::Split;
    const Engine peInterleaved(m_params);
    const Engine peSplit(split);
    const Engine &forward = *m_forward;
    const DropoutMask mask(m_pipeline);
    RowMatrixXf &buffer = m_buffer;

    // The measurements the targets compare, round-robin on the same buffer. The better of the
    // two ways to write memory is the bandwidth the PE fill is held to, the better of the two
    // copies of the pipeline's input to its output the copy the pipeline is held to.
    const RowMatrixXf &input = m_pipeline.embeddings->values;
    const auto compute = [&](const Engine &engine, Quantity q, int n) {
        return [&engine, q, n, &all, &buffer] { engine.compute(q, all, buffer, {n, nullptr}); };
    };
    const std::vector<Timing> compared = timeInterleaved(
        m_repeats,
        {[&] { plainFill(buffer, threads, false); }, [&] { plainFill(buffer, threads, true); },
         compute(peInterleaved, Quantity::Pe, threads), compute(peSplit, Quantity::Pe, threads),
         [&] { plainCopy(buffer, input, threads, false); }, [&] { plainCopy(buffer, input, threads, true); },
         compute(forward, Quantity::Output, threads), compute(forward, Quantity::Input, threads),
         [&] { keepBitsOnly(mask, rows, cols, threads); }});
    const Timing &cachedFill = compared[0];
    const Timing &streamingFill = compared[1];
    const Timing &fill = compared[2];
    const Timing &fillSplit = compared[3];
    const Timing &copy = better(compared[4], compared[5]);
    const Timing &pipe = compared[6];
    const Timing &sum = compared[7];
    const Timing &bits = compared[8];
    const Timing &bandwidth = better(cachedFill, streamingFill);

    compute(peInterleaved, Quantity::Pe, threads)();
    const double error = maxAbsError(peInterleaved, buffer);
    const Timing fillSerial = timeIt(m_repeats, compute(peInterleaved, Quantity::Pe, 1));
    const Timing pipeSerial = timeIt(m_repeats, compute(forward, Quantity::Output, 1));
    const Engine generated(m_params);
    const Timing pipeGenerated = timeIt(std::max(1, m_repeats / 2), compute(generated, Quantity::Output, threads));

    BenchPart part;
    QJsonObject &json = part.keys;
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
    json[u"embedding_init_ms"_s] = m_initMs;
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

    part.lines = {
        {u"plain parallel fill, through the caches"_s, cachedFill.minMs, rate(cells, cachedFill.minMs)},
        {u"plain parallel fill, streaming stores"_s, streamingFill.minMs, rate(cells, streamingFill.minMs)},
        {u"PE fill, exact angles, interleaved"_s, fill.minMs,
         u"%1 = %2% of the better fill; max |error| %3"_s.arg(rate(cells, fill.minMs))
             .arg(100.0 * bandwidth.minMs / fill.minMs, 0, 'f', 0)
             .arg(error, 0, 'e', 2)},
        {u"PE fill, exact angles, split"_s, fillSplit.minMs,
         u"%1 = %2x the interleaved fill"_s.arg(rate(cells, fillSplit.minMs))
             .arg(fillSplit.minMs / fill.minMs, 0, 'f', 2)},
        {u"PE fill, 1 thread"_s, fillSerial.minMs,
         u"%1x from the second thread"_s.arg(fillSerial.minMs / fill.minMs, 0, 'f', 2)},
        {u"embedding init N(0, 1), once"_s, m_initMs, {}},
        {u"plain copy of E to the output"_s, copy.minMs, u"%1 read + written"_s.arg(rate(2 * cells, copy.minMs))},
        {u"pipeline s*E + PE, dropout 0.1"_s, pipe.minMs,
         u"%1x the copy, %2x the PE fill"_s.arg(pipe.minMs / copy.minMs, 0, 'f', 2)
             .arg(pipe.minMs / fill.minMs, 0, 'f', 2)},
        {u"  of it: s*E + PE alone, no dropout"_s, sum.minMs, u"%1x the copy"_s.arg(sum.minMs / copy.minMs, 0, 'f', 2)},
        {u"  of it: the keep bits alone, no table"_s, bits.minMs,
         u"with the line above, %1x the pipeline"_s.arg((sum.minMs + bits.minMs) / pipe.minMs, 0, 'f', 2)},
        {u"pipeline, 1 thread"_s, pipeSerial.minMs, {}},
        {u"pipeline drawing E cell by cell"_s, pipeGenerated.minMs, {}},
    };
    return part;
}

BenchPart KernelBenchmarks::rope() const
{
    // RoPE's cos table as HF returns it, at L 131072 x head_dim 128 (the default type), through the
    // anchored kernel, against the better plain fill of the same buffer, round-robin, under the
    // family whose quantity rope-cos is: this key times that family's own kernel at its presets'
    // scale.
    Params rope;
    rope.encoding = Families::owning(Quantity::RopeCos).value_or(rope.encoding);
    rope.maxLen = kRopeRows;
    rope.rope.headDim = kRopeHeadDim;
    rope.memoryBudget = m_params.memoryBudget;
    const Engine ropeEngine(rope);
    // 2-D RoPE's cos table of the same size, 256 x 512 patches of a head of 128 in the Qwen ViT's
    // merge order: each row copied from its row's and column's values (Rope2dRotation).
    Params rope2d = rope;
    rope2d.encoding = Families::owning(Quantity::Rope2dCos).value_or(rope2d.encoding);
    rope2d.sincos2d.grid = {256, kRopeRows / 256};
    const Engine rope2dEngine(rope2d);
    RowMatrixXf ropeBuffer = allocateTable(kRopeRows, kRopeHeadDim);
    const Block ropeAll {0, kRopeRows, 0, kRopeHeadDim};
    const int threads = m_threads;
    const std::vector<Timing> ropeCompared = timeInterleaved(
        m_repeats,
        {[&] { plainFill(ropeBuffer, threads, false); }, [&] { plainFill(ropeBuffer, threads, true); },
         [&] {
             ropeEngine.compute(Quantity::RopeCos, ropeAll, ropeBuffer, {threads, nullptr});
         },
         [&] {
             rope2dEngine.compute(Quantity::Rope2dCos, ropeAll, ropeBuffer, {threads, nullptr});
         }});
    const Timing &ropeBandwidth = better(ropeCompared[0], ropeCompared[1]);
    const Timing &ropeFill = ropeCompared[2];
    const Timing &rope2dFill = ropeCompared[3];
    constexpr std::int64_t ropeCells = kRopeRows * kRopeHeadDim;

    BenchPart part;
    part.keys[u"rope_fill_ms"_s] = ropeFill.minMs;
    part.keys[u"rope_fill_gbps"_s] = gbps(ropeCells, ropeFill.minMs);
    part.keys[u"rope_write_bandwidth_gbps"_s] = gbps(ropeCells, ropeBandwidth.minMs);
    part.keys[u"rope_fill_fraction_of_bandwidth"_s] = ropeBandwidth.minMs / ropeFill.minMs;
    part.keys[u"rope2d_fill_ms"_s] = rope2dFill.minMs;
    part.keys[u"rope2d_fill_gbps"_s] = gbps(ropeCells, rope2dFill.minMs);
    part.keys[u"rope2d_fill_fraction_of_bandwidth"_s] = ropeBandwidth.minMs / rope2dFill.minMs;
    part.lines = {{u"RoPE cos, 131072 x 128, exact angles"_s, ropeFill.minMs,
                   u"%1 = %2% of the better fill of its buffer (%3)"_s.arg(rate(ropeCells, ropeFill.minMs))
                       .arg(100.0 * ropeBandwidth.minMs / ropeFill.minMs, 0, 'f', 0)
                       .arg(rate(ropeCells, ropeBandwidth.minMs))},
                  {u"2-D RoPE cos, 256 x 512 patches, head 128"_s, rope2dFill.minMs,
                   u"%1 = %2% of the better fill of its buffer"_s.arg(rate(ropeCells, rope2dFill.minMs))
                       .arg(100.0 * ropeBandwidth.minMs / rope2dFill.minMs, 0, 'f', 0)}};
    return part;
}

BenchPart KernelBenchmarks::quantities()
{
    // Every quantity of the quantity table these parameters have, one block of it filled by its
    // source: its first rows and columns, at most kQuantityRows x the bench's columns, so that the
    // slowest (the similarity, a product of rows) stays within a second.
    constexpr std::int64_t kQuantityRows = 4096;
    BenchPart part;
    part.heading = u"Every quantity of the table, one block:"_s;
    QJsonObject fills;
    for (const Quantity q : Quantities::available(m_pipeline)) {
        const Shape shape = m_forward->shape(q);
        const Block block {0, std::min({shape.rows, m_params.maxLen, kQuantityRows}), 0,
                           std::min({shape.cols, m_params.dModel, kQuantityRows})};
        auto out = m_buffer.topLeftCorner(block.rows, block.cols);
        const Timing timing = timeIt(std::max(1, m_repeats / 4), [&] {
            m_forward->compute(q, block, out, {m_threads, nullptr});
        });
        fills[Quantities::name(q)] = timing.minMs;
        part.lines.append(
            {u"  %1, %2 x %3"_s.arg(Quantities::name(q)).arg(block.rows).arg(block.cols), timing.minMs, {}});
    }
    part.keys[u"quantity_fill_ms"_s] = fills;
    return part;
}

} // namespace posenc
