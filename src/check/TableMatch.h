#pragma once

#include "check/CellTolerance.h"
#include "check/TableReference.h"
#include "core/Params.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <variant>

namespace posenc {

// What `posenc check` concludes of a table (docs/ARCHITECTURE.md, Checking a table): `Correct`
// only when it equals a named reference within its tolerance (a published form of its family, or
// the reference the user declared); `Variant` a family's formula at parameters no published form
// uses; `Learned` a table no formula explains, which has structure; `Mistake` a named mistake or
// cells that deviate; `Unknown` what the check cannot tell.
enum class CheckVerdict { Correct, Variant, Learned, Mistake, Unknown };
// How a correct table's values were computed: exactly (within the rounding of float32), rounded
// to float16 or bfloat16, or from float32 angles.
enum class TablePrecision { Exact, Float16, BFloat16, Float32Angles };
// How a half format's values were rounded to it: to nearest (ties to even, as torch's .to() and
// numpy's astype do), or directed: toward zero (each float32 value's low bits cut), down or up.
enum class Rounding { Nearest, TowardZero, Downward, Upward };

// What a precision of float32 angles rests on: the largest |error| against the exact angles in the
// table's first rows and in its last, and what float32 angles predict there. Their error grows with
// the position (the angle p w_i rounded to float32), so the last rows' is the larger.
struct AngleEvidence
{
    std::int64_t firstRow = 0, firstEnd = 0; // rows [firstRow, firstEnd)
    double firstError = 0.0, firstPredicted = 0.0;
    std::int64_t lastRow = 0, lastEnd = 0; // rows [lastRow, lastEnd)
    double lastError = 0.0, lastPredicted = 0.0;
    // The exact angles' tolerance in the last rows: a last error within it shows no float32 angles.
    double lastExact = 0.0;
    // The first rows' cells, and those beyond float32 angles' tolerance (not counted in firstError).
    std::int64_t firstCells = 0, firstBeyond = 0;

