#pragma once

#include "check/CellTolerance.h"
#include "check/TableMatch.h"
#include "core/Block.h"
#include "core/rope/RopeParams.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

// What `posenc check --apply` reads of a rotation, pair by pair (docs/ARCHITECTURE.md, Checking a
// rotation), for RoPE's check (ApplyCheck) and M-RoPE's (MropeApplyCheck) alike: X and Y checked
// for shape, which columns pass through unchanged, the pairing of the rotated ones, each row's
// angle per pair, an axis's position id from the angles of its pairs, the cells compared tile by
// tile, and the verdict's share both checks have (the pairing's mistakes, the cells). X and Y are
// [positions, head_dim]; nothing here holds more than a row of them at once besides a sample of
// rows. A family's check adds only what it reads the ids with and what it compares them with.
namespace posenc::ApplyPairs {

// The rotated columns [col0, col0 + width) as a head of their own (HF's q_rot = q[..., :rotary_dim],
// modeling_gpt_neox.py / modeling_phi.py), the pairs the cos/sin table shares and the pairs the
// rotation turns: half (HF's cat(freqs, freqs) and rotate_half: columns k and k + width/2) or
// interleaved (GPT-J's repeat_interleave and rotate_every_two: 2k and 2k + 1).
struct Geometry
{
    RopeLayout table = RopeLayout::Half;
    RopeLayout rotation = RopeLayout::Half;
    std::int64_t col0 = 0;
    std::int64_t width = 0;

    std::int64_t pairs() const { return width / 2; }
    // The two columns whose cos and sin hold pair k's angle.
    std::pair<std::int64_t, std::int64_t> tableColumns(std::int64_t k) const;
    // The column whose value the rotation puts at column j (of the head), and its sign.
    std::pair<std::int64_t, double> rotated(std::int64_t j) const;
};

// X and Y of other shapes: why they are no query or key before and after a rotation.
std::optional<QString> shapeProblem(const RowMatrixXf &x, const RowMatrixXf &y);
// A value of X or Y that is not finite.
std::optional<QString> finiteProblem(const RowMatrixXf &x, const RowMatrixXf &y);

// The format whose rounding Y's values carry: the one Y's file stores them in (a float16 .npy, a
// bfloat16 tensor of a .safetensors file), or a coarser one every value is exactly representable in
// (a model run in bfloat16 whose output numpy, which has no bfloat16, saved as float32).
struct Precision
{
    ValueFormat format = ValueFormat::Float32;
    bool fromValues = false; // the values show it, the stored format is finer
};
Precision precisionOf(const RowMatrixXf &y, ValueFormat stored);

// Half a unit of the last place of Y's values: float32's, or float16's or bfloat16's where Y holds
// only such values (a model run in half precision).
double unitRoundoff(const RowMatrixXf &y);

// The rows a reading is chosen on: the first 64 and an even spread, at most `most`.
std::vector<std::int64_t> sampleRows(std::int64_t rows, std::int64_t most = 2048);

// Each column's whether Y equals X in it at every sampled row, within Y's rounding: the columns a
// partial rotary passes through (q_pass), or pairs of frequency 0 at attention factor 1.
std::vector<bool> passColumns(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows,
                              double u);

// A pairing read from the sample: the attention factor (the median amplitude), how far the
// amplitudes spread about it (median |A - factor| / factor; infinite where too few pairs told it)
// and of how many pairs.
struct Reading
{
    Geometry geometry;
    double factor = std::numeric_limits<double>::quiet_NaN();
    double spread = std::numeric_limits<double>::infinity();
    std::int64_t count = 0;

    // How far (relative) the median of that many amplitudes may be from the factor that turned
    // them: five standard errors of a median (1.86 spread / sqrt(count) each), at least float32's
    // rounding of a factor times cos and sin. Far closer than one cell's rounding in half precision.
    double factorUncertainty() const;
};

// The pairing `g` read from the sample: the median amplitude of its pairs and their spread.
Reading readingOf(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows, const Geometry &g);
// Of the four pairings of the columns [col0, col0 + width), the one whose amplitude is the same at
// every pair of every sampled row; of two as good, the one whose table and rotation agree.
Reading bestReading(const RowMatrixXf &x, const RowMatrixXf &y, const std::vector<std::int64_t> &rows,
                    std::int64_t col0, std::int64_t width);
// Whether a reading's amplitudes agree as a rotation's do, Y's rounding `u` allowed.
bool turnsPairs(const Reading &r, double u);
// "Y is not X turned pair by pair: ..." of `what` ("its columns", "its first 128 columns").
QString notTurned(const QString &what);

// Row p's angle and amplitude of each pair: each pair's two columns give two linear equations
// y_j = u x_j + v s x_j' in u = A cos(angle), v = A sin(angle), solved exactly. NaN where the
// equations do not tell it (X's pair 0). `uncertainty` (radians) is what Y's rounding `u` allows.
void rowAngles(const RowMatrixXf &x, const RowMatrixXf &y, std::int64_t p, const Geometry &g, double u, double *angle,
               double *amplitude, double *uncertainty);

// An axis's pairs for reading a position id: their angles' indices and frequencies.
struct AxisPairs
{
    std::vector<std::int64_t> pairs; // slowest first
    std::vector<double> w;

