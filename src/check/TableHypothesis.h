#pragma once

#include "check/CellTolerance.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "check/TableSample.h"
#include "core/Params.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <variant>
#include <vector>

// How a family's tables are identified by `posenc check` (docs/ARCHITECTURE.md, Checking a
// table): each family with tables of its own gives a TableHypothesis in its FamilyCheck; the check
// asks every family's, in the list's order, and keeps the best-supported answer. The check itself
// samples, streams, compares and words the verdict; it names no family.
namespace posenc {

// What the user says the table is: parameters of its family by their keys in the parameter table
// ("layout", "rope-layout", "position-offset"). A mismatch with what the table is found to be is
// a mistake.
struct CheckDeclaration
{
    Params params;
    QStringList keys; // the keys declared
    // The family the table is meant to be, when one is named: of two readings that explain the
    // table equally, the declared family's is taken.
    std::optional<Encoding> family;
    // The position of the table's row 0, where --position-ids start past 0 (a later chunk of a
    // sequence: HF's position_ids 1000..1255 for a cached step); a family whose reference is a
    // function of the position reads its rows from there (RopeTableCheck), the others at 0.
    std::int64_t firstPosition = 0;
    // Whether the user said which positions the rows hold (--positions, --position-ids, a prompt):
    // then rows at another window than `firstPosition`'s are position-offset. Without it a table that
    // is a family's at a window of positions a..b is a faithful slice, its positions said, not judged
    // (issue 56; TableCheck reads it again at the window its fit found).
    bool positionsDeclared = false;
    // The position of a relative map's query row 0 (docs/ARCHITECTURE.md, Checking a table, "a
    // step with a cache"), a window the check fitted or the user declared; unset, a map of q < k
    // queries is read as the last q of its k keys (queryStart).
    std::optional<std::int64_t> queryStart = std::nullopt;
    // The amplitude c the PE's own values are multiplied by (--pe-scale: x-transformers'
    // ScaledSinusoidalEmbedding, c = dim^-0.5 at init), where the user said it; unset, a uniform c
    // is a variant undeclared and, against --expect, a mistake named with both values.
    std::optional<double> amplitude = std::nullopt;

    // The published form of a 2-D sine map declared (--map-form: Sincos2dDetrMap's words), empty
    // where none is; a flattened map [H·W, C] is held to it as a [C, H, W] one is.
    QString mapForm = QString();
    // The parameter keys the user's flags gave (--expect FAMILY and its flags), where only they were;
    // unset where a config or preset gives every parameter. A default taken, not declared, is worded so.
    std::optional<QStringList> given = std::nullopt;

    bool declares(const QString &key) const { return keys.contains(key); }
};

// What the check hands each family's hypothesis.
struct TableEvidence
{
    const TableRows &table;
    const TableSample &sample;
    // The rows that hold positions: leading rows of zeros skipped, padding rows left out.
    const RowFraming &framing;
    // The format the values were rounded to: float16-rounded values stored as float32 are float16's.
    ValueFormat format;
    const CheckDeclaration &declared;
    bool sameRow = false; // every compared row of the sample holds the same values
    bool infinite = false; // a cell of the sample is an infinity