    // Whether the error grows with the position as float32 angles make it: beyond the exact
    // angles' tolerance in the last rows, more than twice the first rows', and the first rows
    // within float32 angles' tolerance but for at most a cell in ten.
    bool supports() const
    {
        return lastError > 2.0 * lastExact && lastError > 2.0 * firstError && firstBeyond * 10 <= firstCells;
    }
    // Whether the error shows it is not float32 angles': they predict the last rows' error at four
    // times the first rows' or more, yet it is beyond the exact angles' tolerance there and no more
    // than twice the first rows' (flat noise); or more than a cell in ten of the first rows is
    // beyond their tolerance. Evidence that neither supports nor contradicts them leaves a faithful
    // computation at float32 angles possible: no deviation. So do last rows within the exact
    // angles' tolerance, which show nothing: an error of float32 inv_freq, p times a pair's
    // rounding, times the sine, may fall there in a table of 32 rows and peak in the middle ones.
    bool contradicts() const
    {
        return !supports()
            && ((lastPredicted > 4.0 * firstPredicted && lastError > lastExact && !(lastError > 2.0 * firstError))
                || firstBeyond * 10 > firstCells);
    }
};

// A finding as `--json` prints it: a word, a number, a whole number, a flag, or nothing (null).
using MatchValue = std::variant<std::monostate, QString, double, std::int64_t, bool>;
// One of a family's findings, keyed as `--json` prints it ("layout", "base", "rope_type").
struct MatchField
{
    QString key;
    MatchValue value;
};

namespace CheckWords {
QString verdict(CheckVerdict verdict); // "correct", "variant", "learned", "mistake", "unknown"
QString precision(TablePrecision precision); // "exact", "float16", "bfloat16", "float32-angles"
// With a directed rounding: "bfloat16-toward-zero", "float16-downward", "float16-upward"; a precision
// of another kind, or to nearest, as above.
QString precision(TablePrecision precision, Rounding rounding);
// The note of a table whose values are rounded to a half format, `precision` (Float16, BFloat16):
// "the values are rounded to bfloat16: correct within its rounding", or of a directed rounding.
QString roundedNote(TablePrecision precision, Rounding rounding = Rounding::Nearest);
} // namespace CheckWords

// The ids of the mistakes more than one family names (a family's own ids are its words).
namespace CheckMistakes {
inline const QString kPositionOffset = QStringLiteral("position-offset");
inline const QString kSameRow = QStringLiteral("same-row");
inline const QString kHalfPrecisionAngles = QStringLiteral("half-precision-angles");
inline const QString kScaled = QStringLiteral("scaled");
inline const QString kTransposed = QStringLiteral("transposed");
// A table equal to a family's reference but for a region whose cells hold one value, the
// reference plus a constant, or the reference's cells moved by a few rows or columns
// (ChangedRegion).
inline const QString kCellsOverwritten = QStringLiteral("cells-overwritten");
inline const QString kCellsOffset = QStringLiteral("cells-offset");
inline const QString kCellsShifted = QStringLiteral("cells-shifted");
// A table of relative positions taken the other way round: T5's buckets of i − j where the model
// takes j − i, DeBERTa's of j − i where it takes i − j (OffsetProfile::mirrored).
inline const QString kRelativeReversed = QStringLiteral("relative-position-reversed");
// A block of the reference's cells negated (TableSignFlip, ChangedRegion; speechbrain#3070), and a
// 2-D grid's table sampled with its x and y exchanged (TableAxesSwapped; torchtitan#4244).
inline const QString kSignFlipped = QStringLiteral("sign-flipped");
inline const QString kGridAxesSwapped = QStringLiteral("grid-axes-swapped");
// A head bias that differs from the declared one in its mask alone: symmetric where causal is
// declared (or the default), causal where symmetric is, or a key bias m·j (causal to the softmax)
// declared symmetric (mlx#3071's create_alibi_matrix, x-transformers#88; HeadBiasFit).
inline const QString kBiasMask = QStringLiteral("bias-mask");
// The check's own, of any family's table (posenc check --help lists them with the families').
inline const QStringList kOfAnyTable {kTransposed,  kCellsOverwritten, kCellsOffset,
                                      kCellsShifted, kSignFlipped,      kGridAxesSwapped};
} // namespace CheckMistakes

// The most rows of a table, one in this many, that may be damaged (unread, at a position the rest
// do not explain, or deviating) for the rest to be read as one form: those rows are a region the
// stream shows as deviating cells, not the form's mistake (RopeRowPositions reads a table's rows
// so; PairedTables takes a pair's reading so over a table no formula explains).
namespace StrayRows {
inline constexpr std::int64_t kShare = 64;
inline std::int64_t most(std::int64_t rows)
{
    return rows / kShare;
}
} // namespace StrayRows

// How far past the rounding a reference fitted freely from a sample (TableMatch::freeFit) may leave
// a table's cells for them to be read as the fit's error rather than a deviation: a pair's
// frequency pinned by the sample to a part in 10^7 drifts by p w 1e-7 over the unsampled rows.
namespace FreeFit {
inline constexpr double kResidual = 1e-4;
} // namespace FreeFit

// The positions a table's rows hold where they are not 0 .. L - 1 (a window of a family's table,
// `posenc table --positions 100:164`), or the positions of a relative map's queries over its keys:
// first..last, and whether a declaration gave them (--positions, --position-ids). A window nothing
// declared is a faithful slice of the family's table: said in the report and --json's "positions",
// not judged (issue 56); against a declared window, rows at another are position-offset.
struct PositionWindow
{
    std::int64_t first = 0, last = 0;
    bool declared = false;
    // Whether the rows are a relative map's queries (their keys 0 .. k - 1), not a table's positions.
    bool queries = false;
    // Where more than one window reads the table (a relative map's first or last queries): the
    // sentence saying which was read and that the check cannot tell which was meant; else empty.
    QString ambiguity;
};

// What a table was identified as from its sample (docs/ARCHITECTURE.md, Checking a table), and
// after its rows were streamed, the verdict. A value the window can show and act on: `params`
// set the window's parameters to the matched reference. The family fills it through its
// hypothesis (TableHypothesis.h); the check names no family.
struct TableMatch
{
    CheckVerdict verdict = CheckVerdict::Unknown;
    // The family the table was found to be, and its word of the table ("sinusoidal", "rope-cos",
    // "alibi-bias"): `--json`'s "encoding"; unset and empty when the table is unknown.
    std::optional<Encoding> family;
    QString table;
    // The family's findings in its order ("layout", "base", ...): `--json`'s keys of them.
    QList<MatchField> findings;
    // Row r holds position r + positionOffset (-2 for a table whose rows 0 and 1 are padding).
    std::optional<std::int64_t> positionOffset;
    // The first row a model reads (2 for RoBERTa's learned table, after its padding rows).
    std::optional<std::int64_t> firstPositionRow;
    // The window of positions the rows were read at, where it is not 0 .. L - 1 or was declared.
    std::optional<PositionWindow> positions = std::nullopt;
    std::optional<TablePrecision> precision;
    // How the values were rounded to a half format: to nearest, or directed (TableRounding), which
    // the reference then holds.
    Rounding rounding = Rounding::Nearest;
    // Of a table of float32 angles, once streamed: the evidence, which the report prints.
    std::optional<AngleEvidence> angleEvidence;
    // The constant the reading multiplies its family's table by, where the family's table has none
    // (a sinusoid's amplitude c, x-transformers' ScaledSinusoidalEmbedding): 1 where it names none. A
    // number of the family's own formula is no such factor (Sandwich's divisor 8K/H, its finding
    // "scale"). A directed rounding moves every cell by up to a unit one way, which a factor near 1
    // may mimic (TableRounding).
    double factor = 1.0;
    // The mistakes named, by id ("exponent-doubled", CheckMistakes), in the family's order.
    QStringList mistakes;
    // One line: the mistake and what the correct line computes, or what the table is.
    QString diagnosis;
    // The named reference a correct table equals: a published form ("the paper's sinusoid
    // (Vaswani et al. 2017, ...)") or the reference the user declared. A match without one is
    // never correct (TableCheck::identify makes it a variant).
    QString correctAgainst;
    // Further lines for a person: the variant named, padding rows, other parameters that fit.
    QStringList notes;
    // Of a variant whose reference was fitted from the sample with a free number per pair or column
    // (LongRoPE's factor per pair read from the cells, no published form's): that reading, in words.
    // Cells a little past the rounding (FreeFit::kResidual) are then the fit's own error, which no
    // faithful computation is shown to lack: the stream makes the table `unknown`, never `mistake`
    // (issue 56, TableCheck::conclude).
    QString freeFit;

