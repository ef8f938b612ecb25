#include "TableRounding.h"

#include "check/MaskFill.h"
#include "check/TableHypothesis.h"
#include "check/TableReference.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <iterator>
#include <memory>
#include <optional>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::TableRounding {

namespace {

// Half a unit in the last place of `format` at |value| (a subnormal's below the least normal).
double halfUnitAt(double value, ValueFormat format)
{
    const int bits = format == ValueFormat::Float16 ? 10 : format == ValueFormat::BFloat16 ? 7 : 23;
    const int least = format == ValueFormat::Float16 ? -14 : -126;
    return std::ldexp(1.0, std::max(std::ilogb(value), least) - bits - 1);
}

// Whether a value is left where it is: 0, not finite, or a mask's fill.
bool kept(double value, ValueFormat format)
{
    return value == 0.0 || !std::isfinite(value) || MaskFill::is(value, format);
}

StoredType storedOf(ValueFormat format)
{
    return format == ValueFormat::Float16 ? StoredType::Float16 : StoredType::BFloat16;
}

// Whether `value` is one of `format`'s: a whole number of its units, within its range.
bool heldBy(float value, ValueFormat format)
{
    const double v = value, largest = format == ValueFormat::Float16 ? 65504.0 : double(FLT_MAX);
    return std::isfinite(v) && std::fabs(v) <= largest && std::fmod(v, 2.0 * halfUnitAt(v, format)) == 0.0;
}

// The half format the table's values are in, read from its first rows (a few hundred): where its
// stored type is a half format, that one if it holds every value, else the narrowest holding them;
// float32 where none does, or the table is text or whole numbers. A rounding to a format, to nearest
// or directed, leaves that format's values: rows whose stored type only sets their tolerance (the
// angles of check --apply, each cell a cosine from X and Y in bfloat16) are no such rounding. A
// mask's fill is no value.
ValueFormat halfFormatOf(const TableRows &table)
{
    const StoredType stored = table.storedType();
    if (stored == StoredType::Text || stored == StoredType::Integer || table.cols() <= 0)
        return ValueFormat::Float32;
    const std::int64_t rows = std::min<std::int64_t>(table.rows(), std::max<std::int64_t>(1, (1 << 18) / table.cols()));
    std::vector<float> values(static_cast<std::size_t>(rows * table.cols()));
    QString error;
    if (rows <= 0 || !table.read(0, rows, values.data(), error))
        return ValueFormat::Float32;
    if (stored != StoredType::Float16 && stored != StoredType::BFloat16)
        return MaskFill::valuesFormat(values.data(), std::int64_t(values.size()));
    const ValueFormat format = storedFormat(stored);
    const bool held = std::all_of(values.begin(), values.end(),
                                  [format](float v) { return double(v) <= MaskFill::kBelow || heldBy(v, format); });
    return held ? format : ValueFormat::Float32;
}

// The table's rows as a directed rounding to `format` took them, each value moved back half a unit:
// stored as `format`, so that the check holds them to its rounding.
class MovedBackRows final : public TableRows
{
public:
    MovedBackRows(const TableRows &rows, ValueFormat format, Rounding rounding)
        : m_rows(rows)
        , m_format(format)
        , m_rounding(rounding)
    { }
    std::int64_t rows() const override { return m_rows.rows(); }
    std::int64_t cols() const override { return m_rows.cols(); }
    StoredType storedType() const override { return storedOf(m_format); }
    QString name() const override { return m_rows.name(); }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        if (!m_rows.read(row0, count, out, error))
            return false;
        const std::int64_t cells = count * cols();
        for (std::int64_t k = 0; k < cells; ++k)
            out[k] = movedBack(out[k], m_format, m_rounding);
        return true;
    }

private:
    const TableRows &m_rows;
    ValueFormat m_format;
    Rounding m_rounding;
};

