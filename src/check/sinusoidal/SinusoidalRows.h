#pragma once

#include "check/sinusoidal/SinusoidalDeclared.h"
#include "check/sinusoidal/SinusoidalFit.h"

#include <QString>

#include <optional>

// Sine and cosine taken over the rows instead of the columns (docs/ARCHITECTURE.md, Checking a
// table): the rows of one parity are sin(p w_c), the row's own position p at a frequency of its
// column's, every column a sine, where a sinusoid puts sin and cos in alternate columns (or halves)
// at a frequency per pair; the other rows hold something else. BrianPulfer/PapersReimplementations#9
// (fixed by #10): the DDPM notebook's sin on the rows arange(0, n, 2), cos of those sines on the rows
// 1 - arange(0, n, 2). A declared sinusoid's deviation only, read on the sample's leading rows:
// a faithful table fails it (its cosine columns are 1 at position 0, and no cosine of p w is a sine
// of p at one frequency over the odd rows), and so does one transposed ([d, L]: down a column the
// frequency changes row by row, geometrically, no sinusoid of the row index).
namespace posenc::SinusoidalRows {

inline const QString kSinusoidRows = QStringLiteral("sinusoid-rows");

// The mistake where the sample's leading rows of one parity are sines over the rows at a
// frequency per column, and the other parity's are not: said with the frequencies read.
std::optional<SinusoidalDeclared::Differences> read(const SinusoidalFit::FitInput &input);

} // namespace posenc::SinusoidalRows
