#pragma once

#include "core/Block.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <optional>

// M-RoPE's position ids against a declared prompt (docs/ARCHITECTURE.md, Positions in practice):
// the classes of mistake a port of get_rope_index makes, each named where its ids, regenerated
// for the batch, are the given ones. The references, huggingface/transformers:
// models/qwen2_vl/modeling_qwen2_vl.py Qwen2VLModel.get_rope_index (a video's t id its grid index,
// t_index = arange(llm_grid_t); the text after a vision block at st_idx = llm_pos_ids_list[-1].max()
// + 1), models/qwen2_5_vl/modeling_qwen2_5_vl.py Qwen2_5_VLModel.get_rope_index (time_tensor =
// expanded_range * second_per_grid_t * tokens_per_second, t_index = time_tensor.long()) and
// models/qwen3_vl/modeling_qwen3_vl.py (each frame a span of its own between timestamp text).
namespace posenc::MropeIdsRules {

// The ids this file names besides second-per-grid and MropeMistakes' (mrope-other-era,
// mrope-time-truncated, mrope-axes-swapped), with MropeMistakes' mrope-rope-deltas-lost, in the
// order they are tried.
inline const QString kOneDimensional = QStringLiteral("mrope-1d-positions");
inline const QString kTemporalRule = QStringLiteral("mrope-temporal-rule");
inline const QString kTextResume = QStringLiteral("mrope-text-resume");
inline const QString kAxisOffset = QStringLiteral("mrope-axis-offset");
QStringList ids();

// What the user declared of get_rope_index's rule (a flag, the preset, the session or the config
// gave it): a rule left at its default that the ids follow another way is another model's
// faithful computation, not a mistake.
struct Declared
{
    bool prompt = false;
    bool vision = false; // --vision-positions
    bool era = false; // --mrope-era
};

struct Named
{
    QString id; // empty: the ids are another rule's the declaration leaves open (unknown)
    QString detail;
};

// The class of M-RoPE mistake that explains `ids` ([3·B, L], t's rows first) against params'
// prompt (an image or video in it), or nothing. Preconditions: params valid, encoding mrope, the
// batch has ids.
std::optional<Named> name(const Params &params, const RowMatrixXf &ids, const Declared &declared);

} // namespace posenc::MropeIdsRules
