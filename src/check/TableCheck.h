#pragma once

#include "check/DeviationRegion.h"
#include "check/TableHypothesis.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "core/Block.h"
#include "core/WorkProgress.h"

#include <QFuture>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

// `posenc check`'s work on a table (docs/ARCHITECTURE.md, Checking a table): identify what the
// table is from a sample of its rows, then stream every row against the correct table. For the
// command line and the window alike; no words of a flag here.
namespace posenc::TableCheck {

// What the user says the table is: a mismatch with what it is found to be is a mistake.
using Declared = CheckDeclaration;

// The cells a sample reads at most (a few hundred rows of up to 16384 columns).
constexpr std::int64_t kSampleCells = std::int64_t(1) << 22;

// Identifies the table from its sample: every family's hypothesis is asked, in the order of
// FamilyList.h, and the best-supported answer kept: the family, its variant and parameters, the
// mistakes the sample shows, the correct table to compare with. A message (the reason, without
// the path) when the table cannot be read or holds what no table of positions holds; kCancelled
// once `cancel` is set (every search then ends within one score of the sample: ScoringCancel).
std::variant<TableMatch, QString> identify(const TableRows &table, const Declared &declared,
                                           const std::atomic<bool> *cancel = nullptr);

// What identify and expect answer when their cancel flag was set while they ran.
inline const QString kCancelled = QStringLiteral("interrupted");

// The match against exactly `family`'s table `tableWord` at `params` (rows from position 0):
// the same report as identify's, for a reference the caller names. A message when the table
// cannot be read, or the family has no such table of this width; kCancelled as identify.
// `declared` says which keys the user gave (its family set; M-RoPE's prompt, a parameter left at its
// default): without a family, every parameter of `params` counts as given.
std::variant<TableMatch, QString> expect(const TableRows &table, Encoding family, const Params &params,
                                         const QString &tableWord, const std::atomic<bool> *cancel = nullptr,
                                         const Declared &declared = {});

// The keys of every family's findings, in the list's order, each once: `--json`'s keys of them.
QStringList findingKeys();
// The parameter keys of every family that a table may be declared to have, in the list's order.
QStringList declarableKeys();
// Every family's words of its tables, in the list's order: "sinusoidal, rope-cos, ...".
QStringList tableWords();
// Each family's tables and what the check finds of them, for `posenc check --help`.
QList<std::pair<QString, QString>> tableHelp();
// The registry of published forms, a line per family: the reference code it is compared with
// (TableHypothesis::referenceCode) and its forms grouped by their source.
QList<std::pair<QString, QString>> publishedFormsHelp();
// The ids of every family's mistakes, in the list's order, then the check's own (transposed, a
// region changed), each once.
QStringList mistakeIds();

// The streaming of every row: threads (0 all cores), cancel, progress in rows, and the bytes of
// table rows each thread reads at a time (a piece of the second-level cache).
struct StreamOptions
{
    int threads = 0;
    const std::atomic<bool> *cancel = nullptr;
    WorkProgress *progress = nullptr;
    std::uint64_t chunkBytes = std::uint64_t(128) << 10;
};

// The bytes of table rows a stream of a table `cols` wide holds at once, all threads together.
std::uint64_t streamBytes(std::int64_t cols, const StreamOptions &options);

// The cells identify holds at once at most for a rows x cols table: its sample and a copy of it
// (a search's pairs moved or one copy of each), each with its cells' own rounding where a text
// table has one; and where the table may be read transposed (transposedMatch), its first 2048
// columns of every row and that table's own sample and copy.
std::uint64_t identifyCells(std::int64_t rows, std::int64_t cols, bool textTable);

// Fits identify's cells (identifyCells) and the rows in flight of a check of `table` within
// `budget` bytes, before anything of them is allocated: the chunk each thread reads shrinks (to
// 64 KiB at least) until they fit; the memory budget's refusal (cells and GiB) when they do not. The command line and
// the window both ask it before identifying a table.
std::optional<QString> fitToBudget(const TableRows &table, std::uint64_t budget, StreamOptions &options);

struct Verification
{
    bool cancelled = false;
    std::optional<QString> error; // a row that could not be read, a cell that is not a number
    double maxAbsError = 0.0;
    std::int64_t worstRow = -1;
    std::int64_t worstColumn = -1;
    std::vector<float> columnMax; // max |table - reference| per column
    std::vector<std::int64_t> columnDeviations; // cells beyond the tolerance per column
    std::int64_t comparedRows = 0;
    std::int64_t deviatingCells = 0;
    std::int64_t deviatingRows = 0;
    // Of a table fitted as float32 angles that holds the exact angles' values where float32 angles
    // would move them: the share of those cells, and this verification is against the exact angles.
    std::optional<double> exactShare;
    // Of a table fitted as float32 angles: the error in its first and last rows. When it does not
    // grow as float32 angles make it, this verification is against the exact angles, and `flat`.
    std::optional<AngleEvidence> angleEvidence;
    bool flat = false;
    // Of a table fitted with the exact angles whose streamed rows deviate only within float32
    // angles' rounding (cells its sample did not show): the tolerance this verification used.
    std::optional<CellTolerance> float32Angles;
    // The cell beyond the tolerance with the largest |error| (-1 without one).
    double deviationError = -1.0;
    std::int64_t deviationRow = -1;
    std::int64_t deviationColumn = -1;
    std::vector<std::int64_t> someDeviatingRows; // the first few, increasing
    std::int64_t lastDeviatingRow = -1;
    RowRuns deviatingRowRuns; // every deviating row, as runs (DeviationRegion)
};

// Streams every row of the table against the match's reference, each thread reading the rows its
// kernel tiles reach: |table - reference| in every compared cell, the largest and where, per
// column, and the cells beyond the tolerance. Nothing to compare (a learned or unknown
// table) gives an empty verification.
Verification verify(const TableMatch &match, const TableRows &table, const StreamOptions &options);

// The same on a worker thread of Qt's pool, for the window: the job holds the table and the
// cancel flag (`options.cancel` is replaced by it), and counts its rows in `progress` if given.
QFuture<Verification> verifyAsync(std::shared_ptr<const TableRows> table, TableMatch match, StreamOptions options,
                                  std::shared_ptr<std::atomic<bool>> cancel,
                                  std::shared_ptr<WorkProgress> progress = nullptr);

// The verdict from what the stream found: the largest error and where, the deviations in words,
// and the diagnosis of cells that deviate where no mistake was named.
void conclude(TableMatch &match, const Verification &verification);

// |table - reference| over a block (0 in rows the reference does not compare), and the largest
// per column of the block: what the window's heatmap and per-column chart show.
struct ErrorBlock
{
    Block block;
    RowMatrixXf error;
    std::vector<float> columnMax;
};
std::variant<ErrorBlock, QString> errorBlock(const TableMatch &match, const TableRows &table, const Block &block,
                                             const std::atomic<bool> *cancel = nullptr);
// The same on a worker thread of Qt's pool: the job holds the table and the cancel flag.
QFuture<std::variant<ErrorBlock, QString>> errorBlockAsync(std::shared_ptr<const TableRows> table, TableMatch match,
                                                           Block block, std::shared_ptr<std::atomic<bool>> cancel);

} // namespace posenc::TableCheck
