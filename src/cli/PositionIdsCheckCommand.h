#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include "check/TableMatch.h"
#include "check/positions/RowsAtPositions.h"

#include <QStringList>
#include <QTextStream>

#include <atomic>
#include <cstdint>
#include <variant>

// posenc check --position-ids IDS.npy (docs/ARCHITECTURE.md, Positions in practice): a batch's
// position ids against the reference's for the batch given by the parameters (--batch, --packed,
// --attention-mask, --document-ids, --cache, and M-RoPE's prompt), naming the mistake. Its own
// parser, as --config's: the table check's options do not apply. To move beside the check layer's
// command once it exists.
namespace posenc::PositionIdsCheckCommand {

CommandOption option();
// Whether the arguments ask for it.
bool requested(const QStringList &arguments);
int run(const QStringList &arguments, QTextStream &out, QTextStream &err);

// With a table, `posenc check TABLE --position-ids IDS.npy` (RowsAtPositions): the layout of the
// ids read from `path` for a table of `rows` rows, or the exit code, the reason said on `err`.
std::variant<RowsAtPositions::Layout, int> readLayout(const QString &path, std::int64_t rows, std::uint64_t budget,
                                                      QTextStream &err);
// The table read by position checked, every row of the file compared with its position's row: a
// row that is not is the mistake rows-not-at-ids, said in the match. 0, or the exit code of an error
// said on `err`.
int compareRows(TableMatch &match, const TableRows &file, const RowsAtPositions::Layout &layout,
                const std::atomic<bool> *cancel, QTextStream &err);

// Its part of posenc check --help.
QList<HelpSection> helpSections();

} // namespace posenc::PositionIdsCheckCommand
