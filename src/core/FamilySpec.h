#pragma once

#include "Description.h"
#include "FamilyWords.h"
#include "LessonNumbers.h"
#include "ParamTable.h"
#include "Params.h"
#include "PositionalTable.h"
#include "Quantity.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

// An encoding family as one descriptor (docs/ARCHITECTURE.md, Encoding families): each family's
// FamilySpec is made by make<Name>Family() in its folder (src/core/<family>/<Name>Family.cpp),
// listed once in FamilyList.h, and the shared code asks the specs what it used to switch on. The
// spec holds what core computes: identity, rows, the position term, describe and the default
// views. The layers above register the rest through the same manifests: how posenc check reads
// the family (FamilyCheck, src/check/) and its panel of the families figure (FamilyPanel,
// src/render/data/).
namespace posenc {

// How a family acts on the model: a term added to s·E (or, for none, nothing at all), a rotation
// of each head's queries and keys, or a bias on the attention scores.
enum class FamilyKind { Term, Rotation, ScoreBias };

// A view the window opens for the family: a figure by name and its options.
struct DefaultFigure
{
    QString figure;
    QMap<QString, QString> options;
};

// What a family's position term is made of, which PositionTerm holds: an exact kernel that
// computes its table, the rows of a table (position p at row p + rowOffset), or a family's own
// table computed block by block (the 2-D sin-cos table of a patch grid).
struct PositionTermParts
{
    std::optional<PositionalTable> kernel;
    const RowMatrixXf *matrix = nullptr;
    std::shared_ptr<const void> owner; // keeps `matrix` alive
    std::int64_t rowOffset = 0;
    // Fills any block of the term's table (rows are positions), in the calling thread.
    std::function<void(const Block &, BlockRef)> fill;
};

// Rows of another family that a family reads as they are: multimodal RoPE reads RoPE's head_dim,
// rope_theta, rope_type and scaling. The control panel shows them under the borrowing family
// (ControlPanel::showFamily); with `asOwn`, they are checked and idle as under their own family
// (ParamTable::rows), for rows written for it alone; without, the rows name the borrowing family
// themselves.
struct BorrowedRows
{
    Encoding family = {};
    QStringList keys; // empty: every row of the family
    bool asOwn = true;
};

// A family's position term, the table it adds to s·E (docs/ARCHITECTURE.md, Encoding families).
struct FamilyTerm
{
    // What PositionTerm holds, for the term's `columns` (in the columns X gives it).
    std::function<PositionTermParts(const Params &, std::int64_t columns)> parts;
    // ||PE_p||² of every row in closed form, where the term has one (every sin/cos pair holds 1).
    std::function<std::optional<double>(const Params &)> normSquared;
    // A term read from a file (the learned table): its columns while one is loaded, which fix d_model.
    std::function<std::optional<std::int64_t>(const Params &)> loadedColumns;
    // The largest |value| of the term's rows in use, where they are not within ±1 by their formula
    // (a table read from a file): the half width of its heatmap's colours. Unset or nothing: 1.
    std::function<std::optional<double>(const Params &)> largest;
    // The hover readout's words (docs/ARCHITECTURE.md, Encoding families): of the cell of the term's
    // column `column` at `position` that holds `value` ("pair 2 (cos): w = 0.1, λ = 63", "PE = 0.31 =
    // cos(37·w = 3.7 rad)"), and of the column alone ("pair 2 (cos): w = 0.1, λ = 63").
    std::function<QStringList(const Params &, std::int64_t position, std::int64_t column, float value)> cellWords;
    std::function<QString(const Params &, std::int64_t column)> columnWords;
    // Why no one ||PE_p|| holds for every row, in a lesson's words, where `normSquared` gives none for a
    // reason of the family's own (MAE's [CLS] row of zeros beside its patch rows); unset or nothing:
    // the norm has no closed form here.
    std::function<std::optional<QString>(const Params &)> noOneNorm;
};

// A family's term of one attention score from the two position ids alone (a bias, the bucket that
// picks a learned bias, the sinusoid's PE[q]·PE[k]): what a batch's ids change (docs/ARCHITECTURE.md,
// Positions in practice). Nothing where the pair has none.
struct FamilyScore
{
    QString name; // "ALiBi bias"
    std::function<std::optional<double>(const Params &, std::int64_t query, std::int64_t key)> at;
};

struct FamilySpec
{
    Encoding encoding = {};
    QString word; // --encoding's word, a session's "encoding": "rope"
    FamilyKind kind = FamilyKind::Term;
    // Its part of --encoding's help, within its kind's ("alibi (linear in the distance)"), and its
    // line of the encoding control's tooltip after "word: " (HTML).
    QString help;
    QString formula;
    QString heading; // the control panel's heading of its parameters: "RoPE"

