#pragma once

#include "BenchTiming.h"

#include "core/DropoutMask.h"
#include "core/Engine.h"
#include "core/Params.h"

#include <cstdint>
#include <optional>

namespace posenc {

// The kernel benchmarks of `posenc bench` (docs/ARCHITECTURE.md, Performance) at the parameters'
// max_len x d_model, each against the machine's own limit measured on the same buffer in the same
// run: the PE fill in both layouts against a plain fill, the pipeline (s*E + PE, dropout) against
// a plain copy of its input, RoPE's cos table against a plain fill of its own buffer, and a block
// of every quantity the parameters have.
class KernelBenchmarks
{
public:
    // The RoPE table the bench times: rope-cos at HF's size of a long-context head.
    static constexpr std::int64_t kRopeRows = 131072;
    static constexpr std::int64_t kRopeHeadDim = 128;

    // The floats the bench allocates for these parameters: its buffer and the embedding table the
    // pipeline reads, both max_len x d_model, and RoPE's table.
    static std::uint64_t cells(const Params &params);

    // Draws the pipeline's embedding table (timed: embedding_init_ms) and allocates the buffer.
    KernelBenchmarks(const Params &params, int repeats, int threads);

    // The plain fills, the PE fills, the plain copies and the pipeline with its parts.
    BenchPart fillsAndPipeline();
    // RoPE's cos table at kRopeRows x kRopeHeadDim, and 2-D RoPE's of as many patches, against a
    // plain fill of their buffer.
    BenchPart rope() const;
    // A block of every quantity of the quantity table these parameters have.
    BenchPart quantities();

private:
    Params m_params;
    int m_repeats;
    int m_threads;
    double m_initMs = 0.0;
    RowMatrixXf m_buffer;
    Params m_pipeline;
    std::optional<Engine> m_forward;
};

} // namespace posenc
