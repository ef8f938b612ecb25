#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Params.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

// Two of a family's tables side by side in one tensor ([L, d] = cat(a, b) along the last
// dimension: RoPE's cos|sin cache, vLLM's cos_sin_cache), each half checked as the table of half
// its width it stands for (docs/ARCHITECTURE.md, Checking a table). Family-free: the families say
// which pairs they have (TensorReading's PairedTablesReading); posenc check and the check window
// both read a table so.
namespace posenc::PairedTables {

// What the table is declared to be: a family and its parameters, or nothing (identified). Another
// reference (a table, a learned one) reads no pair.
struct Declared
{
    std::optional<Encoding> family;
    Params params;
    bool otherReference = false;
    // Whether the declaration gave the table's width (a flag, a preset, a config, the window's
    // parameters); else each half's width is the table's it is read as.
    bool widthGiven = true;
};

// Checks one half, `rows` the table it stands for, `table` the family's table it is declared as
// (empty: identified): its match, or nothing where the check stopped (cancelled, or an error the
// caller keeps).
using CheckHalf = std::function<std::optional<TableMatch>(const std::shared_ptr<const TableRows> &rows, int index,
                                                          const QString &table)>;

struct Reading
{
    TableMatch match; // the halves' matches as the tensor's
    int worse = 0; // the half whose reading the match is (the other's in a note)
};

// The first family whose pair the rows hold, each half checked (undeclared: both halves read as
// that family's tables). Two whole tables side by side (PairedTablesReading::holdsWhole: HF's
// [cos | sin]) are read half by half as they are, where the declared width is half the rows' (or
// none was given). Nothing when the rows hold no pair, or a declared family has none of
// their width; `stopped` set where a half's check stopped.
std::optional<Reading> read(const std::shared_ptr<const TableRows> &rows, const Declared &declared,
                            const CheckHalf &check, bool &stopped);

// A reference's pair and a table's halves taken as the reference's are read undeclared: the first
// family whose pair `reference` holds (two whole tables side by side, else a cache whose halves are
// widened), each half of both. Nothing where the reference holds no pair or the widths differ.
struct Halves
{
    Encoding family;
    QStringList tables; // each half's table, as the family words it
    bool whole = false; // two whole tables (HF's [cos | sin]), else a cache's halves widened
    std::shared_ptr<const TableRows> table[2], reference[2];
};
std::optional<Halves> halvesAsReference(const std::shared_ptr<const TableRows> &table,
                                        const std::shared_ptr<const TableRows> &reference);

// Of an undeclared table that is also such a pair: whether the pair's reading is the better one, or
// equally good and the table's not correct (a sinusoid of flip_sin_to_cos is the same numbers), or
// a mistake it names where no formula explains the table (learned, unknown: vllm#27414's cache).
bool pairIsBetter(const TableMatch &table, const TableMatch &pair);
// The better of the two readings, the other in a note.
TableMatch betterReading(TableMatch table, TableMatch pair);

} // namespace posenc::PairedTables