    // The pairs of `w` (frequencies per pair) that `take` selects, frequency 0 left out.
    static AxisPairs of(const std::vector<double> &w, const std::vector<bool> &take);
};

// The id whose angles id * w_k, as float32 angles round them, are every pair's within its
// uncertainty: `hints` tried first (the previous row's, its successor), then each turn of the
// slowest pair up to `maxId` with the faster pairs' whole turns added. -1 where none is.
std::int64_t readId(const AxisPairs &axis, const double *angle, const double *uncertainty, double u,
                    const std::vector<std::int64_t> &hints, std::int64_t maxId);

// Whether `id` explains every pair of the axis within its uncertainty.
bool explains(const AxisPairs &axis, const double *angle, const double *uncertainty, double u, std::int64_t id);

// Row p of Y against X turned by `angle[k]` at each pair k (exact: id * w in double) and times
// `factor`, within float32's rounding of HF's computation (the angle id * inv_freq in float32, then
// q * cos + rotate_half(q) * sin); the columns outside the rotated ones against X's own. `angle`
// NaN: the row's ids were not read, the row deviates.
// How far a faithful computation puts a turned pair's cell y_j = A (x_j cos + s x_partner sin) from
// the exact one: float32's angle (2^-21 of 1 and of |angle|), the rounding `u` of cos, sin, both
// products and their sum (4u), each of the pair's values `reach` = |x_j| + |x_partner| at most, times
// A; and Y's own rounding, 2u |y_j|.
double turnedSlack(double factor, double reach, double angle, double u, double yj);

struct RowCompare
{
    double maxError = 0.0;
    std::int64_t column = -1;
    bool deviates = false;
};
RowCompare compareRow(const RowMatrixXf &x, const RowMatrixXf &y, std::int64_t p, const Geometry &g, double factor,
                      const double *angle, double u);

// The cells of the rows compared: the largest error (the first row of it where rows tie), its
// place, and the rows beyond float32's rounding.
struct CellTally
{
    double maxAbsError = 0.0;
    std::int64_t worstRow = -1;
    std::int64_t worstColumn = -1;
    std::int64_t deviatingRows = 0;
    bool worstDeviates = false; // whether the largest error's row is beyond its rounding

    void add(std::int64_t p, const RowCompare &row);
    void merge(const CellTally &other);
};

// Rows [0, rows) in tiles of `tileRows` on the thread pool (`threads` 0: every core), each tile's
// rows in order by `tile(first, end, tally)`; the tiles' tallies merged.
CellTally tallyTiles(std::int64_t rows, std::int64_t tileRows, int threads,
                     const std::function<void(std::int64_t first, std::int64_t end, CellTally &tally)> &tile);

// What every apply check concludes: the verdict, the pairing found, the attention factor, the
// mistakes named and the cells, with the diagnosis and the notes.
struct Outcome : CellTally
{
    CheckVerdict verdict = CheckVerdict::Unknown;
    RopeLayout rotation = RopeLayout::Half; // the pairs rotate_half or rotate_every_two turned
    RopeLayout table = RopeLayout::Half; // the pairs that share an angle in the cos/sin table
    double attentionFactor = 1.0;
    // Y's precision, the rounding its cells are compared within; unset where the family's check
    // takes float32's or Y's values' own without saying so.
    std::optional<Precision> precision;
    QStringList mistakes;
    QString diagnosis;
    QStringList notes;
    bool notTurned = false; // Y is X (or X times one factor) in every column: no pair turned
};

// The mistakes an apply check names of the pairing.
inline const QString kLayoutSwapped = QStringLiteral("rope-layout-swapped");
inline const QString kLayout = QStringLiteral("rope-layout");

// "half (rotate_half: pairs i, i + d/2)", "interleaved (rotate_every_two: pairs 2i, 2i + 1)".
QString layoutWords(RopeLayout layout);
// The pairing's mistake, its line added: a table built for other pairs than the rotation turns
// (rope-layout-swapped), else a rotation of other pairs than the `declared` (rope-layout).
void layoutMistakes(Outcome &outcome, std::optional<RopeLayout> declared, QStringList &lines);
// The verdict of a check whose mistakes and cells are in: a mistake where any is named or any row
// compared deviates (the rows' line added where no mistake explains them: "at `where`"), unknown
// where rows deviate and none could be compared, the lines the diagnosis; false where neither, the
// verdict left to the family's reference.
bool concludeMistakes(Outcome &outcome, QStringList lines, const QString &where);

} // namespace posenc::ApplyPairs
