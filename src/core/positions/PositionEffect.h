#pragma once

#include "BatchIds.h"
#include "LazyScores.h"

#include "core/PositionTerm.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace posenc {

class Engine;
struct FamilySpec;

// What each token of the batch sees of its position under the reference's ids and under the chosen
// ids (docs/ARCHITECTURE.md, Positions in practice), in double, an engine source:
// - the family's positional score of the token against its document's first token (its row's
//   first without documents): RoPE's ⟨q, R(Δ)q⟩/‖q‖² for q all ones, the mean over the rotary pairs
//   of cos(Δ·w_i) (M-RoPE's Δ of each pair's axis), at the inverse frequencies of the batch's
//   length, torch.max(position_ids) + 1 (dynamic NTK's and longrope's dynamic update); a bias
//   family's term at the two ids (its panel's value); PE[q]·PE[k] of a term without one; 0 for NoPE;
// - the same RoPE score with float32 angles, fl(fl(p)·fl(w)) as inv_freq @ position_ids.float()
//   computes them, its difference between the two choices;
// - ‖PE[chosen id] − PE[reference id]‖ of a family that adds a term;
// - Llama 4's temperature at the chosen id, at the column (its code reads cache_position) and at
//   the reference's id (the token's own position, what the prompt alone would get), and its chunk
//   at the chosen id and at the column less the row's left padding (chunked_overlay).
// A relative score under a common shift of the ids is the same to rounding; what reads the
// absolute position is not.
class PositionEffect
{
public:
    enum Column {
        Real,
        ReferenceId,
        ChosenId,
        ScoreReference,
        ScoreChosen,
        ScoreDifference,
        Float32Difference,
        TermDifference,
        TemperatureIds,
        TemperatureCache,
        ChunkIds,
        ChunkCache,
        TemperatureReference,
        Columns
    };
    enum class ScoreKind { Rotary, Panel, TermProduct, None };

    explicit PositionEffect(const Engine &engine);

    // Whether this effect reads the family's positions from one id per token: RoPE's rotation (and
    // M-RoPE's, by RoPE's rows), a score biased by the ids' distance, a term added at the id, or no
    // position at all. A family that reads a patch grid (2-D RoPE, 2-D sin-cos) places a patch by its
    // row and column, which a row of ids does not give: the effect is not drawn for it, and says so (docs/ARCHITECTURE.md,
    // Positions in practice).
    static bool reads(const FamilySpec &family);

    static const QStringList &columnNames();
    ScoreKind scoreKind() const { return m_kind; }
    bool addsTerm() const { return bool(m_term); }
    // Whether the rotary frequencies differ between the two choices: dynamic NTK's and longrope's
    // update reads the batch's length, torch.max(position_ids) + 1, which a choice can move.
    bool frequenciesMove() const { return m_reference.inv != m_chosen.inv; }
    // What the score is, in words: "⟨q, R(Δ)q⟩/‖q‖², q all ones over the turned columns".
    QString scoreWords() const;
    const BatchIds &ids() const { return m_ids; }

    // What one token's columns cost, in the cells of an ordinary table: each rotary pair's cosine
    // under both choices, exact and with float32 angles, and the term's rows for both ids.
    double tokenCost() const;

    // The columns of tokens [c0, c0 + count) of row b: column k of token c at out[k * count + c - c0].
    void values(std::int64_t b, std::int64_t c0, std::int64_t count, double *out) const;

    // Llama 4's temperature at 0-based position p (Llama4TextAttention.forward).
    static double temperature(double attnScale, std::int64_t floorScale, std::int64_t p);

private:
    struct Rotary
    {
        std::vector<double> inv; // each pair's inverse frequency
        std::vector<float> inv32;
        // Where every pair reads the first axis's id: the exact score by distance, and the float32
        // score by query id against a key at id 0 (each document's first token), kept as the rows
        // ask for them.
        std::shared_ptr<const LazyScores> byDistance, byQuery;
    };
    double rotaryScore(const Rotary &r, const std::int64_t *q, const std::int64_t *k, std::int64_t stride,
                       std::int64_t keyStride, bool float32) const;
    // rotaryScore of a token against its key, from the kept scores where they cover it.
    double keptScore(const Rotary &r, const std::int64_t *q, const std::int64_t *k, std::int64_t stride,
                     bool float32) const;
    // The reference's distances and exact scores, which a choice of the same distances reuses.
    struct Reuse
    {
        const std::vector<std::int64_t> *deltas;
        const double *exact;
    };
    void scores(IdsChoice choice, std::int64_t b, std::int64_t c0, std::int64_t count, double *exact, double *f32,
                std::vector<std::int64_t> &ids, std::vector<std::int64_t> &deltas, const Reuse *reuse) const;
    void termColumns(std::int64_t b, std::int64_t c0, std::int64_t count, const std::int64_t *reference,
                     const std::int64_t *chosen, double *products, double *distances) const;
    bool termRow(std::int64_t id, std::int64_t columns, float *out) const;

    const Params &m_params;
    const BatchIds &m_ids;
    IdsChoice m_choice;
    ScoreKind m_kind = ScoreKind::None;
    Rotary m_reference, m_chosen; // at each choice's length
    std::vector<int> m_axes; // each rotary pair's axis (M-RoPE's), else 0
    std::unique_ptr<PositionTerm> m_term; // of a family that adds one, with rows for every id
    std::int64_t m_termRows = 0;
};

} // namespace posenc
