#pragma once

#include "check/rope/RopeFit.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

// RoPE's words of a check (docs/ARCHITECTURE.md, Checking a table): what its reference is, the
// diagnosis naming its mistakes, the notes. Core's words: they name no flag of the command line.
namespace posenc::RopeCheckWords {

QString layout(RopeLayout layout); // "half", "interleaved"
// "rope-cos, half layout, rope_type yarn (rope_theta 10000, factor 4, original 4096), attention factor 1.1386".
QString reference(const RopeFit::Hypothesis &h);
QString diagnosis(const RopeFit::Fit &fit, const RopeFit::Hypothesis &correct);
QStringList notes(const RopeFit::Fit &fit);
// A table of parameters no published form has, and the nearest published form.
QString variant(const RopeFit::Hypothesis &h, const QString &nearest);
// A table of one pair or of one row, which does not show rope_theta.
QString thetaNotShown(std::int64_t pairs, std::int64_t rows);
// A LongRoPE pair whose factor is not the published form's: the table's and the form's.
struct PairFactor
{
    std::int64_t pair = 0;
    double found = 1.0;
    double published = 1.0;
    bool longList = true; // long_factor, else short_factor
};
// The pairs of a published LongRoPE form (`name`) whose factors the table changed, and their
// columns in `layout` for `pairs` pairs.
QString changedFactors(const std::vector<PairFactor> &changed, const QString &name, RopeLayout layout,
                       std::int64_t pairs);
// A LongRoPE table whose factors are those of the other side of the original length than its rows.
QString longRopeRegime(std::int64_t original, std::int64_t rows);

} // namespace posenc::RopeCheckWords
