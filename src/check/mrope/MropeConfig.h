#pragma once

#include "check/ConfigContext.h"

// Multimodal RoPE's config reader (FamilySpec::readConfig; docs/ARCHITECTURE.md, Checking a model
// config): RoPE's reading of the text model's rope dict (head_dim, rope_theta, rope_type and its
// scaling), then the keys the model's own code reads for the (t, h, w) ids, as the model's row of
// the table says (its "mrope" rule, ModelSchemes.json):
// - mrope_section from `rope_scaling or rope_parameters`: Qwen2-VL's and Qwen2.5-VL's attention
//   index it (`self.config.rope_parameters["mrope_section"]`, a KeyError when absent), Qwen3-VL's
//   rotary embedding takes `.get("mrope_section", [24, 20, 20])`;
// - the interleave, fixed by the model's code (apply_multimodal_rotary_pos_emb or
//   apply_interleaved_mrope): no model reads a config's mrope_interleaved;
// - vision_config.spatial_merge_size and (Qwen2.5-VL) vision_config.tokens_per_second, which
//   get_rope_index reads, with the vision config class's defaults;
// - get_rope_index's rule of the era the config was written for: its transformers_version's
//   major, 4.x when it names none (the models' own releases).
namespace posenc::MropeConfig {

QList<ConfigLayer> read(ConfigContext &c);
// The finding kinds the reader reports (FamilySpec::configFindings).
QList<ConfigFindings::Kind> findings();

} // namespace posenc::MropeConfig
