#pragma once

#include "check/TableMatch.h"
#include "check/rope/ApplyPairs.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

// `posenc check --apply X Y` (docs/ARCHITECTURE.md, Checking a rotation): X holds queries or keys
// before RoPE and Y after, a row per position. Each pair of columns of Y is X's pair turned by an
// angle and times the attention factor, as HF's apply_rotary_pos_emb does it (modeling_llama.py:
// q * cos + rotate_half(q) * sin, pairs (i, i + d/2)) or GPT-J's rotate_every_two (pairs
// (2i, 2i + 1)). The check finds the pairing the rotation used and the one the cos/sin table was
// built for, the attention factor, the frequencies (identified as a RoPE table of the angles
// found: rope_type and parameters), and the position of each row. A partial rotary (HF's
// modeling_gpt_neox.py and modeling_phi.py: q_rot = q[..., :rotary_dim] turned, q_pass =
// q[..., rotary_dim:] concatenated unchanged) is read from the columns that pass through: its
// rotary_dim, and the rotated part's place. X and Y are held whole; the check holds a sample of
// rows and a position per row besides, and reads every row in tiles on the thread pool.
namespace posenc::ApplyCheck {

// A run of rows whose positions follow each other: rows [row, row + count) hold positions
// [position, position + count); position -1 where a row's position could not be read.
struct PositionRun
{
    std::int64_t row = 0;
    std::int64_t position = 0;
    std::int64_t count = 0;
};

// The verdict, the pairing, the attention factor, the mistakes, the cells (ApplyPairs::Outcome),
// and what RoPE's check reads besides.
struct Result : ApplyPairs::Outcome
{
    std::int64_t headDim = 0; // X's columns
    std::int64_t rotaryStart = 0; // the rotated columns [rotaryStart, rotaryStart + rotaryDim)
    std::int64_t rotaryDim = 0; // head_dim unless a partial rotary passes columns through
    std::optional<Params> params; // the rope_type and parameters of the frequencies
    QString frequencies; // their words, as posenc check's reference
    QString correctAgainst; // the published form the frequencies are, or empty
    std::vector<PositionRun> positions;
    std::optional<std::int64_t> positionOffset; // every row r at position r + offset
    // The angles read as a RoPE cos table undeclared, formed in half precision at the base their slow
    // pairs give (RopeHalfAnglesRead): that table check's words; no frequencies are read from them.
    QString halfAnglesRead;
};

struct Declared
{
    std::optional<RopeLayout> layout; // the model's pairing (--rope-layout): the other is a mistake
    // The rotary_dim the model rotates, int(head_dim * partial_rotary_factor), and what gave it
    // ("partial_rotary_factor 0.25"): another one found is a mistake.
    std::optional<std::int64_t> rotaryDim;
    QString rotaryDimSource;
    // How the source gives it, said beside it: HF's int(head_dim * partial_rotary_factor), or
    // proportional RoPE's whole head (RopeApply::ropeDeclared).
    QString rotaryDimRule = QStringLiteral("int(head_dim * partial_rotary_factor)");
    // The format Y's file stores its values in: float16 and bfloat16 values are compared within
    // their rounding (float32 values all of one of them, too: ApplyPairs::precisionOf).
    ValueFormat stored = ValueFormat::Float32;
    int threads = 0; // 0: every core
    // Row r's position (--position-ids); empty: r. The frequencies are identified from the rows in
    // position order and every row's position read is compared with its id.
    std::vector<std::int64_t> ids;
    // The reference declared in full (ApplyDeclaration::reference), its max_len the rows'
    // sequence: the frequencies and attention factor found are compared with it (ApplyReference).
    std::optional<Params> reference;
    // Where no pairing of Y's columns is a rotation, whether Y's columns are tried in the orders a
    // rotation's output is written back in by mistake (ApplyColumns).
    bool undoColumns = true;
    // Whether the declared model's code writes an interleaved rotation's output as [evens | odds]
    // (ApplyDeclaration::deinterleaves): that order is then its reference's, not
    // ApplyColumns::kDeinterleaved; unset, no model's code is declared and the order is not named.
    std::optional<bool> deinterleaves;
    // Where Y's rows read as no position, whether Y is tried turned back a quarter (cos and sin
    // exchanged: ApplyColumns::kCosSinSwapped); and whether this Y is that.
    bool undoQuarterTurn = true;
    bool quarterTurned = false;
};

// The mistakes an apply check names: the pairing's (ApplyPairs'), and the positions'.
using ApplyPairs::kLayoutSwapped;
inline const QString kPositionsOutOfOrder = QStringLiteral("positions-out-of-order");
// Y = q * cos - rotate_half(q) * sin: X turned by -angle at every pair (sin negated, or every
// position negated), where HF's apply_rotary_pos_emb adds rotate_half(q) * sin.
inline const QString kRotationReversed = QStringLiteral("rotation-reversed");
// Under --position-ids: every row turned at its own index where the batch's ids differ (a padded
// row's rotation took arange(L)), as `posenc check --position-ids` names such ids.
inline const QString kArangePositions = QStringLiteral("arange-with-padding");
// Every row turned at one position (a scalar broadcast where arange was meant), as `posenc check
// --position-ids` names such ids.
inline const QString kPositionsConstant = QStringLiteral("positions-constant");
// A partial rotary's: another rotary_dim than the one declared; the rotated columns after the
// unrotated ones (HF rotates the first rotary_dim); inv_freq's exponent over head_dim where HF's
// _compute_default_rope_parameters divides by rotary_dim.
inline const QString kRotaryDim = QStringLiteral("rotary-dim");
inline const QString kRotaryPartMisplaced = QStringLiteral("rotary-part-misplaced");
inline const QString kRotaryDimExponent = QStringLiteral("rotary-dim-exponent");

// The check of Y against X, or the reason it cannot be made (shapes, a width that is odd).
std::variant<Result, QString> check(const RowMatrixXf &x, const RowMatrixXf &y, const Declared &declared);

} // namespace posenc::ApplyCheck
