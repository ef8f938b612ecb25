#pragma once

#include "check/PairReference.h"
#include "check/TableMatch.h"
#include "check/sinusoidal/SinusoidalFit.h"

#include <QString>
#include <QStringList>

#include <optional>

// A declared sinusoid (docs/ARCHITECTURE.md, Checking a table): the parameters as the fit's
// hypothesis (diffusers' flip_sin_to_cos and downscale_freq_shift included), and, where the table
// deviates from them, the declared parameters it differs in, named by their keys as the fit reads
// the table without the declaration.
namespace posenc::SinusoidalDeclared {

// The ids of the parameters a deviation is named by: the parameter keys.
inline const QString kLayout = QStringLiteral("layout");
inline const QString kFlip = QStringLiteral("flip-sin-to-cos");
inline const QString kShift = QStringLiteral("freq-shift");
inline const QString kBase = QStringLiteral("base");
// Each pair a sine and a cosine of one angle, at frequencies no parameter of the declared sinusoid
// gives: the first pair that differs said, its declared and read frequency.
inline const QString kFrequencies = QStringLiteral("frequencies-differ");

// The declared table as a hypothesis: the split layout's cosines first where flip_sin_to_cos says
// so; a shift of 1 on an even d half_dim - 1's frequencies (diffusers' exponent / (half_dim - 1)),
// any other the paper's at the base b^((d/2) / (d/2 - s)).
SinusoidalFit::Hypothesis hypothesis(const Params &params, std::int64_t dModel);
// posenc's [cos | sin] of an odd d (the d - ceil(d/2) cosines first, Frequencies::role) where the
// parameters flip the split layout.
void orderColumns(PairReferenceSpec &spec, const Params &params);

struct Differences
{
    QStringList ids; // the parameters' keys, then the mistakes of the table as read
    QStringList lines; // one a difference: the table's value and the declared one
    std::int64_t positionOffset = 0; // row r holds position r + it, as the table reads
    bool noted = false; // what was read names nothing (timesteps of no scale): notes beside the cells
};

// Where the sample deviates from the declared hypothesis (`declared`, scored) and the fit without
// the declaration explains it better: what differs. Nothing where the sample holds the declared
// table, no fit explains it, or the fit finds nothing the parameters say otherwise.
std::optional<Differences> differences(const SinusoidalFit::FitInput &input, const SinusoidalFit::Hypothesis &declared,
                                       const SinusoidalFit::Fit &scored, const Params &params);
// The match names them: its mistakes and diagnosis.
void name(TableMatch &match, const Differences &differences);

} // namespace posenc::SinusoidalDeclared