// A reference's values moved on half a unit the way the rounding takes a value: a table so rounded
// is within half a unit of them, as the check's tolerance of the format holds. An exact reference's
// values the format holds (`held`, CellTolerance::heldFormat) stay: every rounding leaves them.
class MovedOnReference final : public TableReference
{
public:
    MovedOnReference(std::shared_ptr<const TableReference> reference, ValueFormat format, Rounding rounding,
                     ValueFormat held)
        : m_reference(std::move(reference))
        , m_format(format)
        , m_rounding(rounding)
        , m_held(held)
    { }
    std::int64_t cols() const override { return m_reference->cols(); }
    std::int64_t rows() const override { return m_reference->rows(); }
    bool compared(std::int64_t row) const override { return m_reference->compared(row); }
    std::int64_t position(std::int64_t row) const override { return m_reference->position(row); }
    bool holdsInfinities() const override { return m_reference->holdsInfinities(); }
    // Its cells are the pairs' moved by half a unit: float32 angles move them as they move the pairs'.
    const PairReference *pairs() const override { return m_reference->pairs(); }
    void forEachTile(const Block &block, const TileSink &sink) const override
    {
        m_reference->forEachTile(block, [&](const Tile &tile) { sink(moved(tile)); });
    }
    void forEachPiece(const Block &block, const TileSink &sink) const override
    {
        m_reference->forEachPiece(block, [&](const Tile &tile) { sink(moved(tile)); });
    }

private:
    Tile moved(const Tile &tile) const
    {
        thread_local std::vector<float> t_values;
        t_values.resize(static_cast<std::size_t>(tile.rows * tile.cols));
        for (std::int64_t r = 0; r < tile.rows; ++r) {
            const float *row = tile.values + r * tile.stride;
            for (std::int64_t c = 0; c < tile.cols; ++c)
                t_values[static_cast<std::size_t>(r * tile.cols + c)] = formatHolds(row[c], m_held)
                    ? row[c]
                    : static_cast<float>(movedOn(double(row[c]), m_format, m_rounding));
        }
        return Tile {tile.row0, tile.rows, tile.col0, tile.cols, t_values.data(), tile.cols};
    }

    std::shared_ptr<const TableReference> m_reference;
    ValueFormat m_format;
    Rounding m_rounding;
    ValueFormat m_held;
};

int verdictRank(CheckVerdict v)
{
    switch (v) {
    case CheckVerdict::Correct:
        return 0;
    case CheckVerdict::Variant:
        return 1;
    case CheckVerdict::Mistake:
        return 2;
    case CheckVerdict::Learned:
        return 3;
    case CheckVerdict::Unknown:
        break;
    }
    return 4;
}

// How far a reading's factor is from 1, |ln c| (TableMatch::factor): 0 where it names none.
double scaleDistance(const TableMatch &m)
{
    return m.factor > 0.0 && std::isfinite(m.factor) ? std::fabs(std::log(m.factor)) : 0.0;
}

// Whether reading `a` explains the table better than `b`: a better verdict, then fewer mistakes, then
// no factor where `b` needs one (a factor that a rounding explains is no factor).
bool better(const TableMatch &a, const TableMatch &b)
{
    if (verdictRank(a.verdict) != verdictRank(b.verdict))
        return verdictRank(a.verdict) < verdictRank(b.verdict);
    if (a.mistakes.size() != b.mistakes.size())
        return a.mistakes.size() < b.mistakes.size();
    return scaleDistance(a) == 0.0 && scaleDistance(b) > 0.0;
}

