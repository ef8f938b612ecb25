#pragma once

#include "core/check/LearnedFit.h"
#include "core/check/RopeFit.h"
#include "core/check/SampleScore.h"
#include "core/check/SinusoidalFit.h"
#include "core/check/TableMatch.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

// The words of a check's findings: what the reference is, the one-line diagnosis naming a
// mistake and what the correct line computes, and the notes a person reads after it. Core's
// words: they name no flag of the command line.
namespace posenc::CheckDiagnosis {

// "sinusoidal, interleaved, the paper's frequencies w_i = 10000^(-2i/d), positions from 0".
QString sinusoidReference(const SinusoidalFit::Hypothesis &h, const RowFraming &framing);
QString sinusoid(const SinusoidalFit::Hypothesis &found, const SinusoidalFit::Hypothesis &correct, std::int64_t dModel,
                 const RowFraming &framing, const std::vector<TableMistake> &mistakes, bool layoutDeclared);
QStringList sinusoidNotes(const SinusoidalFit::Hypothesis &h, const RowFraming &framing, TablePrecision precision);
QString nearestSinusoid(const SinusoidalFit::Hypothesis &h, const SampleScore &score);

// "rope-cos, half layout, rope_type yarn (rope_theta 10000, factor 4, original 4096), attention factor 1.1386".
QString ropeReference(const RopeFit::Hypothesis &h);
QString rope(const RopeFit::Fit &fit, const RopeFit::Hypothesis &correct);
QStringList ropeNotes(const RopeFit::Fit &fit);

QString sameRow(bool sinusoid);
QString learned(const LearnedFit::Structure &s, std::optional<std::int64_t> declaredFirstRow);
QStringList learnedNotes(const LearnedFit::Structure &s);
QString unknown(const LearnedFit::Structure &s);
QString allZero();
QString tooFewRows(std::int64_t rows);

// "columns 1, 3, 5, ..., 1023 (every 2nd from 1; 512 of 1024)": a set of indices in few words.
// The note of a table whose angles were formed in float32.
QString float32AnglesNote();
// The note of a table whose fit was float32 angles where its cells hold the exact angles'
// values (`share` of the cells float32 angles would move).
QString exactNotFloat32Note(double share);

QString indexSet(const std::vector<std::int64_t> &indices, std::int64_t of, const QString &noun);

} // namespace posenc::CheckDiagnosis
