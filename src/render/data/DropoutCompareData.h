#pragma once

#include "Detail.h"
#include "FigureModel.h"
#include "HeatmapResampler.h"

#include <array>
#include <atomic>
#include <optional>

namespace posenc {

// One dropout mode at work on the cells in view: Y, and the part of Y that the PE contributes.
struct DropoutModePanel
{
    DropoutMode mode = DropoutMode::Sum;
    Params params; // the figure's parameters under this mode
    HeatmapGrid output; // Y
    // The PE's part of Y: Y computed from the PE alone (s·E = 0) with the same mask and row rules.
    // Dropout is linear in its input for a given mask, so this is M ⊙ PE / (1 - p) where the mode
    // drops the sum or the PE alone, the PE itself in embedding mode (dropped cells lose s·E, never the PE), PE
    // on rows passed through, 0 on masked-fill's padding.
    HeatmapGrid pePart;
    // Over the cells in view that hold a PE value (the PE columns in concat) in the sequence's
    // rows (the padding, which attention masks out, left out), rows evenly spaced past a budget:
    // those whose PE does not reach Y (dropped) and the PE's energy, sum of PE^2, in all of them
    // and in those it reaches. Within the sequence masked-fill loses what sum loses.
    bool onlyPadding = false; // no row of the view is in the sequence: nothing counted
    std::int64_t peCells = 0;
    std::int64_t peCellsLost = 0;
    double peEnergy = 0.0;
    double peEnergyKept = 0.0;

    double lostFraction() const;
    double energyKeptFraction() const;
};

// The dropout modes the figure compares, one panel each.
inline constexpr std::size_t kDropoutModeCount = 5;

// The five dropout modes side by side, from the same X and the same mask (seed).
struct DropoutCompareData : FigureData
{
    Params params; // as shown: seq_len set (shown())
    bool choseSequence = false; // seq_len was unset, the figure chose it
    std::array<DropoutModePanel, kDropoutModeCount> modes;
    bool everyRow = true; // the counts looked at every row in view, else at evenly spaced rows
    bool paddingInView = false; // rows past the sequence are in view, left out of the counts
};

namespace DropoutCompareCompute {

inline constexpr std::array<DropoutMode, kDropoutModeCount> kModes
    = {DropoutMode::Sum, DropoutMode::Embedding, DropoutMode::Positional, DropoutMode::ProtectSpecial,
       DropoutMode::MaskedFill};

// A sequence shorter than the table when the parameters leave seq_len unset: masked-fill's
// padding and [SEP] then show in the first rows, as in a batch padded to max_len.
inline constexpr std::int64_t kShownSequence = 16;

// The parameters the figure shows: `params`, with seq_len chosen when it is unset and the table
// has rows to pad past kShownSequence: kShownSequence, or longer to reach the last special row
// named from the start (--special 0,40 gives 41), so that every row the user protects is in it.
Params shown(const Params &params);
// Whether shown() chose the sequence length.
bool choseSequence(const Params &params);
// The parameters under `mode`.
Params withMode(const Params &params, DropoutMode mode);
// The same parameters with s·E = 0: the same PE, the same mask and rules.
Params peOnly(const Params &params);

// Y and its PE part under each mode for `visible` (a block of Y and its pixels), at `detail`
// (its first pass for a preview, else its exact grid, or its largest pass within the full
// budget, labelled a preview); nothing when cancelled or refused.
std::optional<DropoutCompareData> compute(const Engine &engine, const HeatmapRequest &visible, Detail detail,
                                          const ComputeOptions &options);

// The mode's name over the formula of its Y: "embedding\nY = dropout(s·E) + PE".
QString modeTitle(const DropoutModePanel &panel);
// A fraction as the percentage the figure states (lost, kept), at one precision in every text of
// the same quantity whatever the room: two significant digits, the whole percent from 10 up ("10"
// of 10.2 %, "100", "9.8", "0.52"). "lost: 10 %" holds in a 16:9 slide's column at 14 pt where
// "lost: 10.2 %" did not, as on a 4:3 one and in the window's "PE lost: 156 of 1,536 cells,
// 10 %" (the cells' count is exact).
QString percentText(double fraction);
// "its PE part\nPE lost: 47 of 480 cells, 9.8 %\nPE energy in kept cells: 90 %"; `brief`, for
// a small view: "PE lost: 9.8 %\nenergy kept: 90 %". With no PE cell in
// view (concat), "no PE column in view"; with padding only, "only padding in view".
QString peText(const DropoutModePanel &panel, bool brief = false);

} // namespace DropoutCompareCompute

} // namespace posenc
