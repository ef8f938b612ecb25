#pragma once

#include "Description.h"
#include "FamilyPanel.h"
#include "LessonNumbers.h"
#include "ParamTable.h"
#include "Params.h"
#include "PositionalTable.h"
#include "check/ModelConfigCheck.h"
#include "check/TableHypothesis.h"

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
// listed once in FamilyList.h, and the shared code asks the specs what it used to switch on.
namespace posenc {

struct ConfigContext;

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

// What a rotary layer turns, from its parameters (valid ones): the numbers the model figures and
// `posenc check --config` read of it (docs/ARCHITECTURE.md, Model knowledge).
struct RotaryNumbers
{
    // Each pair's inverse frequency after the scaling; 0 for a pair that turns at frequency 0.
    std::vector<double> inverseFrequencies;
    std::int64_t headDim = 0; // the head its parameters give (a config's MLA head is wider)
    std::int64_t rotaryDim = 0; // the columns that turn, from the head's first (or its tail's)
    bool interleaved = false; // pairs (2i, 2i + 1), else rotate_half's (j, j + rotaryDim / 2)
    // What an attention that takes the scaling's mscale multiplies its softmax scale by (yarn's
    // get_mscale(factor, mscale_all_dim)^2), 1 for the others.
    double softmaxScaleFactor = 1.0;
    double wavelengthMax = 0.0; // the slowest turning pair's 2 pi / inverse frequency
};

// A family whose layers turn each pair of a head's columns at a frequency of its own (RoPE's): what
// the model figures and the config check ask of a layer of a model config.
struct RotaryLayers
{
    std::function<RotaryNumbers(const Params &)> numbers;
    // Its words for a layer, which need the layer's head from its config (LayerScheme): "RoPE θ
    // 500,000, all 128 columns, half", and the layer stack's terse "RoPE 5e+05, 128/128".
    std::function<QString(const ConfigLayer &)> words;
    std::function<QString(const ConfigLayer &)> terse;
    // Rotary layers with equal keys share a colour in the layer stack, shaded by `theta`.
    std::function<QString(const Params &)> colourKey;
    std::function<double(const Params &)> theta;
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
    // The term it adds to s·E, in the columns X gives it; empty for a family that adds none.
    std::function<PositionTermParts(const Params &, std::int64_t columns)> positionTerm;
    // A table its parameters hold, read from a file (the learned family's): the key of its
    // Matrix row, its name in words, and its columns, which fix d_model while it is loaded.
    QString tableKey;
    QString tableName;
    std::function<std::optional<std::int64_t>(const Params &)> tableColumns;
    // ||PE_p||² of every row in closed form, where the term has one (every sin/cos pair holds 1).
    std::function<std::optional<double>(const Params &)> peNormSquared;
    // Its parameters set to give a table `cols` wide, for `posenc check --expect` when no flag gave
    // the width (d_model of a sinusoid, head_dim of a whole-head RoPE); unset: the width is fixed.
    std::function<void(Params &, std::int64_t cols)> fitTableWidth;
    // Its parameters that describe a model's input rather than the model (M-RoPE's prompt), which
    // `posenc check --expect-config` takes from the flags over what the config gives.
    QStringList inputKeys;

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
    // Its panel of the families figure, if it has one.
    std::optional<FamilyPanel> panel;
    // How `posenc check` identifies its tables (Checking a table), if it has tables to check.
    std::optional<TableHypothesis> tableHypothesis;

    // Its config reader (docs/ARCHITECTURE.md, Checking a model config): the layer types of a
    // model config whose model places position by this family, read as the model's own code
    // reads its keys; empty for a family no config names. And the kinds of finding it reports,
    // which `posenc check --help` lists after the shared ones.
    std::function<QList<ConfigLayer>(ConfigContext &)> readConfig;
    QList<ConfigFindings::Kind> configFindings;
    // Its words for what places position in one layer of a model (the layer-stack figure): "ALiBi,
    // 12 heads"; unset: its heading. And its name in the layer stack's terse labels ("NoPE"); empty:
    // its word.
    std::function<QString(const Params &)> layerWords;
    QString layerTerse;
    // Set for a family whose layers turn each pair of a head's columns at a frequency of its own.
    std::optional<RotaryLayers> rotary;

    bool hasPositionTerm() const { return bool(positionTerm); }
    // Whether it places position at all: NoPE adds no term, turns nothing and biases nothing.
    bool placesPosition() const { return kind != FamilyKind::Term || hasPositionTerm(); }

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
// The family whose manifest lists `quantity` (rope-cos is RoPE's); none for a shared quantity.
std::optional<Encoding> owning(Quantity quantity);
// What the family does instead of adding a term to s·E, for a message: "" (none), "it rotates
// queries and keys", "it acts on the attention scores".
QString insteadOfTerm(Encoding encoding);

// `to` with `from`'s group of `family`'s parameters (params.rope for RoPE).
void copyGroup(Params &to, const Params &from, Encoding family);

} // namespace Families

// The specs, defined in the families' folders.
#define POSENC_FAMILY(Name, member) FamilySpec make##Name##Family();
#include "FamilyList.h"
#undef POSENC_FAMILY

} // namespace posenc
