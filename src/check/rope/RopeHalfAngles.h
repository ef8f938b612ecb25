#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// A declared RoPE table whose angles were formed in half precision (docs/ARCHITECTURE.md, Checking
// a table, "A declared reference"; issue 56): the declared reference computed as the code that
// rounds its angles computes it, stage by stage, and named `half-precision-angles` with the
// pipeline that gives the table. The stages are those of real code:
// - inv_freq cast to the model's dtype (sglang-jax's RotaryEmbedding.__call__ before #1473);
// - the position ids cast to it (`t.type_as(inv_freq)`, `t.to_dtype(dtype)`);
// - the product p·inv_freq rounded to it, and cos and sin taken of the rounded angle: candle's
//   RotaryEmbedding::new before huggingface/candle#3005 (inv_freq and t in bf16, `t.matmul`, cos),
//   GPT-NeoX's RotaryEmbedding.forward of a model in half (megatron/model/positional_embeddings.py,
//   EleutherAI/gpt-neox#1003: the inv_freq buffer, t and the einsum in fp16) and transformers'
//   LlamaRotaryEmbedding.forward under a bf16 autocast before huggingface/transformers#29285 (the
//   matmul's operands and result in bf16).
// The correct line forms each angle in float32 from float32 operands and rounds only the cos and
// sin to the dtype (transformers' forward: autocast disabled, `cos().to(dtype=x.dtype)`), which the
// declared reference and its tolerance already allow.
namespace posenc::RopeHalfAngles {

// Which stages round to the half format, as a set of bits.
enum Stage : unsigned { InvFreq = 1, Positions = 2, Product = 4 };

struct Pipeline
{
    unsigned stages = 0;
    bool bfloat16 = true; // else float16
};

// `x` rounded to bfloat16 or float16 as torch rounds a result: to float32, then to the format, to
// nearest with ties to even (float16's subnormals kept, past 65504 infinite).
double rounded(double x, bool bfloat16);

// The angle of frequency `w` (the reference's, in double) at position `p` as `pipeline` forms it:
// float32 inv_freq and position, each rounded where the pipeline rounds it, their float32 product,
// rounded where the pipeline rounds it.
double angle(const Pipeline &pipeline, double w, std::int64_t p);

// Of a declared RoPE table that deviates with no mistake named (`declared`, streamed, whose
// reference is a PairReference of the table's width): the pipeline that explains the table's
// sample and the rows the stream found deviating first (`deviatingRows`, increasing), as the
// declared match with the mistake, its diagnosis and the first position beyond the rounding (where
// pipelines tie, a stage the storage rounds away, each is said and none claimed); nothing where no
// pipeline explains more cells than the declared reference does.
std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table,
                               const std::vector<std::int64_t> &deviatingRows);

// The pipeline in words: "positions, inv_freq and their product rounded to bfloat16".
QString pipelineWords(const Pipeline &pipeline);

} // namespace posenc::RopeHalfAngles
