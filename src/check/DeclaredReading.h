#pragma once

#include "check/DeclaredWords.h"
#include "check/TableCheck.h"
#include "check/TableMatch.h"
#include "core/ParamTable.h"
#include "core/Params.h"

#include <optional>
#include <variant>
#include <vector>

// What a table that deviates from a declared reference is instead (docs/ARCHITECTURE.md,
// Checking a table): the check compares with exactly what was declared, and then names the
// mistake that explains the deviation, as the undeclared check reads it.
namespace posenc::TableCheck {

// After the rows were streamed (conclude): when `declared` is a mistake whose cells deviate and no
// mistake was named, `read` is the table identified without the declaration. If it reads as the declared
// reference with a named mistake (positions from 5 of the very RoPE declared), that mistake is
// named and its diagnosis given, the deviating cells kept as a note; otherwise a note says what the
// table reads as (a variant at another theta, another model's published table, or that reading but
// for the cells it names, with where they lie).
void nameDeclaredMistake(TableMatch &declared, const TableMatch &read);

// A match against exactly the declared reference that names no mistake: `correct`, equal to the
// declared reference; a variant's words, which ask for the reference to be declared, replaced.
void asDeclaredReference(TableMatch &match);

// A parameter's value in words, as a mistake's sentence quotes it: a number as the shortest text
// that reads back to it.
QString valueText(const ParamSpec &row, const Params &params);

// A streamed candidate of a declaration: its match, its rows' verification, and whether the table
// its named mistake makes (TableMatch::asRead) explains every row.
struct Candidate
{
    const TableMatch &match;
    const Verification &verification;
    bool namedHolds = false;
    // Whether the table's first row is one of the candidate's reference rows (firstRowIsReferenceRow):
    // a cos row at position 1000 declared at 0 is a row of the cos table, not the sin table's 0 row.
    bool rowOfReference = false;
};

// Of two streamed candidates of a declaration (RoPE's cos and sin tables), whether `x` is the one
// to keep over `y`: no deviating cell first; of candidates that both deviate, one whose named
// mistake's table the rows bear out (a cos table from position 100 is the cos reference's
// position-offset, whatever the sin reference's cells happen to be), then the table word the
// undeclared check reads (`readAs`, a sin table declared "rope" compared with the sin reference);
// then one whose reference holds the table's first row at another position; then fewer deviating
// cells, then a smaller largest error, then fewer mistakes named.
bool betterCandidate(const Candidate &x, const Candidate &y, const QString &readAs);

// After nameDeclaredMistake: a table declared as `family` with `params` that deviates with no
// mistake named, and whose reading `read` is the family's (correct or a variant), gets the
// parameter that differs named by the family (TableHypothesis::nameDeclaredParameter); the
// stream's words of the cells are kept in a note.
void nameDeclaredParameter(TableMatch &match, const TableMatch &read, Encoding family, const Params &params);

// What a table's rows are checked against, as posenc check and the check window both declare it.
struct DeclaredRows
{
    std::vector<TableMatch> candidates; // the declared reference's tables (a RoPE's cos and sin)
    std::optional<TableMatch> readAs; // the table read undeclared, when a family was declared
    std::optional<Encoding> family; // the family declared with its parameters
    Params params;
    // The keys of `params` the user gave (a flag, the preset): a parameter named that was not
    // given is the default's, not the declaration's. Unset: every one was given.
    std::optional<QStringList> given;
    // Who gave the reference: a declaration, or a reference table's reading (--expect-table), which
    // the sentences naming a parameter say (DeclaredWords) as they are made.
    DeclaredWords::By by = DeclaredWords::By::Declaration;
    // Whether the user gave the reference (a family and its parameters, a preset, a config, a
    // reference table), not the check's own identification: rows of zeros are then a mistake
    // against it, and undeclared only said (a padding mask multiplied in, or rows never filled).
    bool referenceGiven = false;
};

struct Streamed
{
    TableMatch match;
    Verification verification;
};

// Why the rows were not concluded: cancelled, a row of the table unread, or the reference table's.
struct StreamStop
{
    enum class Why { Cancelled, Table, Reference };
    Why why;
    QString message;
};

// Every row streamed against each candidate, the best kept (betterCandidate) and concluded, and a
// deviation from a declared family named by the table's undeclared reading (nameDeclaredMistake,
// nameDeclaredParameter), itself streamed over every row first: a reading the table holds only in
// its sampled rows names nothing, and the rows a named mistake's table does not hold are said
// (declared or not, TableMatch::asRead); still unnamed, where the reading is the family's at other parameters,
// the one or two of them that, set in the declaration, give every row (their flags, both values).
// The command line's rows and the check window's run this one path.
std::variant<Streamed, StreamStop> streamDeclared(DeclaredRows declared, const TableRows &table,
                                                  const StreamOptions &options);

} // namespace posenc::TableCheck
