#pragma once

#include "core/ParamTable.h"

// 2-D RoPE's rows of the parameter table: the style, FLUX's axes, the patch rope2d-score is
// taken against and the grid's origin. head_dim, rope_theta, spatial_merge_size and the grid are other families' rows
// it reads (FamilySpec::borrows).
namespace posenc::Rope2dParamRows {

QList<ParamSpec> rows();
// --rope-2d-style's words: "qwen-vit", "pixtral", "flux", "axial", "hunyuan".
const QStringList &styleWords();

} // namespace posenc::Rope2dParamRows
