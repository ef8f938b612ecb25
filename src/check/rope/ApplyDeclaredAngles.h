#pragma once

#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"
#include "core/Block.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// `posenc check --apply X Y` against a reference declared in full, where the frequencies the check
// fitted do not name the difference (docs/ARCHITECTURE.md, Checking a rotation): Y's angles, as the
// RoPE cos table the identification reads (ApplyCheck::AnglesRows), are checked against the
// declared reference's cos table exactly as `posenc check --expect` checks a table
// (TableCheck::streamDeclared with the table's undeclared reading). So every frequency-level
// mistake a cos table of the same bug gets named is named for the rotation too: rope_theta,
// rope_type and factor, YaRN's truncate and betas, the attention factor, and the angles computed
// at half precision (RopeHalfAngles: inv_freq rounded to bfloat16 before positions * inv_freq,
// sgl-project/sglang-jax#1472).
namespace posenc::ApplyDeclaredAngles {

struct Named
{
    QStringList mistakes; // as the table check names them
    QString diagnosis; // the table check's words, said of Y's angles
};

// Y's angles at the rows' positions (each row r at `ids[r]`, the rows of positions 0, 1, ... taken
// in that order; empty: row r at r) against `reference` (its rotary_dim Y's turned width), as a
// declared RoPE cos table, with the table's undeclared reading where `readAs` (a parameter it differs
// in named from it); the mistakes named and the words, or nothing where the angles' table is the
// reference or no mistake is named.
std::optional<Named> name(const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r, double u,
                          const Params &reference, const std::vector<std::int64_t> &ids, int threads, bool readAs);

// A check against `declared.reference` that named no frequency-level mistake: nothing (unknown, its
// angles read as no RoPE frequencies) or rope-frequencies-differ alone. Where the angles' table
// names one, `result` is a mistake naming it (rope-frequencies-differ dropped), the diagnosis the
// table check's words and `line`, where given, replaced by them; false, `result` as it was, else.
bool nameResult(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
                double u, const ApplyCheck::Declared &declared, QString *line = nullptr);

// nameResult of the rows each read at a position (`positions`, -1 where a row's is not read), in row
// order at the positions read: the rows that read at none are no rotation the frequencies give at
// any position, and their angles (filled in from their neighbours') are no table's rows; nothing
// said of them. All the rows where every one is read; false, nothing named, where fewer than three
// are.
bool nameReadRows(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
                  double u, const ApplyCheck::Declared &declared, const std::vector<std::int64_t> &positions);

// Nothing declared and nothing named, rows at their index: angles the undeclared table check read as
// formed in half precision (ApplyCheck::Result::halfAnglesRead) are named half-precision-angles as
// that cos table is, its words the diagnosis.
void nameHalfRead(ApplyCheck::Result &result, const ApplyCheck::Declared &declared);

} // namespace posenc::ApplyDeclaredAngles
