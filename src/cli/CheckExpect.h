#pragma once

#include "CommandOption.h"

#include "check/DeclaredWords.h"
#include "check/GridResize.h"
#include "check/TableCheck.h"
#include "core/Params.h"

#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <variant>
#include <vector>

// `posenc check --expect FAMILY` and `--expect-table FILE`: the reference the user declares, which
// a table is then compared with exactly (docs/ARCHITECTURE.md, Checking a table, "A declared
// reference"), instead of the one the check identifies.
namespace posenc::CheckExpect {

// --expect, --expect-table, --expect-config and --layer-type, and every parameter flag (hidden: posenc help parameters
// lists them) that --expect reads, but those of `shown`.
QList<CommandOption> options(const QStringList &shown);

// What the user declared: nothing, a family's table at parameters, a learned table, or a table.
struct Expectation
{
    enum class Kind { None, Family, Learned, Table };
    Kind kind = Kind::None;
    Encoding family = {}; // read only when kind is Family or Learned
    // Whether --expect (a preset, a config) declares `encoding`.
    bool declares(Encoding encoding) const { return kind == Kind::Family && family == encoding; }
    Params params; // the family's, with --expect FAMILY
    QStringList tables; // the family's words of the tables to try: "rope-cos", "rope-sin"
    bool widthGiven = false; // --d-model, --head-dim, --preset or --session gave the table's width
    bool modelGiven = false; // --d-model, the preset or the session gave d_model
    bool lengthGiven = false; // --max-len gave the sequence's length; else the table's rows are one sequence
    QString tablePath; // --expect-table's FILE[:TENSOR]
    QString mapForm; // --map-form's word: a channel-first map's published form (Sincos2dDetrMap)
    // A slice of --expect-table's stack, compared with the same slice of a stack checked: read in
    // place of tablePath where set.
    std::shared_ptr<const TableRows> tableRows;
    std::optional<std::int64_t> mergeSize; // --spatial-merge-size with --expect-table (a grid's resize)
    // --resize-method: how a learned grid is resized to the table (GridResize), where declared.
    std::optional<GridResize::DeclaredResize> resize;
    // A table of positions declared as the reference (--expect learned --position-table FILE): the
    // table is its rows from this one (--position-offset: rows before it are padding's or a class
    // token's), as many as the table has.
    std::optional<std::int64_t> referenceFirstRow;
    // A vector (inv_freq, slopes) against --expect-table's vector: compared as a formula's
    // parameters (TableCheck::expectTable's `vector`).
    bool vector = false;
    QString source; // where the parameters came from, when a config gave them: "config.json, layer type ..."
    // A declared interleaved RoPE whose rotary module returns the half table (ModelRow::halfCosTable):
    // the table is compared with both, the module's output and the interleaved one applied.
    bool halfTableToo = false;
    // With --expect-config: the file, and where each number of its layer comes from
    // (ConfigLayer::sources), which a verdict resting on a guessed one is capped by (GuessedReading).
    QString configPath;
    QList<std::pair<QString, QString>> configSources;
    // With --expect FAMILY: the keys a flag, the preset or the session gave (the rest are defaults;
    // a preset's prompt is an example, not given).
    std::optional<QStringList> given;
    // The position of the table's row 0 (--position-ids from past 0: a later chunk of a sequence, or
    // --positions A:B's A), and whether a flag declared the rows' positions (CheckDeclaration's
    // positionsDeclared: else a window the table is at is said, not judged).
    std::int64_t firstPosition = 0;
    bool positionsDeclared = false;
    // A relative map's first query position (CheckDeclaration::queryStart): --positions A:B's A, or a
    // window the check tries (CheckTensor's checkRows); unset, the cache's reading.
    std::optional<std::int64_t> queryStart = std::nullopt;
    std::optional<double> amplitude = std::nullopt; // --pe-scale (CheckDeclaration::amplitude)
    // Half a unit in the last digit --pe-scale was typed to (0.0884: 0.00005): a value typed to k
    // digits declares the table's own amplitude where it is that amplitude's rounding (CheckCommand).
    double amplitudeWithin = 0.0;
    // With --expect-config: the keys of the flags that gave the model its input (--prompt).
    QStringList inputs;
    // Who gave a family's parameters: the user, or the reading of --expect-table's stack
    // (DeclaredWords), which the sentences naming a parameter say.
    DeclaredWords::By by = DeclaredWords::By::Declaration;
};

// A refusal: the exit code and its lines, each naming its flag.
struct Refusal
{
    int code;
    QStringList lines;
};

// The declaration of the parser's flags, or why it cannot be used. `declarable` are the keys a
// check takes without --expect (--layout, ...).
std::variant<Expectation, Refusal> read(const QCommandLineParser &parser, const QStringList &declarable);

// --pe-scale C: the sinusoid's own amplitude declared (CheckDeclaration::amplitude), set on both; the
// line naming the flag and its range where C is no number in (0, 1e6].
std::optional<QString> declareAmplitude(const QCommandLineParser &parser, CheckDeclaration &declaration,
                                        Expectation &expected);

// --map-form WORD: the published form of a channel-first 2-D map declared (Sincos2dDetrMap), with
// --expect sincos-2d only; the line naming the flag and its words otherwise.
std::optional<QString> declareMapForm(const QCommandLineParser &parser, Expectation &expected);

// The declared family's parameters at the table's shape where no flag gave it: its rows one
// sequence of positions (dynamic NTK's length) unless --max-len gave one; d_model of a sinusoid,
// head_dim of a RoPE whose every dimension rotates.
Params atShape(const Expectation &expectation, std::int64_t rows, std::int64_t cols);

// The matches to stream, from the table (the reference table opened within `budget`): one per
// table of the family tried; the caller keeps the one with the fewest deviating cells. Nothing
// for Kind::None and Kind::Learned, which TableCheck::identify answers.
std::variant<std::vector<TableMatch>, Refusal> matches(const Expectation &expectation, const TableRows &table,
                                                       std::uint64_t budget, const std::atomic<bool> *cancel);

// Of a learned table declared: the identified match, a mistake unless it is learned; unknown where
// nothing is read in it (a table fresh from its initialiser).
void concludeLearned(TableMatch &match, const Expectation &expected);

// The flag of a sinusoid's declared amplitude (CheckAmplitude.cpp).
inline const QString kPeScale = QStringLiteral("pe-scale");
// --pe-scale with --apply, refused: a rotation has no sinusoid's amplitude.
inline const QString kPeScaleWithApply
    = QStringLiteral("--pe-scale: the amplitude c of a sinusoidal table (c * PE) only; --apply checks a rotation, "
                     "which has none (its attention factor: --attention-factor)");
// --pe-scale typed to k digits: the table's own amplitude where the typed value is its rounding (the
// declaration then holds it), with the note saying both; nothing otherwise.
std::optional<QString> amplitudeAsTyped(const TableRows &rows, TableCheck::Declared &declaration,
                                        Expectation &expected, const std::atomic<bool> *cancel);
// --pe-scale on a table read as another family's: the line refusing it (exit 2); else nothing, the
// typed value's note (amplitudeAsTyped) added to `m`.
std::optional<QString> amplitudeUnread(TableMatch &m, const Expectation &expected, const QString &name,
                                       const std::optional<QString> &typedNote);

} // namespace posenc::CheckExpect
