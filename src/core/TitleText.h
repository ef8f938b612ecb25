#pragma once

#include "Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>

// Parts of a figure's title that name the parameters a table depends on, as the quantity table's
// rows (QuantitySpec::parameters) and the figures write them; numbers in English whatever the
// locale (docs/ARCHITECTURE.md, Exporting).
namespace posenc::TitleText {

QString tableText(const Params &params); // "d = 512, L = 1,024"
QString scaleText(const Params &params); // "s = √d = 22.63", "s = 1"
QString sigmaText(const Params &params); // "σ = 1", "σ = d^-1/2 = 0.0442", "E from wte.npy"
QString dropoutText(const Params &params); // "p = 0.1, dropout mode sum", "evaluation: no dropout"
// What sets the PE apart from the paper's: "split layout, b = 500, float32 angles"; empty for
// the paper's interleaved table, b = 10000, exact angles.
QString peVariantText(const Params &params);
// Columns [first, end) of a table: "256–511", "7".
QString columnsText(std::int64_t first, std::int64_t end);
// The position term that enters X, as parts of a title: its columns ("d = 512, L = 1,024", or in
// concat "k = 256 columns (X's 256–511), L = 1,024") and what sets it apart from the paper's.
QStringList positionTermParts(const Params &params);
// Where X's parts sit in concat: "s·E in columns 0–255, PE (k = 256) in 256–511"; empty in sum.
QString composeText(const Params &params);

} // namespace posenc::TitleText
