#pragma once

#include "check/rope/ApplyCheck.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// An --apply check where Y is X itself, or X times one factor, in every column of some rows or all
// (docs/ARCHITECTURE.md, Checking a rotation; issue 56, held-out set 8's F3): no pair turned. Against
// a reference declared in full that turns those rows (their position, or --position-ids, not 0) it
// is the mistake rope-not-applied: the rotated tensor dropped and its input kept
// (microsoft/SeerAttention#37: the compressed keys cached before apply_rotary_pos_emb), or every
// such row at position 0. Undeclared it is said as what it is and left unknown: a layer without
// positions (NoPE) turns nothing too.
namespace posenc::ApplyNotTurned {

inline const QString kNotApplied = QStringLiteral("rope-not-applied");

// "rows 32..63", "row 5": rows in order listed as runs (at most eight, then "…").
QString rowsText(const std::vector<std::int64_t> &rows);

// The one factor c with Y = c X at every sampled row and column within Y's rounding `u` (1 where
// Y equals X), or nothing where some pair turns or the factor differs between cells.
std::optional<double> scaleOf(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows,
                              double u);

// The rows of Y that equal X in every column within `u`, where X's row is not all 0 and its
// position (its --position-ids, else its index) is not 0: rows a rotation at their position turns,
// left as they were.
std::vector<std::int64_t> stillRows(const RowMatrixXf &x, const RowMatrixXf &y, double u,
                                    const std::vector<std::int64_t> &ids);

// The rows' positions (--position-ids, else their indices) with the rows `still` at -1, for the
// frequencies to be identified from the others; empty where `still` is empty or every row.
std::vector<std::int64_t> withoutRows(const std::vector<std::int64_t> &still, std::int64_t rows,
                                      const std::vector<std::int64_t> &ids);

// The whole of Y is X times `scale`: the verdict and diagnosis said in `result` (mistake
// rope-not-applied against a declared reference that turns the rows, or ids declared past 0;
// unknown undeclared).
void name(ApplyCheck::Result &result, double scale, std::int64_t rows, const ApplyCheck::Declared &declared);

// Y is no rotation of X by any pairing: said (ApplyPairs::notTurned). Where Y is 0 in every cell and X
// is not, no rotation gives it (a kernel that never wrote these rows: ml-explore/mlx#3494, the
// single-token Metal path's grid of N for B*N rows): against a declared reference the mistake
// cells-overwritten, undeclared unknown, said.
void nameNoRotation(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, double u,
                    const ApplyCheck::Declared &declared);

// Another family's (M-RoPE's) Y that is X times `scale`: the mistake rope-not-applied where
// `reference` (its words: "get_rope_index's ids for the declared prompt, row 1 at (1, 1, 1)") turns
// the rows, unknown and said where it is empty.
void nameOutcome(ApplyPairs::Outcome &outcome, double scale, const QString &reference);

// The rows of Y that are 0 in every column where X's row is not: no rotation makes 0 of a nonzero
// row (a padding mask multiplied in after RoPE, a kernel that never wrote them: ml-explore/mlx#3494).
std::vector<std::int64_t> zeroRows(const RowMatrixXf &x, const RowMatrixXf &y);
// Rows `zero` of Y, 0 where X is not, where every other row (but those of `still`) is at its own
// position, or all at it plus one offset: cells-overwritten named where a reference or
// --position-ids is declared, their line added, and each such row's position in `positions` set
// to its own plus that offset, so that the positions' line says only the others. Whether it said
// them.
bool nameZeroRows(ApplyCheck::Result &result, const std::vector<std::int64_t> &zero,
                  const std::vector<std::int64_t> &still, const ApplyCheck::Declared &declared,
                  std::vector<std::int64_t> &positions, QStringList &lines);
// Rows `still` of Y read as X unturned where every other row is at its own position: rope-not-applied named, its line
// added, and each such row's position in `positions` set to its own (its id, else its index) so
// that the positions' line says only the others; the rows it says are turned are the others but
// `zeroRows` (Y's rows of zeros, said apart). Whether it named them.
bool nameRows(ApplyCheck::Result &result, const std::vector<std::int64_t> &still, const ApplyCheck::Declared &declared,
              std::vector<std::int64_t> &positions, QStringList &lines, std::int64_t zeroRows = 0);

// Y's rows set aside from the reading of positions: those of zeros where X's are not, and those
// left unturned.
struct SetAside
{
    const std::vector<std::int64_t> &zero;
    const std::vector<std::int64_t> &still;
};

// The rows set aside named (nameZeroRows, nameRows), then the verdict (ApplyCheck::conclude); with
// nothing declared, rows named so leave the rotation unknown, said by their lines after the
// positions' own.
void concludeSetAside(ApplyCheck::Result &result, const ApplyCheck::Declared &declared, const SetAside &aside,
                      std::vector<std::int64_t> &positions, QStringList lines, bool reversed);

// Rows that carry no evidence (docs/ARCHITECTURE.md, Checking a rotation): a row 0 in X and 0 in Y. A rotation turns a
// zero vector to zero at any angle, so such a row says nothing of whether a rotation was applied, its pairing,
// frequencies, attention factor or position (transformers' modeling_llama.py apply_rotary_pos_emb: q * cos +
// rotate_half(q) * sin is 0 where q is). Where every row is blank the check is unknown, said; where some are, they are
// counted as evidence neither way: left out of the sample the pairing is read on, of the rows the
// frequencies are identified from and of the cells compared, and given the position the rows
// around them read (which turns them as well as any).

// The rows 0 in every column of X and of Y, in order.
std::vector<std::int64_t> blankRows(const RowMatrixXf &x, const RowMatrixXf &y);

// Each row's whether it is blank, for `rows` rows; empty where none is.
std::vector<bool> blankMask(const std::vector<std::int64_t> &blank, std::int64_t rows);

// `sample` without the blank rows (`blank` in order).
std::vector<std::int64_t> withoutBlank(std::vector<std::int64_t> sample, const std::vector<std::int64_t> &blank);

// Every row blank: unknown, the reason said.
void nameAllBlank(ApplyPairs::Outcome &outcome, std::int64_t rows);

// The blank rows given positions (-1 in `positions` so far): those their nearest read row's offset
// from its meant position continues (row r meant at ids[r], else r), or the one position every read
// row is at; left -1 where no row is read. The note that says them, or nothing where none is blank.
QString placeBlank(std::vector<std::int64_t> &positions, const std::vector<std::int64_t> &blank,
                   const std::vector<std::int64_t> &ids);

} // namespace posenc::ApplyNotTurned
