#pragma once

#include "core/Params.h"
#include "core/check/CellTolerance.h"
#include "core/check/ReferenceTable.h"
#include "core/check/SampleScore.h"
#include "core/check/TableMatch.h"
#include "core/check/TableSample.h"

#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// Identifies a RoPE cos or sin table as HF transformers' rotary embedding returns it (L x
// rotary_dim, each pair's value in two columns: c and c + r/2 in the half layout, 2i and 2i + 1
// in the interleaved one) from its sample (docs/ARCHITECTURE.md, Checking a table). Each pair's
// frequency is measured from its column, unwrapped over the sample's rows; the fast pairs give
// rope_theta, the ratios of the slow ones to theta's give the scaling, and every rope_type that
// could make them (RopeFrequencies, modeling_rope_utils.py's formulas) is tried against the
// sample. The amplitude is the attention factor.
namespace posenc::RopeFit {

struct Hypothesis
{
    Params params; // encoding rope; head_dim the table's width; max_len its rows
    bool cosine = true; // a cos table, else a sin table
    double amplitude = 1.0; // what the table's cos and sin are multiplied by
    std::int64_t firstPosition = 0; // the position the first compared row holds
    PositionRounding rounding = PositionRounding::None;
};

// The hypothesis as a reference for a table framed by `framing`.
ReferenceSpec reference(const Hypothesis &h, const RowFraming &framing);

struct Fit
{
    Hypothesis hypothesis;
    SampleScore score;
    bool float32Angles = false;
    // The attention factor the type computes (RopeFrequencies), against which `amplitude` is read.
    double typeAttentionFactor = 1.0;
    std::vector<TableMistake> mistakes;
    Hypothesis correct; // the hypothesis with its mistakes undone
    QStringList notes; // other types that give the same table, the band, an explicit attention factor

    std::int64_t bad() const { return float32Angles ? score.badWithFloat32Angles : score.bad; }
};

// The layout in which the table's columns repeat as RoPE's do, in all but at most 1 % of the
// sample's pair comparisons (a few wrong cells are a mistake for the fit to place), or nothing.
std::optional<RopeLayout> repeatedLayout(const TableSample &sample, const RowFraming &framing, double tolerance);

// The best rope hypothesis for a table whose columns repeat as `layout`; `declared` is the
// layout the user said the table has (--rope-layout), if any.
std::optional<Fit> fit(const TableSample &sample, const RowFraming &framing, RopeLayout layout,
                       std::optional<RopeLayout> declared, ValueFormat format, StoredType stored, double textRounding);

} // namespace posenc::RopeFit