// The rounding the table's first and last rows (a few thousand cells each) show against `reference`:
// to nearest where every cell is within half a unit of it, else the directed one every cell is within
// a unit of on its side (the one fewest cells leave), else none. Float32's own rounding of the
// writer's values (a few units of 2^-24) is allowed either way. A rounding shows only where the
// reference is not the format's own value: of an exact reference (`held`, CellTolerance::heldFormat)
// a cell the format holds is left to the stream, which holds it to the reference exactly; a table of
// such cells only (whole numbers in bfloat16) shows none; nor does any reference's value the format
// holds (a reference computed in the format, KERPLE's bfloat16 dtype: every rounding leaves it, and
// a table one unit from it is no rounding of it). `compares` says whether any cell was compared. The
// last rows are read too: ALiBi's bias
// of m = 1/2 is bfloat16's own up to 256 keys from the query, in its first rows wholly. A reading of
// float32 angles (`tolerance`'s perPosition) allows each cell its angle's rounding at its position on
// either side as well: a float32-angle cache's last rows lie that far from the exact angles' values,
// whichever rounding took them to the format, and counted as off they hid the rounding its first rows
// show (Gemma 4's proportional cos cache in float16 toward zero read as RoPE's scaled by 0.9997).
std::optional<Rounding> roundingShown(const TableRows &table, const TableReference &reference, ValueFormat format,
                                      const CellTolerance &tolerance, bool *compares = nullptr)
{
    const ValueFormat held = tolerance.heldFormat;
    const std::int64_t cols = table.cols(), all = std::min(table.rows(), reference.rows());
    const std::int64_t band
        = std::min<std::int64_t>(all, std::max<std::int64_t>(1, 4096 / std::max<std::int64_t>(cols, 1)));
    std::int64_t beyondHalf = 0, compared = 0;
    std::int64_t off[3] = {0, 0, 0}; // toward zero, down, up
    std::vector<float> values(static_cast<std::size_t>(std::max<std::int64_t>(band, 0) * cols));
    for (const std::int64_t row0 : {std::int64_t(0), std::max<std::int64_t>(band, all - band)}) {
        const std::int64_t rows = std::min(band, all - row0);
        QString error;
        if (rows <= 0)
            continue;
        if (!table.read(row0, rows, values.data(), error))
            return std::nullopt;
        reference.forEachTile({row0, rows, 0, cols}, [&](const TableReference::Tile &tile) {
            for (std::int64_t r = 0; r < tile.rows; ++r) {
                for (std::int64_t c = 0; c < tile.cols; ++c) {
                    const double ref = tile.values[r * tile.stride + c];
                    const double t = values[static_cast<std::size_t>((tile.row0 - row0 + r) * cols + tile.col0 + c)];
                    if (kept(ref, format) || !std::isfinite(t) || formatHolds(float(ref), held)
                        || formatHolds(float(ref), format))
                        continue;
                    ++compared;
                    const double angles = std::size_t(tile.col0 + c) >= tolerance.perPosition.size()
                        ? 0.0
                        : tolerance.perPosition[static_cast<std::size_t>(tile.col0 + c)]
                            * double(std::abs(reference.position(tile.row0 + r)));
                    const double unit = 2.0 * halfUnitAt(ref, format), slack = 0x1p-20 * std::fabs(ref) + angles;
                    const double e = t - ref;
                    beyondHalf += std::fabs(e) > 0.505 * unit + slack;
                    const double towardZero = ref > 0.0 ? -e : e; // how far t is nearer 0 than ref
                    off[0] += towardZero < -slack || towardZero > 1.01 * unit + slack;
                    off[1] += e > slack || -e > 1.01 * unit + slack;
                    off[2] += e < -slack || e > 1.01 * unit + slack;
                }
            }
        });
    }
    if (compares)
        *compares = compared > 0;
    if (compared == 0)
        return std::nullopt;
    if (beyondHalf == 0)
        return Rounding::Nearest;
    const std::int64_t *fewest = std::min_element(std::begin(off), std::end(off));
    if (*fewest * 100 > compared) // no directed rounding either
        return std::nullopt;
    return fewest == off ? Rounding::TowardZero : fewest == off + 1 ? Rounding::Downward : Rounding::Upward;
}

// `m`, its reference held to `rounding` of `format`.
void holdTo(TableMatch &m, ValueFormat format, Rounding rounding)
{
    m.reference = std::make_shared<const MovedOnReference>(m.reference, format, rounding, m.tolerance.heldFormat);
    if (m.asRead)
        m.asRead = std::make_shared<const MovedOnReference>(m.asRead, format, rounding, m.asReadTolerance.heldFormat);
    m.rounding = rounding;
    const TablePrecision precision = tablePrecision(format, false);
    m.notes.removeAll(CheckWords::roundedNote(precision));
    m.notes.append(CheckWords::roundedNote(precision, rounding));
}

} // namespace

