#pragma once

#include "Block.h"
#include "Params.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace posenc {

class Engine;

// What a table or a figure can show: a row of the quantity table (docs/ARCHITECTURE.md, "The
// quantity table"), listed in QuantityList.h and then in the families' manifests (FamilyList.h).
enum class Quantity {
#define POSENC_QUANTITY(Name) Name,
#include "QuantityList.h"
#define POSENC_FAMILY_QUANTITY(Name) POSENC_QUANTITY(Name)
#include "FamilyList.h"
#undef POSENC_FAMILY_QUANTITY
#undef POSENC_QUANTITY
};

struct Shape
{
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    friend bool operator==(const Shape &, const Shape &) = default;
};

// Which part of X a quantity's columns are: the position term's, the embeddings', or all of X.
enum class QuantityPart { Position, Embedding, Model, Other };

// Where a quantity's cells hold the sinusoidal position term in expectation (E[Q] = PE there),
// which the heatmap averages in closed form, the rest cell by cell (docs/ARCHITECTURE.md, Exact
// at any size).
struct PeInCells
{
    std::int64_t column0 = 0; // the quantity's column that holds PE column 0 (concat: after E's)
    std::int64_t rowEnd = 0; // rows from here on hold no PE (masked-fill's padding)
    bool alone = false; // the cells are the PE and nothing else: with exact angles, no remainder
};

// How the engine cuts a block into tiles for its threads.
enum class Tiling {
    Columns, // row tiles, and column tiles of kTileColumns aligned on multiples of it
    WholeRows, // row tiles of whole rows (a kernel that goes through the columns itself)
    RowsOnly, // row tiles, never streamed (a product whose columns are other rows)
};

// One quantity: its name, what it shows, its shape for the parameters, the parameters it reads,
// and the source that fills any block of it.
struct QuantitySpec
{
    Quantity quantity;
    QString name; // the command line's QUANTITY, a figure's "quantity": "pe"
    // What a figure calls it, in its colour bar, title and chooser: "PE", "T5 bucket of j − i".
    QString label;
    // The label as the parameters define it ("X = [s·E | PE]" in concat); unset: `label`.
    std::function<QString(const Params &)> labelFor;
    QString help; // `posenc table --help`'s line
    // Names of its columns, for a CSV file's header, where each column is its own quantity
    // (rope-frequencies: "inv_freq", ...); empty: the name and the column's number ("pe_3").
    QStringList columnNames;
    // The part of X its columns are; Other when they are not X's columns (positions x positions,
    // a family's own table), which the heatmap names by their rows and columns alone.
    QuantityPart part = QuantityPart::Other;
    // One of the terms of the model a cell's hover readout lists (PE, s·E, X, Y, the mask), so
    // the readout does not show its value twice.
    bool cellTerm = false;
    // The parameter keys its cells may read. tst_paraminputs checks the declaration: a key not
    // listed changes none of its cells, and each listed key changes some.
    QStringList reads;
    // The key of the parameter that picks a slice of a quantity with a third axis (one table per
    // value, as one attention head of many); empty for a two-axis quantity.
    QString chooser;
    Tiling tiling = Tiling::Columns;

    // Whether the parameters have this quantity (the sinusoid's float32 error has no meaning
    // for a learned table), and why not.
    std::function<std::optional<QString>(const Params &)> missing;
    std::function<Shape(const Params &)> shape;
    // Cells held at once to compute `block`: the block, and what its computation holds beside
    // it (the memory budget counts both).
    std::function<std::uint64_t(const Params &, const Block &)> workCells;
    // Fills `out` (block-sized) with the block's cells, in the calling thread.
    std::function<void(const Engine &, const Block &, BlockRef out, bool streaming)> fill;

    // Half the width of its colour range, symmetric around zero: from the parameters alone, never
    // from the pixels, whose means shrink as they average more cells. So the colours of a figure
    // mean the same at any size and resolution (the window, a 96 dpi PNG, a 300 dpi one); the rare
    // cells beyond take the colours of the ends. Read through Quantities::bound.
    std::function<double(const Params &)> bound;
    // The parameters its table depends on, as parts of a figure's title (TitleText):
    // {"d = 512, L = 1,024", "s = √d = 22.63, σ = 1"} for X.
    std::function<QStringList(const Params &)> parameters;
    // Where its cells hold the sinusoidal PE in expectation; unset, or nothing returned, where they
    // hold none.
    std::function<std::optional<PeInCells>(const Params &)> peCells;
};

namespace Quantities {
// Every row, in the order of QuantityList.h.
const QList<QuantitySpec> &rows();
const QuantitySpec &spec(Quantity quantity);
QStringList names();
QString name(Quantity quantity);
std::optional<Quantity> fromName(const QString &name);
Shape shape(Quantity quantity, const Params &params);
// The quantities the parameters have (the chooser's list for the current family).
QList<Quantity> available(const Params &params);
QString label(Quantity quantity);
// The label as these parameters define it: the row's `labelFor`, else its `label`.
QString label(Quantity quantity, const Params &params);
// The row's colour bound, 1 where it is not a finite number > 0.
double bound(Quantity quantity, const Params &params);
// Three standard deviations of s·E's cells (s·sigma, or the loaded rows' RMS): all but 0.27 % of
// a normal's cells, the bound of the quantities that hold s·E.
double embeddingBound(const Params &params);
} // namespace Quantities

// The rows, defined in the files of the quantities' families.
#define POSENC_QUANTITY(Name) QuantitySpec make##Name##Quantity();
#include "QuantityList.h"
#define POSENC_FAMILY_QUANTITY(Name) POSENC_QUANTITY(Name)
#include "FamilyList.h"
#undef POSENC_FAMILY_QUANTITY
#undef POSENC_QUANTITY

} // namespace posenc