    // Its rows of the parameter table, in their order; ParamTable puts them in the family's group.
    std::function<QList<ParamSpec>()> rows;
    // The rows of other families it reads too.
    QList<BorrowedRows> borrows;
    // The term it adds to s·E; none for a family that adds none.
    std::optional<FamilyTerm> term;
    // Its term of a score from the query's and the key's ids, where it has one.
    std::optional<FamilyScore> score;
    // Whether the model's attention under these parameters runs both ways, each query seeing the
    // keys after it too (T5's encoder, DeBERTa, ALiBi's symmetric mask): a packed row's documents
    // then see each other both ways (DocumentDistance). Unset or false: causal, or not known to be
    // otherwise.
    std::function<bool(const Params &)> attendsBothWays;

    // The numbers `posenc describe` prints for it, keyed as printed, and for its help page the
    // reference they follow and what each key (or keys, "band_low, band_high") means; empty for a
    // family without derived numbers.
    std::function<Description::Entries(const Params &)> describe;
    QString describeSource; // "HF transformers' modeling_rope_utils.py"
    QList<std::pair<QString, QString>> describeKeys;

    // The views the window opens for it, in order, the first its main figure.
    QList<DefaultFigure> defaultFigures;
    // The numbers its lessons quote (LessonNumbers), from its group of the parameters whatever
    // the encoding, or why there is none.
    std::function<QList<LessonNumbers::Entry>()> lessonNumbers;

    bool hasPositionTerm() const { return term.has_value(); }
    // Whether it places position at all: NoPE adds no term, turns nothing and biases nothing.
    bool placesPosition() const { return kind != FamilyKind::Term || hasPositionTerm(); }
    // Whether its attention runs both ways at `params` (attendsBothWays).
    bool bothWays(const Params &params) const { return attendsBothWays && attendsBothWays(params); }

    // Whether it reads `family`'s row `key` (any of its rows for an empty key).
    bool borrowsRow(Encoding family, const QString &key = {}) const;
};

namespace Families {

// Every family, in the order of FamilyList.h (that of the Encoding enum).
const QList<FamilySpec> &all();
const FamilySpec &spec(Encoding encoding);
std::optional<Encoding> fromWord(const QString &word);
QString word(Encoding encoding);
// The words of the families `which` accepts, "rope, alibi, t5 or deberta" (or "rope|alibi|t5|deberta"
// with `separator` '|').
QString wordList(const std::function<bool(const FamilySpec &)> &which, const QString &separator = {});
// The family whose parameters hold a table read from a file by the Matrix row `key`.
std::optional<Encoding> holdingTable(const QString &key);
// The family's row of a table read from a file (its Matrix row: the learned family's
// position-table), if it has one.
std::optional<ParamSpec> tableRow(const FamilySpec &family);
// The family whose manifest lists `quantity` (rope-cos is RoPE's); none for a shared quantity.
std::optional<Encoding> owning(Quantity quantity);
// What the family does instead of adding a term to s·E, for a message: "" (none), "it rotates
// queries and keys", "it acts on the attention scores".
QString insteadOfTerm(Encoding encoding);

// `to` with `from`'s group of `family`'s parameters (params.rope for RoPE).
void copyGroup(Params &to, const Params &from, Encoding family);

// A descriptor of `kind` with the words of its words file (docs/ARCHITECTURE.md, Adding an encoding
// family): its "word", "help" and "formula", and its "heading", "describeSource" and "describeKeys"
// where the file has them.
FamilySpec fromWords(const FamilyWords &words, FamilyKind kind);

} // namespace Families

// The query the families figure takes unless told: the middle position, (L - 1) / 2, whose keys
// lie on both sides.
std::int64_t familiesDefaultQuery(const Params &params);

// How far back from that query lies the key a sentence quotes as about `wish` positions back (the
// families lesson's 100 and 1000): `wish` where the figure draws a key that far back unmasked, else
// the farthest it draws, the query's own distance to key 0 (MAE's 197 patches put q at 98), or
// W − 1 under a causal sliding window W that masks the keys W or more back (FamiliesModel::compute).
std::int64_t familiesKeyBack(const Params &params, std::int64_t wish);

// The settings of `family` drawn from `params`: the same parameters under that encoding.
Params familyUnder(const Params &params, Encoding family);

// The specs, defined in the families' folders.
#define POSENC_FAMILY(Name, member) FamilySpec make##Name##Family();
#include "FamilyList.h"
#undef POSENC_FAMILY

} // namespace posenc
