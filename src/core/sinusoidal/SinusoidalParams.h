#pragma once

#include <cmath>
#include <cstdint>

// The sinusoidal family's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them
// as `params.sinusoidal`.
namespace posenc {

// The columns of the sin/cos pairs: interleaved (the paper, PyTorch) or split in halves
// (TensorFlow). The exact kernel (PositionalTable) takes it for every schedule it turns.
enum class Layout { Interleaved, Split };
// The angle p*w formed in double, or both factors rounded to float32 first as float32 code does.
enum class Angles { Exact, Float32 };

// w_i = c * b^(-i/(d/2 - s)) in one of two layouts: the paper's b^(-2i/d) at shift s = 0, scale c = 1.
struct SinusoidalParams
{
    double base = 10000.0;
    Layout layout = Layout::Interleaved;
    Angles angles = Angles::Exact;
    // diffusers' flip_sin_to_cos (huggingface/diffusers src/diffusers/models/embeddings.py,
    // get_timestep_embedding): the split layout's cosines before its sines, [cos | sin].
    bool flipSinToCos = false;
    // diffusers' downscale_freq_shift s: w_i = b^(-i/(d/2 - s)), the exponent divided by
    // half_dim - s; 0 is the paper's, 1 diffusers' default (DDPM, half_dim - 1 as fairseq).
    double freqShift = 0.0;
    // diffusers' scale s: the angle s * p * w_i, every frequency times s (1000 where a flow
    // model's timesteps in [0, 1] are scaled back to 0 .. 1000: AuraFlow, Qwen-Image, PRX).
    double timestepScale = 1.0;

    // The base of the paper's form b'^(-2i/d) with the same frequencies: b^((d/2) / (d/2 - s)),
    // b itself at s = 0; not finite (or not above 1) where the shift leaves no such base.
    double frequencyBase(std::int64_t dModel) const
    {
        if (freqShift == 0.0)
            return base;
        const double half = static_cast<double>(dModel) / 2.0;
        return std::exp(std::log(base) * half / (half - freqShift));
    }

    friend bool operator==(const SinusoidalParams &, const SinusoidalParams &) = default;
};

} // namespace posenc
