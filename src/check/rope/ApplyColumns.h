#pragma once

#include "core/Block.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// `posenc check --apply X Y` where no pairing of Y's columns is a rotation of X's
// (docs/ARCHITECTURE.md, Checking a rotation): Y's columns written back in another order than the
// rotation computed them. Each known order is undone and the pairing read again; the one that
// makes Y a rotation of X is the mistake named, and the rest of the check reads the columns put
// back.
namespace posenc::ApplyCheck {
struct Result;
struct Declared;
} // namespace posenc::ApplyCheck

namespace posenc::ApplyColumns {

// GPT-J's rotate_every_two computes pairs (2i, 2i + 1) and the output is written as the rotated
// even columns, then the odd ones ([y0, y2, ... | y1, y3, ...]: torch.cat where
// torch.stack(...).flatten(-2) interleaves them back; vllm-project/vllm-metal#44).
inline const QString kDeinterleaved = QStringLiteral("rope-output-deinterleaved");
// The inverse: rotate_half's output (pairs i, i + d/2) written with its halves interleaved
// ([y0, y_h, y1, y_h+1, ...]), as a reshape(..., 2, d/2).transpose(-1, -2) would.
inline const QString kInterleaved = QStringLiteral("rope-output-interleaved");

// Y = q * sin + rotate_half(q) * cos: cos and sin exchanged in the call (rasbt/LLMs-from-scratch#381,
// compute_rope(keys, self.sin, self.cos)). Each pair is X turned by pi/2 - angle, a quarter turn
// after a turn the wrong way: turned back a quarter, pair (a, b) to (b, -a), Y is X turned by -angle.
inline const QString kCosSinSwapped = QStringLiteral("sin-cos-swapped");

// Y with every pair of the rotated columns [col0, col0 + width) turned back a quarter: pairs (i,
// i + width/2) where `halfPairs` (rotate_half's), else (2i, 2i + 1) (rotate_every_two's).
RowMatrixXf quarterTurnedBack(const RowMatrixXf &y, bool halfPairs, std::int64_t col0, std::int64_t width);

// The ids it names, in the order they are tried.
QStringList mistakeIds();

struct Permuted
{
    QString mistake;
    QString line; // what the order was, and the reference code
    RowMatrixXf y; // Y's columns put back in the order the rotation computed them
};

// The first known order whose undoing makes Y's sampled rows `rows` a rotation of X's (a pairing
// whose amplitudes agree within Y's rounding `u`), with Y put back; nothing where none does. The
// order is undone within the rotated columns [col0, col0 + width) (a partial rotary's, HF's
// modeling_gpt_neox.py: q_rot = q[..., :rotary_dim], the rest passed through), the others kept.
std::optional<Permuted> undo(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows,
                             double u, std::int64_t col0, std::int64_t width);

// The rotation `found` read from Y's columns put back as `put` says, judged: the order is a mistake
// where the declared model's code writes its pairs back in place; transformers'
// apply_rotary_pos_emb_interleave writes an interleaved rotation as [evens | odds] on purpose
// (modeling_deepseek_v3.py), so that order is the reference where the declared model's code is it
// (Declared::deinterleaves), and with no model declared it is not named: correct against a
// published form whose code writes it so, else unknown.
void judge(ApplyCheck::Result &found, const Permuted &put, const ApplyCheck::Declared &declared);

// "the RoPE cos table of A, B" of the published forms whose frequencies and attention factor are
// `params`' and whose pairs are `rotation`'s (with `deinterleaved`, written as [evens | odds]
// too: RopePublishedForms::withRotation); empty where none is.
QString publishedAt(const Params &params, double attentionFactor, RopeLayout rotation, bool deinterleaved);

} // namespace posenc::ApplyColumns