float movedBack(float value, ValueFormat format, Rounding rounding)
{
    // A value of +-1 that a rounding took from farther out (toward zero; down from above +1, up from
    // below -1) came from [1, 1 + unit) in magnitude: from 1 itself in a table of cosines and sines,
    // cos 0, the identity pairs' value in every row of a RoPE cos table (proportional's pairs of
    // frequency 0, RopeZeroPairs), which every faithful computation forms exactly. It stays as 0
    // does: moved half a unit past 1, a column of them read as an amplitude of 1.0005 against which
    // the turning pairs deviate (Gemma 4's proportional cos cache in float16 toward zero read as
    // RoPE's scaled by 0.9997, a mistake). A 1 rounded up came from below 1 (M-RoPE's slow pairs)
    // and moves.
    const bool fromFarther = rounding == Rounding::TowardZero || (rounding == Rounding::Downward && value > 0.0f)
        || (rounding == Rounding::Upward && value < 0.0f);
    if (kept(double(value), format) || (std::fabs(value) == 1.0f && fromFarther))
        return value;
    const double half = halfUnitAt(double(value), format);
    switch (rounding) {
    case Rounding::Nearest:
        break;
    case Rounding::TowardZero:
        return static_cast<float>(double(value) + std::copysign(half, double(value)));
    case Rounding::Downward:
        return static_cast<float>(double(value) + half);
    case Rounding::Upward:
        return static_cast<float>(double(value) - half);
    }
    return value;
}

double movedOn(double value, ValueFormat format, Rounding rounding)
{
    if (kept(value, format))
        return value;
    const double half = halfUnitAt(value, format);
    switch (rounding) {
    case Rounding::Nearest:
        break;
    case Rounding::TowardZero:
        return value - std::copysign(half, value);
    case Rounding::Downward:
        return value - half;
    case Rounding::Upward:
        return value + half;
    }
    return value;
}

void readDirected(std::variant<TableMatch, QString> &identified, const TableRows &table, const Identify &again)
{
    auto *first = std::get_if<TableMatch>(&identified);
    if (!first || first->verdict == CheckVerdict::Learned) // no formula's table: none of its roundings either
        return;
    const ValueFormat format = halfFormatOf(table);
    if (format == ValueFormat::Float32)
        return;
    // The rounding the reading's own reference shows, where it has one. Every cell within half a unit
    // of it: the table is that reference rounded to nearest, whatever the verdict, and no directed
    // rounding reads it better (posenc's own tables at parameters no published form uses).
    bool compares = false;
    const std::optional<Rounding> shown = first->reference
        ? roundingShown(table, *first->reference, format, first->tolerance, &compares)
        : std::nullopt;
    if (shown == Rounding::Nearest)
        return;
    const bool directed = shown.has_value();
    // A mistake named other than a scale is a reading of its own (RoPE's angles formed in half
    // precision): read again only where its cells show a directed rounding. A correct reading, or a
    // mistake that names nothing (cells beyond the tolerance), whose cells show no rounding is read
    // again too: a reference fitted to the cells (KERPLE's r1 and r2) may have been pulled by the
    // rounding, within the sample's tolerance and beyond the stream's. A correct reading whose
    // reference the format holds throughout (buckets) has nothing a rounding moved.
    const bool named = first->verdict == CheckVerdict::Mistake && !first->mistakes.isEmpty()
        && !(first->mistakes.size() == 1 && first->mistakes.front() == CheckMistakes::kScaled);
    if ((named || (first->verdict == CheckVerdict::Correct && !compares)) && !directed)
        return;
    std::vector<Rounding> order {Rounding::TowardZero, Rounding::Downward, Rounding::Upward};
    if (directed)
        std::stable_partition(order.begin(), order.end(), [&](Rounding r) { return r == *shown; });
    for (const Rounding rounding : order) {
        const MovedBackRows moved(table, format, rounding);
        auto read = again(moved);
        auto *m = std::get_if<TableMatch>(&read);
        // Each rounding moves a cell by half a unit, within which a loose tolerance may read the table
        // the other way too: a reading is the rounding's only where its cells show that rounding against
        // its reference, and it explains the table better than the reading as it is, or as well where
        // that reading's cells showed this rounding already or none. Cells beyond the tolerance that
        // name no mistake are the rounding's where the rounding's reading names none either (M-RoPE's
        // ids read from the table, unknown without a prompt as its float32 table is).
        if (!m || !m->reference || roundingShown(table, *m->reference, format, m->tolerance) != rounding)
            continue;
        const bool explained = first->verdict == CheckVerdict::Mistake && first->mistakes.isEmpty()
            && m->verdict != CheckVerdict::Mistake && m->mistakes.isEmpty();
        if (!better(*m, *first) && !((rounding == shown || !directed) && !better(*first, *m)) && !explained)
            continue;
        holdTo(*m, format, rounding);
        identified = std::move(read);
        return;
    }
    if (directed && first->mistakes.isEmpty())
        holdTo(*first, format, *shown);
}

} // namespace posenc::TableRounding
