#pragma once

#include "core/Params.h"
#include "core/check/CellTolerance.h"
#include "core/check/ReferenceTable.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace posenc {

// What `posenc check` concludes of a table (issue 37's verdicts).
enum class CheckVerdict { Correct, Mistake, Unknown };
// The family a table was found to be: the sinusoid, RoPE's cos or sin table as HF returns it, a
// learned table, or none.
enum class TableEncoding { Sinusoidal, RopeCos, RopeSin, Learned, Unknown };
// The sinusoid's frequencies: the paper's b^(-2i/d), or fairseq's, tensor2tensor's and Whisper's
// b^(-i/(h-1)) with h = d / 2.
enum class SinusoidFrequencies { Paper, HalfDimMinusOne };
// How a correct table's values were computed: exactly (within the rounding of float32), rounded
// to float16 or bfloat16, or from float32 angles.
enum class TablePrecision { Exact, Float16, BFloat16, Float32Angles };
// The mistakes a check names, in the order of the table.
enum class TableMistake {
    ExponentColumnIndex,
    ExponentDoubled,
    SinCosSwapped,
    PositionDivided,
    PositionOffset,
    SameRow,
    HalfPrecisionAngles,
    RopeLayout,
    AttentionFactorMissing,
};

namespace CheckWords {
QString verdict(CheckVerdict verdict); // "correct", "mistake", "unknown"
QString encoding(TableEncoding encoding); // "sinusoidal", "rope-cos", "rope-sin", "learned"; "" for unknown
QString frequencies(SinusoidFrequencies frequencies); // "paper", "half-dim-minus-one"
QString precision(TablePrecision precision); // "exact", "float16", "bfloat16", "float32-angles"
QString mistake(TableMistake mistake); // the ids: "exponent-column-index", ...
QString layout(Layout layout); // "interleaved", "split"
QString ropeLayout(RopeLayout layout); // "half", "interleaved"
QString ropeType(RopeType type); // HF's rope_type: "default", "linear", ...
} // namespace CheckWords

// What a table was identified as from its sample (docs/ARCHITECTURE.md, Checking a table), and
// after its rows were streamed, the verdict. A value the window can show and act on: `params`
// set the window's parameters to the matched reference.
struct TableMatch
{
    CheckVerdict verdict = CheckVerdict::Unknown;
    TableEncoding encoding = TableEncoding::Unknown;
    std::optional<Layout> layout; // sinusoidal
    std::optional<RopeLayout> ropeLayout; // rope
    std::optional<SinusoidFrequencies> frequencies;
    std::optional<double> base; // the sinusoid's base, or RoPE's rope_theta
    // Row r holds position r + positionOffset (-2 for a table whose rows 0 and 1 are padding).
    std::optional<std::int64_t> positionOffset;
    // The first row a model reads (2 for RoBERTa's learned table, after its padding rows).
    std::optional<std::int64_t> firstPositionRow;
    std::optional<TablePrecision> precision;
    std::optional<RopeType> ropeType;
    std::optional<double> attentionFactor; // rope: the amplitude found
    std::vector<TableMistake> mistakes;
    // One line: the mistake and what the correct line computes, or what the table is.
    QString diagnosis;
    // Further lines for a person: the variant named, padding rows, other types that fit.
    QStringList notes;

    // The correct table the rows are compared with, and how close they must be; unset for a
    // learned or an unknown table.
    std::optional<ReferenceSpec> reference;
    CellTolerance tolerance;
    // Parameters whose table is the reference (its first rows from position 0), for the window.
    std::optional<Params> params;
    // How the reference's words read, "sinusoidal, interleaved, paper frequencies, base 10000".
    QString referenceText;

    // Filled when the rows have been streamed (TableCheck::verify).
    std::optional<double> maxAbsError;
    std::optional<std::int64_t> worstRow;
    std::optional<std::int64_t> worstColumn;
    QString deviations; // which columns and rows deviate, in words; empty when none
};

} // namespace posenc
