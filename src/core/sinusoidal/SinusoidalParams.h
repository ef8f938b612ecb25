#pragma once

// The sinusoidal family's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them
// as `params.sinusoidal`.
namespace posenc {

// The columns of the sin/cos pairs: interleaved (the paper, PyTorch) or split in halves
// (TensorFlow). The exact kernel (PositionalTable) takes it for every schedule it turns.
enum class Layout { Interleaved, Split };
// The angle p*w formed in double, or both factors rounded to float32 first as float32 code does.
enum class Angles { Exact, Float32 };

// w_i = b^(-2i/d) in one of two layouts.
struct SinusoidalParams
{
    double base = 10000.0;
    Layout layout = Layout::Interleaved;
    Angles angles = Angles::Exact;

    friend bool operator==(const SinusoidalParams &, const SinusoidalParams &) = default;
};

} // namespace posenc
