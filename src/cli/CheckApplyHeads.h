#pragma once

#include "check/ApplyHypothesis.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <variant>
#include <vector>

// posenc check --apply on a query or key of many heads (issue 56): X and Y of [H, L, D], [B, H, L, D]
// (transformers' q after transpose(1, 2), what apply_rotary_pos_emb takes) or [B, L, H, D] (before
// it, flash-attention's and vLLM's), each head's [L, D] checked by the family's apply check on its
// own (the heads' positions may differ: a batch's rows padded on the left), the verdicts combined.
namespace posenc::CheckApplyHeads {

// Where a head's positions lie in the array: [.., H, L, D] or [.., L, H, D].
enum class Order { HeadsFirst, PositionsFirst };

// Whether X and Y of `shape` are many heads (rank 3 or 4, more than one of the leading dimensions
// not 1), or why such a shape cannot be read (a rank past 4); nothing for a matrix.
bool isHeads(const std::vector<std::int64_t> &shape);
// The shapes --apply takes, in one line.
QString acceptedShapes();

// Rows [L, D] of head `index` (batch-major) of the rows of every head, `all`, laid as `order` says.
RowMatrixXf head(const RowMatrixXf &all, const std::vector<std::int64_t> &shape, Order order, std::int64_t index);

// A head's check, told the batch the head is of (its rows' --position-ids), or kNoIds: the rows at their
// index (the reading of the axes that the ids' length did not pick).
inline constexpr std::int64_t kNoIds = -1;
using CheckOne
    = std::function<std::variant<ApplyResult, QString>(const RowMatrixXf &x, const RowMatrixXf &y, std::int64_t batch)>;

// What says which of the two leading axes holds the heads: --apply-heads, or the length of each batch's
// --position-ids (the positions' axis).
struct Axes
{
    std::optional<std::int64_t> heads, positions;
    // A reference declared in full (--expect rope and its flags, --preset, --config): where exactly one
    // reading's every head equals it, and that reading holds fewer heads than positions, it settles
    // the axes (a query turned along its heads' axis, read the other way, equals it too, but as many
    // heads as the array has positions, each of as few positions as the model has heads).
    bool reference = false;
};

// Every head checked, the verdict the worst of the heads', the report the heads' verdicts and the
// first head that is not correct in full (or the first's). The array alone cannot say which of its
// two leading axes holds the heads: a query turned along its heads' axis ([B, L, H, D] turned as
// if [B, H, L, D], open_lm#4) is a correct rotation read the other way. So where `axes` decides
// nothing and the two readings disagree (one explained, the other not), the verdict is unknown,
// each reading said; where it decides, the declared reading is checked, and a rotation that only the
// other reading explains is rope-along-heads-axis. Two axes of one length are both read too, and no
// count can pick between them.
std::variant<ApplyResult, QString> check(const RowMatrixXf &x, const RowMatrixXf &y,
                                         const std::vector<std::int64_t> &shape, const CheckOne &one,
                                         const Axes &axes = {});

} // namespace posenc::CheckApplyHeads
