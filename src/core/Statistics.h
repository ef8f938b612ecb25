#pragma once

#include "Engine.h"
#include "PositionTerm.h"

#include <Eigen/Core>

#include <optional>

namespace posenc {

// Norms per position, over all d columns of X's two parts (docs/ARCHITECTURE.md, The mathematics).
struct PositionNorms
{
    Eigen::ArrayXd pe; // ||PE_p||
    Eigen::ArrayXd embedding; // ||s*E_p||
    Eigen::ArrayXd ratio; // ||s*E_p|| / ||PE_p||
    Eigen::ArrayXd input; // ||X_p||
    Eigen::ArrayXd output; // ||Y_p||
};

// RMS over positions, per column of X: where the PE dominates, where it is a near-constant offset.
struct ColumnRms
{
    Eigen::ArrayXd pe; // RMS_p PE[p, j] (zero in the embedding-only columns of concat)
    Eigen::ArrayXd embedding; // RMS_p s*E[p, j]
    Eigen::ArrayXd ratio; // pe / embedding
};

// Closed forms to draw beside the measured values.
struct ExpectedNorms
{
    std::optional<double> peSquared; // ||PE_p||^2 = k/2 for an even number k of PE columns, any layout
    double embeddingSquared = 0.0; // E||s*E_p||^2 = s^2 sigma^2 d_E; for a loaded matrix, its mean over rows < L
};

namespace Statistics {

// Rows [row0, row0 + rows); nothing when cancelled.
std::optional<PositionNorms> positionNorms(const Engine &engine, std::int64_t row0, std::int64_t rows,
                                           const ComputeOptions &options = {});
// Over rows [row0, row0 + rows); nothing when cancelled.
std::optional<ColumnRms> columnRms(const Engine &engine, std::int64_t row0, std::int64_t rows,
                                   const ComputeOptions &options = {});
ExpectedNorms expectedNorms(const Params &params);

// S[p, q] = PE_p . PE_q for rows p of block and columns q (positions), accumulated in double;
// with `cosine`, divided by ||PE_p|| ||PE_q|| (zero rows give zero).
void similarity(const PositionTerm &term, const Block &block, bool cosine, BlockRef out);
void similarity(const PositionalTable &table, const Block &block, bool cosine, BlockRef out);

} // namespace Statistics

} // namespace posenc
