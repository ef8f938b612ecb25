#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/FrequencySchedule.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// A declared RoPE table (or sinusoid) whose angles were formed in half precision
// (docs/ARCHITECTURE.md, Checking a table, "A declared reference"; issue 56): the declared
// reference computed as the code that rounds its angles computes it, stage by stage, and named
// `half-precision-angles` with the pipeline that gives the table. The stages are those of real code:
// - the exponents 2i/d, rope_theta and the power rope_theta^(2i/d) in the model's dtype, and the
//   angle p / rope_theta^(2i/d) a division: keras-hub's CachedGemmaAttention._apply_rope before
//   keras-team/keras-hub#1497 (freq_exponents, timescale, positions, radians all in
//   compute_dtype under mixed_bfloat16), tinygrad's precompute_freqs_cis under DEFAULT_FLOAT=bf16
//   before tinygrad/tinygrad#17132 (arange(0, dim, 2) / dim, theta ** ·, 1.0 / ·, arange(end) * ·);
// - inv_freq cast to the model's dtype (sglang-jax's RotaryEmbedding.__call__ before #1473);
// - the position ids cast to it (`t.type_as(inv_freq)`, `t.to_dtype(dtype)`), and a diffusion
//   model's timesteps cast to it before the embedding divides them by 1000 in that dtype
//   (musubi-tuner's Qwen-Image generate before kohya-ss/musubi-tuner#729: `t.to(latents.dtype)`,
//   `timestep / 1000`, diffusers' get_timestep_embedding at scale 1000);
// - the product p·inv_freq rounded to it, and cos and sin taken of the rounded angle: candle's
//   RotaryEmbedding::new before huggingface/candle#3005 (inv_freq and t in bf16, `t.matmul`, cos),
//   GPT-NeoX's RotaryEmbedding.forward of a model in half (megatron/model/positional_embeddings.py,
//   EleutherAI/gpt-neox#1003: the inv_freq buffer, t and the einsum in fp16) and transformers'
//   LlamaRotaryEmbedding.forward under a bf16 autocast before huggingface/transformers#29285 (the
//   matmul's operands and result in bf16).
// The correct line forms each angle in float32 from float32 operands and rounds only the cos and
// sin to the dtype (transformers' forward: autocast disabled, `cos().to(dtype=x.dtype)`), which the
// declared reference and its tolerance already allow: a cache held in half precision is correct.
namespace posenc::RopeHalfAngles {

// Which stages round to the half format, as a set of bits; Divide is no rounding but the form of
// the angle (p / timescale, the timescale rope_theta^(2i/d), where others multiply by inv_freq), and
// Timesteps the positions divided by kTimestepScale (then rounded) before the embedding's scale.
enum Stage : unsigned {
    InvFreq = 1,
    Positions = 2,
    Product = 4,
    Exponent = 8,
    Base = 16,
    Power = 32,
    Divide = 64,
    Timesteps = 128,
};

// A diffusion model's timesteps as its transformer takes them: t / 1000, times 1000 in the embedding.
constexpr double kTimestepScale = 1000.0;

struct Pipeline
{
    unsigned stages = 0;
    bool bfloat16 = true; // else float16
};

// RoPE's default frequencies as the code forms them, rope_theta^(-2i/rotary_dim): what the stages
// before inv_freq (exponent, base, power) round.
struct Powers
{
    double theta = 0.0;
    std::int64_t rotaryDim = 0;
};

// The Powers a schedule is (every w_i = theta^(-2i/d), d twice its pairs, amplitude aside); nothing
// for another schedule (a scaled one), whose stages before inv_freq are not tried.
std::optional<Powers> powersOf(const FrequencySchedule &schedule);

// `x` rounded to bfloat16 or float16 as torch rounds a result: to float32, then to the format, to
// nearest with ties to even (float16's subnormals kept, past 65504 infinite).
double rounded(double x, bool bfloat16);

// Pair i's frequency as `pipeline` forms it, in float32 with its stages rounded: inv_freq, or the
// timescale rope_theta^(2i/d) where the pipeline divides. `w` is the reference's frequency (double),
// `powers` where the schedule is RoPE's default one.
double frequency(const Pipeline &pipeline, const std::optional<Powers> &powers, std::int64_t pair, double w);
// Position `p` as `pipeline` holds it (a timestep divided by kTimestepScale where it does so).
double position(const Pipeline &pipeline, std::int64_t p);
// The angle of a frequency and a position, both as the pipeline holds them.
double angle(const Pipeline &pipeline, double frequency, double position);

// Of an inv_freq vector `v` whose values are all in the half format (bfloat16 or float16): the
// pipeline with the fewest stages before the cache (the exponents, rope_theta, the power, always
// inv_freq itself) whose frequencies of `reference` (RoPE's default ones) are `v`, where a stage
// before inv_freq is among them; nothing otherwise (inv_freq alone rounded is said by its reader).
std::optional<Pipeline> vectorStages(const std::vector<double> &v, const FrequencySchedule &reference, bool bfloat16);

// Which family's words the naming uses.
enum class Family { Rope, Sinusoid };

// Of a declared RoPE table or sinusoid that deviates with no mistake named (`declared`, streamed,
// whose reference is a PairReference of the table's width): the pipeline that explains the table's
// sample and the rows the stream found deviating first (`deviatingRows`, increasing), as the
// declared match with the mistake, its diagnosis and the first position beyond the rounding (where
// pipelines tie, the stages the cells do not show are said, and where they differ otherwise each is
// said and none claimed); nothing where no pipeline explains more cells than the declared reference.
std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table,
                               const std::vector<std::int64_t> &deviatingRows, Family family = Family::Rope);

// The pipeline in words: "the positions, inv_freq and their product p·inv_freq rounded to bfloat16, …".
QString pipelineWords(const Pipeline &pipeline, const std::optional<Powers> &powers = std::nullopt);

} // namespace posenc::RopeHalfAngles
