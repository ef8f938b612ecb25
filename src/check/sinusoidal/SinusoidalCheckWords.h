#pragma once

#include "check/SampleScore.h"
#include "check/TableMatch.h"
#include "check/TableSample.h"
#include "check/sinusoidal/SinusoidalFit.h"

#include <QString>
#include <QStringList>

#include <cstdint>

// The sinusoid's words of a check (docs/ARCHITECTURE.md, Checking a table): what its reference
// is, the one-line diagnosis naming its mistakes and what the correct line computes, the notes.
// Core's words: they name no flag of the command line.
namespace posenc::SinusoidalCheckWords {

QString layout(Layout layout); // "interleaved", "split"
QString frequencies(SinusoidalFit::Variant variant); // "paper", "half-dim-minus-one"

// The other reading of a base that is what a mistake makes of 10000 (SinusoidalFit::baseMistake):
// "base 100 is 10000^(1/2): the paper's base 10000 with the exponent halved ... gives this very
// table", naming the mistake and how to have it named.
QString baseReading(double base);

// "sinusoidal, interleaved, the paper's frequencies w_i = 10000^(-2i/d), positions from 0".
QString reference(const SinusoidalFit::Hypothesis &h, const RowFraming &framing);
QString diagnosis(const SinusoidalFit::Hypothesis &found, const SinusoidalFit::Hypothesis &correct, std::int64_t dModel,
                  const RowFraming &framing, const QStringList &mistakes, bool layoutDeclared);
QStringList notes(const SinusoidalFit::Hypothesis &h, const RowFraming &framing, TablePrecision precision);
QString nearest(const SinusoidalFit::Hypothesis &h, const SampleScore &score);
// The published form a table of `h` (its mistakes undone) is, with its source: "the paper's
// sinusoid, interleaved (Vaswani et al. 2017, ...)"; empty where none has its parameters.
QString publishedForm(const SinusoidalFit::Hypothesis &h, const RowFraming &framing, std::int64_t firstPosition = 0);
// A variant's diagnosis: the nearest published form, and the mistake that gives this table from it.
QString variant(const SinusoidalFit::Hypothesis &h, const RowFraming &framing);
// Every position holds the sinusoid's row of position 0.
QString sameRow();
// A sinusoid times a uniform amplitude c (found.amplitude): `form` (a published form or a variant's
// words) at c, said as the published variant it is (x-transformers' ScaledSinusoidalEmbedding), the
// cause c's value suggests given as a guess; `declared` where --pe-scale gave c.
QString amplitudeVariant(const SinusoidalFit::Hypothesis &found, std::int64_t dModel, const QString &form);
QString amplitudeDeclared(double c, std::int64_t dModel, const QString &form);
// The mistake scaled against a declared amplitude: both values.
QString amplitudeMistake(double found, double declared, std::int64_t dModel);
// A table that cannot show the base: one pair (d <= 2), or one row.
QString baseNotShown(std::int64_t dModel, std::int64_t rows);

} // namespace posenc::SinusoidalCheckWords
