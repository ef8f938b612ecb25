#pragma once

#include "core/Block.h"

namespace posenc {

// A read-only table to export: a whole matrix, or a block of one (outer stride >= cols).
using ConstBlockRef = Eigen::Ref<const RowMatrixXf, 0, Eigen::OuterStride<>>;

} // namespace posenc
