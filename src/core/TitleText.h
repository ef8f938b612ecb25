#pragma once

#include "Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>

// Parts of a figure's title that name the parameters a table depends on, as the quantity table's
// rows (QuantitySpec::parameters) and the figures write them; numbers in English whatever the
// locale (docs/ARCHITECTURE.md, Exporting).
namespace posenc::TitleText {

QString tableText(const Params &params); // "d = 512, L = 1,024"
QString scaleText(const Params &params); // "s = √d = 22.63", "s = 1"
QString sigmaText(const Params &params); // "σ = 1", "σ = d^-1/2 = 0.0442", "E from wte.npy"
QString dropoutText(const Params &params); // "p = 0.1, dropout mode sum", "evaluation: no dropout"
// What sets the PE apart from the paper's: "split layout, b = 500, float32 angles"; empty for
// the paper's interleaved table, b = 10000, exact angles.
QString peVariantText(const Params &params);
// Columns [first, end) of a table: "256–511", "7".
QString columnsText(std::int64_t first, std::int64_t end);
// The position term that enters X, as parts of a title: its columns ("d = 512, L = 1,024", or in
// concat "k = 256 columns (X's 256–511), L = 1,024") and what sets it apart from the paper's.
QStringList positionTermParts(const Params &params);
// Where X's parts sit in concat: "s·E in columns 0–255, PE (k = 256) in 256–511"; empty in sum.
QString composeText(const Params &params);
// The token a special row (--special) stands for, as the masked-dropout question puts them: [CLS]
// opens the sequence at 0, [SEP] closes it at seq_len − 1, [MASK] stands at the others. The
// figures' row names and the lessons' words both read it.
QString specialToken(const Params &params, std::int64_t row);
// The special rows' tokens in the order of their positions: "[CLS] at 0, [MASK] at 5 and [SEP] at
// 15"; empty where no row is special.
QString specialTokensText(const Params &params);

// What a table's rows are indexed by, in every figure's axes and titles: a token's position p, or
// the diffusion timestep t a timestep embedding's code embeds (indexesTimesteps). A grid or a
// figure's data that names none says positions.
struct RowIndex
{
    bool timesteps = false;

    QString noun() const; // "position", "timestep"
    QString nouns() const; // "positions", "timesteps"
    QString symbol() const; // "p", "t"
    QString second() const; // another row's symbol: "q", "t′"
    QString subscript() const; // "ₚ", "ₜ": ‖PEₚ‖
    QString axis() const; // the rows' axis: "position p", "timestep t"
    QString count(std::int64_t n) const; // "1 position", "1,000 timesteps"
    // `text` with its position words turned to the index's: "p", "q", "ₚ" as whole symbols,
    // "position(s)" as words, so that a figure writes a formula once ("PE[p] · PE[q]").
    QString named(const QString &text) const;

    friend bool operator==(const RowIndex &, const RowIndex &) = default;
};
// Whether the parameters' table is a diffusion model's timestep embedding: a sinusoid of the split
// layout with its cosines first, or its angles scaled, which among diffusers' tables only
// get_timestep_embedding's are (src/diffusers/models/embeddings.py: its flip_sin_to_cos and scale,
// which Timesteps passes on; get_1d_sincos_pos_embed_from_grid and SinusoidalPositionalEmbedding,
// the positional ones, put the sines first and scale nothing). diffusers' default order and shift
// (sines first, half_dim - 1: DDPM's UNet) is Whisper's and fairseq's positional table too, and
// reads as positions.
bool indexesTimesteps(const Params &params);
RowIndex rowIndex(const Params &params);

} // namespace posenc::TitleText