    // The correct table the rows are compared with, and how close they must be; unset for a
    // learned or an unknown table, and then `unreferenced` says why, in a sentence.
    std::shared_ptr<const TableReference> reference;
    CellTolerance tolerance;
    QString unreferenced;
    // Of a mistake read from the sample, where the family gives it: the table as the named mistakes
    // make it (a RoPE's rows from position 5), and its tolerance. A declaration that takes the
    // reading's name streams every row against it first (DeclaredReading): rows the reading does
    // not hold are said, not hidden behind the name.
    std::shared_ptr<const TableReference> asRead;
    CellTolerance asReadTolerance;
    // Whether the mistake is a reference table's rows moved (TableRowShift), which the reference's
    // own reading as a family's table names better where it has one (nameByReferenceReading).
    bool rowsMoved = false;
    // Whether the mistake is a reference table's columns in another order (columns-swapped), which
    // the reference's reading names better where its family names the order (a RoPE layout,
    // flip_sin_to_cos: nameByReferenceReading).
    bool columnsMoved = false;
    // A reference table's largest |value| (expectTable): the scale of float32's rounding in sums that
    // make it (unknownWithinSummation).
    double referenceLargest = 0.0;
    // Parameters whose table is the reference (its first rows from position 0), for the window.
    std::optional<Params> params;
    // How the reference's words read, "sinusoidal, interleaved, paper frequencies, base 10000".
    QString referenceText;

    // Filled when the rows have been streamed (TableCheck::verify).
    std::optional<double> maxAbsError;
    std::optional<std::int64_t> worstRow;
    std::optional<std::int64_t> worstColumn;
    QString deviations; // which columns and rows deviate, in words; empty when none
    // The rows compared, and of them those with a cell beyond the tolerance (of a cos|sin pair, the
    // two halves' together: PairedTables).
    std::optional<std::int64_t> comparedRows;
    std::optional<std::int64_t> deviatingRows;

    // The finding of `key`, or nothing.
    MatchValue finding(const QString &key) const;
    // This match made the mistake CheckMistakes::kRelativeReversed: equal to no reference, its
    // diagnosis saying which difference the table holds and which the model takes.
    void markRelativeReversed(const QString &why);
};

} // namespace posenc