    std::int64_t rows() const { return sample.tableRows; }
    std::int64_t cols() const { return sample.cols(); }
};

// A family's answer to a sample.
struct TableCandidate
{
    TableMatch match;
    // Whether the family claims the table: its reference explains the sample (at most a cell in
    // ten beyond the tolerance: a few wrong cells are a mistake to show, not another table), or,
    // for a family without a formula, its structure is there.
    bool claims = false;
    // The support of the claim: the sample's cells the reference compared, and those beyond its
    // tolerance; 0 and 0 without a reference.
    std::int64_t compared = 0;
    std::int64_t bad = 0;
    // For a table no family claims: how near the family's reference came, in a note, and the share
    // of the table's energy it leaves unexplained; and why the family does not claim it, in words.
    QString nearest;
    double residual = std::numeric_limits<double>::infinity();
    QString unclaimed;
    // For a table the family does not claim whose sample its reference equals in most cells
    // (`mostlyEquals`): the match it would report. Where no family claims the table, the check
    // reads what the other cells hold against it (TableCheck, a region changed) instead of calling
    // the table learned.
    std::optional<TableMatch> partial;
    // A reading too dear to make for every table (a search), made only where no family claims the
    // table: a candidate carrying `partial`, or nothing. It may read the evidence it was made from,
    // which outlives it (TableCheck).
    std::function<std::optional<TableCandidate>()> partialLater;
};

// A table of the family that ships, named (a model's, a library's): what a table is best named
// as when it equals one.
struct PublishedForm
{
    QString name; // "Llama 3.1 8B"
    QString source; // "meta-llama/Llama-3.1-8B, config.json"
    QString table; // the family's word of the table, "rope-cos"
    Params params; // max_len aside: the form's table at any length
};

struct TableHypothesis
{
    // Its words of the tables it identifies, as `--json`'s "encoding" names them: "rope-cos".
    QStringList tables;
    // The keys of its findings in order, as `--json` prints them: "layout", "base".
    QStringList findingKeys;
    // The parameter keys a user may declare a table to have: "layout".
    QStringList declares;
    // What the check finds of its tables, for `posenc check --help`, and the ids of the mistakes
    // it names.
    QString help;
    QStringList mistakes;
    // The reference code its tables are compared with: repository, file and function ("huggingface/
    // transformers src/transformers/models/t5/modeling_t5.py, T5Attention._relative_position_bucket"),
    // which the registry of published forms cites (`posenc check --help`).
    QString referenceCode;
    // Fits the sample: the family's best explanation of it, or nothing when the table cannot be
    // one of the family's (its shape, a row no table of the family has).
    std::function<std::optional<TableCandidate>(const TableEvidence &)> fit;
    // The match against exactly the table `table` of `params` (the family's reference at those
    // parameters, rows from position 0), or why there is none (the parameters give no table of
    // the evidence's width). Correct until the stream finds cells that deviate.
    std::function<std::variant<TableMatch, QString>(const TableEvidence &, const Params &, const QString &table)>
        expect;
    // Its published forms that give a table of `cols` columns.
    std::function<QList<PublishedForm>(std::int64_t cols)> publishedForms;
    // Its parameters set to exact angles, for a family with a setting of float32 angles of its own
    // (the sinusoid's): a match fitted as float32 angles and streamed as exact ones reproduces them.
    std::function<void(Params &)> exactAngles;
    // Of a declared table of its that deviates with no mistake named, and that reads undeclared as
    // its (`read`, correct or a variant): the declared parameter that differs, named from what the
    // reading found, as the match its ids and diagnosis say ("rope_theta 10000 where the declaration
    // gives 5e+05"); nothing where no parameter explains it. Unset: not named.
    std::function<std::optional<TableMatch>(const TableMatch &read, const Params &declared)> nameDeclaredParameter;
    // The parameters whose difference from the declaration is a mistake of its own rather than the
    // parameter's key, by key (a head bias's mask row: "alibi" -> "bias-mask"), which the check
    // names when the reading differs from the declaration in that parameter alone (DeclaredReading).
    QHash<QString, QString> parameterMistakes;
    // Of a declared table of its that deviates with no mistake named (`declared`, streamed, at the
    // parameters `declared.params`): a defect of the declared reference's computation that gives every
    // cell (T5's map without its log branch or its clamp), read from the table itself, as the match
    // its ids and diagnosis say; nothing where none does. Asked before the table's undeclared reading
    // names a parameter: the declaration says which settings were meant. Unset: not named.
    std::function<std::optional<TableMatch>(const TableMatch &declared, const TableRows &table)> nameDeclaredDefect;
    // Of a declared table of its that deviates with no mistake named (`declared`, streamed): the
    // declared reference computed at a lower precision that explains the table (RoPE's angles formed
    // in half precision), read from the table's rows and those the stream found deviating first
    // (`deviatingRows`, increasing), as the match its ids and diagnosis say; nothing where none
    // does. Unset: not named.
    std::function<std::optional<TableMatch>(const TableMatch &declared, const TableRows &table,
                                            const std::vector<std::int64_t> &deviatingRows)>
        nameDeclaredPrecision;
    // Of a reference table (--expect-table) whose undeclared reading `read` is its family's but
    // names no parameters because its rows' positions are their own (M-RoPE's ids, which no prompt
    // declares): the parameters that give every row, read from those rows (the prompt they lay
    // out); nothing where they lay out none. Unset: such a reference names nothing.
    std::function<std::optional<Params>(const TableRows &reference, const TableMatch &read)> referenceParams;
    // Whether its table is a bias added to attention scores before a softmax over the keys, which
    // ignores a constant added to a query's row: the check fits and compares it up to such a
    // constant (RowConstant: BLOOM's m·j is ALiBi's m (j − i)).
    bool rowShiftFree = false;
};

// How a table's values were computed, from their format and whether its angles are float32's.
inline TablePrecision tablePrecision(ValueFormat format, bool float32Angles)
{
    if (float32Angles)
        return TablePrecision::Float32Angles;
    switch (format) {
    case ValueFormat::Float32:
        return TablePrecision::Exact;
    case ValueFormat::Float16:
        return TablePrecision::Float16;
    case ValueFormat::BFloat16:
        return TablePrecision::BFloat16;
    }
    return TablePrecision::Exact;
}

// Whether a reference explains a sample: at most one compared cell in ten beyond the tolerance,
// so that a table with a few wrong cells or columns is still named (and its cells shown).
inline bool explains(std::int64_t compared, std::int64_t bad)
{
    return compared > 0 && bad * 10 <= compared;
}

// Whether a reference equals most of a sample without explaining it: at least half of the
// compared cells within the tolerance, more than one in ten beyond it.
inline bool mostlyEquals(std::int64_t compared, std::int64_t bad)
{
    return compared > 0 && bad * 2 <= compared && !explains(compared, bad);
}

} // namespace posenc
